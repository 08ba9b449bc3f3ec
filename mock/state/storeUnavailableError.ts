/**
 * The shared state store (Redis) could not be reached or did not answer in time. The mock answers
 * it with 503 STORE_UNAVAILABLE and `Retry-After: retryAfterSeconds` (RFC 9110, 15.6.4: a 503 may
 * say when to come back). When Redis could not be reached the request had no effect; when Redis
 * did not answer in time, the command may still run once Redis answers again (as with any timeout).
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  readonly statusCode = 503;

  constructor(
    /** Where the store is, without credentials. */
    readonly store: string,
    readonly reason: string,
    readonly retryAfterSeconds = 1,
  ) {
    super(`The mock's shared state (${store}) is unreachable: ${reason}. Retry after ${retryAfterSeconds} s; the mock reconnects by itself.`);
    this.name = 'StoreUnavailableError';
  }
}
