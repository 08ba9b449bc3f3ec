import type { NewPet, Pet } from '../../spec/types.ts';
import type { ClockState, MockClock } from '../state/clock.ts';
import type { ApiKeyConfig, ApiKeyEntry, KeyRing } from '../state/keyRing.ts';
import type { ListQuery, PetStore } from '../state/petStore.ts';
import type { Limits } from '../state/plans.ts';
import type { RateDecision, RateLimiter } from '../state/rateLimiter.ts';
import type { RecordedRequest, RequestFilter, RequestLog } from '../state/requestLog.ts';
import type { Admission, AdmissionRequest, KeyStore, PetRepository, RateLimitStore, RequestLogStore, RequestLogView, SharedClock } from './stateStores.ts';

/*
 * The in-memory state classes behind the same async interfaces as the Redis-backed ones, so the
 * mock calls one set of interfaces whichever holds its state. Each adapter only forwards.
 */

export class MemoryPetRepository implements PetRepository {
  #pages = new Map<string, string>();
  #pagesVersion = -1;

  constructor(readonly store: PetStore) {}

  async create(input: NewPet): Promise<Pet> {
    return this.store.create(input);
  }
  async get(id: number): Promise<Pet | undefined> {
    return this.store.get(id);
  }
  async list(query: ListQuery): Promise<Pet[]> {
    return this.store.list(query);
  }
  /** Pages kept as text until the store changes, as mock/routes/petsRoutes.ts does. */
  async listJson({ limit, status }: ListQuery): Promise<string> {
    if (this.#pagesVersion !== this.store.version) {
      this.#pages.clear();
      this.#pagesVersion = this.store.version;
    }
    const key = `${limit} ${status ?? ''}`;
    let page = this.#pages.get(key);
    if (page === undefined) this.#pages.set(key, (page = JSON.stringify(this.store.list({ limit, status }))));
    return page;
  }
  async all(): Promise<Pet[]> {
    return this.store.all();
  }
  /** Ids already issued are never issued again, as in Redis: the next id does not go down. */
  async replaceAll(pets: readonly Pet[], nextId?: number): Promise<void> {
    this.store.replaceAll(pets, Math.max(nextId ?? 1, this.store.nextId));
  }
  async size(): Promise<number> {
    return this.store.size;
  }
  async nextId(): Promise<number> {
    return this.store.nextId;
  }
  async version(): Promise<string> {
    return String(this.store.version);
  }
}

export class MemoryRateLimitStore implements RateLimitStore {
  constructor(
    readonly keys: KeyRing,
    readonly limiter: RateLimiter,
    readonly anonymousLimiter: RateLimiter,
  ) {}

  #limiterFor(bucketId: string): RateLimiter {
    return bucketId.startsWith('key:') ? this.limiter : this.anonymousLimiter;
  }
  async consume(bucketId: string, limits: Limits): Promise<RateDecision> {
    return this.#limiterFor(bucketId).consume(bucketId, limits);
  }
  async peek(bucketId: string, limits: Limits): Promise<RateDecision> {
    return this.#limiterFor(bucketId).peek(bucketId, limits);
  }
  async admit({ token, anonymousBucketId, anonymousLimits }: AdmissionRequest, spend: boolean): Promise<Admission> {
    const key = token === undefined ? undefined : this.keys.find(token);
    const [limiter, bucketId, limits] = key ? [this.limiter, key.bucketId, key.limits] : [this.anonymousLimiter, anonymousBucketId, anonymousLimits];
    return { key, bucketId, decision: spend ? limiter.consume(bucketId, limits) : limiter.peek(bucketId, limits) };
  }
  async clear(): Promise<void> {
    this.limiter.clear();
    this.anonymousLimiter.clear();
  }
}

export class MemoryKeyStore implements KeyStore {
  constructor(readonly ring: KeyRing) {}

  async find(key: string): Promise<ApiKeyEntry | undefined> {
    return this.ring.find(key);
  }
  async has(key: string): Promise<boolean> {
    return this.ring.has(key);
  }
  async set(config: ApiKeyConfig): Promise<ApiKeyEntry> {
    return this.ring.set(config);
  }
  async delete(key: string): Promise<boolean> {
    return this.ring.delete(key);
  }
  async replaceAll(configs: readonly ApiKeyConfig[]): Promise<void> {
    this.ring.replaceAll(configs);
  }
}

export class MemorySharedClock implements SharedClock {
  constructor(readonly clock: MockClock) {}

  now(): number {
    return this.clock.now();
  }
  async state(): Promise<ClockState> {
    return this.clock.state();
  }
  async advance(seconds: number): Promise<ClockState> {
    this.clock.advance(seconds);
    return this.clock.state();
  }
  async freeze(frozen: boolean): Promise<ClockState> {
    this.clock.freeze(frozen);
    return this.clock.state();
  }
  async reset(): Promise<ClockState> {
    this.clock.reset();
    return this.clock.state();
  }
}

export class MemoryRequestLogStore implements RequestLogStore {
  constructor(readonly log: RequestLog) {}

  get capacity(): number {
    return this.log.capacity;
  }
  add(entry: RecordedRequest): void {
    this.log.add(entry);
  }
  async flush(): Promise<void> {}
  async list(filter: RequestFilter = {}): Promise<RequestLogView> {
    return { requests: this.log.list(filter), dropped: this.log.dropped(), capacity: this.log.capacity };
  }
  async clear(): Promise<void> {
    this.log.clear();
  }
}
