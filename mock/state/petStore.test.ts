import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PetStore } from './petStore.ts';
import type { StoredPet as Pet } from './petJson.ts';

/**
 * An id journal on a slow disk: its first reservation waits until `release()`, the ones after it
 * are written at once; each reserves ten ids past the one asked for.
 */
function heldJournal() {
  let written: (() => void) | undefined;
  let held = true;
  const ids = {
    reservedThrough: 0,
    reserve: (id: number) => new Promise<void>((resolve) => {
      written = () => ((ids.reservedThrough = id + 10), resolve());
      if (!held) written();
    }),
  };
  return { ids, release: () => ((held = false), written?.()) };
}

/** A store on a held journal: a create waits for its id, `replacement` comes in meanwhile, then the journal writes; the create's pet. */
async function createWhileReplacing(replacement: Pet[]) {
  const { ids, release } = heldJournal();
  const store = new PetStore([], ids);
  const waiting = store.create({ name: 'Early', categoryId: 1 }) as Promise<{ id: number }>;
  store.replaceAll(replacement);
  release();
  return { store, early: await waiting };
}

describe('PetStore', () => {
  it('assigns increasing ids starting after the highest loaded one', async () => {
    const store = new PetStore([{ id: 7, name: 'Rex', categoryId: 1 }]);
    expect((await store.create({ name: 'Milo', categoryId: 2 })).id).toBe(8);
    expect((await store.create({ name: 'Luna', categoryId: 2 })).id).toBe(9);
  });

  it('ignores an id in the input and keeps only the contract fields', async () => {
    const store = new PetStore();
    const pet = await store.create({ name: 'Rex', categoryId: 1, id: 999, colour: 'brown' } as never);
    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(store.get(999)).toBeUndefined();
  });

  it('finds every pet by its id and no pet by any other, whatever ids it was given and however many it created after', () => {
    fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 40 }), fc.nat(30), fc.array(fc.oneof(fc.integer({ min: -5, max: 10_100 }), fc.double()), { maxLength: 10 }), (ids, creates, others) => {
      const store = new PetStore(ids.map((id) => ({ id, name: `Pet ${id}`, categoryId: 1 })));
      const created = Array.from({ length: creates }, () => store.create({ name: 'New', categoryId: 2 }) as { id: number });
      const present = new Set([...ids, ...created.map((pet) => pet.id)]);
      for (const id of present) expect(store.get(id)?.id).toBe(id);
      for (const id of [0, -1, Math.max(0, ...present) + 1, 2 ** 63, ...others]) if (!present.has(id)) expect(store.get(id)).toBeUndefined();
    }));
  });

  it('finds and lists in id order a pet whose id was reserved on disk while a replacement with higher ids came in', async () => {
    const { store, early } = await createWhileReplacing([{ id: 500, name: 'A', categoryId: 1 }, { id: 600, name: 'B', categoryId: 1, status: 'sold' }]);
    const later = await store.create({ name: 'Later', categoryId: 1 });
    expect(early.id).toBe(1);
    expect(store.get(early.id)?.name).toBe('Early');
    expect(store.get(later.id)?.name).toBe('Later');
    expect(store.list({ limit: 10 }).map((pet) => pet.id)).toEqual([later.id, 600, 500, 1]);
  });

  it('gives a pet whose id a replacement took while the id was reserved on disk the next id, so no two pets share one', async () => {
    // The replacement holds a pet with the id the waiting create was handed (1).
    const { store, early } = await createWhileReplacing([{ id: 1, name: 'Replaced', categoryId: 2 }, { id: 40, name: 'B', categoryId: 1, status: 'sold' }]);
    expect(early.id).toBe(41);
    expect(store.get(1)?.name).toBe('Replaced');
    expect(store.get(41)?.name).toBe('Early');
    const listed = store.list({ limit: 10 }).map((pet) => pet.id);
    expect(listed).toEqual([41, 40, 1]);
    expect(store.all().map((pet) => pet.id)).toEqual([1, 40, 41]);
    expect((await store.create({ name: 'Later', categoryId: 1 })).id).toBe(42);
  });

  it('reads back what it created', async () => {
    const store = new PetStore();
    const pet = await store.create({ name: 'Rex', categoryId: 1, status: 'pending' });
    expect(store.get(pet.id)).toEqual(pet);
  });

  it('lists newest first (descending id), whatever order the pets were loaded in', async () => {
    const store = new PetStore([
      { id: 3, name: 'C', categoryId: 1 },
      { id: 1, name: 'A', categoryId: 1 },
      { id: 2, name: 'B', categoryId: 1 },
    ]);
    store.create({ name: 'D', categoryId: 1 });
    expect(store.list({ limit: 10 }).map((p) => p.id)).toEqual([4, 3, 2, 1]);
    expect(store.all().map((p) => p.id)).toEqual([1, 2, 3, 4]);
  });

  it('returns the newest limit pets', async () => {
    const store = new PetStore();
    for (let i = 0; i < 30; i++) store.create({ name: `P${i}`, categoryId: 1 });
    expect(store.list({ limit: 20 }).map((p) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => 30 - i));
    expect(store.list({ limit: 1 })[0]?.id).toBe(30);
  });

  it('shows a pet created on top of many fixtures on the first page', async () => {
    const store = new PetStore(Array.from({ length: 250 }, (_, i) => ({ id: i + 1, name: `F${i}`, categoryId: 1, status: 'available' as const })));
    const pet = await store.create({ name: 'New', categoryId: 1, status: 'available' });
    expect(store.list({ limit: 1 })).toEqual([pet]);
    expect(store.list({ limit: 100, status: 'available' })[0]).toEqual(pet);
  });

  it('filters by status, newest first', async () => {
    const store = new PetStore();
    store.create({ name: 'A', categoryId: 1, status: 'sold' });
    store.create({ name: 'B', categoryId: 1, status: 'available' });
    store.create({ name: 'C', categoryId: 1, status: 'sold' });
    store.create({ name: 'D', categoryId: 1 });
    expect(store.list({ limit: 10, status: 'sold' }).map((p) => p.name)).toEqual(['C', 'A']);
    expect(store.list({ limit: 1, status: 'sold' }).map((p) => p.name)).toEqual(['C']);
    expect(store.list({ limit: 10, status: 'pending' })).toEqual([]);
  });

  it('refuses a replacement with two pets of the same id and keeps its data', async () => {
    const store = new PetStore([{ id: 1, name: 'A', categoryId: 1 }]);
    expect(() => store.replaceAll([{ id: 2, name: 'B', categoryId: 1 }, { id: 2, name: 'C', categoryId: 1 }])).toThrow(/id 2/);
    expect(store.all()).toEqual([{ id: 1, name: 'A', categoryId: 1 }]);
  });

  it('never reuses an id after a replacement with lower ids', async () => {
    const store = new PetStore([{ id: 10, name: 'A', categoryId: 1 }]);
    store.replaceAll([{ id: 1, name: 'B', categoryId: 1 }], store.nextId);
    expect((await store.create({ name: 'C', categoryId: 1 })).id).toBe(11);
  });

  it('does not let a caller change a stored pet through the object it loaded', async () => {
    const loaded = { id: 1, name: 'A', categoryId: 1 };
    const store = new PetStore([loaded]);
    loaded.name = 'changed';
    expect(store.get(1)?.name).toBe('A');
  });
});

describe('PetStore.subscribe', () => {
  it('tells its listeners about creates and replacements until they unsubscribe', async () => {
    const store = new PetStore();
    let calls = 0;
    const stop = store.subscribe(() => calls++);
    store.create({ name: 'A', categoryId: 1 });
    store.replaceAll([]);
    stop();
    store.create({ name: 'B', categoryId: 1 });
    expect(calls).toBe(2);
  });
});
