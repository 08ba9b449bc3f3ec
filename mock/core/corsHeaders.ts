import { exposedHeaders, type CorsOrigins } from '../api/corsOptions.ts';

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
