import { describe, expect, it } from 'vitest';
import { ManualClock } from '../state/clock.ts';
import { RateLimiter } from './rateLimiter.ts';

const limits = { perMinute: 3, perDay: 5 };
const start = Date.UTC(2026, 0, 1, 12, 0, 0);

function setup(ban = { threshold: 3, seconds: 120 }) {
  const clock = new ManualClock(start);
  return { clock, limiter: new RateLimiter(clock, ban) };
}

describe('RateLimiter', () => {
  it('counts down the minute window and reports its end in Unix seconds', () => {
    const { limiter } = setup();
    const first = limiter.consume('a', limits);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2, reset: start / 1000 + 60 });
    expect(limiter.consume('a', limits).remaining).toBe(1);
    expect(limiter.consume('a', limits).remaining).toBe(0);
  });

  it('refuses the request after the minute quota with a Retry-After up to the window end', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    clock.advance(15_000);
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: false, banned: false, remaining: 0, retryAfter: 45 });
  });

  it('opens a new minute window at the next whole minute', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    clock.advance(60_000);
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('switches the headers to the day window once it binds, and refuses until the next UTC day', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    clock.advance(60_000);
    const fourth = limiter.consume('a', limits);
    expect(fourth).toMatchObject({ allowed: true, limit: 5, remaining: 1, reset: Date.UTC(2026, 0, 2) / 1000 });
    limiter.consume('a', limits);
    clock.advance(60_000);
    const refused = limiter.consume('a', limits);
    expect(refused).toMatchObject({ allowed: false, limit: 5, reset: Date.UTC(2026, 0, 2) / 1000 });
    expect(refused.retryAfter).toBe((Date.UTC(2026, 0, 2) - clock.now()) / 1000);
  });

  it('spends no quota on refused requests', () => {
    const { clock, limiter } = setup({ threshold: 100, seconds: 1 });
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    for (let i = 0; i < 5; i++) limiter.consume('a', limits);
    clock.advance(60_000);
    // Day quota 5: 3 were spent, the 5 refused ones were not.
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: true, remaining: 1, limit: 5 });
  });

  it('bans a bucket that keeps sending while throttled, for the configured time', () => {
    const { clock, limiter } = setup({ threshold: 3, seconds: 120 });
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    limiter.consume('a', limits);
    limiter.consume('a', limits);
    const banned = limiter.consume('a', limits);
    expect(banned).toMatchObject({ allowed: false, banned: true, retryAfter: 120 });
    clock.advance(60_000);
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: false, banned: true, retryAfter: 60 });
    clock.advance(60_000);
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: true, banned: false });
  });

  it('forgives refused requests once a request is allowed again', () => {
    const { clock, limiter } = setup({ threshold: 3, seconds: 120 });
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    limiter.consume('a', limits);
    limiter.consume('a', limits);
    clock.advance(60_000);
    expect(limiter.consume('a', limits).allowed).toBe(true);
    clock.advance(60_000);
    limiter.consume('a', limits);
    expect(limiter.consume('a', limits)).toMatchObject({ allowed: false, banned: false });
  });

  it('keeps separate counts per bucket', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i++) limiter.consume('a', limits);
    expect(limiter.consume('b', limits)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('peeks without counting', () => {
    const { limiter } = setup();
    limiter.consume('a', limits);
    expect(limiter.peek('a', limits).remaining).toBe(2);
    expect(limiter.peek('a', limits).remaining).toBe(2);
    expect(limiter.peek('new', limits)).toMatchObject({ allowed: true, remaining: 3 });
    expect(limiter.size).toBe(1);
  });
});

describe('RateLimiter memory', () => {
  it('keeps at most maxBuckets buckets under a flood from many addresses', () => {
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock, { threshold: 3, seconds: 120 }, { maxBuckets: 1000 });
    for (let i = 0; i < 50_000; i++) limiter.consume(`ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, limits);
    expect(limiter.size).toBe(1000);
  });

  it('drops the least recently used bucket, not a busy one', () => {
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock, { threshold: 3, seconds: 120 }, { maxBuckets: 2 });
    limiter.consume('busy', limits);
    limiter.consume('idle', limits);
    limiter.consume('busy', limits);
    limiter.consume('new', limits);
    // 'busy' kept its count (two spent), 'idle' was dropped and starts afresh.
    expect(limiter.peek('busy', limits).remaining).toBe(1);
    expect(limiter.peek('idle', limits).remaining).toBe(3);
  });

  it('drops buckets whose day is over as new ones arrive', () => {
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock, { threshold: 3, seconds: 120 }, { maxBuckets: 100 });
    for (let i = 0; i < 10; i++) limiter.consume(`old-${i}`, limits);
    clock.advance(86_400_000);
    for (let i = 0; i < 5; i++) limiter.consume(`new-${i}`, limits);
    expect(limiter.size).toBe(5);
  });

  it('keeps a banned bucket until its ban is over', () => {
    const clock = new ManualClock(start);
    const limiter = new RateLimiter(clock, { threshold: 1, seconds: 2 * 86_400 }, { maxBuckets: 100 });
    for (let i = 0; i < 4; i++) limiter.consume('flooder', limits);
    clock.advance(86_400_000);
    limiter.consume('someone-else', limits);
    expect(limiter.consume('flooder', limits)).toMatchObject({ allowed: false, banned: true });
  });
});
