import type { ClientFacts } from '../clientReport/clientObservation.ts';
import type { RequestJournal } from './stateParts.ts';
import type { RecordedRequest, LoggedRequest, RequestFilter } from './stateParts.ts';
export type { RecordedRequest, LoggedRequest, RequestFilter } from './stateParts.ts';

// client, runId and replica are optional: entries an older replica wrote to a shared Redis during a
// rolling update have none, and a request without a run id stores none.


/** The longest URL an entry keeps. */
export const MAX_URL = 2048;
/** The longest run id an entry keeps (a UUID has 36 characters). */
export const MAX_RUN_ID = 128;

/**
 * The requests the mock answered, newest last, in a ring buffer: once full, the oldest entry
 * makes room, so a long session cannot grow the heap.
 */
export class RequestLog implements RequestJournal {
  #entries: RecordedRequest[] = [];
  #start = 0;
  #dropped = 0;

  constructor(readonly capacity: number) {}

  add(entry: RecordedRequest): void {
    if (this.capacity === 0) return;
    // Bounded entries: a 64 KiB URL is kept as its first 2 KiB (and a run id as its first 128
    // characters, recordAnswer), so the log's memory is about capacity x 2 KiB at most.
    if (entry.url.length > MAX_URL) entry = { ...entry, url: `${entry.url.slice(0, MAX_URL)}…` };
    if (this.#entries.length < this.capacity) {
      this.#entries.push(entry);
      return;
    }
    this.#entries[this.#start] = entry;
    this.#start = (this.#start + 1) % this.capacity;
    this.#dropped++;
  }

  /** Entries oldest first (newest last), those matching the filter. */
  list(filter: RequestFilter = {}): LoggedRequest[] {
    const ordered = [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
    return ordered.map(present).filter((entry) => matches(entry, filter));
  }

  /** Entries as recorded, oldest first: what the client report grades. */
  recorded(): RecordedRequest[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
  }

  /** How many entries were pushed out since the last clear. */
  dropped(): number {
    return this.#dropped;
  }

  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#dropped = 0;
  }
}

function present({ at, method, url, status, key, ms, client, runId, replica, fault }: RecordedRequest): LoggedRequest {
  // Split by hand rather than with URL, which rejects some of the odd paths clients send (`//a:b`).
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const params = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  const shown: LoggedRequest = { time: new Date(at).toISOString(), method, path, query, status, key, ms, client: client ?? null, runId: runId ?? null };
  if (replica !== undefined) shown.replica = replica;
  if (fault !== undefined) shown.fault = fault;
  return shown;
}

function matches(entry: LoggedRequest, { method, path, status, runId }: RequestFilter): boolean {
  if (runId !== undefined && entry.runId !== runId) return false;
  if (method && entry.method !== method.toUpperCase()) return false;
  if (path && (path.endsWith('*') ? !entry.path.startsWith(path.slice(0, -1)) : entry.path !== path)) return false;
  if (status) {
    const s = String(entry.status);
    if (/^[1-5]xx$/i.test(status) ? s[0] !== status[0] : s !== status) return false;
  }
  return true;
}
