import { checkRedisUrl, defaultRedisPrefix } from './redisUrl.ts';
import { checkReplicaId } from './replicaId.ts';

export interface RedisCliOptions {
  /** `--redis URL` */
  redis?: string | undefined;
  /** `--redis-prefix PREFIX` */
  redisPrefix?: string | undefined;
  /** `--state-file FILE`: cannot go with Redis, which is the state. */
  stateFile?: string | undefined;
  /** `--replica-id ID`: what this replica is called in the shared request log. */
  replicaId?: string | undefined;
}

export const redisUrlVariable = 'PETS_MOCK_REDIS_URL';

/**
 * Where the mock keeps its state, from the command line and the environment: Redis when `--redis`
 * or PETS_MOCK_REDIS_URL gives a URL (the flag wins), in memory otherwise. Throws a message that
 * says what to fix for a URL the mock cannot use, a prefix without Redis, or Redis with a state file.
 */
export function resolveRedisOptions(options: RedisCliOptions, env: Record<string, string | undefined> = process.env): { url: string; prefix: string; replicaId?: string } | undefined {
  const fromEnv = env[redisUrlVariable]?.trim() || undefined;
  const url = options.redis ?? fromEnv;
  if (url === undefined) {
    if (options.redisPrefix !== undefined) throw new Error(`--redis-prefix needs Redis: give --redis URL (or ${redisUrlVariable}) too, or leave the prefix out.`);
    // In memory there is one replica: an id would name nothing.
    if (options.replicaId !== undefined) throw new Error(`--replica-id needs Redis: give --redis URL (or ${redisUrlVariable}) too, or leave the id out.`);
    return undefined;
  }
  const source = options.redis !== undefined ? '--redis' : redisUrlVariable;
  if (options.stateFile !== undefined) {
    throw new Error(`--state-file cannot be used with ${source}: Redis holds the state and keeps it across restarts. Leave out one of them.`);
  }
  try {
    checkRedisUrl(url);
  } catch (error) {
    throw new Error(`${source}: ${(error as Error).message}`);
  }
  const prefix = options.redisPrefix ?? defaultRedisPrefix;
  if (prefix === '' || /\s/.test(prefix)) throw new Error(`--redis-prefix ${JSON.stringify(prefix)} is empty or has spaces. Give a short name such as "pets-mock:" or "team-a:".`);
  if (options.replicaId === undefined) return { url, prefix };
  checkReplicaId(options.replicaId);
  return { url, prefix, replicaId: options.replicaId };
}
