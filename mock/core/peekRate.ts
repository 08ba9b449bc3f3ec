import { parseAuthorization } from '../api/parseAuthorization.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { planLimits } from '../state/plans.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { RateLimits, StateParts } from '../state/stateParts.ts';
import type { ApiKeyEntry } from '../state/keyRing.ts';
import type { Limits } from '../state/plans.ts';

/** What identifies a client: its Authorization header and its address (a request, or what Node's parser read of one). */
export interface ClientIdentity {
  headers: { authorization?: string | undefined };
  ip: string;
}

/** Whose quota a request spends: its key's when the key is valid, else its address's, at the Free plan's limits. */
export function bucketOf(key: ApiKeyEntry | undefined, ip: string, { limiter, anonymousLimiter }: Pick<StateParts, 'limiter' | 'anonymousLimiter'>): { limiter: RateLimits; id: string; limits: Limits } {
  return key ? { limiter, id: key.bucketId, limits: key.limits } : { limiter: anonymousLimiter, id: `ip:${ip}`, limits: planLimits.free };
}

/**
 * Where the client's window stands, without counting a request: its key's when the key is valid,
 * else its address's, at the Free plan's limits. A value in memory, a promise on a shared store.
 */
export function peekRate(client: ClientIdentity, state: Pick<StateParts, 'keys' | 'limiter' | 'anonymousLimiter'>): Awaitable<RateDecision> {
  const credentials = parseAuthorization(client.headers.authorization);
  const peek = (key: ApiKeyEntry | undefined) => {
    const bucket = bucketOf(key, client.ip, state);
    return bucket.limiter.peek(bucket.id, bucket.limits);
  };
  if (credentials.kind !== 'bearer') return peek(undefined);
  const found = state.keys.find(credentials.token);
  return isPromise(found) ? found.then(peek) : peek(found);
}
