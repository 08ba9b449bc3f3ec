// One lifecycle for the mock's state, whatever holds it (mock/core/openState.ts): the same options
// refused at the same boundary, the same reload and close, in memory and in Redis.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../state/clock.ts';
import { openState, StateOptionsError, type OpenedState, type StateOptions } from './openState.ts';
import { MockState } from '../state/mockState.ts';
import { openReplica, testFixtures, testKeys, testStart, uniquePrefix, useRedisServer } from '../redis/testing/redisServer.ts';

const redis = useRedisServer<OpenedState>();

const backends: [string, () => Partial<StateOptions>][] = [
  ['in memory', () => ({})],
  ['in Redis', () => ({ redis: { url: redis.server.url, prefix: uniquePrefix() } })],
];

async function open(backend: () => Partial<StateOptions>, options: Partial<StateOptions> = {}): Promise<OpenedState> {
  const opened = await openState({ fixtures: testFixtures, keys: testKeys, clock: new ManualClock(testStart), ...backend(), ...options });
  redis.open.push(opened);
  return opened;
}

describe.each(backends)('the state %s', (_name, backend) => {
  it.each<[string, Partial<StateOptions>, RegExp]>([
    ['a request log of -1 entries', { requestLogSize: -1 }, /requestLogSize is -1: give a whole number of at least 0/],
    ['a ban after 0 refusals', { ban: { threshold: 0 } }, /ban\.threshold is 0/],
    ['a ban of 1.5 s', { ban: { seconds: 1.5 } }, /ban\.seconds is 1\.5/],
    ['no anonymous buckets', { maxAnonymousBuckets: 0 }, /maxAnonymousBuckets is 0/],
    ['a key with perMinute 0', { keys: [{ key: 'k-0', plan: 'pro', perMinute: 0 }] }, /API key \S+ has perMinute 0/],
    ['two pets with one id', { fixtures: [testFixtures[0]!, testFixtures[0]!] }, /Two pets have the id 1/],
  ])('refuses %s before serving', async (_case, options, message) => {
    await expect(open(backend, options)).rejects.toThrow(message);
  });

  it('keeps the pets created at run time across a reload to new fixtures, and resets to the new ones', async () => {
    const opened = await open(backend);
    const created = await opened.current.store.create({ name: 'Kept', categoryId: 2 });
    const reload = opened.reload([{ id: 1, name: 'Only', categoryId: 1 }], () => true);
    expect(reload.commit()).toBe(0);
    expect(await reload.state.store.get(created.id)).toEqual(created);
    expect(opened.current).toBe(reload.state);
    await opened.current.reset();
    expect(await opened.current.store.all()).toEqual([{ id: 1, name: 'Only', categoryId: 1 }]);
  });

  it('refuses a reload to fixtures it would refuse at start, keeping what it serves', async () => {
    const opened = await open(backend);
    expect(() => opened.reload([testFixtures[0]!, testFixtures[0]!], () => true)).toThrow(/Two pets have the id 1/);
    await opened.current.reset();
    expect(await opened.current.store.all()).toEqual(testFixtures);
  });

  it('lets go the answers stall rules hold when it closes', async () => {
    const opened = await open(backend);
    const rule = await opened.current.faults.add({ action: 'stall', stallMs: 60_000, status: 504 });
    const held = opened.current.faults.stalls.hold(rule.id, 60_000);
    await opened.close();
    redis.open.splice(redis.open.indexOf(opened), 1);
    expect(await held.ended).toBe('closed');
  });
});

describe('the state options only one backend takes', () => {
  it('refuses a start state (a state file) and a cap on anonymous buckets with Redis', async () => {
    await expect(open(backends[1]![1], { startState: { pets: testFixtures, nextId: 7 } })).rejects.toThrow(StateOptionsError);
    await expect(open(backends[1]![1], { maxAnonymousBuckets: 10 })).rejects.toThrow(/maxAnonymousBuckets applies in memory only/);
  });
});

describe('a state built without openState', () => {
  it('refuses the same options: MockState.create and openRedisState check them too', async () => {
    expect(() => MockState.create({ fixtures: testFixtures, keys: testKeys, requestLogSize: -1 })).toThrow(/requestLogSize is -1/);
    await expect(openReplica(redis.server, uniquePrefix(), { ban: { threshold: 0, seconds: 60 } })).rejects.toThrow(/ban\.threshold is 0/);
  });
});
