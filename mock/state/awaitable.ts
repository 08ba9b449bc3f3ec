/**
 * A value now, or a promise of it. The state's parts answer with plain values in memory and will
 * answer with promises from Redis (issue 13); callers accept both, so the in-memory hot path
 * creates no promise and a Redis backing needs no change to them.
 */
export type Awaitable<T> = T | Promise<T>;

export function isPromise<T>(value: Awaitable<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Calls `next` with the value: at once when it is one, once it resolves when it is a promise. */
export function whenReady<T>(value: Awaitable<T>, next: (value: T) => void, fail: (error: Error) => void): void {
  if (!isPromise(value)) return next(value);
  value.then(next, fail);
}
