import type { StoredPet as Pet } from '../state/petJson.ts';
import { systemClock, type Clock } from '../state/clock.ts';
import type { ApiKeyConfig } from '../state/keyRing.ts';
import type { BanPolicy } from '../rateLimits/rateLimiter.ts';
import type { Admission, AdmissionRequest, PetStep, PetStepResult, StateParts } from '../state/stateParts.ts';
import { anonymousBucket, keylessLimitsOf } from '../rateLimits/anonymousBucket.ts';
import type { Limits } from '../rateLimits/plans.ts';
import { checkStateOptions } from '../state/stateOptions.ts';
import { stepArguments } from './redisPetRepository.ts';
import { connectRedis, type RedisConnection, type RedisConnectionOptions } from './connectRedis.ts';
import { RedisClock } from './redisClock.ts';
import { RedisKeyStore } from './redisKeyStore.ts';
import { RedisPetRepository } from './redisPetRepository.ts';
import { RedisRateLimitStore } from './redisRateLimitStore.ts';
import { RedisRequestLog } from './redisRequestLog.ts';
import { RedisFaultRules } from './redisFaultRules.ts';
import { replaceRedisState } from './replaceRedisState.ts';
import { checkReplicaId, defaultReplicaId } from './replicaId.ts';

export interface RedisStateOptions extends RedisConnectionOptions {
  /** The pets an empty Redis is seeded with and a reset goes back to. */
  fixtures: readonly Pet[];
  /** The keys an empty Redis is seeded with and a reset goes back to. */
  keys: readonly ApiKeyConfig[];
  /** The base clock the shared offset applies to. Default: the system clock. */
  clock?: Clock | undefined;
  ban: BanPolicy;
  /** The limits requests without a valid key are counted at, per address. Default: the Free plan's. */
  keylessLimits?: Partial<Limits> | undefined;
  requestLogSize: number;
  /** The id this replica stamps on the request-log entries it writes. Default: `host:pid`. */
  replicaId?: string | undefined;
}

/**
 * The mock's state in Redis, behind the same StateParts as MockState in memory: the API and
 * control contexts cannot tell them apart. Keys and address buckets share one rate-limit store
 * (their bucket ids never collide: `key:…` and `ip:…`).
 */
export interface RedisState extends StateParts {
  readonly store: RedisPetRepository;
  readonly keys: RedisKeyStore;
  readonly limiter: RedisRateLimitStore;
  readonly clock: RedisClock;
  readonly log: RedisRequestLog;
  readonly faults: RedisFaultRules;
  readonly connection: RedisConnection;
  /** True when this replica found Redis empty and seeded it. */
  readonly seeded: boolean;
  admit(request: AdmissionRequest, spend: boolean, step?: PetStep): Promise<Admission>;
  runStep(step: PetStep): Promise<PetStepResult>;
  reset(): Promise<void>;
  /** What a reset (and a reseed of a Redis that came back empty) goes back to from now on: a --watch reload. */
  useFixtures(fixtures: readonly Pet[], keys: readonly ApiKeyConfig[]): void;
  /** Stores the request log entries still on their way, then closes the connection. */
  close(): Promise<void>;
}

/**
 * Opens the mock's state in Redis. A Redis (under this prefix) that already holds a mock's state is
 * used as it is; an empty one is seeded with `fixtures` and `keys`, once, however many replicas
 * start together (the seed is one script that does nothing when a seed is already there). When
 * Redis comes back after being away and has lost its data (no persistence), it is seeded again,
 * with the id sequence kept above every id this replica saw issued.
 */
export async function openRedisState(options: RedisStateOptions): Promise<RedisState> {
  checkStateOptions({ requestLogSize: options.requestLogSize, ban: options.ban, keylessLimits: options.keylessLimits });
  // Every replica on one store should be given the same: each counts its requests at its own.
  const keylessLimits = keylessLimitsOf(options.keylessLimits);
  if (options.replicaId !== undefined) checkReplicaId(options.replicaId, 'replicaId');
  const connection = await connectRedis(options);
  const clock = new RedisClock(connection, options.clock ?? systemClock);
  const store = new RedisPetRepository(connection);
  const keys = new RedisKeyStore(connection);
  const faults = new RedisFaultRules(connection, clock);
  const limiter = new RedisRateLimitStore(connection, clock, options.ban, faults);
  const log = new RedisRequestLog(connection, options.requestLogSize, options.replicaId ?? defaultReplicaId());
  let fixtures = options.fixtures;
  let keyConfigs = options.keys;

  const replaceState = (mode: 'seed' | 'reset'): Promise<boolean> =>
    replaceRedisState(connection, { mode, pets: fixtures, keys: keyConfigs, nextIdFloor: store.highestIdSeen + 1 });

  let seeded: boolean;
  try {
    seeded = await replaceState('seed');
    await clock.state();
    // The rules other replicas added already: the first requests need not read them.
    await faults.list();
  } catch (error) {
    await connection.close();
    throw error;
  }
  // A Redis that comes back empty (restarted without persistence) is seeded again; if it goes away
  // again meanwhile, the next return tries again.
  connection.onReturn(() => replaceState('seed'));

  return {
    store, keys, limiter, clock, log, faults, connection, seeded, keylessLimits,
    // The key, the clock, both rate windows, the ban and the step in one script: one round trip.
    async admit({ token, ip }, spend, step) {
      const admitted = await limiter.admit(
        { token, anonymous: anonymousBucket(ip, keylessLimits) },
        spend,
        step && { faultsVersion: faults.version, args: stepArguments(step) },
      );
      if (token !== undefined) keys.remember(token, admitted.key);
      const { key, bucketId, decision } = admitted;
      return { key, bucketId, decision, step: step && admitted.step ? store.stepResult(step, ...admitted.step) : undefined };
    },
    runStep: (step) => store.runStep(step),
    async reset() {
      await replaceState('reset');
      await faults.clear();
      keys.forgetSeen();
      await clock.state();
    },
    useFixtures(nextFixtures, nextKeys) {
      fixtures = nextFixtures;
      keyConfigs = nextKeys;
    },
    async close() {
      await log.flush();
      await connection.close();
    },
  };
}
