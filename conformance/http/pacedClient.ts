import { randomUUID } from 'node:crypto';
import { bucketOf, parseBody, type ApiRequest, type Bucket, type Exchange, type UnansweredRequest } from './exchange.ts';
import { readRateHeaders, retryAfterMs } from './rateLimitState.ts';
import { TransportError, type Transport } from './transport.ts';

export interface PacedClientOptions {
  baseUrl: string;
  apiKey: string;
  /** A second key (`--api-key-2`), for isolation between keys and plans. */
  apiKey2?: string;
  /** Others may spend the key too (`--shared-key`): a 429 then says nothing against the deployment's headers. */
  sharedKey?: boolean;
  /** No wait may end after this instant (ms): the run's time budget (`--max-duration`). */
  deadline?: number;
  transport: Transport;
  timeoutMs: number;
  userAgent: string;
  runId?: string;
  /** Extra headers sent on every request (`--header`), names in lower case; a check's own headers win. */
  headers?: Record<string, string>;
  /** Other secrets to keep out of what the run records: value → what to show instead (`$WAF_TOKEN`). */
  secrets?: Record<string, string>;
  /** The longest the client waits for a quota window or a Retry-After before giving up. */
  maxWaitMs?: number;
  /** Tries after an unexpected 429 before the key is left alone for the rest of the run. */
  maxRetries?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  onEvent?: (event: ClientEvent) => void;
}

export type ClientEvent =
  | { kind: 'wait-for-window'; bucket: string; ms: number; until: number }
  | { kind: 'unexpected-429'; bucket: string; seq: number; waitMs: number; attempt: number }
  | { kind: 'transport-retry'; method: string; url: string; reason: string; waitMs: number; attempt: number }
  | { kind: 'unavailable'; status: number; seq: number; waitMs: number };

/** A GET that met a reset, a refused connection or a timeout is sent again this many times. */
export const transportRetries = 2;

/**
 * The body bytes a run keeps in all, so that memory stays bounded whatever the deployment sends:
 * far past a run against a deployment of this API (a few MB). Past it an answer's body is kept only
 * in part and marked `keptInPart`: the budget is the run's own, so such a body is not judged (a
 * cut list is no evidence of broken JSON), never failed.
 */
export const keptBodyBudget = 32 * 1024 * 1024;
/** What is kept of an answer past that budget. */
export const keptPart = 64 * 1024;

/** A GET answered 502, 503 or 504 is sent again this many times, after its Retry-After. */
const unavailableRetries = 2;

/** 502, 503, 504: the deployment (or a gateway before it) is unavailable (RFC 9110, 15.6). */
export const isUnavailable = (status: number) => status === 502 || status === 503 || status === 504;

/** The client will not send with a quota it has seen exhausted, or it would wait too long. */
export class QuotaExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QuotaExhaustedError';
  }
}

interface BucketState {
  limit?: number;
  remaining?: number;
  resetAt?: number;
  /** After a 429: not a single request before this time. */
  blockedUntil: number;
  /** A 429 that backoff could not cure: the key is left alone for the rest of the run. */
  burned: boolean;
  /** Requests sent and not yet answered: the last Remaining does not count them yet. */
  inFlight: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends the suite's requests and keeps it from hurting the key it was given. It reads
 * X-RateLimit-Remaining and -Reset from every answer and waits for the window to reset rather
 * than spend the last request, so a run never meets a 429 it did not ask for. An unexpected 429
 * is waited out per Retry-After, with exponential backoff and a cap; after that the key is left
 * alone, because the contract warns that "repeated requests after a 429 response may lead to a
 * temporary ban of the API key".
 */
export class PacedClient {
  readonly runId: string;
  readonly exchanges: Exchange[] = [];
  /** Every attempt that got no answer (refused, reset, timed out), retried ones included, for the reports. */
  readonly unanswered: UnansweredRequest[] = [];
  /** Requests given up at the transport (a GET after its retries, a POST at once). */
  transportFailures = 0;
  /** Requests in a row that got no answer: a deployment that stopped answering ends the run. */
  failuresInARow = 0;
  /** Body bytes the run holds; past `keptBodyBudget`, answers are kept only in part. */
  #keptBodyBytes = 0;
  readonly #options: Required<Omit<PacedClientOptions, 'onEvent' | 'runId' | 'headers' | 'secrets' | 'apiKey2' | 'sharedKey' | 'deadline'>> & Pick<PacedClientOptions, 'onEvent' | 'headers' | 'secrets' | 'apiKey2' | 'sharedKey' | 'deadline'>;
  readonly #buckets = new Map<string, BucketState>();
  /** What the run keeps (and reports) never holds the key or a --header secret, wherever a request put it or an answer echoed it. */
  readonly #secrets: [string, string][];

  constructor(options: PacedClientOptions) {
    this.runId = options.runId ?? randomUUID();
    this.#options = {
      maxWaitMs: 65_000,
      maxRetries: 3,
      sleep: defaultSleep,
      now: () => Date.now(),
      ...options,
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
    };
    // Longest first, so a key that contains the other is redacted whole.
    this.#secrets = ([[options.apiKey, '$PETS_API_KEY'], [options.apiKey2 ?? '', '$PETS_API_KEY_2'], ...Object.entries(options.secrets ?? {})] as [string, string][])
      .filter(([secret]) => secret !== '')
      .sort((a, b) => b[0].length - a[0].length);
  }

  #redact(text: string): string {
    return this.#secrets.reduce((out, [secret, shown]) => (out.includes(secret) ? out.replaceAll(secret, shown) : out), text);
  }

  #redactAll(values: Record<string, string>): Record<string, string> {
    return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, this.#redact(value)]));
  }

  /** Sends one request for a check. With `expect429`, a 429 is the answer wanted and is returned at once. */
  async send(checkId: string, request: ApiRequest, { expect429 = false } = {}): Promise<Exchange> {
    const bucket = bucketOf(request.auth);
    const state = this.#state(bucket);
    let unavailableTries = 0;
    for (let attempt = 0; ; attempt++) {
      // Counted from before its pacing until its answer, so parallel requests are paced as one:
      // never more at once than the window has left.
      state.inFlight++;
      let exchange: Exchange;
      let before: { remaining?: number; resetAt?: number };
      try {
        await this.#pace(bucket, state, expect429);
        before = { remaining: state.remaining, resetAt: state.resetAt };
        exchange = await this.#sendSurvivingNetwork(checkId, request, bucket);
      } finally {
        state.inFlight--;
      }
      this.#learn(state, exchange);
      if (isUnavailable(exchange.response.status) && (request.method === 'GET' || request.method === 'HEAD') && unavailableTries < unavailableRetries) {
        // 502, 503 and 504 say the deployment is unavailable, not what it does with the request:
        // a GET is asked again once it says it may be (Retry-After), within the run's budget.
        const now = this.#options.now();
        const waitMs = Math.max(retryAfterMs(exchange.response.headers['retry-after'], now) ?? 0, 500 * 2 ** unavailableTries);
        const deadline = this.#options.deadline ?? Number.POSITIVE_INFINITY;
        if (waitMs <= this.#options.maxWaitMs && now + waitMs < deadline) {
          unavailableTries++;
          this.#options.onEvent?.({ kind: 'unavailable', status: exchange.response.status, seq: exchange.seq, waitMs });
          await this.#options.sleep(waitMs);
          attempt--;
          continue;
        }
      }
      if (exchange.response.status !== 429 || expect429) return exchange;
      // A 429 while the deployment's own last answer said requests remain in this window is a
      // contradiction to report, not a reason to wait: the key is left alone at once.
      const now = this.#options.now();
      if (!this.#options.sharedKey && bucket !== 'anonymous' && before.remaining !== undefined && before.remaining >= 2 && before.resetAt !== undefined && now < before.resetAt - 1000) {
        state.burned = true;
        throw new QuotaExhaustedError(`${describeBucket(bucket)} was answered 429 (request #${exchange.seq}) while the answer before said ${before.remaining} requests remained until ${new Date(before.resetAt).toISOString()}; the suite stopped sending with it.`);
      }

      const told = retryAfterMs(exchange.response.headers['retry-after'], now) ?? 0;
      const waitMs = Math.max(told, 1000 * 2 ** attempt);
      this.#options.onEvent?.({ kind: 'unexpected-429', bucket, seq: exchange.seq, waitMs, attempt });
      state.blockedUntil = now + waitMs;
      if (attempt + 1 >= this.#options.maxRetries || waitMs > this.#options.maxWaitMs) {
        // The 429 stays in the record for the passive checks; the check that sent it is skipped.
        state.burned = true;
        throw new QuotaExhaustedError(`${describeBucket(bucket)} answered 429 ${attempt + 1} times (request #${exchange.seq}); the suite stopped sending with it so as not to get it banned.`);
      }
    }
  }

  /** What the last answer said of the quota a bucket has left. */
  quota(bucket: Bucket): { limit?: number; remaining?: number; resetAt?: number } {
    const { limit, remaining, resetAt } = this.#state(bucket);
    return { limit, remaining, resetAt };
  }

  #state(bucket: string): BucketState {
    let state = this.#buckets.get(bucket);
    if (!state) this.#buckets.set(bucket, (state = { blockedUntil: 0, burned: false, inFlight: 0 }));
    return state;
  }

  async #pace(bucket: Bucket, state: BucketState, spending: boolean): Promise<void> {
    if (state.burned) {
      throw new QuotaExhaustedError(`${describeBucket(bucket)} kept answering 429; the suite stopped sending with it so as not to get it banned.`);
    }
    const now = this.#options.now();
    let until = state.blockedUntil;
    // Spend the last request of a window only when a 429 is what we are after.
    // Others in flight will spend what is left before this one: it waits for the window if they take it all.
    if (!spending && state.remaining !== undefined && state.remaining - (state.inFlight - 1) <= 0 && state.resetAt !== undefined) until = Math.max(until, state.resetAt + 500);
    const waitMs = until - now;
    if (waitMs <= 0) return;
    if (waitMs > this.#options.maxWaitMs) {
      throw new QuotaExhaustedError(`${describeBucket(bucket)} is spent for ${Math.ceil(waitMs / 1000)} s, longer than the suite waits.`);
    }
    if (this.#options.deadline !== undefined && until > this.#options.deadline) {
      throw new QuotaExhaustedError(`${describeBucket(bucket)} is spent for ${Math.ceil(waitMs / 1000)} s, past the run's time budget (--max-duration).`);
    }
    this.#options.onEvent?.({ kind: 'wait-for-window', bucket, ms: waitMs, until });
    await this.#options.sleep(waitMs);
  }

  #learn(state: BucketState, exchange: Exchange): void {
    const { limit, remaining, reset } = readRateHeaders(exchange.response.headers);
    if (limit !== undefined) state.limit = limit;
    if (remaining !== undefined) state.remaining = remaining;
    // Only a Unix time in the plausible future is a reset time; anything else is not trusted for
    // pacing. It is the deployment's clock: moved onto ours by the offset its Date header shows.
    if (reset !== undefined) {
      const now = this.#options.now();
      const date = Date.parse(exchange.response.headers.date ?? '');
      const offset = Number.isNaN(date) ? 0 : date - now;
      const resetAt = reset * 1000 - (Math.abs(offset) > 2000 ? offset : 0);
      state.resetAt = resetAt > now - 5_000 && resetAt < now + 2 * 86_400_000 ? resetAt : undefined;
    }
  }

  /**
   * A GET (safe and idempotent, RFC 9110 9.2) that meets a reset, a refused connection or a
   * timeout is sent again after a short backoff, twice at most: a load balancer recycling a
   * connection must not fail a deploy. A POST is never sent again blindly: the first may have
   * created a pet. What is given up is thrown as a TransportError, for the check to call its
   * case inconclusive.
   */
  async #sendSurvivingNetwork(checkId: string, request: ApiRequest, bucket: Bucket): Promise<Exchange> {
    const retriable = request.method === 'GET' || request.method === 'HEAD';
    for (let failures = 0; ; failures++) {
      try {
        return await this.#sendOnce(checkId, request, bucket, failures);
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        if (!retriable || failures >= transportRetries) {
          this.transportFailures++;
          this.failuresInARow++;
          const why = retriable ? `${error.message} (${failures + 1} tries)` : `${error.message}; a ${request.method} is never sent again blindly, as the first may have been processed`;
          throw new TransportError(why, error.url);
        }
        const waitMs = 250 * 2 ** failures;
        this.#options.onEvent?.({ kind: 'transport-retry', method: request.method, url: error.url, reason: error.message, waitMs, attempt: failures + 1 });
        await this.#options.sleep(waitMs);
      }
    }
  }

  async #sendOnce(checkId: string, request: ApiRequest, bucket: Bucket, retries: number): Promise<Exchange> {
    const { baseUrl, apiKey, apiKey2, transport, timeoutMs, userAgent } = this.#options;
    const url = `${baseUrl}${request.path}`;
    const headers = mergeHeaders(
      { 'user-agent': userAgent, 'x-conformance-run-id': this.runId, accept: 'application/json' },
      this.#options.headers ?? {},
      request.headers ?? {},
    );
    for (const name of request.omitHeaders ?? []) dropHeader(headers, name);
    const keyOf = (which: 'key' | 'key2') => (which === 'key' ? apiKey : apiKey2 ?? '');
    const auth = request.auth;
    if (auth === 'key' || auth === 'key2') headers.authorization = `Bearer ${keyOf(auth)}`;
    else if (auth !== 'none' && 'key' in auth) {
      dropHeader(headers, 'authorization');
      headers[auth.headerName] = `${auth.scheme} ${keyOf(auth.key)}`;
    } else if (auth !== 'none') headers.authorization = auth.authorization;
    const shown = {
      method: request.method,
      url: this.#redact(url),
      headers: this.#redactAll(headers),
      ...(request.body !== undefined ? { body: this.#redact(request.body) } : {}),
    };
    const sentAt = this.#options.now();
    const started = performance.now();
    let answer: Awaited<ReturnType<Transport['send']>>;
    let incomplete: string | undefined;
    try {
      answer = await transport.send({ method: request.method, url, headers, body: request.body }, timeoutMs);
    } catch (error) {
      const lastTry = !(request.method === 'GET' || request.method === 'HEAD') || retries >= transportRetries;
      if (error instanceof TransportError && error.partial && lastTry) {
        // The status and headers came and the body never finished, on every try: the answer is
        // unreadable, the deployment's failure, judged with the bytes that came.
        answer = error.partial;
        incomplete = this.#redact(error.message);
      } else {
        // Kept for the reports (the HAR shows it with status 0), never handed to the checks.
        if (error instanceof TransportError) {
          this.unanswered.push({ checkId, operationId: request.operationId, ...(request.case !== undefined ? { case: request.case } : {}), afterSeq: this.exchanges.length, sentAt, durationMs: Math.round(performance.now() - started), request: shown, error: this.#redact(error.message) });
        }
        throw error;
      }
    }
    // Memory stays bounded whatever the deployment sends: past the run's budget an answer is kept
    // only in part, and the checks leave its body unjudged (the cut is the suite's, not the deployment's).
    this.failuresInARow = 0;
    let keptInPart: string | undefined;
    if (this.#keptBodyBytes + answer.bytes.length > keptBodyBudget && answer.bytes.length > keptPart) {
      keptInPart = `the run had already kept ${keptBodyBudget / 1024 / 1024} MiB of answers, its own budget, so only the body's first ${keptPart / 1024} KiB were kept and it is not judged`;
      answer = { ...answer, bytes: answer.bytes.slice(0, keptPart), body: answer.body.slice(0, keptPart) };
    }
    this.#keptBodyBytes += answer.bytes.length;
    const body = this.#redact(answer.body);
    // The text is redacted for the record; the bytes stay as received, for the checks only (no report writes them).
    const response = {
      status: answer.status,
      headers: this.#redactAll(answer.headers),
      rawHeaders: answer.rawHeaders.map(([name, value]): [string, string] => [name, this.#redact(value)]),
      body,
      bytes: answer.bytes,
      ...(answer.truncated ? { truncated: true } : {}),
      ...(keptInPart !== undefined ? { keptInPart } : {}),
      ...(incomplete !== undefined ? { incomplete } : {}),
      // The start of a body is no JSON value: not parsed, so no check reads a part as the whole.
      ...(keptInPart !== undefined ? { json: undefined } : parseBody(body)),
    };
    const exchange: Exchange = {
      seq: this.exchanges.length + 1,
      checkId,
      operationId: request.operationId,
      intent: request.intent,
      ...(request.case !== undefined ? { case: request.case } : {}),
      ...(request.burst !== undefined ? { burst: request.burst } : {}),
      ...(request.equivalence !== undefined ? { equivalence: request.equivalence } : {}),
      path: this.#redact(request.path),
      bucket,
      sentAt,
      request: shown,
      response: { ...response, durationMs: Math.round(performance.now() - started) },
      retries,
    };
    this.exchanges.push(exchange);
    return exchange;
  }
}

export { TransportError };

const describeBucket = (bucket: Bucket) => (bucket === 'key' ? 'The API key\'s quota' : bucket === 'key2' ? 'The second API key\'s quota' : 'The keyless quota (this address\'s)');

/**
 * Header sets merged left to right, names compared without regard to case (RFC 9110, 5.1): a
 * later `Accept` replaces an earlier `accept` rather than both being sent. Later names keep their spelling.
 */
function mergeHeaders(...sets: Record<string, string>[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set)) {
      for (const existing of Object.keys(out)) if (existing.toLowerCase() === name.toLowerCase()) delete out[existing];
      out[name] = value;
    }
  }
  return out;
}

function dropHeader(headers: Record<string, string>, name: string): void {
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
}
