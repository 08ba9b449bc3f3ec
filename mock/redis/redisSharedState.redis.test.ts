import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../state/clock.ts';
import { planLimits } from '../rateLimits/plans.ts';
import type { RedisState } from './openRedisState.ts';
import { openReplica, testFixtures, testStart, uniquePrefix, useRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer();
const { open } = redis;

async function twoReplicas(requestLogSize = 100) {
  const prefix = uniquePrefix();
  const clocks = [new ManualClock(testStart), new ManualClock(testStart)] as const;
  const [a, b] = await Promise.all(clocks.map((clock, i) => openReplica(redis.server, prefix, { clock, requestLogSize, replicaId: `replica-${'ab'[i]}` })));
  open.push(a!, b!);
  return { a: a!, b: b!, clocks };
}

const entry = (url: string, status = 200, at = testStart, runId?: string) => ({ at, method: 'GET', url, status, key: 'demo…(9)', ms: 1.5, client: '10.0.0.7', ...(runId ? { runId } : {}) });

describe('the shared clock', () => {
  it('shows an advance made on one replica on the other', async () => {
    const { a, b } = await twoReplicas();
    const state = await a.clock.advance(3600);
    expect(state).toMatchObject({ nowMs: testStart + 3_600_000, frozen: false, offsetSeconds: 3600 });
    expect(await b.clock.state()).toEqual(state);
    expect(b.clock.now()).toBe(testStart + 3_600_000);
  });

  it('freezes for every replica, keeps the frozen time while base clocks run, and resumes from it', async () => {
    const { a, b, clocks } = await twoReplicas();
    await a.clock.freeze(true);
    for (const clock of clocks) clock.advance(50_000);
    expect(await b.clock.state()).toMatchObject({ nowMs: testStart, frozen: true, offsetSeconds: -50 });
    await b.clock.advance(10);
    expect((await a.clock.state()).nowMs).toBe(testStart + 10_000);
    await a.clock.freeze(false);
    for (const clock of clocks) clock.advance(5_000);
    expect(await b.clock.state()).toMatchObject({ nowMs: testStart + 15_000, frozen: false });
  });

  it('refreshes a replica\'s synchronous now() with every admission', async () => {
    const { a, b } = await twoReplicas();
    await a.clock.advance(120);
    expect(b.clock.now()).toBe(testStart);
    await b.limiter.admit({ token: 'demo-free', anonymous: { bucketId: 'ip:1', limits: planLimits.free } }, false);
    expect(b.clock.now()).toBe(testStart + 120_000);
  });

  it('refuses an advance past the last date a Date holds, changing nothing', async () => {
    const { a } = await twoReplicas();
    await expect(a.clock.advance(8.64e12)).rejects.toThrow(RangeError);
    expect((await a.clock.state()).nowMs).toBe(testStart);
  });

  it('goes back to the base clock on reset', async () => {
    const { a, b } = await twoReplicas();
    await a.clock.freeze(true);
    await a.clock.advance(99);
    await b.clock.reset();
    expect(await a.clock.state()).toMatchObject({ nowMs: testStart, frozen: false, offsetSeconds: 0 });
  });
});

describe('the shared keys', () => {
  it('accepts a key added on one replica on the other, and stops when it is deleted there', async () => {
    const { a, b } = await twoReplicas();
    const added = await a.keys.set({ key: 'team-key', plan: 'business' });
    expect(added).toMatchObject({ plan: 'business', limits: planLimits.business, label: 'team…(8)' });
    expect(await b.keys.find('team-key')).toEqual(added);
    const admitted = await b.limiter.admit({ token: 'team-key', anonymous: { bucketId: 'ip:1', limits: planLimits.free } }, true);
    expect(admitted.decision).toMatchObject({ allowed: true, limit: 1000, remaining: 999 });
    expect(await b.keys.delete('team-key')).toBe(true);
    expect(await a.keys.has('team-key')).toBe(false);
    expect(await a.keys.delete('team-key')).toBe(false);
  });

  it('keeps digests, never the keys themselves', async () => {
    const { a } = await twoReplicas();
    await a.keys.set({ key: 'secret-key-123', plan: 'free' });
    const stored = await a.connection.client.hgetall(a.connection.key('keys'));
    expect(JSON.stringify(stored)).not.toContain('secret-key-123');
    expect(Object.keys(stored)).toHaveLength(4);
  });

  it('refuses an unknown plan with a message naming the plans', async () => {
    const { a } = await twoReplicas();
    await expect(a.keys.set({ key: 'k', plan: 'gold' as never })).rejects.toThrow(/Use one of free, pro, business, enterprise/);
  });

  it('replaces every key at once', async () => {
    const { a, b } = await twoReplicas();
    await a.keys.replaceAll([{ key: 'only', plan: 'pro' }]);
    expect(await b.keys.has('demo-free')).toBe(false);
    expect(await b.keys.find('only')).toMatchObject({ plan: 'pro' });
  });
});

describe('the shared request log', () => {
  it('shows every replica\'s requests, newest last, presented and filtered as in memory', async () => {
    const { a, b } = await twoReplicas();
    a.log.add(entry('/v1/pets?limit=5&status=sold'));
    // add() is not awaited by the answer: flush() waits for what was added.
    await a.log.flush();
    b.log.add(entry('/v1/pets/99', 404, testStart + 1000));
    await b.log.flush();
    const requests = await a.log.list();
    expect({ dropped: await a.log.dropped(), capacity: a.log.capacity }).toEqual({ dropped: 0, capacity: 100 });
    expect(requests).toEqual([
      { time: new Date(testStart).toISOString(), method: 'GET', path: '/v1/pets', query: { limit: '5', status: 'sold' }, status: 200, key: 'demo…(9)', ms: 1.5, client: '10.0.0.7', runId: null, replica: 'replica-a' },
      { time: new Date(testStart + 1000).toISOString(), method: 'GET', path: '/v1/pets/99', query: {}, status: 404, key: 'demo…(9)', ms: 1.5, client: '10.0.0.7', runId: null, replica: 'replica-b' },
    ]);
    expect((await b.log.list({ status: '4xx' })).map((r) => r.path)).toEqual(['/v1/pets/99']);
  });

  it('finds one run\'s requests on every replica by run id, each naming the replica that answered it', async () => {
    const { a, b } = await twoReplicas();
    a.log.add(entry('/v1/pets', 200, testStart, 'run-1'));
    // Flushed one after the other: two connections' writes reach Redis in no set order, and the
    // log is in the order Redis took them (newest last).
    await a.log.flush();
    b.log.add(entry('/v1/pets/1', 200, testStart, 'run-2'));
    b.log.add(entry('/v1/pets/99', 404, testStart, 'run-1'));
    await b.log.flush();
    const run = await b.log.list({ runId: 'run-1' });
    expect(run.map((r) => [r.path, r.runId, r.replica])).toEqual([['/v1/pets', 'run-1', 'replica-a'], ['/v1/pets/99', 'run-1', 'replica-b']]);
    expect((await a.log.list({ runId: 'run-1', status: '404' })).map((r) => r.path)).toEqual(['/v1/pets/99']);
  });

  it('shows an entry an older replica wrote, without client or replica, with nulls', async () => {
    const { a } = await twoReplicas();
    await a.connection.client.rpush(a.connection.key('log'), JSON.stringify({ at: testStart, method: 'GET', url: '/v1/pets', status: 200, key: null, ms: 1 }));
    expect(await a.log.list()).toEqual([expect.objectContaining({ path: '/v1/pets', client: null, runId: null })]);
    expect((await a.log.list())[0]).not.toHaveProperty('replica');
  });

  it('stamps host:pid when no replica id is given', async () => {
    const replica = await openReplica(redis.server, uniquePrefix());
    open.push(replica);
    expect(replica.log.replica).toBe(`${hostname()}:${process.pid}`);
  });

  it('keeps the newest entries up to its capacity and counts those pushed out', async () => {
    const { a, b } = await twoReplicas(3);
    for (let i = 0; i < 5; i++) {
      const replica = i % 2 ? a : b;
      replica.log.add(entry(`/v1/pets/${i}`));
      await replica.log.flush();
    }
    expect((await a.log.list()).map((r) => r.path)).toEqual(['/v1/pets/2', '/v1/pets/3', '/v1/pets/4']);
    expect(await a.log.dropped()).toBe(2);
    await b.log.clear();
    expect(await a.log.list()).toEqual([]);
    expect(await a.log.dropped()).toBe(0);
  });
});

describe('reset', () => {
  it('puts every replica back to the fixtures and demo keys, with counters, bans, log and clock cleared', async () => {
    const { a, b } = await twoReplicas();
    await a.store.create({ name: 'Temp', categoryId: 1 });
    await a.keys.set({ key: 'temp-key', plan: 'pro' });
    await a.keys.delete('demo-pro');
    await a.clock.freeze(true);
    await a.clock.advance(30);
    const request = { token: 'demo-free', anonymous: { bucketId: 'ip:1', limits: planLimits.free } };
    for (let i = 0; i < 3; i++) await a.limiter.admit(request, true);
    a.log.add(entry('/v1/pets'));

    await b.reset();

    expect(await a.store.all()).toEqual(testFixtures);
    expect(await a.keys.has('temp-key')).toBe(false);
    expect(await a.keys.has('demo-pro')).toBe(true);
    expect(await a.clock.state()).toMatchObject({ nowMs: testStart, frozen: false });
    expect((await a.limiter.admit(request, false)).decision.remaining).toBe(60);
    expect(await a.log.list()).toEqual([]);
    // Ids are never reissued, even across a reset: the pet created above had 7.
    expect((await a.store.create({ name: 'After', categoryId: 1 })).id).toBe(8);
  });
});
