import { describe, expect, it } from 'vitest';
import { ManualClock } from '../state/clock.ts';
import { planLimits } from '../rateLimits/plans.ts';
import { RateLimiter, type RateDecision } from '../rateLimits/rateLimiter.ts';
import type { RedisState } from './openRedisState.ts';
import { openReplica, testStart, uniquePrefix, useRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer();
const { open } = redis;

/** Two replicas on one prefix, each on its own base clock (as two processes are), both at testStart. */
async function twoReplicas(ban = { threshold: 5, seconds: 120 }) {
  const prefix = uniquePrefix();
  const clocks = [new ManualClock(testStart), new ManualClock(testStart)] as const;
  const [a, b] = await Promise.all(clocks.map((clock) => openReplica(redis.server, prefix, { clock, ban })));
  open.push(a!, b!);
  return { a: a!, b: b!, clocks };
}

const free = (token: string | undefined = 'demo-free') => ({ token, anonymous: { bucketId: 'ip:10.0.0.1', limits: planLimits.free } });

describe('RedisRateLimitStore across replicas', () => {
  it('lets a Free key through exactly 60 times a minute across two replicas under concurrent load, then answers 429', async () => {
    const { a, b } = await twoReplicas({ threshold: 1000, seconds: 60 });
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).limiter.admit(free(), true)));
    expect(results.filter((r) => r.decision.allowed)).toHaveLength(60);
    // Every remaining count from 59 down to 0 was handed out once: no two requests saw the same count.
    const remaining = results.filter((r) => r.decision.allowed).map((r) => r.decision.remaining).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i));
    const refused = results.find((r) => !r.decision.allowed)!;
    expect(refused.decision).toEqual({ allowed: false, banned: false, limit: 60, remaining: 0, reset: testStart / 1000 + 60, retryAfter: 60, window: 'minute', quotas: { perMinute: 60, perDay: 1000 } });
  });

  it('sends the same headers from whichever replica answers', async () => {
    const { a, b } = await twoReplicas();
    await a.limiter.admit(free(), true);
    const fromA = await a.limiter.admit(free(), false);
    const fromB = await b.limiter.admit(free(), false);
    expect(fromB.decision).toEqual(fromA.decision);
    expect(fromB.decision).toMatchObject({ limit: 60, remaining: 59 });
  });

  it('finds the key and its plan limits in the same step, and counts unknown keys by client address at Free limits', async () => {
    const { a } = await twoReplicas();
    const pro = await a.limiter.admit(free('demo-pro'), true);
    expect(pro.key).toMatchObject({ plan: 'pro', limits: planLimits.pro });
    expect(pro.bucketId).toBe(pro.key!.bucketId);
    expect(pro.decision).toMatchObject({ allowed: true, limit: 300, remaining: 299 });
    const unknown = await a.limiter.admit(free('no-such-key'), true);
    expect(unknown.key).toBeUndefined();
    expect(unknown.bucketId).toBe('ip:10.0.0.1');
    expect(unknown.decision).toMatchObject({ allowed: true, limit: 60, remaining: 59 });
    expect((await a.limiter.admit({ ...free(), token: undefined }, true)).decision.remaining).toBe(58);
  });

  it('shares bans: refusals on one replica earn a ban that the other enforces until the shared clock passes it', async () => {
    const { a, b } = await twoReplicas({ threshold: 3, seconds: 120 });
    const limits = { perMinute: 2, perDay: 100 };
    await a.limiter.consume('key:x', limits);
    await b.limiter.consume('key:x', limits);
    expect((await a.limiter.consume('key:x', limits)).banned).toBe(false);
    await b.limiter.consume('key:x', limits);
    const ban = await a.limiter.consume('key:x', limits);
    expect(ban).toMatchObject({ allowed: false, banned: true, retryAfter: 120, reset: testStart / 1000 + 120 });
    await a.clock.advance(61);
    // A new minute, but the ban holds on the other replica too.
    expect(await b.limiter.consume('key:x', limits)).toMatchObject({ allowed: false, banned: true, retryAfter: 59 });
    await b.clock.advance(60);
    expect(await a.limiter.consume('key:x', limits)).toMatchObject({ allowed: true, banned: false });
  });

  it('lifts a 429 on one replica when the clock is advanced on the other', async () => {
    const { a, b } = await twoReplicas({ threshold: 1000, seconds: 60 });
    await a.clock.freeze(true);
    for (let i = 0; i < 60; i++) await b.limiter.admit(free(), true);
    expect((await a.limiter.admit(free(), true)).decision.allowed).toBe(false);
    await b.clock.advance(60);
    expect((await a.limiter.admit(free(), true)).decision).toMatchObject({ allowed: true, remaining: 59 });
  });

  it('forgets every count and ban on clear, for every replica', async () => {
    const { a, b } = await twoReplicas({ threshold: 1, seconds: 600 });
    const limits = { perMinute: 1, perDay: 10 };
    await a.limiter.consume('key:y', limits);
    expect((await a.limiter.consume('key:y', limits)).banned).toBe(true);
    await b.limiter.clear();
    expect(await a.limiter.consume('key:y', limits)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('decides exactly as the in-memory RateLimiter over minutes, days and bans', async () => {
    const ban = { threshold: 4, seconds: 90 };
    const { a, b, clocks } = await twoReplicas(ban);
    const memoryClock = new ManualClock(testStart);
    const memory = new RateLimiter(memoryClock, ban);
    const limits = { perMinute: 3, perDay: 7 };
    // A fixed pseudo-random walk of requests, peeks and time steps, taken on both.
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const steps: Array<[RateDecision, RateDecision]> = [];
    for (let i = 0; i < 400; i++) {
      const r = random();
      if (r < 0.15) {
        const ms = Math.floor(random() * 3) === 0 ? 3_600_000 * Math.ceil(random() * 8) : Math.floor(random() * 40_000);
        memoryClock.advance(ms);
        for (const clock of clocks) clock.advance(ms);
        continue;
      }
      const spend = r > 0.25;
      const replica = i % 2 ? a : b;
      const remote = spend ? await replica.limiter.consume('key:walk', limits) : await replica.limiter.peek('key:walk', limits);
      const local = spend ? memory.consume('key:walk', limits) : memory.peek('key:walk', limits);
      steps.push([remote, local]);
    }
    for (const [remote, local] of steps) expect(remote).toEqual(local);
    // The walk went through every kind of answer.
    const kinds = new Set(steps.map(([, d]) => (d.banned ? 'banned' : d.allowed ? (d.limit === limits.perDay ? 'day' : 'minute') : 'throttled')));
    expect([...kinds].sort()).toEqual(['banned', 'day', 'minute', 'throttled']);
  });
});
