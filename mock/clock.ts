/** Where the mock reads the time, so tests (and later the control API) can move it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

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
