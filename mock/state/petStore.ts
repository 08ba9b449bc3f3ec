import type { NewPet, Pet, PetStatus } from '../../spec/types.ts';

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

/**
 * The mock's in-memory collection of pets.
 *
 * Lists come in ascending id order, which is also creation order because ids only grow.
 * Every operation the API needs is O(1) or O(limit): a map by id and one id list per status,
 * kept sorted by appending, so a million pets cost no more per request than a thousand.
 */
export class PetStore {
  #byId = new Map<number, Pet>();
  #byStatus = new Map<PetStatus | undefined, Pet[]>();
  #nextId = 1;
  #listeners = new Set<() => void>();
  #version = 0;

  constructor(pets: readonly Pet[] = []) {
    this.replaceAll(pets);
  }

  get size(): number {
    return this.#byId.size;
  }

  /** Goes up with every change, so a cache of anything read from the store knows when to drop it. */
  get version(): number {
    return this.#version;
  }

  /** The id the next created pet gets. */
  get nextId(): number {
    return this.#nextId;
  }

  /** Adds a pet with the next id. Only the contract's fields are kept; an `id` in the input is ignored. */
  create(input: NewPet): Pet {
    const pet: Pet = { id: this.#nextId++, name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) pet.status = input.status;
    this.#insert(pet);
    this.#changed();
    return pet;
  }

  /** Calls `listener` after every change; returns a function that stops it. */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get(id: number): Pet | undefined {
    return this.#byId.get(id);
  }

  /** The first `limit` pets in ascending id order, only those with `status` when it is given. */
  list({ limit, status }: ListQuery): Pet[] {
    if (status === undefined) {
      const page: Pet[] = [];
      for (const pet of this.#byId.values()) {
        if (page.length >= limit) break;
        page.push(pet);
      }
      return page;
    }
    return (this.#byStatus.get(status) ?? []).slice(0, limit);
  }

  /** Every pet, in ascending id order. */
  all(): Pet[] {
    return [...this.#byId.values()];
  }

  /**
   * Replaces the whole collection. Ids must be unique; the next id continues after the highest,
   * or after `nextId` when that is higher (so ids are never reused after a replace).
   */
  replaceAll(pets: readonly Pet[], nextId?: number): void {
    const ids = new Set<number>();
    for (const pet of pets) {
      if (ids.has(pet.id)) throw new Error(`Two pets have the id ${pet.id}. Give every pet its own id.`);
      ids.add(pet.id);
    }
    this.#byId = new Map();
    this.#byStatus = new Map();
    const sorted = [...pets].sort((a, b) => a.id - b.id);
    for (const pet of sorted) this.#insert({ ...pet });
    const highest = sorted.length > 0 ? sorted[sorted.length - 1]!.id : 0;
    this.#nextId = Math.max(highest + 1, nextId ?? 1);
    this.#changed();
  }

  #changed(): void {
    this.#version++;
    for (const listener of this.#listeners) listener();
  }

  #insert(pet: Pet): void {
    this.#byId.set(pet.id, pet);
    let bucket = this.#byStatus.get(pet.status);
    if (!bucket) this.#byStatus.set(pet.status, (bucket = []));
    bucket.push(pet);
  }
}
