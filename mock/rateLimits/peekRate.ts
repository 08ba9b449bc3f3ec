import { parseAuthorization } from '../pipeline/parseAuthorization.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import type { RateDecision } from './rateLimiter.ts';
import type { StateParts } from '../state/stateParts.ts';

/** What identifies a client: its Authorization header and its address (a request, or what Node's parser read of one). */
export interface ClientIdentity {
  headers: { authorization?: string | undefined };
  ip: string;
}

/** The bearer token a request presents, if it presents one in the form the contract takes. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const credentials = parseAuthorization(authorization);
  return credentials.kind === 'bearer' ? credentials.token : undefined;
}

/**
 * Where the client's window stands, without counting a request: its key's when the key is valid,
 * else its address's, at the keyless limits. A value in memory, a promise on a shared store.
 */
export function peekRate(client: ClientIdentity, state: Pick<StateParts, 'admit'>): Awaitable<RateDecision> {
  const admission = state.admit({ token: bearerToken(client.headers.authorization), ip: client.ip }, false);
  return isPromise(admission) ? admission.then((a) => a.decision) : admission.decision;
}
