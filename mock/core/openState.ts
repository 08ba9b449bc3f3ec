import type { StoredPet as Pet } from '../state/petJson.ts';
import { MockState, defaultBan, defaultRequestLogSize } from '../state/mockState.ts';
import { checkPetSet } from '../state/petStore.ts';
import type { StateParts } from '../state/stateParts.ts';
import { checkStateOptions, type RedisStateConfig, type StateOptions } from '../state/stateOptions.ts';
export type { RedisStateConfig, StateOptions } from '../state/stateOptions.ts';
import type { RedisState } from '../redis/openRedisState.ts';

/** A reload's state: the one the new app serves, and `commit()`, called as it is swapped in, saying how many created pets were dropped. */
export interface StateReload {
  state: StateParts;
  commit(): number;
}

/**
 * The mock's state, owned in one place from open to close, whatever holds it: a server, an app
 * built alone, a test. The backends differ only behind it.
 */
export interface OpenedState {
  /** The state serving now. */
  readonly current: StateParts;
  /**
   * The state for new fixtures (a --watch reload). In memory: the new fixtures plus the pets
   * created at run time that `keep` accepts, with keys, counters, clock and log as they are. In
   * Redis: the same shared state (every replica's pets stay), the new fixtures what a reset goes back to.
   */
  reload(fixtures: readonly Pet[], keep: (pet: Pet) => boolean): StateReload;
  /** Calls `listener` after every change of the pets, across reloads (in memory: the state file). */
  onPetsChanged(listener: () => void): () => void;
  /** The pets and the next id as they stand (in memory: the state file); undefined in Redis, which keeps its own. */
  snapshot(): { pets: Pet[]; nextId: number } | undefined;
  /** Lets go the answers stall rules hold; in Redis, stores the log entries on their way and closes the connection. */
  close(): Promise<void>;
}

/** Opens the mock's state: in Redis with `redis`, in memory otherwise, after checking the options at this one boundary. */
export async function openState(options: StateOptions): Promise<OpenedState> {
  checkStateOptions(options);
  return options.redis ? openShared(options, options.redis) : openInMemory(options);
}

async function openInMemory(options: StateOptions): Promise<OpenedState> {
  let memory = MockState.create(options);
  if (options.ids) {
    // Continue above every id ever handed out, saved or not, and reserve the next before serving.
    const ids = options.ids;
    memory.store.replaceAll(memory.store.all(), Math.max(memory.store.nextId, ids.reservedThrough + 1));
    await ids.reserve(memory.store.nextId);
  }
  const listeners = new Set<() => void>();
  const notify = () => {
    if (listeners.size > 0) for (const listener of listeners) listener();
  };
  let unsubscribe = memory.store.subscribe(notify);
  return {
    get current() {
      return memory;
    },
    reload(fixtures, keep) {
      const carried = memory.carriedInto(fixtures, keep);
      return {
        state: carried.state,
        commit() {
          // After every await of the reload: the pets created meanwhile are copied in the same tick as the swap.
          const dropped = carried.catchUp();
          memory = carried.state;
          unsubscribe();
          unsubscribe = memory.store.subscribe(notify);
          notify();
          return dropped;
        },
      };
    },
    onPetsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    snapshot: () => ({ pets: memory.store.all(), nextId: memory.store.nextId }),
    async close() {
      unsubscribe();
      memory.faults.stalls.close();
    },
  };
}

async function openShared(options: StateOptions, redis: RedisStateConfig): Promise<OpenedState> {
  // Loaded only when asked for: an in-memory mock never loads the Redis client.
  const { openRedisState } = await import('../redis/openRedisState.ts');
  const state: RedisState = await openRedisState({
    ...redis,
    fixtures: options.fixtures,
    keys: options.keys,
    clock: options.clock,
    ban: { ...defaultBan, ...options.ban },
    keylessLimits: options.keylessLimits,
    requestLogSize: options.requestLogSize ?? defaultRequestLogSize,
    logger: options.logger,
  });
  const keys = options.keys;
  return {
    current: state,
    reload(fixtures) {
      // Refused as a reload in memory refuses it, now rather than at the next reset or reseed.
      checkPetSet(fixtures);
      return {
        state,
        commit() {
          state.useFixtures(fixtures, keys);
          return 0;
        },
      };
    },
    onPetsChanged: () => () => {},
    snapshot: () => undefined,
    async close() {
      state.faults.stalls.close();
      await state.close();
    },
  };
}

export { StateOptionsError } from '../state/stateOptions.ts';
