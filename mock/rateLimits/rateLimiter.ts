import type { Clock } from '../state/clock.ts';
import type { Limits } from './plans.ts';
import type { RateLimits } from '../state/stateParts.ts';
import type { BanPolicy, RateDecision } from '../state/stateParts.ts';
export type { BanPolicy, RateDecision } from '../state/stateParts.ts';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;


interface Bucket {
  minuteStart: number;
  minuteCount: number;
  dayStart: number;
  dayCount: number;
  /** Requests refused since the bucket was last allowed one. */
  strikes: number;
  bannedUntil: number;
}

/**
 * Two fixed windows per bucket, both enforced: the clock minute and the UTC day
 * (the contract gives requests per minute and per day). The headers describe the window that
 * binds, the one with fewer requests left (on a tie the one that resets later, because that is
 * when a blocked client may come back). Refused requests spend no quota, but too many of them in
 * a row earn a temporary ban: the contract warns that "repeated requests after a 429 response may
 * lead to a temporary ban of the API key".
 */
export class RateLimiter implements RateLimits {
  #buckets = new Map<string, Bucket>();
  /** The bucket used last, which is the Map's last entry: a client sending again is already in place. */
  #latest: string | undefined;
  readonly #clock: Clock;
  readonly #ban: BanPolicy;
  readonly #maxBuckets: number;

  /**
   * `maxBuckets` bounds the memory of a limiter whose ids come from outside (client addresses):
   * past it, the least recently used bucket goes. Buckets are kept in use order for that, and the
   * least recently used one is dropped as soon as its windows and any ban are over, so a flood
   * from many addresses cannot grow the heap and idle addresses do not linger.
   */
  constructor(clock: Clock, ban: BanPolicy, { maxBuckets = Infinity }: { maxBuckets?: number } = {}) {
    this.#clock = clock;
    this.#ban = ban;
    this.#maxBuckets = maxBuckets;
  }

  /** Counts one request against the bucket, or refuses it. */
  consume(id: string, limits: Limits): RateDecision {
    return this.#decide(id, limits, true);
  }

  /** What the headers would say now, without counting a request. */
  peek(id: string, limits: Limits): RateDecision {
    return this.#decide(id, limits, false);
  }

  /** Forgets every count and ban. */
  clear(): void {
    this.#buckets.clear();
    this.#latest = undefined;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** Adds a bucket, making room first: expired buckets go, then the least recently used one. */
  #admit(id: string, bucket: Bucket, now: number, dayStart: number): void {
    if (this.#maxBuckets !== Infinity) {
      for (let i = 0; i < 2; i++) {
        const oldest = this.#buckets.entries().next().value;
        if (!oldest || oldest[1].dayStart === dayStart || oldest[1].bannedUntil > now) break;
        this.#buckets.delete(oldest[0]);
      }
      if (this.#buckets.size >= this.#maxBuckets) this.#buckets.delete(this.#buckets.keys().next().value!);
    }
    this.#buckets.set(id, bucket);
    this.#latest = id;
  }

  #decide(id: string, limits: Limits, spend: boolean): RateDecision {
    const now = this.#clock.now();
    const minuteStart = now - (now % MINUTE_MS);
    const dayStart = now - (now % DAY_MS);
    let bucket = this.#buckets.get(id);
    if (!bucket) {
      bucket = { minuteStart, minuteCount: 0, dayStart, dayCount: 0, strikes: 0, bannedUntil: 0 };
      if (spend) this.#admit(id, bucket, now, dayStart);
    } else if (spend && this.#maxBuckets !== Infinity && this.#latest !== id) {
      // Keep use order: the Map's first entry is always the least recently used.
      this.#buckets.delete(id);
      this.#buckets.set(id, bucket);
      this.#latest = id;
    }
    if (bucket.minuteStart !== minuteStart) {
      bucket.minuteStart = minuteStart;
      bucket.minuteCount = 0;
    }
    if (bucket.dayStart !== dayStart) {
      bucket.dayStart = dayStart;
      bucket.dayCount = 0;
    }

    const minuteReset = minuteStart + MINUTE_MS;
    const dayReset = dayStart + DAY_MS;

    if (bucket.bannedUntil > now) {
      if (spend) bucket.strikes++;
      return refusal(limits, bucket, now, bucket.bannedUntil, true);
    }

    const minuteFull = bucket.minuteCount >= limits.perMinute;
    const dayFull = bucket.dayCount >= limits.perDay;
    if (minuteFull || dayFull) {
      if (spend && ++bucket.strikes >= this.#ban.threshold) {
        bucket.strikes = 0;
        bucket.bannedUntil = now + this.#ban.seconds * 1000;
        return refusal(limits, bucket, now, bucket.bannedUntil, true);
      }
      return refusal(limits, bucket, now, dayFull ? dayReset : minuteReset, false);
    }

    if (spend) {
      bucket.minuteCount++;
      bucket.dayCount++;
      bucket.strikes = 0;
    }
    const minuteLeft = limits.perMinute - bucket.minuteCount;
    const dayLeft = limits.perDay - bucket.dayCount;
    const dayBinds = dayLeft <= minuteLeft;
    return {
      allowed: true,
      banned: false,
      limit: dayBinds ? limits.perDay : limits.perMinute,
      remaining: dayBinds ? dayLeft : minuteLeft,
      reset: Math.ceil((dayBinds ? dayReset : minuteReset) / 1000),
      retryAfter: 0,
      window: dayBinds ? 'day' : 'minute',
      quotas: { perMinute: limits.perMinute, perDay: limits.perDay },
    };
  }
}

function refusal(limits: Limits, bucket: Bucket, now: number, until: number, banned: boolean): RateDecision {
  const dayFull = bucket.dayCount >= limits.perDay;
  return {
    allowed: false,
    banned,
    limit: dayFull ? limits.perDay : limits.perMinute,
    remaining: 0,
    reset: Math.ceil(until / 1000),
    // At least one second: "Retry-After: 0" would invite an immediate retry (RFC 9110, 10.2.3).
    retryAfter: Math.max(1, Math.ceil((until - now) / 1000)),
    window: dayFull ? 'day' : 'minute',
    quotas: { perMinute: limits.perMinute, perDay: limits.perDay },
  };
}
