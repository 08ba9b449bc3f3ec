import type { NewPet, Pet, PetStatus } from '../../spec/types.ts';
import type { Awaitable } from './awaitable.ts';
import type { ClockState } from './clock.ts';
import type { ApiKeyConfig, ApiKeyEntry } from './keyRing.ts';
import type { ListQuery } from './petStore.ts';
import type { Limits } from '../rateLimits/plans.ts';
import type { RateDecision } from '../rateLimits/rateLimiter.ts';
import type { FaultSpec, FaultTarget, FaultView, FiredFault } from '../faults/faultRule.ts';
import type { StalledAnswers } from '../faults/stalledAnswers.ts';
import type { LoggedRequest, RecordedRequest, RequestFilter } from './requestLog.ts';

/**
 * What every part of the mock's state must do, whatever holds it: memory (PetStore, KeyRing,
 * RateLimiter, MockClock, RequestLog) or Redis (mock/redis). Every answer may be a promise; the
 * pipelines that use the parts accept one (see awaitable.ts).
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
}

export interface KeyDirectory {
  find(key: string): Awaitable<ApiKeyEntry | undefined>;
  /**
   * What this process last learnt of the key without asking the store: its entry, null when it was
   * not accepted, undefined when never looked up here. Never to admit a request: for answers given
   * while a shared store is away (the 503's X-RateLimit-Limit), and to choose whether a body is
   * worth reading before the admission (apiPipeline's stepsAhead: only a store that can go away has
   * a round trip to save). A store in this process needs none.
   */
  lastSeen?(key: string): ApiKeyEntry | null | undefined;
  has(key: string): Awaitable<boolean>;
  set(config: ApiKeyConfig): Awaitable<ApiKeyEntry>;
  delete(key: string): Awaitable<boolean>;
  replaceAll(keys: readonly ApiKeyConfig[]): Awaitable<void>;
}

/** A backend's rate-limit counters (its own part: requests are counted through StateParts.admit). */
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
  /**
   * The version of the rules as this process last read them, for `admit` to run a step only while
   * they are current; null when the rules cannot change behind this process's back (in memory).
   */
  readonly version: string | null;
  /** Reads the rules again when this process knows they changed since it last read them; undefined when they are current. */
  refresh(): Promise<void> | undefined;
  /** Whether a rule as last read may take this request, its key's bucket perhaps not known yet (no round trip): if so, `fire` must be asked. */
  mayFire(target: FaultTarget): boolean;
  /** The answers stall rules hold in this process. */
  readonly stalls: StalledAnswers;
}

/** A pet operation an API request runs once it is admitted: in the same step as its admission where it can. */
export type PetStep =
  | { kind: 'create'; input: NewPet }
  | { kind: 'get'; id: number }
  /** A page, newest first; `heldVersion` is the version of the copy the caller holds, if any. */
  | { kind: 'page'; limit: number; status: PetStatus | undefined; heldVersion?: number | string | undefined };

/** What a PetStep gave. */
export type PetStepResult =
  | { kind: 'create'; pet: Pet }
  /** Every id up to 2^53 - 1 has been issued: nothing was created. */
  | { kind: 'create'; exhausted: true }
  | { kind: 'get'; pet: Pet | undefined }
  /** The page as JSON text, or no text when the caller's copy (`heldVersion`) is still current. */
  | { kind: 'page'; version: number | string; json: string | undefined };

/** Who is asking: the bearer token as sent (when there was one) and the client's address. */
export interface AdmissionRequest {
  token: string | undefined;
  ip: string;
}

/** What one admission learns: whose quota the request spends, whether it may pass, and what its step gave. */
export interface Admission {
  /** The accepted key, when the request presented one the mock knows. */
  key: ApiKeyEntry | undefined;
  /** The bucket that was counted: the key's, or `ip:<address>` at the Free plan's limits. */
  bucketId: string;
  decision: RateDecision;
  /**
   * The step's result; undefined when it was not run: no step, the request not admitted or without
   * a valid key, or (on a shared store) fault rules that changed since the replica matched the
   * request against them. The caller then checks the rules and runs the step on its own.
   */
  step?: PetStepResult | undefined;
}

/** The whole state as the API and control contexts see it: MockState in memory, RedisState in Redis. */
export interface StateParts {
  readonly store: PetRepository;
  readonly keys: KeyDirectory;
  readonly clock: ControlledClock;
  readonly log: RequestJournal;
  readonly faults: FaultRules;
  /**
   * The request's admission in one step: finds the token's key, counts the request against the
   * key's quota or its address's (`spend`; else only reports where the window stands) and, when it
   * is admitted with a valid key, runs `step`. One round trip on a shared store.
   */
  admit(request: AdmissionRequest, spend: boolean, step?: PetStep): Awaitable<Admission>;
  /** A pet operation on its own, for a request admitted without running it. */
  runStep(step: PetStep): Awaitable<PetStepResult>;
  /** Back to the fixtures, keys as loaded, no counters or bans, an empty log, the clock at its base, no fault rules. */
  reset(): Awaitable<void>;
}
