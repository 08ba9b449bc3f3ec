import type { FastifyReply, FastifyRequest } from 'fastify';
import { redactKey } from '../state/keyRing.ts';
import { parseAuthorization } from './parseAuthorization.ts';

/** Where access-log text goes (the CLI's stdout). */
export type AccessLogSink = (text: string) => void;

/** The longest URL an access-log line shows; longer ones are cut and marked with `…`. */
const MAX_URL = 512;

/** The key of a request, redacted, or what kind of Authorization header it had (`missing`, `malformed`, ...). */
export function keyLabel(request: FastifyRequest): string {
  if (request.apiKey) return request.apiKey.label;
  const credentials = parseAuthorization(request.headers.authorization);
  return credentials.kind === 'bearer' ? redactKey(credentials.token) : credentials.kind;
}

/**
 * One compact line per API request, as Prism and json-server print them:
 * `12:30:01.234 GET /v1/pets?limit=5 200 0.8ms demo…(15)`: wall-clock time (UTC), method, path
 * and query, status, time to answer and the redacted key. Lines are gathered and written once per
 * turn of the event loop, so under load they cost one write per batch, not one per request
 * (docs/performance.md measures it).
 */
export class AccessLog {
  #lines: string[] = [];
  #scheduled = false;
  // Many requests share a millisecond under load: the time text is made once per millisecond.
  #lastMs = 0;
  #lastTime = '';

  constructor(private readonly sink: AccessLogSink) {}

  record(request: FastifyRequest, reply: FastifyReply): void {
    const url = request.url.length > MAX_URL ? `${request.url.slice(0, MAX_URL)}…` : request.url;
    const nowMs = Date.now();
    if (nowMs !== this.#lastMs) {
      this.#lastMs = nowMs;
      this.#lastTime = new Date(nowMs).toISOString().slice(11, 23);
    }
    const time = this.#lastTime;
    this.#lines.push(`${time} ${request.method} ${url} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms ${keyLabel(request)}\n`);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes the gathered lines now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#lines.length === 0) return;
    const text = this.#lines.join('');
    this.#lines = [];
    this.sink(text);
  }
}
