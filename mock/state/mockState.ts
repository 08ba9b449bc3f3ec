import { petsJson, type StoredPet as Pet } from './petJson.ts';
import { MockClock, systemClock, type Clock } from './clock.ts';
import { KeyRing, type ApiKeyConfig } from './keyRing.ts';
import { PetSetError, PetStore, type IdReserver } from './petStore.ts';
import { RateLimiter, type BanPolicy } from '../rateLimits/rateLimiter.ts';
import { RequestLog } from './requestLog.ts';
import { FaultBook } from './faultBook.ts';
import type { Admission, AdmissionRequest, PetStep, PetStepResult, StateParts } from './stateParts.ts';
import { anonymousBucket, keylessLimitsOf } from '../rateLimits/anonymousBucket.ts';
import type { Limits } from '../rateLimits/plans.ts';
import { checkStateOptions } from './stateOptions.ts';
import { isPromise, type Awaitable } from './awaitable.ts';

export const defaultBan: BanPolicy = { threshold: 20, seconds: 300 };
export const defaultRequestLogSize = 1000;
export const defaultMaxAnonymousBuckets = 10_000;

export interface MockStateOptions {
  /** The pets the mock starts with and a reset goes back to. */
  fixtures: readonly Pet[];
  /** The keys the mock accepts at start and after a reset. */
  keys: readonly ApiKeyConfig[];
  /** The state to start from instead of the fixtures (a state file). */
  startState?: { pets: readonly Pet[]; nextId: number } | undefined;
  /** The clock the mock's own clock runs on. Default: the system clock. */
  clock?: Clock | undefined;
  ban?: Partial<BanPolicy> | undefined;
  /** The limits requests without a valid key are counted at, per address. Default: the Free plan's. */
  keylessLimits?: Partial<Limits> | undefined;
  requestLogSize?: number | undefined;
  maxAnonymousBuckets?: number | undefined;
  /** Makes ids durable before they are handed out (the state file's id journal). */
  ids?: IdReserver | undefined;
}

/**
 * Everything the mock remembers, owned in one place: the pets and their id sequence, the accepted
 * keys, the rate-limit counters and bans, the clock, the request log and the fault rules. An app
 * is built around one MockState and only reads and changes it through these parts; a reload builds
 * a new MockState (`carriedInto`) and swaps it in whole with its app.
 *
 * Each part sits behind a small interface (PetStore, KeyRing, RateLimiter, MockClock, RequestLog)
 * whose callers already await the answers that will come from Redis (issue 13), so another
 * backing replaces the parts, not their callers.
 */
export class MockState implements StateParts {
  readonly store: PetStore;
  readonly keys: KeyRing;
  readonly limiter: RateLimiter;
  readonly anonymousLimiter: RateLimiter;
  readonly clock: MockClock;
  readonly log: RequestLog;
  readonly faults: FaultBook;
  readonly keylessLimits: Limits;
  readonly fixtures: readonly Pet[];
  readonly keyConfigs: readonly ApiKeyConfig[];

  private constructor(parts: Pick<MockState, 'store' | 'keys' | 'limiter' | 'anonymousLimiter' | 'clock' | 'log' | 'faults' | 'keylessLimits' | 'fixtures' | 'keyConfigs'>) {
    this.store = parts.store;
    this.keys = parts.keys;
    this.limiter = parts.limiter;
    this.anonymousLimiter = parts.anonymousLimiter;
    this.clock = parts.clock;
    this.log = parts.log;
    this.faults = parts.faults;
    this.keylessLimits = parts.keylessLimits;
    this.fixtures = parts.fixtures;
    this.keyConfigs = parts.keyConfigs;
  }

  /** A fresh state: the fixtures (or the saved state), the keys, empty counters and log, the clock at its base. */
  static create(options: MockStateOptions): MockState {
    // However the state is built (openState, a test, the browser host), the same options are refused.
    checkStateOptions(options);
    const clock = new MockClock(options.clock ?? systemClock);
    const ban = { ...defaultBan, ...options.ban };
    const store = new PetStore([], options.ids);
    store.replaceAll(options.startState?.pets ?? options.fixtures, options.startState?.nextId);
    return new MockState({
      store,
      keys: new KeyRing(options.keys),
      limiter: new RateLimiter(clock, ban),
      anonymousLimiter: new RateLimiter(clock, ban, { maxBuckets: options.maxAnonymousBuckets ?? defaultMaxAnonymousBuckets }),
      clock,
      log: new RequestLog(options.requestLogSize ?? defaultRequestLogSize),
      faults: new FaultBook(clock),
      keylessLimits: keylessLimitsOf(options.keylessLimits),
      fixtures: options.fixtures,
      keyConfigs: options.keys,
    });
  }

  /**
   * The state a reload swaps in: the new fixtures plus the pets created at run time that `keep`
   * accepts, with the id sequence, keys, counters, bans, clock and request log as they are.
   * `catchUp()` copies the pets again, for the moment of the swap: pets created on this state
   * while the new app was being built are not lost. Both report how many created pets were dropped.
   */
  carriedInto(fixtures: readonly Pet[], keep: (pet: Pet) => boolean): { state: MockState; catchUp(): number } {
    const store = new PetStore([], this.store.ids);
    const state = new MockState({ ...this, store, fixtures });
    const catchUp = () => {
      const fixtureIds = new Set(this.fixtures.map((p) => p.id));
      const newIds = new Set(fixtures.map((p) => p.id));
      const created = this.store.all().filter((p) => !fixtureIds.has(p.id));
      const kept = created.filter((p) => keep(p) && !newIds.has(p.id));
      store.replaceAll([...fixtures, ...kept], this.store.nextId);
      return created.length - kept.length;
    };
    catchUp();
    return { state, catchUp };
  }

  /** Synchronous, but for a create whose id must first be reserved durably (the state file's journal). */
  admit({ token, ip }: AdmissionRequest, spend: boolean, step?: PetStep): Awaitable<Admission> {
    const key = token === undefined ? undefined : this.keys.find(token);
    // Whose quota the request spends: its key's when the key is valid, else its address's.
    const { bucketId, limits } = key ?? anonymousBucket(ip, this.keylessLimits);
    const limiter = key ? this.limiter : this.anonymousLimiter;
    const decision = spend ? limiter.consume(bucketId, limits) : limiter.peek(bucketId, limits);
    const admission: Admission = { key, bucketId, decision };
    if (!step || !spend || !decision.allowed || !key) return admission;
    const result = this.runStep(step);
    if (!isPromise(result)) {
      admission.step = result;
      return admission;
    }
    return result.then((done) => ({ ...admission, step: done }));
  }

  runStep(step: PetStep): Awaitable<PetStepResult> {
    switch (step.kind) {
      case 'create': {
        const exhausted = (error: unknown): PetStepResult => {
          if (error instanceof PetSetError) return { kind: 'create', exhausted: true };
          throw error;
        };
        try {
          const pet = this.store.create(step.input);
          return isPromise(pet) ? pet.then((p): PetStepResult => ({ kind: 'create', pet: p }), exhausted) : { kind: 'create', pet };
        } catch (error) {
          return exhausted(error);
        }
      }
      case 'get':
        return { kind: 'get', pet: this.store.get(step.id) };
      case 'page': {
        const version = this.store.changes();
        return { kind: 'page', version, json: version === step.heldVersion ? undefined : petsJson(this.store.list(step)) };
      }
    }
  }

  /** Puts the mock back as it started: fixtures, keys, counters and bans, request log, clock, no fault rules. Ids keep growing. */
  reset(): void {
    this.store.replaceAll(this.fixtures, this.store.nextId);
    this.keys.replaceAll(this.keyConfigs);
    this.limiter.clear();
    this.anonymousLimiter.clear();
    this.log.clear();
    this.faults.clear();
    this.clock.reset();
  }
}
