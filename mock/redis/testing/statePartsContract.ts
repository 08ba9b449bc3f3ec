// The behaviour every StateParts keeps, in memory (MockState) or in Redis (RedisState): one suite
// run against both (mock/state/mockState.contract.test.ts, redisState.redis.test.ts), so the two
// cannot drift apart.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../state/clock.ts';
import type { PetStep, StateParts } from '../../state/stateParts.ts';
import type { Limits } from '../../rateLimits/plans.ts';
import { testFixtures, testStart } from './testState.ts';

export interface StatePartsFactory {
  /** A fresh state seeded with testFixtures and testKeys, on `clock`, ban after 3 refusals for 120 s, log of 5; keyless requests at `keylessLimits` when given. */
  open(clock: ManualClock, options?: { keylessLimits?: Partial<Limits> }): Promise<StateParts & { close?(): Promise<void> }>;
}

/** What the guard does with a token: the key's bucket when the key is known, else the address's at Free limits. */
const admitToken = (state: StateParts, token: string, spend = true) => Promise.resolve(state.admit({ token, ip: '10.0.0.9' }, spend));

/** The version of the pets a page read says. */
const versionOf = async (state: StateParts) => ((await state.runStep({ kind: 'page', limit: 1, status: undefined })) as { version: string | number }).version;

/** Whether a rule with probability 0.3 and seed 7 fires on each of its first 12 draws (mock/faults/faultDraws.ts), worked out apart from it. */
const seed7Draws = [false, false, false, true, false, false, false, false, false, false, true, false];

export function statePartsContract(name: string, factory: StatePartsFactory): void {
  describe(`${name} keeps the mock's state contract`, () => {
    const setup = async () => {
      const clock = new ManualClock(testStart);
      return { clock, stores: await factory.open(clock) };
    };

    it('starts from the fixtures and creates pets with the next id, listed newest first per status', async () => {
      const { stores } = await setup();
      expect(await stores.store.all()).toEqual(testFixtures);
      expect(await stores.store.peekNextId()).toBe(7);
      const pet = await stores.store.create({ name: 'New', categoryId: 9, status: 'available' });
      expect(pet).toEqual({ id: 7, name: 'New', categoryId: 9, status: 'available' });
      expect(await stores.store.get(7)).toEqual(pet);
      expect(await stores.store.get(70)).toBeUndefined();
      expect((await stores.store.list({ limit: 3, status: 'available' })).map((p) => p.id)).toEqual([7, 6, 3]);
      expect(await stores.store.list({ limit: 20, status: 'available' })).toEqual([pet, testFixtures[5], testFixtures[2], testFixtures[0]]);
      expect((await stores.store.list({ limit: 2 })).map((p) => p.id)).toEqual([7, 6]);
      expect(await stores.store.count()).toBe(7);
      await stores.close?.();
    });

    it('keeps a categoryId past 2^53 - 1 exactly: created, read, paged, listed whole and replaced', async () => {
      const { stores } = await setup();
      const pet = await stores.store.create({ name: 'Big', categoryId: 9223372036854775807n, status: 'sold' });
      expect(pet).toEqual({ id: 7, name: 'Big', categoryId: 9223372036854775807n, status: 'sold' });
      expect(await stores.store.get(7)).toEqual(pet);
      expect(await stores.store.list({ limit: 1, status: 'sold' })).toEqual([pet]);
      const page = (await stores.runStep({ kind: 'page', limit: 1, status: 'sold' })) as { json: string };
      expect(page.json).toBe('[{"id":7,"name":"Big","categoryId":9223372036854775807,"status":"sold"}]');
      expect((await stores.store.all()).at(-1)).toEqual(pet);
      await stores.store.replaceAll([{ id: 40, name: 'Low', categoryId: -9223372036854775808n }]);
      expect(await stores.store.all()).toEqual([{ id: 40, name: 'Low', categoryId: -9223372036854775808n }]);
      await stores.close?.();
    });

    it('changes the version on every write and replaces every pet at once', async () => {
      const { stores } = await setup();
      const first = await versionOf(stores);
      await stores.store.create({ name: 'New', categoryId: 9 });
      const second = await versionOf(stores);
      expect(second).not.toBe(first);
      await stores.store.replaceAll([{ id: 40, name: 'Solo', categoryId: 1, status: 'sold' }], 100);
      expect(await versionOf(stores)).not.toBe(second);
      expect(await stores.store.list({ limit: 20 })).toEqual([{ id: 40, name: 'Solo', categoryId: 1, status: 'sold' }]);
      expect((await stores.store.create({ name: 'Next', categoryId: 1 })).id).toBe(100);
      // Without a next id, the sequence still never goes back to an id it issued.
      await stores.store.replaceAll([{ id: 3, name: 'Low', categoryId: 1 }]);
      expect((await stores.store.create({ name: 'After', categoryId: 1 })).id).toBe(101);
      // In memory it throws, in Redis it rejects: either way nothing changes.
      await expect(Promise.resolve().then(() => stores.store.replaceAll([{ id: 1, name: 'a', categoryId: 1 }, { id: 1, name: 'b', categoryId: 1 }]))).rejects.toThrow(/Two pets have the id 1/);
      expect((await stores.store.all()).map((p) => p.id)).toEqual([3, 101]);
      await stores.close?.();
    });

    it('refuses the same sets of pets: one whose highest id leaves no id for the next pet, changing nothing', async () => {
      const { stores } = await setup();
      const max = Number.MAX_SAFE_INTEGER;
      await expect(Promise.resolve().then(() => stores.store.replaceAll([{ id: max, name: 'Edge', categoryId: 1 }]))).rejects.toThrow(/leaves no id for the next pet/);
      await expect(Promise.resolve().then(() => stores.store.replaceAll([{ id: 2 ** 53 + 2, name: 'Past', categoryId: 1 }]))).rejects.toThrow(/not a whole number within 2\^53 - 1/);
      expect(await stores.store.all()).toEqual(testFixtures);
      await stores.store.replaceAll([{ id: max - 1, name: 'Room', categoryId: 1 }]);
      expect((await stores.store.create({ name: 'Last', categoryId: 1 })).id).toBe(max);
      // A saved state whose next id is past its highest handed that id out itself: it is whole.
      await stores.store.replaceAll([{ id: max, name: 'Edge', categoryId: 1 }], max + 1);
      expect(await stores.store.count()).toBe(1);
      await stores.close?.();
    });

    it('admits a known key at its plan limits and an unknown one by address at Free limits, then refuses and bans', async () => {
      const { stores } = await setup();
      expect((await admitToken(stores, 'demo-pro', true)).decision).toMatchObject({ allowed: true, limit: 300, remaining: 299 });
      const anonymous = await admitToken(stores, 'nope', true);
      expect(anonymous).toMatchObject({ key: undefined, bucketId: 'ip:10.0.0.9', decision: { allowed: true, limit: 60, remaining: 59 } });
      for (let i = 0; i < 59; i++) await admitToken(stores, 'demo-free', true);
      expect((await admitToken(stores, 'demo-free', false)).decision).toMatchObject({ allowed: true, remaining: 1 });
      await admitToken(stores, 'demo-free', true);
      expect((await admitToken(stores, 'demo-free', true)).decision).toMatchObject({ allowed: false, banned: false, retryAfter: 60 });
      await admitToken(stores, 'demo-free', true);
      expect((await admitToken(stores, 'demo-free', true)).decision).toMatchObject({ allowed: false, banned: true, retryAfter: 120 });
      await stores.clock.advance(120);
      expect((await admitToken(stores, 'demo-free', true)).decision).toMatchObject({ allowed: true, remaining: 59 });
      await stores.close?.();
    });

    it('counts requests without a valid key at the keyless limits it was given, per minute and per day, by address', async () => {
      const clock = new ManualClock(testStart);
      const stores = await factory.open(clock, { keylessLimits: { perMinute: 3, perDay: 5 } });
      expect(stores.keylessLimits).toEqual({ perMinute: 3, perDay: 5 });
      const keyless = async (ip = '10.0.0.9') => (await Promise.resolve(stores.admit({ token: undefined, ip }, true))).decision;
      expect(await keyless()).toMatchObject({ allowed: true, limit: 3, remaining: 2, window: 'minute', quotas: { perMinute: 3, perDay: 5 } });
      await keyless();
      // Two left of the day and one of the minute: the minute binds; then both are spent.
      expect(await keyless()).toMatchObject({ allowed: true, limit: 3, remaining: 0 });
      expect(await keyless()).toMatchObject({ allowed: false, banned: false, limit: 3 });
      // Another address has its own bucket; a key its plan's.
      expect(await keyless('10.0.0.10')).toMatchObject({ allowed: true, limit: 3, remaining: 2 });
      expect((await admitToken(stores, 'demo-pro')).decision).toMatchObject({ allowed: true, limit: 300 });
      await stores.clock.advance(60);
      // The next minute: two left of the day, three of the minute, so the day binds.
      expect(await keyless()).toMatchObject({ allowed: true, limit: 5, remaining: 1, window: 'day' });
      await keyless();
      expect(await keyless()).toMatchObject({ allowed: false, limit: 5, remaining: 0, window: 'day' });
      await stores.close?.();
    });

    it('counts requests without a valid key at the Free plan\'s limits when given none', async () => {
      const { stores } = await setup();
      expect(stores.keylessLimits).toEqual({ perMinute: 60, perDay: 1000 });
      await stores.close?.();
    });

    it('runs a request\'s create, read or page in its admission, only once it is admitted with a valid key', async () => {
      const { stores } = await setup();
      const admit = (token: string, step: PetStep, spend = true) => Promise.resolve(stores.admit({ token, ip: '10.0.0.9' }, spend, step));
      const created = await admit('demo-pro', { kind: 'create', input: { name: 'New', categoryId: 9, status: 'pending' } });
      expect(created).toMatchObject({ key: { plan: 'pro' }, decision: { allowed: true, remaining: 299 }, step: { kind: 'create', pet: { id: 7, name: 'New', categoryId: 9, status: 'pending' } } });
      expect((await admit('demo-pro', { kind: 'get', id: 7 })).step).toEqual({ kind: 'get', pet: { id: 7, name: 'New', categoryId: 9, status: 'pending' } });
      expect((await admit('demo-pro', { kind: 'get', id: 70 })).step).toEqual({ kind: 'get', pet: undefined });
      const page = (await admit('demo-pro', { kind: 'page', limit: 2, status: 'pending' })).step as { version: string | number; json: string };
      expect(JSON.parse(page.json)).toEqual([{ id: 7, name: 'New', categoryId: 9, status: 'pending' }, testFixtures[3]]);
      // A page the caller holds at the current version is not sent again; after a write it is.
      expect((await admit('demo-pro', { kind: 'page', limit: 2, status: 'pending', heldVersion: page.version })).step).toEqual({ ...page, json: undefined });
      await stores.store.create({ name: 'Newer', categoryId: 9 });
      expect((await admit('demo-pro', { kind: 'page', limit: 1, status: undefined, heldVersion: page.version })).step).toMatchObject({ json: expect.stringContaining('Newer') });
      // Not run: a key the mock does not know, a peek, a refused request.
      const unknown = await admit('nope', { kind: 'create', input: { name: 'Lost', categoryId: 1 } });
      expect([unknown.key, unknown.step]).toEqual([undefined, undefined]);
      expect((await admit('demo-pro', { kind: 'create', input: { name: 'Lost', categoryId: 1 } }, false)).step).toBeUndefined();
      for (let i = 0; i < 60; i++) await admitToken(stores, 'demo-free', true);
      const refused = await admit('demo-free', { kind: 'create', input: { name: 'Lost', categoryId: 1 } });
      expect([refused.decision.allowed, refused.step]).toEqual([false, undefined]);
      expect((await stores.store.all()).map((p) => p.name)).not.toContain('Lost');
      await stores.close?.();
    });

    it('adds, finds, deletes and replaces keys', async () => {
      const { stores } = await setup();
      expect(await stores.keys.set({ key: 'k-1', plan: 'enterprise', perMinute: 5 })).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5, perDay: 100_000_000 } });
      expect((await admitToken(stores, 'k-1', true)).decision).toMatchObject({ limit: 5, remaining: 4 });
      expect(await stores.keys.delete('k-1')).toBe(true);
      expect(await stores.keys.find('k-1')).toBeUndefined();
      await stores.keys.replaceAll([{ key: 'k-2', plan: 'free' }]);
      expect(await stores.keys.has('demo-free')).toBe(false);
      expect(await stores.keys.has('k-2')).toBe(true);
      await stores.close?.();
    });

    it('refuses the same key configs in every backend, and keeps what it had', async () => {
      const { stores } = await setup();
      for (const bad of [{ key: 'k-0', plan: 'pro' as const, perMinute: 0 }, { key: 'k-0', plan: 'pro' as const, perDay: 1.5 }, { key: 'k-0', plan: 'gold' as never }]) {
        await expect(Promise.resolve().then(() => stores.keys.set(bad))).rejects.toThrow(/API key \S+ has (perMinute 0|perDay 1\.5|plan "gold")/);
        await expect(Promise.resolve().then(() => stores.keys.replaceAll([{ key: 'k-2', plan: 'free' }, bad]))).rejects.toThrow(/API key/);
      }
      expect(await stores.keys.has('demo-free')).toBe(true);
      expect(await stores.keys.has('k-0')).toBe(false);
      await stores.close?.();
    });

    it('moves, freezes and resets the clock', async () => {
      const { clock, stores } = await setup();
      await stores.clock.advance(60);
      expect(await stores.clock.state()).toMatchObject({ nowMs: testStart + 60_000, offsetSeconds: 60, frozen: false });
      await stores.clock.freeze(true);
      clock.advance(10_000);
      expect(await stores.clock.state()).toMatchObject({ nowMs: testStart + 60_000, frozen: true });
      expect(stores.clock.now()).toBe(testStart + 60_000);
      await stores.clock.freeze(false);
      clock.advance(1_000);
      expect((await stores.clock.state()).nowMs).toBe(testStart + 61_000);
      await stores.clock.reset();
      expect(await stores.clock.state()).toMatchObject({ nowMs: testStart + 11_000, offsetSeconds: 0, frozen: false });
      await stores.close?.();
    });

    it('freezes the clock at an instant, and refuses one out of range without changing it', async () => {
      const { clock, stores } = await setup();
      const at = Date.UTC(2026, 5, 1, 12, 30, 45);
      await stores.clock.freeze(true, at);
      clock.advance(10_000);
      expect(await stores.clock.state()).toMatchObject({ nowMs: at, frozen: true });
      expect(stores.clock.now()).toBe(at);
      await expect(Promise.resolve().then(() => stores.clock.freeze(true, testStart + 101 * 365 * 86_400_000))).rejects.toThrow(/at most 3153600000 seconds \(100 years\)/);
      await expect(Promise.resolve().then(() => stores.clock.freeze(true, -1))).rejects.toThrow(/before 1970/);
      expect(await stores.clock.state()).toMatchObject({ nowMs: at, frozen: true });
      await stores.clock.freeze(false);
      clock.advance(1_000);
      expect((await stores.clock.state()).nowMs).toBe(at + 1_000);
      await stores.close?.();
    });

    it('logs requests newest last up to its capacity', async () => {
      const { stores } = await setup();
      for (let i = 0; i < 7; i++) stores.log.add({ at: testStart + i, method: 'GET', url: `/v1/pets/${i}?x=1`, status: i % 2 ? 404 : 200, key: null, ms: 1 });
      const requests = await stores.log.list();
      expect(await stores.log.dropped()).toBe(2);
      expect(stores.log.capacity).toBe(5);
      expect(requests.map((r) => r.path)).toEqual(['/v1/pets/2', '/v1/pets/3', '/v1/pets/4', '/v1/pets/5', '/v1/pets/6']);
      expect((await stores.log.list({ status: '404' })).map((r) => r.path)).toEqual(['/v1/pets/3', '/v1/pets/5']);
      await stores.log.clear();
      expect(await stores.log.list()).toEqual([]);
      expect(await stores.log.dropped()).toBe(0);
      await stores.close?.();
    });

    it('keeps fault rules in order with their counts and draws, and clears them on reset', async () => {
      const { stores } = await setup();
      const target = { operationId: 'getPet', method: 'GET', url: '/v1/pets/1?x=1', keyBucket: undefined };
      expect(await stores.faults.fire(target)).toBeUndefined();
      expect(await stores.faults.add({ operationId: 'getPet', status: 503, times: 2 })).toEqual({ id: 'fault-1', operationId: 'getPet', status: 503, times: 2, fired: 0, left: 2 });
      await stores.faults.add({ path: '/v1/pets/*', status: 500, probability: 0.3, seed: 7 });
      expect(await stores.faults.fire({ ...target, operationId: 'listPets', url: '/v1/pets' })).toBeUndefined();
      expect(await stores.faults.fire(target)).toEqual({ id: 'fault-1', status: 503 });
      expect(await stores.faults.fire(target)).toEqual({ id: 'fault-1', status: 503 });
      // The first rule is spent; the second fires on its draws, the same in every store.
      const draws: boolean[] = [];
      for (let i = 0; i < 12; i++) draws.push((await stores.faults.fire(target)) !== undefined);
      expect(draws).toEqual(seed7Draws);
      expect((await stores.faults.list()).map((f) => [f.id, f.fired, f.left])).toEqual([['fault-1', 2, 0], ['fault-2', draws.filter(Boolean).length, null]]);
      expect(await stores.faults.remove('fault-1')).toBe(true);
      expect(await stores.faults.remove('fault-1')).toBe(false);
      await stores.faults.add({ status: 502 });
      await stores.faults.clear();
      expect(await stores.faults.list()).toEqual([]);
      await stores.faults.add({ status: 502 });
      await stores.reset();
      expect(await stores.faults.list()).toEqual([]);
      expect(await stores.faults.fire(target)).toBeUndefined();
      // Ids are never given twice, reset or not.
      expect((await stores.faults.add({ status: 502 })).id).toBe('fault-5');
      await stores.close?.();
    });

    it('resets to the fixtures and keys, clearing counters, log and clock, without reissuing ids', async () => {
      const { stores } = await setup();
      await stores.store.create({ name: 'Gone', categoryId: 1 });
      await stores.keys.delete('demo-free');
      await stores.keys.set({ key: 'extra', plan: 'pro' });
      await admitToken(stores, 'demo-pro', true);
      stores.log.add({ at: testStart, method: 'GET', url: '/v1/pets', status: 200, key: null, ms: 1 });
            await stores.clock.freeze(true);
      await stores.reset();
      expect(await stores.store.all()).toEqual(testFixtures);
      expect(await stores.keys.has('demo-free')).toBe(true);
      expect(await stores.keys.has('extra')).toBe(false);
      expect((await admitToken(stores, 'demo-pro', false)).decision.remaining).toBe(300);
      expect(await stores.log.list()).toEqual([]);
      expect((await stores.clock.state()).frozen).toBe(false);
      expect((await stores.store.create({ name: 'After', categoryId: 1 })).id).toBe(8);
      await stores.close?.();
    });
  });
}
