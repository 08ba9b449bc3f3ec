// `import { routePetsMock } from 'pet-adoption-toolkit/playwright'`: the mock behind page.route().
import { openInProcessMock, type PetsMockOptions, type PlainResponse } from './inProcessMock.ts';
import type { PetsMock } from './petsMock.ts';
import { isConnectionReset } from './petsMockHost.ts';

export type { PetsMockOptions } from './inProcessMock.ts';
export type { PetsMock } from './petsMock.ts';
export { MockControlError, type PetsMockControl, type LoggedRequest, type RequestFilter, type ClockState, type KeySettings, type FaultRule, type Fault, type ClientReport, type ClientFinding } from './petsMockControl.ts';

// What the adapter uses of Playwright's Page, BrowserContext and Route, written out so that it needs
// no import of playwright-core at run time or for its types: Playwright and @playwright/test both fit.
interface RoutedRequest {
  method(): string;
  url(): string;
  allHeaders(): Promise<Record<string, string>>;
  postDataBuffer(): Buffer | null;
  resourceType(): string;
}
interface RoutedRoute {
  request(): RoutedRequest;
  fulfill(response: { status: number; headers: Record<string, string>; body?: Buffer }): Promise<void>;
  abort(errorCode?: string): Promise<void>;
}
type UrlMatcher = (url: URL) => boolean;
type RouteHandler = (route: RoutedRoute) => Promise<void>;

/** A Playwright `Page` or `BrowserContext`. */
export interface PageOrContext {
  route(url: UrlMatcher, handler: RouteHandler): Promise<unknown>;
  unroute(url: UrlMatcher, handler?: RouteHandler): Promise<unknown>;
  once(event: 'close', listener: () => void): unknown;
}

/**
 * Routes every request the page (or every page of the context) makes under `options.baseUrl` to a
 * mock of its own, in this process, and resolves to its control handle. The page's headers go
 * through as sent, `Origin` included, so answers carry the CORS headers the server would send and a
 * page on another origin can read `X-RateLimit-Remaining`. The mock is freed when the page or
 * context closes.
 *
 * Playwright answers the CORS preflight of a routed request itself, before any handler sees it,
 * and adds `Access-Control-Allow-Origin` to a fulfilled answer that lacks it. So that a restricted
 * `corsOrigins` (or `corsOrigins: false`) still fails a page's cross-origin call as the server's
 * answer would, an answer the mock gave no CORS headers is turned into the network error a browser
 * reports for it. What cannot be kept: the request has reached the mock by then (a refused
 * preflight would have stopped it).
 */
export async function routePetsMock(target: PageOrContext, options: PetsMockOptions = {}): Promise<PetsMock> {
  const core = await openInProcessMock(options);
  const matches: UrlMatcher = (url) => core.pathOf(url) !== undefined;
  const handler: RouteHandler = async (route) => {
    const arrivedAt = core.arrival();
    const request = route.request();
    const headers = await request.allHeaders();
    let answer: PlainResponse;
    try {
      answer = await core.handle({ method: request.method(), url: request.url(), headers, body: request.postDataBuffer() ?? undefined, arrivedAt });
    } catch (error) {
      // A fault rule reset the connection: the page sees the network error a reset gives (net::ERR_CONNECTION_RESET).
      if (isConnectionReset(error)) return route.abort('connectionreset');
      // A request left unanswered would hang the page until its test times out: answer as the
      // server answers a fault, with the reason.
      answer = { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' }, body: new TextEncoder().encode(JSON.stringify({ code: 'INTERNAL_ERROR', message: (error as Error).message, status: 500 })) as Uint8Array<ArrayBuffer> };
    }
    if ((request.resourceType() === 'fetch' || request.resourceType() === 'xhr') && corsRefused(request.url(), headers, answer.headers)) {
      await route.abort('accessdenied');
      return;
    }
    await route.fulfill({ status: answer.status, headers: answer.headers, ...(answer.body ? { body: Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength) } : {}) });
  };
  await target.route(matches, handler);
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= core.close());
  target.once('close', () => void close());
  return {
    ...core.control,
    baseUrl: core.address.baseUrl,
    async close() {
      // The page may be gone already; then its routes went with it.
      await target.unroute(matches, handler).catch(() => {});
      await close();
    },
  };
}

/** A cross-origin fetch or XHR the mock answered without allowing its origin: the browser would not let the page read it. */
function corsRefused(url: string, requestHeaders: Record<string, string>, answerHeaders: Record<string, string>): boolean {
  const origin = requestHeaders.origin;
  if (!origin || origin === new URL(url).origin) return false;
  return answerHeaders['access-control-allow-origin'] === undefined;
}
