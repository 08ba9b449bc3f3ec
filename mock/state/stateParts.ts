import type { PetStatus } from '../../spec/types.ts';
import type { StoredNewPet as NewPet, StoredPet as Pet } from './petJson.ts';
import type { Awaitable } from './awaitable.ts';
import type { ClientFacts } from '../clientReport/clientObservation.ts';
import type { Limits, Plan } from '../rateLimits/plans.ts';
import type { FaultSpec, FaultTarget, FaultView, FiredFault } from './faultRule.ts';
import type { StalledAnswers } from './stalledAnswers.ts';

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
  /**
   * Records a request whose entry `make` gives, made later, in a batch, but before anything reads
   * the log (an in-memory log; a shared one takes entries as they come, for every replica to read).
   * `make` also writes the request's access-log line, so it runs even where no entry is kept.
   */
  addLater?(make: () => RecordedRequest | undefined): void;
  /** Makes the entries addLater holds now (on close). */
  settle?(): void;
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
  /** The bucket that was counted: the key's, or `ip:<address>` at the keyless limits (StateParts.keylessLimits). */
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
  /** The limits a request without a valid key is counted at, per client address (anonymousBucket.ts). */
  readonly keylessLimits: Limits;
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

// The types the parts above take and give, owned by this contract: every backend implements them.

export interface ClockState {
  /** The mock's time, ISO 8601. */
  now: string;
  /** The mock's time, Unix milliseconds. */
  nowMs: number;
  frozen: boolean;
  /** How far the mock's time is ahead of its base clock, in seconds. */
  offsetSeconds: number;
}

export interface ApiKeyConfig {
  key: string;
  plan: Plan;
  /** Only for custom limits (the Enterprise plan's are "custom" in the contract). */
  perMinute?: number;
  perDay?: number;
}

export interface ApiKeyEntry {
  /** What rate-limit counters are kept under: derived from the key's digest, never the key itself. */
  bucketId: string;
  /** A label safe to log. */
  label: string;
  plan: Plan;
  limits: Limits;
}

export interface ListQuery {
  limit: number;
  status?: PetStatus | undefined;
}

export interface BanPolicy {
  /** Refused requests within one throttled spell that earn a ban. */
  threshold: number;
  /** How long a ban lasts. */
  seconds: number;
}

export interface RateDecision {
  allowed: boolean;
  /** True when the key is refused because it is banned, not merely throttled. */
  banned: boolean;
  /** X-RateLimit-Limit: the limit of the window that binds. */
  limit: number;
  /** X-RateLimit-Remaining: requests left in that window after this one. */
  remaining: number;
  /** X-RateLimit-Reset: Unix seconds at which that window (or the ban) ends. */
  reset: number;
  /** Retry-After in whole seconds, for refused requests. */
  retryAfter: number;
  /** The window `limit`, `remaining` and `reset` describe (the draft RateLimit field's policy). */
  window?: 'minute' | 'day';
  /** Both quotas of the plan counted against (the draft RateLimit-Policy field). */
  quotas?: { perMinute: number; perDay: number };
}

/** What is kept per request: raw, so recording costs next to nothing on the hot path. */
export interface RecordedRequest {
  /** Unix milliseconds on the mock's clock. */
  at: number;
  method: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  key: string | null;
  ms: number;
  /** The client's address: the one its anonymous rate-limit bucket is named by (X-Forwarded-For's with --trust-proxy). */
  client?: string;
  /** Its X-Conformance-Run-Id header, cut to MAX_RUN_ID characters; absent when it sent none. */
  runId?: string;
  /** The replica that answered, stamped by a shared log (Redis); absent in memory. */
  replica?: string;
  /** The fault rule that took the request (`fault-2`); absent when none did. */
  fault?: string;
  /** What grading its client needs (GET /__mock/client-report); absent outside the API. */
  grade?: ClientFacts;
}

/** A request as GET /__mock/requests shows it. */
export interface LoggedRequest {
  /** When it arrived, on the mock's clock (ISO 8601). */
  time: string;
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  status: number;
  /** The API key, redacted (`demo…(9)`), or null when none was valid or sent. */
  key: string | null;
  /** How long the mock took to answer, in milliseconds. */
  ms: number;
  /** The client's address (X-Forwarded-For's with --trust-proxy), or null in an entry an older replica wrote. */
  client: string | null;
  /** The X-Conformance-Run-Id the request carried, or null. */
  runId: string | null;
  /** The replica that answered (--replica-id), on Redis only. */
  replica?: string;
  /** The fault rule that took the request (`POST /__mock/faults`), only when one did; its `status` is then 0 when the connection was reset. */
  fault?: string;
}

export interface RequestFilter {
  method?: string;
  /** An exact path, or a prefix when it ends with `*`. */
  path?: string;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string;
  /** Exactly this X-Conformance-Run-Id: the requests of one run. */
  runId?: string;
}
