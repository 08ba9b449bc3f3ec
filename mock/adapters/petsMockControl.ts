import type { FastifyInstance, InjectOptions } from 'fastify';
import { CONTROL_PREFIX, type ApiKeyConfig } from '../index.ts';
import type { Pet } from '../../spec/types.ts';
import type { LoggedRequest as RecordedRequestView, RequestFilter as StateRequestFilter } from '../state/requestLog.ts';
import type { ClockState } from '../state/clock.ts';

/** A request the mock recorded, as `GET /__mock/requests` shows it; `path` is the mock's own (`/v1/pets`), whatever the adapter's baseUrl. */
export type LoggedRequest = RecordedRequestView;

/** Which recorded requests to list: as the control API's query, with a status also as a number. */
export interface RequestFilter extends Omit<StateRequestFilter, 'status'> {
  /** An exact status (`404`, or 404) or a class (`4xx`). */
  status?: string | number;
}

export type { ClockState };

export type KeySettings = Omit<ApiKeyConfig, 'key'>;

/**
 * The control API in code. Every method is a request to `/__mock` through `inject()`, so the
 * handle behaves exactly as the HTTP control API does, and input it refuses (a 400) is thrown as
 * a `MockControlError` saying what is wrong; nothing was changed then.
 */
export interface PetsMockControl {
  /** Back to the fixtures, the keys as configured, no counters or bans, an empty request log, real time. */
  reset(): Promise<void>;
  /** The recorded API requests, oldest first. */
  requests(filter?: RequestFilter): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** The mock's time. */
  clock(): Promise<ClockState>;
  /** Moves the mock's clock forward: rate-limit windows, Retry-After and bans follow. */
  advanceClock(seconds: number): Promise<ClockState>;
  freezeClock(): Promise<ClockState>;
  unfreezeClock(): Promise<ClockState>;
  /** Creates or changes an API key; it takes its plan's limits unless it names its own. */
  setKey(key: string, settings: KeySettings): Promise<void>;
  deleteKey(key: string): Promise<void>;
  /** Every pet, in id order. */
  pets(): Promise<Pet[]>;
  /** Replaces every pet; each must be a Pet of the spec, with its own id. */
  setPets(pets: readonly Pet[]): Promise<void>;
}

/** A control request the mock refused: `status` and `code` are those the HTTP control API answers. */
export class MockControlError extends Error {
  override readonly name = 'MockControlError';
  constructor(message: string, readonly status: number, readonly code: string) {
    super(message);
  }
}

/**
 * The handle of the mock `app`. With `controlToken` (the token the mock was built with), every call
 * carries it, as a client of the HTTP control API must: the handle goes through the same gate.
 */
export function createPetsMockControl(app: FastifyInstance, { controlToken }: { controlToken?: string | undefined } = {}): PetsMockControl {
  const authorization = controlToken === undefined ? {} : { authorization: `Bearer ${controlToken}` };
  async function call<T>(what: string, options: InjectOptions): Promise<T> {
    const res = await app.inject({ ...options, headers: { ...options.headers, ...authorization }, url: `${CONTROL_PREFIX}${options.url as string}` });
    if (res.statusCode >= 400) {
      let body: { code?: string; message?: string } = {};
      try {
        body = res.json();
      } catch {
        // Not JSON: the status alone says what happened.
      }
      const said = body.message ?? `the mock answered ${res.statusCode}.`;
      // The mock's own message may already name the action ("Cannot replace the pets: ..."): say it once.
      const message = said.startsWith(`Cannot ${what}`) ? said : `Cannot ${what}: ${said}`;
      throw new MockControlError(message, res.statusCode, body.code ?? 'UNKNOWN');
    }
    return (res.statusCode === 204 ? undefined : res.json()) as T;
  }
  const clock = (what: string, body: object) => call<ClockState>(what, { method: 'POST', url: '/clock', payload: body });
  const keyPath = (key: string) => `/keys/${encodeURIComponent(key)}`;

  return {
    reset: async () => {
      await call('reset the mock', { method: 'POST', url: '/reset' });
    },
    requests: async (filter = {}) => {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(filter)) if (value !== undefined) query.set(name, String(value));
      const search = query.size > 0 ? `?${query}` : '';
      return (await call<{ requests: LoggedRequest[] }>('list the requests', { method: 'GET', url: `/requests${search}` })).requests;
    },
    clearRequests: async () => {
      await call('clear the requests', { method: 'DELETE', url: '/requests' });
    },
    clock: () => call<ClockState>('read the clock', { method: 'GET', url: '/clock' }),
    advanceClock: (seconds) => clock(`advance the clock by ${String(seconds)} seconds`, { advanceSeconds: seconds }),
    freezeClock: () => clock('freeze the clock', { freeze: true }),
    unfreezeClock: () => clock('unfreeze the clock', { freeze: false }),
    setKey: async (key, settings) => {
      await call(`set the API key ${JSON.stringify(key)}`, { method: 'PUT', url: keyPath(key), payload: settings ?? {} });
    },
    deleteKey: async (key) => {
      await call(`delete the API key ${JSON.stringify(key)}`, { method: 'DELETE', url: keyPath(key) });
    },
    pets: () => call<Pet[]>('list the pets', { method: 'GET', url: '/pets' }),
    setPets: async (pets) => {
      await call('replace the pets', { method: 'PUT', url: '/pets', payload: JSON.stringify(pets), headers: { 'content-type': 'application/json' } });
    },
  };
}
