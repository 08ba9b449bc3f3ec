import type { Pet } from '../../spec/types.ts';
import { MockClock, systemClock, type Clock } from '../state/clock.ts';
import { KeyRing, type ApiKeyConfig } from '../state/keyRing.ts';
import { PetStore } from '../state/petStore.ts';
import { RateLimiter, type BanPolicy } from '../state/rateLimiter.ts';
import { RequestLog } from '../state/requestLog.ts';
import { MemoryKeyStore, MemoryPetRepository, MemoryRateLimitStore, MemoryRequestLogStore, MemorySharedClock } from './memoryStores.ts';
import type { MockStores } from './stateStores.ts';

export interface MemoryStoresOptions {
  fixtures: readonly Pet[];
  keys: readonly ApiKeyConfig[];
  clock?: Clock;
  ban: BanPolicy;
  requestLogSize: number;
  /** How many client addresses the anonymous rate limit keeps counts for. */
  maxAnonymousBuckets: number;
}

export interface MemoryStores extends MockStores {
  pets: MemoryPetRepository;
  limits: MemoryRateLimitStore;
  keys: MemoryKeyStore;
  clock: MemorySharedClock;
  log: MemoryRequestLogStore;
}

/** The default: the mock's state in this process, behind the same interfaces as the Redis-backed one. */
export function createMemoryStores(options: MemoryStoresOptions): MemoryStores {
  const clock = new MockClock(options.clock ?? systemClock);
  const store = new PetStore(options.fixtures);
  const ring = new KeyRing(options.keys);
  const limits = new MemoryRateLimitStore(
    ring,
    new RateLimiter(clock, options.ban),
    new RateLimiter(clock, options.ban, { maxBuckets: options.maxAnonymousBuckets }),
  );
  const log = new RequestLog(options.requestLogSize);
  return {
    pets: new MemoryPetRepository(store),
    keys: new MemoryKeyStore(ring),
    limits,
    clock: new MemorySharedClock(clock),
    log: new MemoryRequestLogStore(log),
    async reset() {
      // Ids stay above every id issued, as in Redis (issue 10: ids are never reissued).
      await this.pets.replaceAll(options.fixtures);
      ring.replaceAll(options.keys);
      await limits.clear();
      log.clear();
      clock.reset();
    },
    async close() {},
  };
}
