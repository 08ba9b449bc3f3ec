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

/**
 * One compact line per API request, as Prism and json-server print them:
 * `12:30:01.234 GET /v1/pets?limit=5 200 0.8ms demo…(15) 10.0.0.7 run=3f2c… replica=web-1:42`:
 * wall-clock time (UTC), method, path and query, status, time to answer, the redacted key, the
 * client's address, then its X-Conformance-Run-Id when it sent one, the replica on Redis, and the
 * fault rule that took it (`fault=fault-2`; status 0 when its connection was reset), and
 * `cors=refused` on a preflight whose origin is not allowed, so one run can
 * be found in the logs of a mock many clients share. Lines are gathered and written
 * every 20 ms (or at 64 KiB), so under load they cost one write per batch, not one per request
 * (docs/performance.md measures it); `flush()` writes what is gathered at once (on close).
 */
export class AccessLog {
  #text = '';
  #timer: NodeJS.Timeout | undefined;
  // Many requests share a millisecond under load: the time text is made once per millisecond.
  #lastMs = 0;
  #lastTime = '';
  readonly #replica: string;

  /** `replica`: the id a shared (Redis) state's replica goes by; none in memory. */
  constructor(private readonly sink: AccessLogSink, { replica }: { replica?: string | undefined } = {}) {
    this.#replica = replica === undefined ? '' : ` replica=${field(replica)}`;
  }

  record({ method, url: fullUrl, status, ms, key, client, runId, fault, corsRefused }: AnsweredRequest): void {
    const url = fullUrl.length > MAX_URL ? `${fullUrl.slice(0, MAX_URL)}…` : fullUrl;
    // Wall-clock time, as the log's reader knows it: neither the mock's clock nor a test's fake one.
    const nowMs = realTimers.now();
    if (nowMs !== this.#lastMs) {
      this.#lastMs = nowMs;
      this.#lastTime = new Date(nowMs).toISOString().slice(11, 23);
    }
    const time = this.#lastTime;
    const run = runId === undefined ? '' : ` run=${field(runId)}`;
    const faulted = fault === undefined ? '' : ` fault=${fault}`;
    // A refused preflight answers 204 as an allowed one does: the line says which it was.
    const cors = corsRefused ? ' cors=refused' : '';
    this.#text += `${time} ${method} ${url} ${status} ${ms.toFixed(1)}ms ${key} ${client || '-'}${run}${this.#replica}${faulted}${cors}\n`;
    if (this.#text.length >= 65_536) this.flush();
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
    if (this.#text === '') return;
    const text = this.#text;
    this.#text = '';
    this.sink(text);
  }
}
