// The mock's pets as values and as JSON text. The contract types `categoryId` as int64: the mock
// keeps any int64 a client sends exactly, a number when it is within 2^53 - 1 (as JSON.parse
// reads it), a BigInt past that. Every place a pet becomes JSON text goes through petJson/petsJson
// (JSON.stringify throws on a BigInt), and every place pets are read back from text through
// readPetsJson, so no digit is lost on the way through a state file, Redis or the control API.
import type { NewPet, Pet } from '../../spec/types.ts';
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';

/** A category id: a number within 2^53 - 1, a BigInt past it (within int64: validation refuses the rest). */
export type CategoryId = number | bigint;

/** A pet as the mock holds it: the contract's Pet, its categoryId exact. */
export type StoredPet = Omit<Pet, 'categoryId'> & { categoryId: CategoryId };

/** A create's input as the mock reads it: the contract's NewPet, its categoryId exact. */
export type StoredNewPet = Omit<NewPet, 'categoryId'> & { categoryId: CategoryId };

/** A pet's JSON text (or a pet's fields but its id), its categoryId with the digits it was sent with. */
export function petJson(pet: Omit<StoredPet, 'id'> & { id?: number }): string {
  return typeof pet.categoryId === 'bigint' ? stringifyExact(pet) : JSON.stringify(pet);
}

/** A list of pets as JSON text; JSON.stringify's own when no categoryId is past 2^53 - 1. */
export function petsJson(pets: readonly StoredPet[]): string {
  return pets.some((pet) => typeof pet.categoryId === 'bigint') ? `[${pets.map(petJson).join(',')}]` : JSON.stringify(pets);
}

/** Pets (one, or a list) read back from JSON text the mock wrote, every categoryId exact. */
export function readPetsJson<T extends StoredPet | StoredPet[]>(text: string): T {
  return parseJsonExact(text) as T;
}
