import { anonymousBucket } from './anonymousBucket.ts';
import type { KeyDirectory } from '../state/stateParts.ts';
import type { Limits } from './plans.ts';
import type { ClientIdentity } from './peekRate.ts';
import { parseAuthorization } from '../pipeline/parseAuthorization.ts';

/**
 * The rate-limit headers an answer can still carry truthfully while the shared store is away.
 *
 * The counts (X-RateLimit-Remaining, and X-RateLimit-Reset, which depends on which window binds and
 * on any ban) live in the store with the buckets, so they are not sent: a guessed count would
 * mislead a client that paces itself on it. X-RateLimit-Limit is sent when this replica knows whose
 * quota the request spends without asking the store: the keyless limits for a request without a
 * bearer token (its address's bucket), the key's plan for a token it has looked up before (the
 * entry it last saw; the keyless limits for a token it last saw refused). It is the per-minute limit,
 * the window that binds unless the day's quota is nearly spent. A token never seen here gets none.
 */
export function outageRateHeaders(request: ClientIdentity, keys: KeyDirectory, keylessLimits: Limits): Record<string, string> {
  const credentials = parseAuthorization(request.headers.authorization);
  // A token last seen refused spends its address's bucket, as a request without one does.
  const seen = credentials.kind === 'bearer' ? keys.lastSeen?.(credentials.token) : null;
  if (seen === undefined) return {};
  return { 'x-ratelimit-limit': String((seen ?? anonymousBucket(request.ip, keylessLimits)).limits.perMinute) };
}
