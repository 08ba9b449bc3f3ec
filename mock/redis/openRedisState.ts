import type { Pet } from '../../spec/types.ts';
import { systemClock, type Clock } from '../state/clock.ts';
import type { ApiKeyConfig } from '../state/keyRing.ts';
import type { BanPolicy } from '../state/rateLimiter.ts';
import { connectRedis, type RedisConnection, type RedisConnectionOptions } from './connectRedis.ts';
import { RedisClock } from './redisClock.ts';
import { RedisKeyStore } from './redisKeyStore.ts';
import { RedisPetRepository } from './redisPetRepository.ts';
import { RedisRateLimitStore } from './redisRateLimitStore.ts';
import { RedisRequestLog } from './redisRequestLog.ts';
import { replaceRedisState } from './replaceRedisState.ts';
import type { MockStores } from './stateStores.ts';

export interface RedisStateOptions extends RedisConnectionOptions {
  /** The pets an empty Redis is seeded with and a reset goes back to. */
  fixtures: readonly Pet[];
  /** The keys an empty Redis is seeded with and a reset goes back to. */
  keys: readonly ApiKeyConfig[];
  /** The base clock the shared offset applies to. Default: the system clock. */
  clock?: Clock;
  ban: BanPolicy;
  requestLogSize: number;
}

export interface RedisStores extends MockStores {
  pets: RedisPetRepository;
  limits: RedisRateLimitStore;
  keys: RedisKeyStore;
  clock: RedisClock;
  log: RedisRequestLog;
  connection: RedisConnection;
  /** True when this replica found Redis empty and seeded it. */
  seeded: boolean;
}

/**
 * Opens the mock's state in Redis. A Redis (under this prefix) that already holds a mock's state is
 * used as it is; an empty one is seeded with `fixtures` and `keys`, once, however many replicas
 * start together (the seed is one script that does nothing when a seed is already there). When
 * Redis comes back after being away and has lost its data (no persistence), it is seeded again,
 * with the id sequence kept above every id this replica saw issued.
 */
export async function openRedisState(options: RedisStateOptions): Promise<RedisStores> {
  const connection = await connectRedis(options);
  const clock = new RedisClock(connection, options.clock ?? systemClock);
  const pets = new RedisPetRepository(connection);
  const keys = new RedisKeyStore(connection);
  const limits = new RedisRateLimitStore(connection, clock, options.ban);
  const log = new RedisRequestLog(connection, options.requestLogSize);

  const replaceState = (mode: 'seed' | 'reset'): Promise<boolean> =>
    replaceRedisState(connection, { mode, pets: options.fixtures, keys: options.keys, nextIdFloor: pets.highestIdSeen + 1 });

  let seeded: boolean;
  try {
    seeded = await replaceState('seed');
    await clock.state();
  } catch (error) {
    await connection.close();
    throw error;
  }
  // A Redis that comes back empty (restarted without persistence) is seeded again; if it goes away
  // again meanwhile, the next return tries again.
  connection.onReturn(() => replaceState('seed'));

  return {
    pets, keys, limits, clock, log, connection, seeded,
    async reset() {
      await replaceState('reset');
      await clock.state();
    },
    async close() {
      await log.flush();
      await connection.close();
    },
  };
}
