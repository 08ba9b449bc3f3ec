/** Allowed CORS origins (`*` for any), or false to turn CORS off. */
export type CorsOrigins = readonly string[] | false;

/** Headers a browser page may read from the mock's answers. */
export const exposedHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Deprecation', 'Sunset', 'Link', 'WWW-Authenticate', 'Preference-Applied', 'X-Mock-Ignored-Query'];
