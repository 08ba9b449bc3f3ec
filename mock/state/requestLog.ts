import type { ClientFacts } from '../clientReport/clientObservation.ts';
import type { RequestJournal } from './stateParts.ts';
import { realTimers } from './realTimers.ts';
import type { RecordedRequest, LoggedRequest, RequestFilter } from './stateParts.ts';
export type { RecordedRequest, LoggedRequest, RequestFilter } from './stateParts.ts';

// client, runId and replica are optional: entries an older replica wrote to a shared Redis during a
// rolling update have none, and a request without a run id stores none.


/** The longest URL an entry keeps. */
export const MAX_URL = 2048;
/** The longest run id an entry keeps (a UUID has 36 characters). */
export const MAX_RUN_ID = 128;

/** The client facts' numbers, which change from one request to the next: kept beside the shape. */
const timesOfFacts = ['arrivedAt', 'remaining', 'reset', 'retryAfter'] as const;
type FactTimes = (typeof timesOfFacts)[number];

/** What entries share: everything but their numbers (at, ms, the client facts' timesOfFacts). */
interface Shape {
  fields: Omit<RecordedRequest, 'at' | 'ms' | 'grade'>;
  grade: Omit<ClientFacts, FactTimes> | undefined;
}

/** Alike one level down: arrays by index (`for in` would make a string of every index), objects by their own fields. */
function alike(a: object, b: object): boolean {
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => x === (b as unknown[])[i]);
  let count = 0;
  for (const key in a) {
    if ((a as Record<string, unknown>)[key] !== (b as Record<string, unknown>)[key]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** The same value: the same thing, or arrays or objects alike one level down (the query's kinds, the field names sent and given). */
function same(x: unknown, y: unknown): boolean {
  return x === y || (typeof x === 'object' && typeof y === 'object' && x !== null && y !== null && Array.isArray(x) === Array.isArray(y) && alike(x, y));
}

/**
 * Whether `whole`, but for its fields `left` names, is alike a shape kept before: read in place, so
 * that an entry alike the one before (a busy client's next request) makes no copy of itself.
 */
function alikeBut(kept: object | undefined, whole: object | undefined, left: (key: string) => boolean): boolean {
  if (kept === undefined || whole === undefined) return kept === whole;
  let count = 0;
  for (const key in whole) {
    if (left(key)) continue;
    if (!same((whole as Record<string, unknown>)[key], (kept as Record<string, unknown>)[key])) return false;
    count++;
  }
  for (const _ in kept) count--;
  return count === 0;
}

const numbersOfEntry = (key: string) => key === 'at' || key === 'ms' || key === 'grade';
const numbersOfFacts = (key: string) => key === 'arrivedAt' || key === 'remaining' || key === 'reset' || key === 'retryAfter';

/** The most requests whose entries wait to be made: a flood makes them in batches of this size. */
const MAX_WAITING = 256;
/**
 * How long an entry waits to be made at most, in real milliseconds: long enough that a busy
 * server makes tens of entries in one loop, short enough that the exchanges waiting die young. An
 * exchange held longer lives through the young generation's collections, which copy it and its
 * headers and answer (docs/performance.md measures both).
 */
const MAX_WAIT_MS = 1;

/**
 * The requests the mock answered, newest last, in a ring buffer: once full, the oldest entry
 * makes room, so a long session cannot grow the heap.
 *
 * `addLater` takes how to make an entry, made with the others waiting once 256 wait, after 1 ms,
 * or as soon as anything reads the log (or clears it): under load, entries are made in one loop
 * rather than between two answers, as the access log's lines are, which costs a server about a
 * seventh less CPU per answer (docs/performance.md); no reader ever sees the log without them.
 *
 * An entry is kept as its numbers, in arrays of doubles, and its shape (method, URL, status, key,
 * client, the client facts but their numbers), shared with the entry before it when the two are
 * alike. Entries live for a thousand requests, long enough for the garbage collector to copy every
 * object they hold into the old generation: held whole, a busy client's entries cost about a tenth
 * of the server's CPU per answer (docs/performance.md); shared, its requests alike hold nothing new.
 * Entries are rebuilt, as fresh objects, when read.
 */
export class RequestLog implements RequestJournal {
  #at: number[] = [];
  #ms: number[] = [];
  /** The client facts' numbers, one array per name in timesOfFacts; NaN where an entry had none. */
  #factTimes: number[][] = timesOfFacts.map(() => []);
  #shapes: Shape[] = [];
  #last: Shape | undefined;
  #start = 0;
  #dropped = 0;
  #waiting: (() => RecordedRequest | undefined)[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly capacity: number) {}

  addLater(make: () => RecordedRequest | undefined): void {
    this.#waiting.push(make);
    if (this.#waiting.length >= MAX_WAITING) this.settle();
    else if (this.#timer === undefined) {
      this.#timer = realTimers.setTimeout(() => this.settle(), MAX_WAIT_MS);
      // A server keeps its process alive; entries waiting must not (and a browser's timer has no unref).
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Makes the entries waiting now, in the order their requests were answered. */
  settle(): void {
    realTimers.clearTimeout(this.#timer);
    this.#timer = undefined;
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const make of waiting) {
      const entry = make();
      if (entry) this.add(entry);
    }
  }

  add(entry: RecordedRequest): void {
    if (this.capacity === 0) return;
    let i = this.#at.length;
    if (i === this.capacity) {
      i = this.#start;
      this.#start = (this.#start + 1) % this.capacity;
      this.#dropped++;
    }
    this.#at[i] = entry.at;
    this.#ms[i] = entry.ms;
    const grade = entry.grade;
    if (grade) {
      this.#factTimes[0]![i] = grade.arrivedAt ?? NaN;
      this.#factTimes[1]![i] = grade.remaining ?? NaN;
      this.#factTimes[2]![i] = grade.reset ?? NaN;
      this.#factTimes[3]![i] = grade.retryAfter ?? NaN;
    }
    const last = this.#last;
    // Bounded entries: a 64 KiB URL is kept as its first 2 KiB (and a run id as its first 128
    // characters, recordAnswer), so the log's memory is about capacity x 2 KiB at most.
    if (last !== undefined && entry.url.length <= MAX_URL && alikeBut(last.fields, entry, numbersOfEntry) && alikeBut(last.grade, grade, numbersOfFacts)) {
      this.#shapes[i] = last;
      return;
    }
    const { at: _at, ms: _ms, grade: _grade, ...fields } = entry;
    if (fields.url.length > MAX_URL) fields.url = `${fields.url.slice(0, MAX_URL)}…`;
    let facts: Shape['grade'];
    if (grade) {
      const { arrivedAt: _arrivedAt, remaining: _remaining, reset: _reset, retryAfter: _retryAfter, ...rest } = grade;
      facts = rest;
    }
    this.#shapes[i] = this.#last = { fields, grade: facts };
  }

  #entry(i: number): RecordedRequest {
    const shape = this.#shapes[i]!;
    const entry: RecordedRequest = { at: this.#at[i]!, ...shape.fields, ms: this.#ms[i]! };
    if (shape.grade) {
      const grade: ClientFacts = { ...shape.grade };
      timesOfFacts.forEach((name, n) => {
        const value = this.#factTimes[n]![i]!;
        if (!Number.isNaN(value)) grade[name] = value;
      });
      entry.grade = grade;
    }
    return entry;
  }

  /** Entries oldest first (newest last), those matching the filter. */
  list(filter: RequestFilter = {}): LoggedRequest[] {
    return this.recorded().map(present).filter((entry) => matches(entry, filter));
  }

  /** Entries as recorded, oldest first: what the client report grades. */
  recorded(): RecordedRequest[] {
    this.settle();
    const count = this.#at.length;
    const entries: RecordedRequest[] = [];
    for (let n = 0; n < count; n++) entries.push(this.#entry((this.#start + n) % count));
    return entries;
  }

  /** How many entries were pushed out since the last clear. */
  dropped(): number {
    this.settle();
    return this.#dropped;
  }

  clear(): void {
    // The requests answered before are made first: their access-log lines are still written.
    this.settle();
    this.#at = [];
    this.#ms = [];
    this.#factTimes = timesOfFacts.map(() => []);
    this.#shapes = [];
    this.#last = undefined;
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
