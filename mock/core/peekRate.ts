import { parseAuthorization } from '../api/parseAuthorization.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { planLimits } from '../state/plans.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { StateParts } from '../state/stateParts.ts';

/** What identifies a client: its Authorization header and its address (a request, or what Node's parser read of one). */
export interface ClientIdentity {
  headers: { authorization?: string | undefined };
  ip: string;
}

/**
 * Where the client's window stands, without counting a request: its key's when the key is valid,
 * else its address's, at the Free plan's limits. A value in memory, a promise on a shared store.
 */
export function peekRate(client: ClientIdentity, { keys, limiter, anonymousLimiter }: Pick<StateParts, 'keys' | 'limiter' | 'anonymousLimiter'>): Awaitable<RateDecision> {
  const credentials = parseAuthorization(client.headers.authorization);
  if (credentials.kind !== 'bearer') return anonymousLimiter.peek(`ip:${client.ip}`, planLimits.free);
  const found = keys.find(credentials.token);
  const peek = (key: Awaited<typeof found>) => (key ? limiter.peek(key.bucketId, key.limits) : anonymousLimiter.peek(`ip:${client.ip}`, planLimits.free));
  return isPromise(found) ? found.then(peek) : peek(found);
}
