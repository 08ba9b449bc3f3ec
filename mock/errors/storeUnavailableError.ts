/**
 * The shared state store (Redis) could not be reached or did not answer in time. The mock answers
 * it with 503 STORE_UNAVAILABLE and `Retry-After: retryAfterSeconds` (RFC 9110, 15.6.4: a 503 may
 * say when to come back). When Redis could not be reached the request had no effect; when Redis
 * did not answer in time, the command may still run once Redis answers again (as with any timeout).
 *
 * The message is for the server log: it names the store and the Redis client's own reason. The
 * client is told what happened and what to do instead (toApiError), never the client's internals.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  readonly statusCode = 503;
  readonly retryAfterSeconds: number;
  /**
   * False when the command was never carried out (the connection was down before it was sent, or
   * Redis refused it); true when it was sent and no answer came (a timeout, a connection lost
   * mid-command), so it may have run.
   */
  readonly mayHaveRun: boolean;

  constructor(
    /** Where the store is, without credentials. */
    readonly store: string,
    readonly reason: string,
    { retryAfterSeconds = 1, mayHaveRun = true }: { retryAfterSeconds?: number; mayHaveRun?: boolean } = {},
  ) {
    super(`The mock's shared state (${store}) is unreachable: ${reason}. Retry after ${retryAfterSeconds} s; the mock reconnects by itself.`);
    this.name = 'StoreUnavailableError';
    this.retryAfterSeconds = retryAfterSeconds;
    this.mayHaveRun = mayHaveRun;
  }
}
