// The API's refusals (401, 429) and the rate-limit headers, for every host: no framework here.
import { ApiError } from '../errors/errorCatalogue.ts';
import type { RateDecision } from './rateLimiter.ts';
import type { Credentials } from '../pipeline/parseAuthorization.ts';

const REALM = 'Bearer realm="pets"';

/** The 401 for what the request sent as its credentials, with the WWW-Authenticate that says why (RFC 6750, 3). */
export function unauthorized(credentials: Credentials): ApiError {
  switch (credentials.kind) {
    case 'missing':
      return new ApiError('UNAUTHORIZED', 'Missing API key. Send it as "Authorization: Bearer <API_KEY>".', { 'www-authenticate': REALM });
    case 'other-scheme':
      return new ApiError('UNAUTHORIZED', `The Authorization header uses the "${credentials.scheme}" scheme. Send the API key as "Authorization: Bearer <API_KEY>".`, { 'www-authenticate': REALM });
    case 'malformed':
      // RFC 6750, 3.1: a malformed request is invalid_request.
      return new ApiError('UNAUTHORIZED', 'The Authorization header is malformed. Send it as "Authorization: Bearer <API_KEY>", with one space and no quotes.', { 'www-authenticate': `${REALM}, error="invalid_request"` });
    case 'bearer':
      return new ApiError('UNAUTHORIZED', 'The API key is not valid. Check the key, or use one of the mock\'s demo keys (demo-free, demo-pro, demo-business, demo-enterprise).', { 'www-authenticate': `${REALM}, error="invalid_token"` });
  }
}

/** 429 for a refused request; a ban is told as the key's when a valid key was sent, else as the address's. */
export function refusal(decision: RateDecision, withKey: boolean): ApiError {
  const headers = { 'retry-after': String(decision.retryAfter) };
  if (!decision.banned) return new ApiError('RATE_LIMITED', undefined, headers);
  if (withKey) return new ApiError('API_KEY_BANNED', undefined, headers);
  return new ApiError('RATE_LIMITED', 'Requests from this address without a valid API key are temporarily blocked for being sent while rate limited. Stop sending, wait for the number of seconds in Retry-After, then send a valid API key.', headers);
}

/** The X-RateLimit-* headers of a decision, for answers written below fastify. */
export function rateHeaders(decision: RateDecision): Record<string, string> {
  return setRateHeaders({}, decision);
}

/** Sets the X-RateLimit-* headers of a decision on `headers` (in place, no object between). */
export function setRateHeaders(headers: Record<string, string>, decision: RateDecision): Record<string, string> {
  headers['x-ratelimit-limit'] = String(decision.limit);
  headers['x-ratelimit-remaining'] = String(decision.remaining);
  headers['x-ratelimit-reset'] = String(decision.reset);
  return headers;
}

