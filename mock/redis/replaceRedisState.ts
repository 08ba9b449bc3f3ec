import { randomUUID } from 'node:crypto';
import { petJson, type StoredPet as Pet } from '../state/petJson.ts';
import type { ApiKeyConfig } from '../state/keyRing.ts';
import { checkPetSet, PetSetError } from '../state/petStore.ts';
import type { RedisConnection } from './connectRedis.ts';
import { keyArguments } from './keyArguments.ts';

/** Pets per staging call: a few hundred kilobytes, so no single command holds Redis up for long. */
const stageBatch = 2000;

export interface StateReplacement {
  /** 'replace': pets (and keys when given); 'seed': everything, only if nothing is seeded; 'reset': everything. */
  mode: 'replace' | 'seed' | 'reset';
  pets: readonly Pet[];
  /** The keys to put in place; absent leaves the keys as they are (mode 'replace' only). */
  keys?: readonly ApiKeyConfig[];
  /** The next id is at least this (it always stays above every id issued). */
  nextIdFloor: number;
}

/**
 * Replaces the shared state at once, whatever its size: the pets are staged in batches under keys
 * nobody reads, then one script swaps them in together with the rest. Returns false when mode
 * 'seed' found a seed already there (and changed nothing).
 */
export async function replaceRedisState(redis: RedisConnection, { mode, pets, keys, nextIdFloor }: StateReplacement): Promise<boolean> {
  // The in-memory store's check, so both refuse the same sets; the floor stands for the next id.
  checkPetSet(pets, nextIdFloor);
  const args = petArguments(pets);
  if (keys === undefined && mode !== 'replace') throw new Error(`A ${mode} needs the keys to put in place.`);
  if (!(Number.isInteger(nextIdFloor) && nextIdFloor >= 1 && nextIdFloor <= 2 ** 53)) {
    throw new PetSetError(`The next id ${nextIdFloor} is not a whole number from 1 to 2^53. Give the next id the pets continue from.`);
  }
  const keyArgs = keys === undefined ? [] : keyArguments(keys);
  const token = randomUUID();
  for (let i = 0; i < args.length; i += stageBatch * 3) {
    await redis.script('petsStage', [token, ...args.slice(i, i + stageBatch * 3)]);
  }
  const reply = await redis.script('stateReplace', [mode, randomUUID(), nextIdFloor, token, keys === undefined ? -1 : keys.length, ...keyArgs]);
  return reply === 1;
}

/** The (id, status, JSON) triples the staging script takes, for pets checkPetSet accepted. */
function petArguments(pets: readonly Pet[]): string[] {
  return pets.flatMap((pet) => [String(pet.id), pet.status ?? '', petJson(pet)]);
}
