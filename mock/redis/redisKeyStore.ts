import type { ApiKeyConfig, ApiKeyEntry } from '../state/keyRing.ts';
import type { RedisConnection } from './connectRedis.ts';
import { keyArguments } from './keyArguments.ts';
import { keyDigest, keyEntry } from '../state/keyEntry.ts';
import type { KeyDirectory } from '../state/stateParts.ts';

/** How many looked-up keys a replica remembers for answers given while Redis is away. */
const MAX_SEEN = 10_000;

/** Accepted keys in one Redis hash, by SHA-256 digest (as mock/keyRing.ts holds them in memory). */
export class RedisKeyStore implements KeyDirectory {
  // What each lookup found, by digest (null: not accepted), so a 503 given while Redis is away can
  // still name the quota's limit. Filled by the lookups requests make anyway (no extra round trip);
  // never used to admit a request, so a key changed on another replica meanwhile costs nothing but
  // a stale limit on a 503. Bounded: tokens come from outside, and the oldest goes first.
  readonly #seen = new Map<string, ApiKeyEntry | null>();

  constructor(private readonly redis: RedisConnection) {}

  async find(key: string): Promise<ApiKeyEntry | undefined> {
    const digest = keyDigest(key);
    const json = await this.redis.run((client) => client.hget(this.redis.key('keys'), digest));
    const entry = json === null ? undefined : (JSON.parse(json) as ApiKeyEntry);
    this.#remember(digest, entry ?? null);
    return entry;
  }

  lastSeen(key: string): ApiKeyEntry | null | undefined {
    return this.#seen.get(keyDigest(key));
  }

  async has(key: string): Promise<boolean> {
    return (await this.find(key)) !== undefined;
  }

  async set(config: ApiKeyConfig): Promise<ApiKeyEntry> {
    const { digest, entry } = keyEntry(config);
    await this.redis.run((client) => client.hset(this.redis.key('keys'), digest, JSON.stringify(entry)));
    this.#remember(digest, entry);
    return entry;
  }

  async delete(key: string): Promise<boolean> {
    const digest = keyDigest(key);
    const deleted = (await this.redis.run((client) => client.hdel(this.redis.key('keys'), digest))) === 1;
    this.#remember(digest, null);
    return deleted;
  }

  async replaceAll(configs: readonly ApiKeyConfig[]): Promise<void> {
    const args = keyArguments(configs);
    await this.redis.run((client) => {
      const multi = client.multi().del(this.redis.key('keys'));
      if (args.length > 0) multi.hset(this.redis.key('keys'), ...args);
      return multi.exec();
    });
    this.#seen.clear();
  }

  /** Notes what an admission found of a key (undefined: not accepted), as a lookup would. */
  remember(key: string, entry: ApiKeyEntry | undefined): void {
    this.#remember(keyDigest(key), entry ?? null);
  }

  /** Forgets what lookups found: the keys were replaced as a whole (a reset). */
  forgetSeen(): void {
    this.#seen.clear();
  }

  #remember(digest: string, entry: ApiKeyEntry | null): void {
    if (!this.#seen.has(digest) && this.#seen.size >= MAX_SEEN) this.#seen.delete(this.#seen.keys().next().value!);
    this.#seen.set(digest, entry);
  }
}
