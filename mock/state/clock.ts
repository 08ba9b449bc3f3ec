import type { ControlledClock } from './stateParts.ts';
import { realTimers } from './realTimers.ts';
import type { ClockState } from './stateParts.ts';
export type { ClockState } from './stateParts.ts';

/** Where the mock reads the time, so tests and the control API can move it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * The system's time, read through the real Date.now: a test that fakes Date (vi.useFakeTimers())
 * moves its own UI time, not the mock's, which it moves through the control API.
 */
export const systemClock: Clock = { now: realTimers.now };

/** A clock that only moves when told to: for tests. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

/**
 * The mock's own time: its base clock, moved forward by `advance` and stopped by `freeze`.
 * Rate-limit windows, X-RateLimit-Reset, Retry-After and bans all read it, so moving it lifts a
 * 429 or ends a ban at once.
 */
/**
 * How far the control API may move the mock's clock ahead of its base clock: 100 years. Far
 * beyond any rate-limit window, ban or sunset date, and far inside what a `Date` holds
 * (±8.64e15 ms), so every time the mock shows stays a valid date.
 */
export const MAX_CLOCK_OFFSET_SECONDS = 100 * 365 * 86_400;

/** Thrown when a move would take the clock outside its documented range; nothing is changed. */
export class ClockRangeError extends RangeError {
  override name = 'ClockRangeError';
}

/**
 * Refuses (ClockRangeError) an instant to freeze at that lies outside the clock's range: before
 * 1970 (X-RateLimit-Reset is a Unix time, and would turn negative) or more than
 * MAX_CLOCK_OFFSET_SECONDS ahead of the base clock.
 */
export function checkFreezeInstant(atMs: number, baseMs: number): void {
  const shown = Number.isFinite(atMs) && Math.abs(atMs) <= 8.64e15 ? new Date(atMs).toISOString() : String(atMs);
  if (!(atMs >= 0)) {
    throw new ClockRangeError(`${shown} is before 1970-01-01T00:00:00Z, where X-RateLimit-Reset (a Unix time) would turn negative. Give a later instant.`);
  }
  if (atMs - baseMs > MAX_CLOCK_OFFSET_SECONDS * 1000) {
    throw new ClockRangeError(`${shown} is ${Math.round((atMs - baseMs) / 1000)} seconds ahead of the system clock, and at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) are allowed. Give an earlier instant.`);
  }
}

export class MockClock implements ControlledClock {
  #offset = 0;
  #frozenAt: number | undefined;

  constructor(readonly base: Clock = systemClock) {}

  now(): number {
    return this.#frozenAt ?? this.base.now() + this.#offset;
  }

  /** Moves the clock forward; refuses (changing nothing) a move past MAX_CLOCK_OFFSET_SECONDS ahead of the base clock. */
  advance(seconds: number): void {
    const aheadMs = this.now() + seconds * 1000 - this.base.now();
    if (!(seconds >= 0) || aheadMs > MAX_CLOCK_OFFSET_SECONDS * 1000) {
      throw new ClockRangeError(`Advancing by ${seconds} seconds would put the clock ${Math.round(aheadMs / 1000)} seconds ahead; at most ${MAX_CLOCK_OFFSET_SECONDS} seconds (100 years) are allowed. Reset the clock with {"reset": true} or advance by less.`);
    }
    if (this.#frozenAt !== undefined) this.#frozenAt += seconds * 1000;
    else this.#offset += seconds * 1000;
  }

  /** Stops the clock (at `atMs` when given, else where it is) or restarts it from where it stands. */
  freeze(frozen: boolean, atMs?: number): void {
    if (frozen && atMs !== undefined) {
      checkFreezeInstant(atMs, this.base.now());
      this.#frozenAt = atMs;
    }
    if (frozen && this.#frozenAt === undefined) this.#frozenAt = this.now();
    if (!frozen && this.#frozenAt !== undefined) {
      this.#offset = this.#frozenAt - this.base.now();
      this.#frozenAt = undefined;
    }
  }

  /** Back to the base clock's time, running. */
  reset(): void {
    this.#offset = 0;
    this.#frozenAt = undefined;
  }

  state(): ClockState {
    const nowMs = this.now();
    return { now: new Date(nowMs).toISOString(), nowMs, frozen: this.#frozenAt !== undefined, offsetSeconds: (nowMs - this.base.now()) / 1000 };
  }
}
