import type { FastifyCorsOptions } from '@fastify/cors';

/** Allowed CORS origins (`*` for any), or false to turn CORS off. */
export type CorsOrigins = readonly string[] | false;

/** Headers a browser page may read from the mock's answers. */
export const exposedHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Deprecation', 'Sunset', 'WWW-Authenticate', 'Preference-Applied', 'X-Mock-Ignored-Query'];

/** @fastify/cors options for the mock: any method the API and control API serve, the headers a frontend sends. */
export function corsOptions(origins: readonly string[]): FastifyCorsOptions {
  return {
    origin: origins.includes('*') ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Prefer'],
    exposedHeaders,
    maxAge: 600,
    strictPreflight: false,
  };
}
