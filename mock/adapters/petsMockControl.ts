// Runs in every host, the browser's included: it only sends requests (ControlSend).
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { CONTROL_PREFIX } from '../core/prefixes.ts';
import type { ApiKeyConfig } from '../state/keyRing.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import type { LoggedRequest as RecordedRequestView, RequestFilter as StateRequestFilter } from '../state/requestLog.ts';
import type { ClockState } from '../state/clock.ts';
import type { FaultRule, FaultView } from '../state/faultRule.ts';
import type { ClientReport } from '../clientReport/gradeClients.ts';
import type { UsageFile } from '../../common/usage/clientUsage.ts';

/** A request the mock recorded, as `GET /__mock/requests` shows it; `path` is the mock's own (`/v1/pets`), whatever the adapter's baseUrl. */
export type LoggedRequest = RecordedRequestView;

/** Which recorded requests to list: as the control API's query, with a status also as a number. */
export interface RequestFilter extends Omit<StateRequestFilter, 'status'> {
  /** An exact status (`404`, or 404) or a class (`4xx`). */
  status?: string | number;
}

export type { ClockState, FaultRule };

/** A fault rule as the mock lists it: its fields (the key redacted), its id, how many requests it answered (`fired`) and will answer (`left`, null for no limit), and for a stall how many it holds now. */
export type Fault = FaultView;

export type KeySettings = Omit<ApiKeyConfig, 'key'>;

/**
 * The control API in code. Every method is a request to `/__mock`, answered in this process, so the
 * handle behaves exactly as the HTTP control API does, and input it refuses (a 400) is thrown as
 * a `MockControlError` saying what is wrong; nothing was changed then.
 */
export interface PetsMockControl {
  /** Back to the fixtures, the keys as configured, no counters or bans, an empty request log, real time. */
  reset(): Promise<void>;
  /** The recorded API requests, oldest first. */
  requests(filter?: RequestFilter): Promise<LoggedRequest[]>;
  clearRequests(): Promise<void>;
  /** How the clients behaved (GET /__mock/client-report): `passed` is false only when a finding is a failure. With a key, only its requests. */
  clientReport(key?: string): Promise<ClientReport>;
  /**
   * What each client used of the contract (GET /__mock/client-usage), as a usage file for
   * `pets-conformance --usage` (docs/usage.md). With a key, only that client.
   */
  usage(key?: string): Promise<UsageFile>;
  /** The mock's time. */
  clock(): Promise<ClockState>;
  /** Moves the mock's clock forward: rate-limit windows, Retry-After and bans follow. */
  advanceClock(seconds: number): Promise<ClockState>;
  /**
   * Stops the mock's clock: where it stands, or at `at` (a Date, Unix milliseconds, or an ISO 8601
   * date-time with a zone), so that Retry-After and X-RateLimit-Reset are known in advance.
   */
  freezeClock(at?: Date | number | string): Promise<ClockState>;
  unfreezeClock(): Promise<ClockState>;
  /** Creates or changes an API key; it takes its plan's limits unless it names its own. */
  setKey(key: string, settings: KeySettings): Promise<void>;
  deleteKey(key: string): Promise<void>;
  /** Every pet, in id order. */
  pets(): Promise<Pet[]>;
  /** Replaces every pet; each must be a Pet of the spec, with its own id. */
  setPets(pets: readonly Pet[]): Promise<void>;
  /** Adds a fault rule: the requests it matches get a server error, a reset connection or a stalled answer instead of the real one. */
  addFault(rule: FaultRule): Promise<Fault>;
  /** Every fault rule, in the order they were added, with how many requests each answered and has left. */
  faults(): Promise<Fault[]>;
  /** Removes a fault rule (throws `FAULT_NOT_FOUND` for an unknown id); what it holds is let go. */
  removeFault(id: string): Promise<void>;
  clearFaults(): Promise<void>;
}

/** A control request the mock refused: `status` and `code` are those the HTTP control API answers. */
export class MockControlError extends Error {
  override readonly name = 'MockControlError';
  constructor(message: string, readonly status: number, readonly code: string) {
    super(message);
  }
}

/** One control request, answered in this process by the mock the handle drives. */
export type ControlSend = (request: { method: string; url: string; headers: Record<string, string>; body?: string | undefined }) => Promise<{ status: number; body: string }>;

interface ControlCall {
  method?: string;
  url: string;
  /** A JSON body: an object (serialized here) or its text. */
  payload?: object | string;
  headers?: Record<string, string>;
}

/**
 * The handle of a mock, through `send` (each host answers it in process: the server's app, or the
 * framework-free core). With `controlToken` (the token the mock was built with), every call
 * carries it, as a client of the HTTP control API must: the handle goes through the same gate.
 */
export function createPetsMockControl(send: ControlSend, { controlToken }: { controlToken?: string | undefined } = {}): PetsMockControl {
  const authorization: Record<string, string> = controlToken === undefined ? {} : { authorization: `Bearer ${controlToken}` };
  async function call<T>(what: string, options: ControlCall): Promise<T> {
    const { payload } = options;
    const json = payload !== undefined && typeof payload !== 'string';
    const res = await send({
      method: options.method ?? 'GET',
      url: `${CONTROL_PREFIX}${options.url}`,
      headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...options.headers, ...authorization },
      body: payload === undefined ? undefined : json ? JSON.stringify(payload) : payload,
    });
    const text = res.body;
    if (res.status >= 400) {
      let body: { code?: string; message?: string } = {};
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        // Not JSON: the status alone says what happened.
      }
      const said = body.message ?? `the mock answered ${res.status}.`;
      // The mock's own message may already name the action ("Cannot replace the pets: ..."): say it once.
      const message = said.startsWith(`Cannot ${what}`) ? said : `Cannot ${what}: ${said}`;
      throw new MockControlError(message, res.status, body.code ?? 'UNKNOWN');
    }
    // Exact: a pet's categoryId past 2^53 - 1 comes back a BigInt with its digits.
    return (res.status === 204 ? undefined : parseJsonExact(text)) as T;
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
    clientReport: (key) => call<ClientReport>('grade the clients', { method: 'GET', url: `/client-report${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}` }),
    usage: (key) => call<UsageFile>('write out the clients\' usage', { method: 'GET', url: `/client-usage${key === undefined ? '' : `?key=${encodeURIComponent(key)}`}` }),
    clock: () => call<ClockState>('read the clock', { method: 'GET', url: '/clock' }),
    advanceClock: (seconds) => clock(`advance the clock by ${String(seconds)} seconds`, { advanceSeconds: seconds }),
    freezeClock: (at) => {
      if (at === undefined) return clock('freeze the clock', { freeze: true });
      // An invalid Date goes as its text ("Invalid Date"), for the control API to name and refuse.
      const instant = at instanceof Date ? (Number.isNaN(at.getTime()) ? String(at) : at.toISOString()) : at;
      return clock(`freeze the clock at ${JSON.stringify(instant)}`, { freeze: true, at: instant });
    },
    unfreezeClock: () => clock('unfreeze the clock', { freeze: false }),
    setKey: async (key, settings) => {
      await call(`set the API key ${JSON.stringify(key)}`, { method: 'PUT', url: keyPath(key), payload: settings ?? {} });
    },
    deleteKey: async (key) => {
      await call(`delete the API key ${JSON.stringify(key)}`, { method: 'DELETE', url: keyPath(key) });
    },
    pets: () => call<Pet[]>('list the pets', { method: 'GET', url: '/pets' }),
    setPets: async (pets) => {
      await call('replace the pets', { method: 'PUT', url: '/pets', payload: stringifyExact(pets), headers: { 'content-type': 'application/json' } });
    },
    addFault: (rule) => call<Fault>('add the fault rule', { method: 'POST', url: '/faults', payload: JSON.stringify(rule), headers: { 'content-type': 'application/json' } }),
    faults: async () => (await call<{ faults: Fault[] }>('list the fault rules', { method: 'GET', url: '/faults' })).faults,
    removeFault: async (id) => {
      await call(`remove the fault rule ${JSON.stringify(id)}`, { method: 'DELETE', url: `/faults/${encodeURIComponent(id)}` });
    },
    clearFaults: async () => {
      await call('clear the fault rules', { method: 'DELETE', url: '/faults' });
    },
  };
}
export type { ClientReport, ClientFinding } from '../clientReport/gradeClients.ts';
export type { UsageFile, ClientUsage, OperationUsage } from '../../common/usage/clientUsage.ts';
