import type { Pet } from '../../spec/types.ts';
import type { ClockState } from '../state/clock.ts';
import type { ApiKeyConfig, ApiKeyEntry } from '../state/keyRing.ts';
import type { ListQuery } from '../state/petStore.ts';
import type { Limits } from '../state/plans.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { LoggedRequest, RecordedRequest, RequestFilter } from '../state/requestLog.ts';

/**
 * The mock's state behind async interfaces, so one mock can keep it in memory (the default) or in
 * Redis (several replicas acting as one, issue 13). Every method may reject with
 * StoreUnavailableError when the state lives elsewhere and cannot be reached; the mock answers that
 * with 503 STORE_UNAVAILABLE and Retry-After.
 */
export interface PetRepository {
  /** Adds a pet with the next id of one atomic sequence that never goes back. */
  create(input: { name: string; categoryId: number; status?: Pet['status'] }): Promise<Pet>;
  get(id: number): Promise<Pet | undefined>;
  /** The first `limit` pets in ascending id order, only those with `status` when given: O(limit). */
  list(query: ListQuery): Promise<Pet[]>;
  /** The same page as JSON text, ready to send (no parse and stringify on the way). */
  listJson(query: ListQuery): Promise<string>;
  /** Every pet in ascending id order (control API). */
  all(): Promise<Pet[]>;
  /** Replaces every pet at once; the next id stays above every id ever issued and above `nextId - 1`. */
  replaceAll(pets: readonly Pet[], nextId?: number): Promise<void>;
  size(): Promise<number>;
  /** The id the next created pet gets (or a higher one, if another replica creates first). */
  nextId(): Promise<number>;
  /** Changes with every write by any replica: a cache of anything read keeps it and drops its content when it differs. */
  version(): Promise<string>;
}

/** What the guard learns in one step: whose quota the request spends and whether it may pass. */
export interface Admission {
  /** The accepted key, when the request presented one the mock knows. */
  key: ApiKeyEntry | undefined;
  /** The bucket that was counted: the key's, or the client's address's. */
  bucketId: string;
  decision: RateDecision;
}

export interface AdmissionRequest {
  /** The bearer token as sent, when there was one. */
  token: string | undefined;
  /** The bucket a request without a known key spends (e.g. `ip:127.0.0.1`) and its limits. */
  anonymousBucketId: string;
  anonymousLimits: Limits;
}

/**
 * Rate limits: fixed clock-minute and UTC-day windows counted together, the binding window in the
 * headers, bans after repeated refusals. Same decisions as mock/rateLimiter.ts.
 */
export interface RateLimitStore {
  consume(bucketId: string, limits: Limits): Promise<RateDecision>;
  peek(bucketId: string, limits: Limits): Promise<RateDecision>;
  /**
   * Key lookup and rate decision together: the hot path of every API request, one Redis round trip.
   * `spend: false` only reports (preflights, answers produced before routing).
   */
  admit(request: AdmissionRequest, spend: boolean): Promise<Admission>;
  /** Forgets every count and ban. */
  clear(): Promise<void>;
}

/** Accepted API keys, held by digest only. */
export interface KeyStore {
  find(key: string): Promise<ApiKeyEntry | undefined>;
  has(key: string): Promise<boolean>;
  set(config: ApiKeyConfig): Promise<ApiKeyEntry>;
  delete(key: string): Promise<boolean>;
  replaceAll(configs: readonly ApiKeyConfig[]): Promise<void>;
}

/**
 * The mock's clock. `now()` stays synchronous (hooks and the request log read it on every request):
 * it answers from the state last seen, which every admission refreshes; the rest reads and writes
 * the shared state.
 */
export interface SharedClock {
  now(): number;
  state(): Promise<ClockState>;
  advance(seconds: number): Promise<ClockState>;
  freeze(frozen: boolean): Promise<ClockState>;
  reset(): Promise<ClockState>;
}

export interface RequestLogView {
  requests: LoggedRequest[];
  dropped: number;
  capacity: number;
}

/** Every replica's requests, newest last, capped. */
export interface RequestLogStore {
  readonly capacity: number;
  /** Never rejects: a request whose entry cannot be stored is still answered. */
  add(entry: RecordedRequest): void;
  /** Resolves once every entry added so far is stored (or lost to an outage): for shutdown and tests. */
  flush(): Promise<void>;
  list(filter?: RequestFilter): Promise<RequestLogView>;
  clear(): Promise<void>;
}

/** The mock's whole state, whatever holds it. */
export interface MockStores {
  pets: PetRepository;
  limits: RateLimitStore;
  keys: KeyStore;
  clock: SharedClock;
  log: RequestLogStore;
  /** Back to the fixtures and demo keys, counters, bans, log and clock cleared; for every replica at once. */
  reset(): Promise<void>;
  close(): Promise<void>;
}
