import { PetSetError } from '../state/petStore.ts';
import { describe, expect, it } from 'vitest';
import type { RedisState } from './openRedisState.ts';
import { openReplica, testFixtures, uniquePrefix, useRedisServer } from './testing/redisServer.ts';

const redis = useRedisServer();
const { open } = redis;

async function replicas(count: number, prefix = uniquePrefix()): Promise<RedisState[]> {
  const opened = await Promise.all(Array.from({ length: count }, () => openReplica(redis.server, prefix)));
  open.push(...opened);
  return opened;
}

describe('RedisPetRepository across replicas', () => {
  it('serves a pet created through one replica from another at once', async () => {
    const [a, b] = await replicas(2);
    const pet = await a!.store.create({ name: 'Nala', categoryId: 4, status: 'pending' });
    expect(pet).toEqual({ id: 7, name: 'Nala', categoryId: 4, status: 'pending' });
    expect(await b!.store.get(7)).toEqual(pet);
    expect(await b!.store.list({ limit: 10, status: 'pending' })).toEqual([pet, testFixtures[3]]);
  });

  it('gives 200 concurrent creates split across two replicas 200 distinct, consecutive ids', async () => {
    const [a, b] = await replicas(2);
    const created = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a! : b!).store.create({ name: `p${i}`, categoryId: i })));
    const ids = created.map((p) => p.id).sort((x, y) => x - y);
    expect(new Set(ids).size).toBe(200);
    expect(ids[0]).toBe(7);
    expect(ids[199]).toBe(206);
    expect(await a!.store.count()).toBe(206);
    expect(await b!.store.peekNextId()).toBe(207);
  });

  it('keeps only the contract fields of a created pet and ignores an id in the input', async () => {
    const [a] = await replicas(1);
    const pet = await a!.store.create({ name: 'Odd', categoryId: 1, id: 99, extra: true } as never);
    expect(pet).toEqual({ id: 7, name: 'Odd', categoryId: 1 });
    expect(await a!.store.get(99)).toBeUndefined();
  });

  it('lists the newest pets first (descending id), per status or all, up to the limit', async () => {
    const [a] = await replicas(1);
    expect((await a!.store.list({ limit: 2, status: 'available' })).map((p) => p.id)).toEqual([6, 3]);
    expect((await a!.store.list({ limit: 10, status: 'available' })).map((p) => p.id)).toEqual([6, 3, 1]);
    expect((await a!.store.list({ limit: 4 })).map((p) => p.id)).toEqual([6, 5, 4, 3]);
    expect(await a!.store.list({ limit: 5, status: 'sold' })).toEqual([testFixtures[1]]);
    expect(await a!.store.list({ limit: 0 })).toEqual([]);
    const page = await a!.store.runStep({ kind: 'page', limit: 1, status: undefined });
    expect(page).toEqual({ kind: 'page', version: expect.any(String), json: JSON.stringify([testFixtures[5]]) });
    // The copy the replica holds is current: the page is not sent again.
    expect(await a!.store.runStep({ kind: 'page', limit: 1, status: undefined, heldVersion: (page as { version: string }).version })).toEqual({ ...page, json: undefined });
    expect(await a!.store.all()).toEqual(testFixtures);
  });

  it('replaces with thousands of pets, reads them back in id order, and pages the newest 100 of each status', async () => {
    const [a] = await replicas(1);
    const statuses = ['available', 'pending', 'sold', undefined] as const;
    const many = Array.from({ length: 5000 }, (_, i) => ({ id: 5000 - i, name: `p${5000 - i}`, categoryId: i, ...(statuses[i % 4] ? { status: statuses[i % 4] } : {}) }));
    await a!.store.replaceAll(many);
    const all = await a!.store.all();
    expect(all.map((p) => p.id)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    const sold = await a!.store.list({ limit: 100, status: 'sold' });
    expect(sold).toHaveLength(100);
    expect(sold.every((p) => p.status === 'sold')).toBe(true);
    expect(sold.map((p) => p.id)).toEqual([...sold.map((p) => p.id)].sort((x, y) => y - x));
    expect(sold[0]!.id).toBe(Math.max(...many.filter((p) => p.status === 'sold').map((p) => p.id)));
    expect(await a!.store.peekNextId()).toBe(5001);
    // The replacement went in as staged batches; none of them is left behind.
    expect(await a!.connection.client.keys(`${a!.connection.prefix}staging:*`)).toEqual([]);
  });

  it('replaces every pet at once and keeps issuing ids above every id ever issued', async () => {
    const [a, b] = await replicas(2);
    await a!.store.create({ name: 'Seven', categoryId: 1 });
    await a!.store.create({ name: 'Eight', categoryId: 1 });
    await b!.store.replaceAll([{ id: 2, name: 'Only', categoryId: 5, status: 'sold' }]);
    expect(await a!.store.all()).toEqual([{ id: 2, name: 'Only', categoryId: 5, status: 'sold' }]);
    expect(await a!.store.list({ limit: 10, status: 'available' })).toEqual([]);
    // Ids 7 and 8 were issued before the replace: the next one is 9, never 3.
    expect((await a!.store.create({ name: 'Nine', categoryId: 1 })).id).toBe(9);
    await a!.store.replaceAll([], 500);
    expect((await b!.store.create({ name: 'Next', categoryId: 1 })).id).toBe(500);
  });

  it('refuses a replacement with duplicate ids or ids Redis cannot hold exactly, changing nothing', async () => {
    const [a] = await replicas(1);
    await expect(a!.store.replaceAll([{ id: 1, name: 'a', categoryId: 1 }, { id: 1, name: 'b', categoryId: 1 }])).rejects.toThrow(/Two pets have the id 1/);
    await expect(a!.store.replaceAll([{ id: 2 ** 53, name: 'a', categoryId: 1 }])).rejects.toThrow(PetSetError);
    expect(await a!.store.all()).toEqual(testFixtures);
  });

  it('issues the largest exact id, then refuses to create with a PetSetError (409 IDS_EXHAUSTED) instead of reissuing', async () => {
    const [a] = await replicas(1);
    await a!.store.replaceAll([{ id: Number.MAX_SAFE_INTEGER - 1, name: 'Big', categoryId: 1 }]);
    expect((await a!.store.create({ name: 'Last', categoryId: 1 })).id).toBe(Number.MAX_SAFE_INTEGER);
    await expect(a!.store.create({ name: 'Over', categoryId: 1 })).rejects.toThrow(PetSetError);
    expect(await a!.store.get(Number.MAX_SAFE_INTEGER)).toMatchObject({ name: 'Last' });
    expect(await a!.store.count()).toBe(2);
  });

  it('changes the version seen by every replica on any replica\'s write', async () => {
    const [a, b] = await replicas(2);
    const versionOf = async (replica: RedisState) => ((await replica.runStep({ kind: 'page', limit: 1, status: undefined })) as { version: string }).version;
    const before = await versionOf(b!);
    expect(await versionOf(a!)).toBe(before);
    await a!.store.create({ name: 'New', categoryId: 1 });
    const afterCreate = await versionOf(b!);
    expect(afterCreate).not.toBe(before);
    await a!.store.replaceAll(testFixtures);
    expect(await versionOf(b!)).not.toBe(afterCreate);
  });
});

describe('seeding', () => {
  it('seeds an empty Redis once when several replicas start together', async () => {
    const started = await replicas(5);
    expect(started.filter((r) => r.seeded)).toHaveLength(1);
    expect(await started[4]!.store.all()).toEqual(testFixtures);
    expect(await started[0]!.connection.client.keys(`${started[0]!.connection.prefix}staging:*`)).toEqual([]);
  });

  it('uses the state a Redis already holds instead of seeding it again', async () => {
    const prefix = uniquePrefix();
    const [first] = await replicas(1, prefix);
    await first!.store.create({ name: 'Kept', categoryId: 1 });
    await first!.keys.set({ key: 'added-key', plan: 'pro' });
    await first!.close();
    open.splice(0);
    const [later] = await replicas(1, prefix);
    expect(later!.seeded).toBe(false);
    expect(await later!.store.get(7)).toMatchObject({ name: 'Kept' });
    expect(await later!.keys.has('added-key')).toBe(true);
  });

  it('keeps mocks under different prefixes apart on one Redis', async () => {
    const [a] = await replicas(1);
    const [b] = await replicas(1);
    await a!.store.create({ name: 'Only in a', categoryId: 1 });
    expect(await b!.store.count()).toBe(6);
    expect(await a!.store.count()).toBe(7);
  });
});
