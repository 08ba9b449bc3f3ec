import { http, HttpResponse, type HttpHandler, type HttpResponseResolver } from 'msw';
import { isConnectionReset, type PetsMockHost } from './petsMockHost.ts';

/**
 * MSW request handlers over a mock host, for `setupServer` (Node) and `setupWorker` (the browser)
 * alike: one per operation, so MSW's own listing (listHandlers(), onUnhandledRequest) names them;
 * then the rest of the API's paths (404 and 405 as the server answers them), then the control API.
 */
export function mswHandlers(host: PetsMockHost, { control = true }: { control?: boolean } = {}): HttpHandler[] {
  const { address } = host;
  const resolver: HttpResponseResolver = async ({ request }) => {
    // Taken before any await: when the page sent it, as near as the mock knows (client report).
    const arrivedAt = host.arrival();
    const method = request.method.toUpperCase();
    const body = method === 'GET' || method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    try {
      const answer = await host.respond({ method, url: request.url, headers, body, arrivedAt });
      // The headers as pairs: fetch's Headers reads an object through WebIDL's record conversion (a
      // property descriptor per field), several times what a list of pairs costs, and MSW reads them twice.
      return new Response(answer.body, { status: answer.status, headers: Object.entries(answer.headers) });
    } catch (error) {
      // A fault rule reset the connection: the page's fetch fails as it would (TypeError: Failed to fetch).
      if (isConnectionReset(error)) return HttpResponse.error();
      throw error;
    }
  };
  const pathOf = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');
  const handlers: HttpHandler[] = host.spec.operations.map((op) => http[op.method === 'trace' ? 'all' : op.method](`${address.baseUrl}${pathOf(op.path)}`, resolver));
  handlers.push(http.all(address.baseUrl, resolver), http.all(`${address.baseUrl}/*`, resolver));
  if (control) handlers.push(http.all(address.controlUrl, resolver), http.all(`${address.controlUrl}/*`, resolver));
  return handlers;
}
