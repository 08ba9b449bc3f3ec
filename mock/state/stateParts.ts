import type { NewPet, Pet } from '../../spec/types.ts';
import type { Awaitable } from './awaitable.ts';
import type { ClockState } from './clock.ts';
import type { ApiKeyConfig, ApiKeyEntry } from './keyRing.ts';
import type { ListQuery } from './petStore.ts';
import type { Limits } from './plans.ts';
import type { RateDecision } from './rateLimiter.ts';
import type { FaultSpec, FaultTarget, FaultView, FiredFault } from '../faults/faultRule.ts';
import type { StalledAnswers } from '../faults/stalledAnswers.ts';
import type { LoggedRequest, RecordedRequest, RequestFilter } from './requestLog.ts';

/**
 * What every part of the mock's state must do, whatever holds it: memory now (PetStore, KeyRing,
 * RateLimiter, MockClock, RequestLog), Redis next (issue 13). Every answer may be a promise; the
 * hooks, routes and control API that use the parts accept one (see awaitable.ts).
 */
export interface PetRepository {
  /** Adds a pet with the next id (never one handed out before). */
  create(input: NewPet): Awaitable<Pet>;
  get(id: number): Awaitable<Pet | undefined>;
  /** The newest `limit` pets (highest id first), only those with `status` when it is given. */
  list(query: ListQuery): Awaitable<Pet[]>;
  all(): Awaitable<Pet[]>;
  /** Replaces every pet; ids keep growing. Rejects (PetSetError) a set it cannot take, changing nothing. */
  replaceAll(pets: readonly Pet[], nextId?: number): Awaitable<void>;
  count(): Awaitable<number>;
  /** The id the next created pet gets. */
  peekNextId(): Awaitable<number>;
  /** Differs after every change, on any replica: caches of pages key on it. */
  changes(): Awaitable<number | string>;
}

export interface KeyDirectory {
  find(key: string): Awaitable<ApiKeyEntry | undefined>;
  /**
   * What this process last learnt of the key without asking the store: its entry, null when it was
   * not accepted, undefined when never looked up here. Only for answers given while a shared store
   * is away (the 503's X-RateLimit-Limit); a store that cannot go away needs none.
   */
  lastSeen?(key: string): ApiKeyEntry | null | undefined;
  has(key: string): Awaitable<boolean>;
  set(config: ApiKeyConfig): Awaitable<ApiKeyEntry>;
  delete(key: string): Awaitable<boolean>;
  replaceAll(keys: readonly ApiKeyConfig[]): Awaitable<void>;
}

export interface RateLimits {
  /** Counts one request against the bucket, or refuses it, atomically. */
  consume(id: string, limits: Limits): Awaitable<RateDecision>;
  /** What the headers would say now, without counting a request. */
  peek(id: string, limits: Limits): Awaitable<RateDecision>;
  clear(): Awaitable<void>;
}

/**
 * The mock's clock. `now()` stays synchronous, because every rate-limit decision reads it: a
 * shared backing keeps the offset and freeze in the store and a copy in each replica, refreshed
 * on change (publish/subscribe), so reading the time never waits on the network.
 */
export interface ControlledClock {
  now(): number;
  /** Each change may answer with the state it left (a shared clock reads it back anyway). */
  advance(seconds: number): Awaitable<ClockState | void>;
  /** Stops the clock, at `atMs` (Unix ms) when given; refuses (ClockRangeError) an instant out of range, changing nothing. */
  freeze(frozen: boolean, atMs?: number): Awaitable<ClockState | void>;
  reset(): Awaitable<ClockState | void>;
  state(): Awaitable<ClockState>;
}

export interface RequestJournal {
  readonly capacity: number;
  /** The replica a shared log stamps on the entries it records (--replica-id); none in memory, where there is one replica. */
  readonly replica?: string | undefined;
  /** Records a request; the hot path does not wait for it. */
  add(entry: RecordedRequest): Awaitable<void>;
  list(filter?: RequestFilter): Awaitable<LoggedRequest[]>;
  /** The entries as recorded, oldest first, for the client report. */
  recorded(): Awaitable<RecordedRequest[]>;
  dropped(): Awaitable<number>;
  clear(): Awaitable<void>;
}

/**
 * The fault rules of the control API (`/__mock/faults`), shared by every replica on one store. A
 * request asks `fire` once it is admitted; with no rules that answer is a value, at no cost.
 */
export interface FaultRules {
  /** Adds a rule after the others; it takes requests from the next one on. */
  add(rule: FaultSpec): Awaitable<FaultView>;
  /** Every rule, in the order they were added, with how often each fired and how often it will. */
  list(): Awaitable<FaultView[]>;
  /** Removes a rule, letting go the answers it holds; false when there was none with this id. */
  remove(id: string): Awaitable<boolean>;
  clear(): Awaitable<void>;
  /** The first rule that takes this request, counted as fired; undefined when none does. */
  fire(target: FaultTarget): Awaitable<FiredFault | undefined>;
  /** The answers stall rules hold in this process. */
  readonly stalls: StalledAnswers;
}

/** The whole state as the API and control contexts see it: MockState in memory, a Redis state next. */
export interface StateParts {
  readonly store: PetRepository;
  readonly keys: KeyDirectory;
  /** Counts requests with a valid key, by key. */
  readonly limiter: RateLimits;
  /** Counts requests without one, by client address. */
  readonly anonymousLimiter: RateLimits;
  readonly clock: ControlledClock;
  readonly log: RequestJournal;
  readonly faults: FaultRules;
  /** Back to the fixtures, keys as loaded, no counters or bans, an empty log, the clock at its base, no fault rules. */
  reset(): Awaitable<void>;
}
