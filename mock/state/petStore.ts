import type { PetStatus } from '../../spec/types.ts';
import type { StoredNewPet as NewPet, StoredPet as Pet } from './petJson.ts';
import type { PetRepository } from './stateParts.ts';
import type { ListQuery } from './stateParts.ts';
export type { ListQuery } from './stateParts.ts';

/**
 * The largest id the mock hands out: 2^53 - 1, the largest integer every JSON client reads
 * exactly (RFC 7493, I-JSON, 2.2). A pet set whose next id would pass it is refused.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** Makes ids durable before they are handed out, so a crash never gives an acknowledged id to another pet. */
export interface IdReserver {
  /** The highest id already durably reserved (0 when none). */
  readonly reservedThrough: number;
  /** Records durably that ids up to at least `id` may be handed out; resolves once it is on disk. */
  reserve(id: number): Promise<void>;
}

/** Thrown by replaceAll for a pet set the store cannot take; its message says why and what to do. */
export class PetSetError extends Error {
  override name = 'PetSetError';
}

/**
 * Checks a set of pets before it replaces the store's, in memory and on Redis alike (so both refuse
 * the same sets): ids unique, whole numbers within 2^53 - 1, and leaving an id for the next pet (a
 * saved state whose next id is past its highest handed that id out itself, and is whole). Returns
 * the highest id; throws a PetSetError naming the id and what to give instead.
 */
export function checkPetSet(pets: readonly Pet[], nextId?: number): number {
  const ids = new Set<number>();
  let highest = 0;
  for (const pet of pets) {
    if (!Number.isSafeInteger(pet.id)) throw new PetSetError(`The pet id ${pet.id} is not a whole number within 2^53 - 1. Give every pet such an id.`);
    if (ids.has(pet.id)) throw new PetSetError(`Two pets have the id ${pet.id}. Give every pet its own id.`);
    ids.add(pet.id);
    if (pet.id > highest) highest = pet.id;
  }
  if (highest >= MAX_ID && !(nextId !== undefined && nextId > highest)) {
    throw new PetSetError(`A pet has the id ${highest}, which leaves no id for the next pet: ids must stay at or below ${MAX_ID} (2^53 - 1, the largest integer JSON clients read exactly). Give pets ids below ${MAX_ID}.`);
  }
  return highest;
}

/**
 * The mock's in-memory collection of pets and its id sequence.
 *
 * Lists come newest first (descending id: ids only grow, so it is creation order reversed), so a
 * pet created at run time is on the first page however many fixtures there are; the contract
 * leaves the order open. Every operation the API needs is O(1) or O(limit): a list of all pets
 * and one per status, kept in ascending id order by appending (ids only grow) and read from their
 * ends, so a million pets cost no more per request than a thousand. A pet is found by id where
 * the ids run without a gap (the created pets, numbered one after another), else by a binary
 * search of the ascending list: no map by id, which a create would grow (and the garbage
 * collector copy) with every pet.
 *
 * Ids are never issued twice: the next id only grows (a replacement with lower ids does not move
 * it back), and with an IdReserver (the state file's journal) an id is handed out only once the
 * reserver has recorded a high-water mark at or above it.
 */
export class PetStore implements PetRepository {
  #ascending: Pet[] = [];
  #byStatus = new Map<PetStatus | undefined, Pet[]>();
  #nextId = 1;
  #listeners = new Set<() => void>();
  #version = 0;
  #reserving: Promise<void> | undefined;

  constructor(pets: readonly Pet[] = [], readonly ids?: IdReserver) {
    if (pets.length > 0) this.replaceAll(pets);
  }

  get size(): number {
    return this.#ascending.length;
  }

  /** Goes up with every change, so a cache of anything read from the store knows when to drop it. */
  get version(): number {
    return this.#version;
  }

  /** The id the next created pet gets. */
  get nextId(): number {
    return this.#nextId;
  }

  count(): number {
    return this.#ascending.length;
  }

  peekNextId(): number {
    return this.#nextId;
  }

  changes(): number {
    return this.#version;
  }

  /**
   * Adds a pet with the next id. Only the contract's fields are kept; an `id` in the input is
   * ignored. Synchronous unless the id must first be reserved durably.
   */
  create(input: NewPet): Pet | Promise<Pet> {
    if (this.#nextId > MAX_ID) throw new PetSetError(`The mock has handed out every id up to ${MAX_ID}. Reset it with PUT /__mock/pets and lower ids, or start it with a new state file.`);
    const id = this.#nextId++;
    // One literal per shape: a field added after would move every created pet to a second shape.
    const pet: Pet = input.status === undefined ? { id, name: input.name, categoryId: input.categoryId } : { id, name: input.name, categoryId: input.categoryId, status: input.status };
    if (!this.ids || pet.id <= this.ids.reservedThrough) return this.#add(pet);
    return this.#reserveThrough(pet.id).then(() => this.#addReserved(pet, input));
  }

  /**
   * A pet whose id was reserved on disk while it waited: stored under that id, unless a
   * replacement that came in meanwhile holds a pet with it, when the create goes after the
   * replacement, with the next id, as if sent after it: two pets never share an id.
   */
  #addReserved(pet: Pet, input: NewPet): Pet | Promise<Pet> {
    return this.get(pet.id) === undefined ? this.#add(pet) : this.create(input);
  }

  /** One reservation at a time; ids beyond a running reservation wait for it, then reserve more. */
  async #reserveThrough(id: number): Promise<void> {
    while (this.ids!.reservedThrough < id) {
      this.#reserving ??= this.ids!.reserve(id).finally(() => (this.#reserving = undefined));
      await this.#reserving;
    }
  }

  #add(pet: Pet): Pet {
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
    const pets = this.#ascending;
    // Where the ids from here to the end run without a gap, `id` is as far from the end as it is from the last id.
    const guess = pets.length - 1 - (pets[pets.length - 1]?.id ?? 0) + id;
    if (pets[guess]?.id === id) return pets[guess];
    let low = 0;
    let high = pets.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = pets[middle]!;
      if (found.id === id) return found;
      if (found.id < id) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  /** The newest `limit` pets, highest id first, only those with `status` when it is given. */
  list({ limit, status }: ListQuery): Pet[] {
    const pets = status === undefined ? this.#ascending : (this.#byStatus.get(status) ?? []);
    const page: Pet[] = [];
    for (let i = pets.length - 1; i >= 0 && page.length < limit; i--) page.push(pets[i]!);
    return page;
  }

  /** Every pet, in ascending id order. */
  all(): Pet[] {
    return [...this.#ascending];
  }

  /**
   * Replaces the whole collection. Ids must be unique and leave room for the next id (at most
   * MAX_ID); the next id continues after the highest, or after `nextId` when that is higher, so
   * ids are never reused after a replace. Throws a PetSetError, changing nothing, otherwise.
   */
  replaceAll(pets: readonly Pet[], nextId?: number): void {
    const highest = checkPetSet(pets, nextId);
    this.#ascending = [];
    this.#byStatus = new Map();
    const sorted = [...pets].sort((a, b) => a.id - b.id);
    for (const pet of sorted) this.#insert({ ...pet });
    this.#nextId = Math.max(highest + 1, nextId ?? 1, this.#nextId);
    this.#changed();
  }

  #changed(): void {
    this.#version++;
    if (this.#listeners.size > 0) for (const listener of this.#listeners) listener();
  }

  #insert(pet: Pet): void {
    let bucket = this.#byStatus.get(pet.status);
    if (!bucket) this.#byStatus.set(pet.status, (bucket = []));
    inOrder(this.#ascending, pet);
    inOrder(bucket, pet);
  }
}

/**
 * Puts a pet in an id-ordered list: appended, as ids only grow, but for a create whose id was
 * handed out before a replacement with higher ids and stored after it (its id reserved on disk
 * meanwhile), which goes where its id sorts.
 */
function inOrder(pets: Pet[], pet: Pet): void {
  let at = pets.length;
  while (at > 0 && pets[at - 1]!.id > pet.id) at--;
  if (at === pets.length) pets.push(pet);
  else pets.splice(at, 0, pet);
}
