import { exposedHeaders, type CorsOrigins } from './corsOptions.ts';
import type { LogThrottle } from './logThrottle.ts';
import type { CoreLog } from '../core/coreTypes.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';

/** What a preflight is told may be sent: the methods the API and control API serve, the headers a frontend sends. */
const allowMethods = 'GET, HEAD, POST, PUT, DELETE, OPTIONS';
const allowHeaders = 'Authorization, Content-Type, Prefer';
const maxAgeSeconds = '600';

/**
 * The CORS headers of an answer (Fetch standard, 3.2): any origin with `*`, else the request's
 * origin when it is one of those allowed (and `Vary: Origin`, since the answer depends on it).
 * `preflight` adds what an OPTIONS preflight is told.
 */
export function corsHeaders(origins: CorsOrigins, origin: string | undefined, preflight: boolean): Readonly<Record<string, string>> {
  if (origins === false) return none;
  // Any origin: the same headers for every answer, made once.
  if (origins.includes('*')) return preflight ? anyOriginPreflight : anyOrigin;
  return corsHeadersFor(origins, origin, preflight);
}

const none: Readonly<Record<string, string>> = Object.freeze({});

function corsHeadersFor(origins: readonly string[], origin: string | undefined, preflight: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  if (origins.includes('*')) out['access-control-allow-origin'] = '*';
  else {
    out.vary = 'Origin';
    if (origin !== undefined && origins.includes(origin)) out['access-control-allow-origin'] = origin;
  }
  out['access-control-expose-headers'] = exposedHeaders.join(', ');
  if (preflight) {
    out['access-control-allow-methods'] = allowMethods;
    out['access-control-allow-headers'] = allowHeaders;
    out['access-control-max-age'] = maxAgeSeconds;
  }
  return out;
}

const anyOrigin = Object.freeze(corsHeadersFor(['*'], undefined, false));
const anyOriginPreflight = Object.freeze(corsHeadersFor(['*'], undefined, true));

/** A CORS preflight (an Origin and Access-Control-Request-Method) answered without allowing its origin: the browser will not send the request. */
export function isRefusedPreflight(request: Readonly<Record<string, string | undefined>>, answered: Readonly<Record<string, string>>): boolean {
  return request.origin !== undefined && request['access-control-request-method'] !== undefined && answered['access-control-allow-origin'] === undefined;
}

/**
 * Logs a CORS preflight answered without allowing its origin: the page only shows a CORS error in
 * its console, and the refused preflight's 204 reads like an allowed one's. Says which origin was
 * refused and which are allowed, once a minute per origin (`throttle`).
 */
export function warnRefusedPreflight(log: CoreLog | undefined, throttle: LogThrottle, preflight: { request: Readonly<Record<string, string | undefined>>; path: string; answered: Readonly<Record<string, string>> }, allowed: CorsOrigins): void {
  const { request, path, answered } = preflight;
  if (!log || allowed === false || !isRefusedPreflight(request, answered)) return;
  const origin = request.origin!;
  const method = request['access-control-request-method']!;
  if (throttle.fresh([origin]).length === 0) return;
  log.warn({ cors: 'refused', origin, allowed }, `CORS preflight refused: ${method} ${path} from the origin ${origin}, which is not allowed (allowed: ${allowed.join(', ')}), so the browser will not send the request. Add the origin with --cors-origin (corsOrigins), or give * for any. Logged once a minute per origin.`);
}

/**
 * CORS step: every answer carries the CORS headers; a preflight (any OPTIONS, with CORS on) ends
 * here with 204, counted against nothing. A 204 has no Content-Length (RFC 9110, 8.6).
 */
export function cors(ctx: Pick<ApiContext, 'corsOrigins' | 'log' | 'preflightWarnings' | 'answersPreflight'>, x: Exchange): { status: number; body: null } | undefined {
  const preflight = x.method === 'OPTIONS' && ctx.answersPreflight;
  Object.assign(x.headers, corsHeaders(ctx.corsOrigins, x.request.headers.origin, preflight));
  if (!preflight) return undefined;
  warnRefusedPreflight(ctx.log, ctx.preflightWarnings, { request: x.request.headers, path: x.path, answered: x.headers }, ctx.corsOrigins);
  return { status: 204, body: null };
}
