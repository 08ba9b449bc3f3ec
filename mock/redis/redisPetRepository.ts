import type { NewPet, Pet } from '../../spec/types.ts';
import { PetSetError, type ListQuery } from '../state/petStore.ts';
import type { PetRepository } from '../state/stateParts.ts';
import type { RedisConnection } from './connectRedis.ts';
import { replaceRedisState } from './replaceRedisState.ts';

/**
 * The pets in Redis: a hash of pet JSON by id, a sorted set of ids (score = id) for all pets and
 * one per status, the id sequence (the last id issued) and a version that every write raises.
 * Every operation is one round trip; a page, newest first, is O(log n + limit) (ZREVRANGE by rank, then HMGET),
 * never a scan. Pets are kept as the JSON text that is served, so a page is joined, not re-encoded.
 */
export class RedisPetRepository implements PetRepository {
  /** The highest id this replica has seen issued: the floor of the sequence if Redis loses its data. */
  highestIdSeen = 0;

  constructor(private readonly redis: RedisConnection) {}

  async create(input: NewPet): Promise<Pet> {
    // Only the contract's fields, as the in-memory store keeps; an `id` in the input is ignored.
    const fields: Omit<Pet, 'id'> = { name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) fields.status = input.status;
    let json: string;
    try {
      json = (await this.redis.script('petsCreate', [input.status ?? '', JSON.stringify(fields).slice(1, -1)])) as string;
    } catch (error) {
      if ((error as Error).message.startsWith('IDS_EXHAUSTED')) throw new PetSetError('Failed to create the pet: every id up to 2^53 - 1 has been issued. Replace the pets (PUT /__mock/pets) or reset the Redis prefix.');
      throw error;
    }
    const pet = JSON.parse(json) as Pet;
    this.#saw(pet.id);
    return pet;
  }

  async get(id: number): Promise<Pet | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const json = await this.redis.run((client) => client.hget(this.redis.key('pets'), String(id)));
    return json === null ? undefined : (JSON.parse(json) as Pet);
  }

  async list(query: ListQuery): Promise<Pet[]> {
    return JSON.parse(await this.listJson(query)) as Pet[];
  }

  async listJson({ limit, status }: ListQuery): Promise<string> {
    if (!(limit >= 1)) return '[]';
    const texts = (await this.redis.script('petsList', [status ?? '', Math.floor(limit)])) as (string | null)[];
    // A null would be an id whose pet is missing: writes keep the two together, so skip rather than fail.
    return `[${texts.filter((t) => t !== null).join(',')}]`;
  }

  async all(): Promise<Pet[]> {
    const texts = (await this.redis.script('petsAll', [])) as (string | null)[];
    return JSON.parse(`[${texts.filter((t) => t !== null).join(',')}]`) as Pet[];
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

  async changes(): Promise<string> {
    const [epoch, version] = await this.redis.run((client) => client.mget(this.redis.key('epoch'), this.redis.key('pets:version')));
    return `${epoch ?? ''}:${version ?? 0}`;
  }

  #saw(id: number): void {
    if (id > this.highestIdSeen) this.highestIdSeen = id;
  }
}
