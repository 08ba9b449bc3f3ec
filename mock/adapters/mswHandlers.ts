import { HttpHandler, HttpResponse, type HttpResponseResolver } from 'msw';
import { API_PREFIX, CONTROL_PREFIX } from '../core/prefixes.ts';
import { keptFor } from '../pipeline/keptFor.ts';
import { routeTable } from '../pipeline/route.ts';
import type { CoreAnswer } from '../core/coreTypes.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { isConnectionReset, type PetsMockHost, type PlainRequest } from './petsMockHost.ts';

/**
 * MSW request handlers over a mock host, for `setupServer` (Node) and `setupWorker` (the browser)
 * alike: one per operation, so MSW's own listing (listHandlers(), onUnhandledRequest) names them;
 * then the rest of the API's paths (404 and 405 as the server answers them), then the control API.
 * Together they take exactly the requests the host answers (`pathOf`), as Playwright's route and the
 * Vite plugin do; any other request, even at the mock's origin, goes on to the user's handlers or
 * `onUnhandledRequest`.
 */
export function mswHandlers(host: PetsMockHost, { control = true }: { control?: boolean } = {}): HttpHandler[] {
  const { address } = host;
  // The headers as pairs: fetch's Headers reads an object through WebIDL's record conversion (a
  // property descriptor per field), several times what a list of pairs costs, and MSW reads them twice.
  const toResponse = (answer: CoreAnswer) => new Response(answer.body, { status: answer.status, headers: Object.entries(answer.headers) });
  // A fault rule reset the connection: the page's fetch fails as it would (TypeError: Failed to fetch).
  const reset = (error: unknown) => {
    if (isConnectionReset(error)) return HttpResponse.error();
    throw error;
  };
  const answerWith = (request: PlainRequest) => {
    let answer: Awaitable<CoreAnswer>;
    try {
      answer = host.respond(request);
    } catch (error) {
      return reset(error);
    }
    return isPromise(answer) ? answer.then(toResponse, reset) : toResponse(answer);
  };
  // Not async: a read the mock answers at once (in memory) is returned at once, with no promise
  // between; MSW awaits whatever a resolver returns.
  const resolver: HttpResponseResolver = ({ request }) => {
    // Taken before any await: when the page sent it, as near as the mock knows (client report).
    const arrivedAt = host.arrival();
    const method = request.method.toUpperCase();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const { url } = request;
    if (method === 'GET' || method === 'HEAD') return answerWith({ method, url, headers, arrivedAt });
    return request.arrayBuffer().then((bytes) => answerWith({ method, url, headers, body: new Uint8Array(bytes), arrivedAt }));
  };

  // What each handler takes, read from the mock's own path for the URL: the operation's template as
  // the mock routes it, or the rest of an area (the API, the control API), its root apart.
  const route = routeTable(host.spec);
  const templateOf = keptFor((path: string) => (under(path, API_PREFIX) ? route(path.slice(API_PREFIX.length) || '/', 'GET')?.template : undefined));
  const taking = (takes: (path: string) => boolean) => (url: string) => {
    const path = host.pathOf(url);
    return path !== undefined && takes(withoutQuery(path));
  };
  const pathOf = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');
  const handlers: HttpHandler[] = host.spec.operations.map(
    (op) => new MockHandler(op.method.toUpperCase(), `${address.baseUrl}${pathOf(op.path)}`, resolver, taking((path) => templateOf(path) === op.path)),
  );
  const area = (prefix: string, base: string) => [
    new MockHandler(/.+/, base, resolver, taking((path) => path === prefix)),
    new MockHandler(/.+/, `${base}/*`, resolver, taking((path) => path.startsWith(`${prefix}/`))),
  ];
  handlers.push(...area(API_PREFIX, address.baseUrl));
  if (control) handlers.push(...area(CONTROL_PREFIX, address.controlUrl));
  return handlers;
}

/**
 * An MSW handler that takes the requests `takes` says. MSW's own matching (`http.get(path)`) turns
 * the path into a regular expression and reads the cookie store on every request, for every
 * handler it tries; the mock routes by its own table and reads no cookie. The path stays the
 * handler's name in MSW's listings.
 */
export class MockHandler extends HttpHandler {
  readonly #takes: (url: string) => boolean;

  constructor(method: string | RegExp, path: string, resolver: HttpResponseResolver, takes: (url: string) => boolean) {
    super(method, path, resolver);
    this.#takes = takes;
  }

  override async parse({ request }: { request: Request }) {
    return { match: { matches: this.#takes(request.url), params: {} }, cookies: {} };
  }
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

function withoutQuery(path: string): string {
  const cut = path.search(/[?#]/);
  return cut < 0 ? path : path.slice(0, cut);
}
