import type { StoredPet as Pet } from './petJson.ts';
import type { Clock } from './clock.ts';
import type { ApiKeyConfig, BanPolicy } from './stateParts.ts';
import type { IdReserver } from './petStore.ts';
import type { Limits } from '../rateLimits/plans.ts';
import { keylessLimitsProblem } from '../rateLimits/anonymousBucket.ts';

export interface RedisStateConfig {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
  url: string;
  /** Put before every key, so several mocks can share one Redis. Default `pets-mock:`. */
  prefix?: string | undefined;
  /** How long one Redis command may take before the request answers 503. Default 1000 ms. */
  commandTimeoutMs?: number | undefined;
  /** What this replica is called in the shared request log and its access log. Default `host:pid`. */
  replicaId?: string | undefined;
}

export interface StateOptions {
  /** The pets the mock starts with and a reset goes back to. */
  fixtures: readonly Pet[];
  /** The keys the mock accepts at start and after a reset. */
  keys: readonly ApiKeyConfig[];
  /** The clock the mock's own clock runs on. Default: the system clock. */
  clock?: Clock | undefined;
  ban?: Partial<BanPolicy> | undefined;
  /** The limits requests without a valid key are counted at, per client address. Default: the Free plan's. */
  keylessLimits?: Partial<Limits> | undefined;
  requestLogSize?: number | undefined;
  maxAnonymousBuckets?: number | undefined;
  /** In Redis, shared with every mock on the same Redis and prefix; in memory when absent. */
  redis?: RedisStateConfig | undefined;
  /** In memory: the state to start from instead of the fixtures (a state file). */
  startState?: { pets: readonly Pet[]; nextId: number } | undefined;
  /** In memory: makes ids durable before they are handed out (the state file's id journal). */
  ids?: IdReserver | undefined;
  /** Where a shared store reports going away and coming back. */
  logger?: { info(message: string): void; warn(message: string): void } | undefined;
}

/** Why an option cannot be taken, named as the caller gave it. */
export class StateOptionsError extends Error {
  override readonly name = 'StateOptionsError';
}

function wholeNumber(name: string, value: number | undefined, min: number): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= min)) {
    throw new StateOptionsError(`${name} is ${String(value)}: give a whole number of at least ${min}.`);
  }
}

/**
 * Checks the options both backends take, so that they accept and refuse the same things (the keys
 * are checked by each backend's key ring, alike: keyEntry.ts).
 */
export function checkStateOptions(options: Pick<StateOptions, 'requestLogSize' | 'maxAnonymousBuckets' | 'ban' | 'keylessLimits' | 'redis' | 'startState' | 'ids'>): void {
  wholeNumber('requestLogSize', options.requestLogSize, 0);
  wholeNumber('maxAnonymousBuckets', options.maxAnonymousBuckets, 1);
  wholeNumber('ban.threshold', options.ban?.threshold, 1);
  wholeNumber('ban.seconds', options.ban?.seconds, 1);
  const keyless = keylessLimitsProblem(options.keylessLimits);
  if (keyless) throw new StateOptionsError(keyless);
  if (options.redis && options.startState) throw new StateOptionsError('A start state (a state file) cannot be used with Redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
  if (options.redis && options.maxAnonymousBuckets !== undefined) throw new StateOptionsError('maxAnonymousBuckets applies in memory only: on Redis the buckets nobody uses expire by themselves. Leave it out with Redis.');
  if (options.redis && options.ids) throw new StateOptionsError('An id journal (a state file) cannot be used with Redis: Redis keeps the id sequence. Leave out one of them.');
}

