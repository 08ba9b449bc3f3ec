import type { ApiKeyConfig, ApiKeyEntry } from '../state/keyRing.ts';
import type { RedisConnection } from './connectRedis.ts';
import { keyArguments, keyDigest, keyEntry } from './keyEntry.ts';
import type { KeyDirectory } from '../state/stateParts.ts';

/** Accepted keys in one Redis hash, by SHA-256 digest (as mock/keyRing.ts holds them in memory). */
export class RedisKeyStore implements KeyDirectory {
  constructor(private readonly redis: RedisConnection) {}

  async find(key: string): Promise<ApiKeyEntry | undefined> {
    const json = await this.redis.run((client) => client.hget(this.redis.key('keys'), keyDigest(key)));
    return json === null ? undefined : (JSON.parse(json) as ApiKeyEntry);
  }

  async has(key: string): Promise<boolean> {
    return (await this.find(key)) !== undefined;
  }

  async set(config: ApiKeyConfig): Promise<ApiKeyEntry> {
    const { digest, entry } = keyEntry(config);
    await this.redis.run((client) => client.hset(this.redis.key('keys'), digest, JSON.stringify(entry)));
    return entry;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.run((client) => client.hdel(this.redis.key('keys'), keyDigest(key)))) === 1;
  }

  async replaceAll(configs: readonly ApiKeyConfig[]): Promise<void> {
    const args = keyArguments(configs);
    await this.redis.run((client) => {
      const multi = client.multi().del(this.redis.key('keys'));
      if (args.length > 0) multi.hset(this.redis.key('keys'), ...args);
      return multi.exec();
    });
  }
}
