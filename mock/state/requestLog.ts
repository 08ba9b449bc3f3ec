import type { RequestJournal } from './stateParts.ts';

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
}

export interface RequestFilter {
  method?: string;
  /** An exact path, or a prefix when it ends with `*`. */
  path?: string;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string;
}

/** The longest URL an entry keeps. */
export const MAX_URL = 2048;

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
    // Bounded entries: a 64 KiB URL is kept as its first 2 KiB, so the log's memory is capacity x 2 KiB at most.
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

function present({ at, method, url, status, key, ms }: RecordedRequest): LoggedRequest {
  // Split by hand rather than with URL, which rejects some of the odd paths clients send (`//a:b`).
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const params = new URLSearchParams(mark === -1 ? '' : url.slice(mark + 1));
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return { time: new Date(at).toISOString(), method, path, query, status, key, ms };
}

function matches(entry: LoggedRequest, { method, path, status }: RequestFilter): boolean {
  if (method && entry.method !== method.toUpperCase()) return false;
  if (path && (path.endsWith('*') ? !entry.path.startsWith(path.slice(0, -1)) : entry.path !== path)) return false;
  if (status) {
    const s = String(entry.status);
    if (/^[1-5]xx$/i.test(status) ? s[0] !== status[0] : s !== status) return false;
  }
  return true;
}
