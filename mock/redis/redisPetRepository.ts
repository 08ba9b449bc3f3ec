import { petJson, readPetsJson, type StoredNewPet as NewPet, type StoredPet as Pet } from '../state/petJson.ts';
import { PetSetError, type ListQuery } from '../state/petStore.ts';
import type { PetRepository, PetStep, PetStepResult } from '../state/stateParts.ts';
import type { RedisConnection } from './connectRedis.ts';
import { replaceRedisState } from './replaceRedisState.ts';

/**
 * The pets in Redis: a hash of pet JSON by id, a sorted set of ids (score = id) for all pets and
 * one per status, the id sequence (the last id issued) and a version that every write raises.
 * Every operation is one round trip; a page, newest first, is O(log n + limit) (ZREVRANGE by rank, then HMGET),
 * never a scan. Pets are kept as the JSON text that is served (petJson: a categoryId past 2^53 - 1
 * with its digits; no script decodes it), so a page is joined, not re-encoded, and read back exactly.
 */
export class RedisPetRepository implements PetRepository {
  /** The highest id this replica has seen issued: the floor of the sequence if Redis loses its data. */
  highestIdSeen = 0;

  constructor(private readonly redis: RedisConnection) {}

  async create(input: NewPet): Promise<Pet> {
    const result = await this.runStep({ kind: 'create', input });
    if ('exhausted' in result) throw exhaustedError();
    return (result as { pet: Pet }).pet;
  }

  async get(id: number): Promise<Pet | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const json = await this.redis.run((client) => client.hget(this.redis.key('pets'), String(id)));
    return json === null ? undefined : readPetsJson<Pet>(json);
  }

  async list({ limit, status }: ListQuery): Promise<Pet[]> {
    const result = await this.runStep({ kind: 'page', limit, status });
    return readPetsJson<Pet[]>((result as { json: string }).json);
  }

  /** A pet operation in one script (petSteps in luaScripts.ts). */
  async runStep(step: PetStep): Promise<PetStepResult> {
    const [tag, out] = (await this.redis.script('petsStep', stepArguments(step))) as [string, unknown];
    return this.stepResult(step, tag, out);
  }

  /** What runStep's tag and payload say, as a PetStepResult; notes a created pet's id. */
  stepResult(step: PetStep, tag: string, out: unknown): PetStepResult {
    switch (step.kind) {
      case 'create': {
        if (tag === 'exhausted') return { kind: 'create', exhausted: true };
        const pet = readPetsJson<Pet>(out as string);
        this.#saw(pet.id);
        return { kind: 'create', pet };
      }
      case 'get':
        return { kind: 'get', pet: out === null ? undefined : readPetsJson<Pet>(out as string) };
      case 'page':
        // A null would be an id whose pet is missing: writes keep the two together, so skip rather than fail.
        return { kind: 'page', version: tag, json: out === null ? undefined : `[${(out as (string | null)[]).filter((t) => t !== null).join(',')}]` };
    }
  }

  async all(): Promise<Pet[]> {
    const texts = (await this.redis.script('petsAll', [])) as (string | null)[];
    return readPetsJson<Pet[]>(`[${texts.filter((t) => t !== null).join(',')}]`);
  }

  /** Rejects with PetSetError (duplicate ids, ids Redis cannot hold exactly), changing nothing. */
  async replaceAll(pets: readonly Pet[], nextId?: number): Promise<void> {
    await replaceRedisState(this.redis, { mode: 'replace', pets, nextIdFloor: nextId ?? 1 });
    for (const pet of pets) this.#saw(pet.id);
    if (nextId !== undefined) this.#saw(nextId - 1);
  }

  async count(): Promise<number> {
    return this.redis.run((client) => client.zcard(this.redis.key('pets:all')));
  }

  async peekNextId(): Promise<number> {
    const last = await this.redis.run((client) => client.get(this.redis.key('pets:seq')));
    return Number(last ?? 0) + 1;
  }

  #saw(id: number): void {
    if (id > this.highestIdSeen) this.highestIdSeen = id;
  }
}

/** runStep's kind and arguments for a step (petSteps in luaScripts.ts). */
export function stepArguments(step: PetStep): (string | number)[] {
  switch (step.kind) {
    case 'create': {
      // Only the contract's fields, as the in-memory store keeps; an `id` in the input is ignored.
      const { input } = step;
      const fields: Omit<Pet, 'id'> = { name: input.name, categoryId: input.categoryId };
      if (input.status !== undefined) fields.status = input.status;
      return ['create', input.status ?? '', petJson(fields).slice(1, -1)];
    }
    case 'get':
      // An id Redis could not hold exactly is no pet's: '' names none.
      return ['get', Number.isSafeInteger(step.id) ? String(step.id) : ''];
    case 'page':
      return ['page', step.status ?? '', Math.max(0, Math.floor(step.limit)), step.heldVersion === undefined ? '' : String(step.heldVersion)];
  }
}

function exhaustedError(): PetSetError {
  return new PetSetError('Failed to create the pet: every id up to 2^53 - 1 has been issued. Replace the pets (PUT /__mock/pets) or reset the Redis prefix.');
}
