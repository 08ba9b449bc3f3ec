import { http, HttpResponse, type HttpHandler, type HttpResponseResolver } from 'msw';
import type { CoreAnswer } from '../core/coreTypes.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { isConnectionReset, type PetsMockHost, type PlainRequest } from './petsMockHost.ts';

/**
 * MSW request handlers over a mock host, for `setupServer` (Node) and `setupWorker` (the browser)
 * alike: one per operation, so MSW's own listing (listHandlers(), onUnhandledRequest) names them;
 * then the rest of the API's paths (404 and 405 as the server answers them), then the control API.
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
  const pathOf = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');
  const handlers: HttpHandler[] = host.spec.operations.map((op) => http[op.method === 'trace' ? 'all' : op.method](`${address.baseUrl}${pathOf(op.path)}`, resolver));
  handlers.push(http.all(address.baseUrl, resolver), http.all(`${address.baseUrl}/*`, resolver));
  if (control) handlers.push(http.all(address.controlUrl, resolver), http.all(`${address.controlUrl}/*`, resolver));
  return handlers;
}
