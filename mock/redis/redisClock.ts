import { ClockRangeError, checkFreezeInstant, systemClock, type Clock, type ClockState } from '../state/clock.ts';
import type { ControlledClock } from '../state/stateParts.ts';
import type { RedisConnection } from './connectRedis.ts';

/** The latest time the clock may show: the last millisecond a Date holds (ECMA-262, 21.4.1.1). */
export const latestClockMs = 8.64e15;

/**
 * The mock's clock shared by every replica: an offset from the base clock and, while frozen, the
 * frozen time, in Redis. Each replica adds the offset to its own base clock, so replicas agree as
 * far as their system clocks do (keep them on NTP). `now()` answers from the state last read,
 * which every admission (rate-limit step) refreshes for free; control calls read and write Redis.
 */
export class RedisClock implements ControlledClock {
  #offset = 0;
  #frozenAt: number | undefined;

  constructor(private readonly redis: RedisConnection, readonly base: Clock = systemClock) {}

  now(): number {
    return this.#frozenAt ?? this.base.now() + this.#offset;
  }

  /** Takes the state another step read from Redis. */
  observe(offsetMs: number, frozenAtMs: number | undefined): void {
    this.#offset = offsetMs;
    this.#frozenAt = frozenAtMs;
  }

  state(): Promise<ClockState> {
    return this.#call('read');
  }

  advance(seconds: number): Promise<ClockState> {
    return this.#call('advance', seconds * 1000);
  }

  freeze(frozen: boolean, atMs?: number): Promise<ClockState> {
    if (frozen && atMs !== undefined) {
      // Checked here, against this replica's base clock, so a refused instant changes nothing in Redis.
      checkFreezeInstant(atMs, this.base.now());
      return this.#call('freezeAt', Math.round(atMs));
    }
    return this.#call(frozen ? 'freeze' : 'unfreeze');
  }

  reset(): Promise<ClockState> {
    return this.#call('reset');
  }

  async #call(op: string, ms = 0): Promise<ClockState> {
    const base = this.base.now();
    let reply: [string, string | null];
    try {
      reply = (await this.redis.script('clock', [op, base, Math.round(ms), latestClockMs])) as [string, string | null];
    } catch (error) {
      if ((error as Error).message.startsWith('CLOCK_OUT_OF_RANGE')) throw new ClockRangeError(`Cannot advance the clock by ${ms / 1000} s: it would pass ${new Date(latestClockMs).toISOString()}, the latest date there is. Reset the clock first.`);
      throw error;
    }
    this.observe(Number(reply[0]), reply[1] === null ? undefined : Number(reply[1]));
    const nowMs = this.#frozenAt ?? base + this.#offset;
    return { now: new Date(nowMs).toISOString(), nowMs, frozen: this.#frozenAt !== undefined, offsetSeconds: (nowMs - base) / 1000 };
  }
}
