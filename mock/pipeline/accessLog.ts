import { redactKey } from '../state/keyRing.ts';
import { parseAuthorization } from './parseAuthorization.ts';
import { realTimers } from '../state/realTimers.ts';
import type { AnsweredRequest } from '../core/coreTypes.ts';

/** Where access-log text goes (the CLI's stdout). */
export type AccessLogSink = (text: string) => void;

/** The longest URL an access-log line shows; longer ones are cut and marked with `…`. */
const MAX_URL = 512;

/** The key of a request, redacted, or what kind of Authorization header it had (`missing`, `malformed`, ...). */
export function keyLabel(authorization: string | undefined): string {
  const credentials = parseAuthorization(authorization);
  return credentials.kind === 'bearer' ? redactKey(credentials.token) : credentials.kind;
}

/** A run id as one field of the line: as sent when it is visible ASCII (a UUID), percent-encoded otherwise. */
const field = (text: string) => (/^[\x21-\x7e]+$/.test(text) ? text : encodeURIComponent(text));

/** The most requests gathered before a write: a flood is written in batches of this size. */
const MAX_GATHERED = 1024;

/**
 * One compact line per API request, as Prism and json-server print them:
 * `12:30:01.234 GET /v1/pets?limit=5 200 0.8ms demo…(15) 10.0.0.7 run=3f2c… replica=web-1:42`:
 * wall-clock time (UTC), method, path and query, status, time to answer, the redacted key, the
 * client's address, then its X-Conformance-Run-Id when it sent one, the replica on Redis, and the
 * fault rule that took it (`fault=fault-2`; status 0 when its connection was reset), and
 * `cors=refused` on a preflight whose origin is not allowed, so one run can
 * be found in the logs of a mock many clients share. Requests are gathered as they are answered
 * and their lines made and written every 20 ms (or every 1,024 requests) in one write: under
 * load, the lines are made in one loop, not between two answers, and written once per batch
 * (docs/performance.md measures it); `flush()` writes what is gathered at once (on close).
 */
export class AccessLog {
  #gathered: AnsweredRequest[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #replica: string;

  readonly #wallNow: () => number;
  readonly #monotonicNow: () => number;

  /**
   * `replica`: the id a shared (Redis) state's replica goes by; none in memory. `clocks`: the wall
   * clock and the monotonic one requests are timed on (tests give fixed ones).
   */
  constructor(private readonly sink: AccessLogSink, { replica, clocks }: { replica?: string | undefined; clocks?: { wall: () => number; monotonic: () => number } } = {}) {
    this.#replica = replica === undefined ? '' : ` replica=${field(replica)}`;
    this.#wallNow = clocks?.wall ?? realTimers.now;
    this.#monotonicNow = clocks?.monotonic ?? (() => performance.now());
  }

  record(answered: AnsweredRequest): void {
    this.#gathered.push(answered);
    if (this.#gathered.length >= MAX_GATHERED) this.flush();
    else if (!this.#timer) {
      this.#timer = realTimers.setTimeout(() => this.flush(), 20);
      // The server keeps the process alive; a pending flush must not.
      this.#timer.unref();
    }
  }

  /** Writes the gathered lines now. */
  flush(): void {
    realTimers.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#gathered.length === 0) return;
    const gathered = this.#gathered;
    this.#gathered = [];
    let text = '';
    // Wall-clock time, as the log's reader knows it (neither the mock's clock nor a test's fake
    // one): each request's monotonic instant placed against the wall clock read now, once a batch,
    // so a machine that slept or a clock NTP set is followed within 20 ms.
    const wallOffset = this.#wallNow() - this.#monotonicNow();
    // Many requests share a millisecond under load: the time text is made once per millisecond.
    let lastMs = NaN;
    let time = '';
    for (const answered of gathered) {
      const ms = Math.floor(answered.answeredAt + wallOffset);
      if (ms !== lastMs) {
        lastMs = ms;
        time = new Date(ms).toISOString().slice(11, 23);
      }
      text += this.#line(time, answered);
    }
    this.sink(text);
  }

  #line(time: string, { method, url: fullUrl, status, ms, key, client, runId, fault, corsRefused }: AnsweredRequest): string {
    const url = fullUrl.length > MAX_URL ? `${fullUrl.slice(0, MAX_URL)}…` : fullUrl;
    const run = runId === undefined ? '' : ` run=${field(runId)}`;
    const faulted = fault === undefined ? '' : ` fault=${fault}`;
    // A refused preflight answers 204 as an allowed one does: the line says which it was.
    const cors = corsRefused ? ' cors=refused' : '';
    return `${time} ${method} ${url} ${status} ${ms.toFixed(1)}ms ${key} ${client || '-'}${run}${this.#replica}${faulted}${cors}\n`;
  }
}
