import { randomUUID } from 'node:crypto';
import { dropHeader, setCredential } from './setCredential.ts';
import { bucketOf, parseBody, type ApiRequest, type Bucket, type Exchange, type UnansweredRequest, type WireConnection, type WireExchange } from './exchange.ts';
import { readRateHeaders, retryAfterMs } from './rateLimitState.ts';
import { RetentionBudget } from './retention.ts';
import { latin1 } from './messageHead.ts';
import { defaultRawMaxBytes, encodeRequest, exchangeRaw, type RawConnectionRecord } from './rawHttp.ts';
import { frameConnection } from './responseFraming.ts';
import { frameWire, headText, responseOfAnswer, streamEnd, whyUnanswered, wireConnectionOf, type WirePlan } from './wireExchanges.ts';
import { bodyText, decodeContent, TransportError, type Transport, type TransportResponse } from './transport.ts';

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
  | { kind: 'unavailable'; status: number; seq: number; waitMs: number }
  | { kind: 'wait'; ms: number; until: number; why: string; declined?: string };

/** A GET that met a reset, a refused connection or a timeout is sent again this many times. */
export const transportRetries = 2;

/** Requests in a row to one operation that got nothing within the timeout, after which it is not sent again. */
export const silentAfter = 2;


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
 * When the deployment answered, on its own clock: the answer's Date (RFC 9110, 6.6.1), else the
 * suite's `now`. A Retry-After HTTP-date is on that clock, so the wait it asks for is read against
 * it (a deployment, or a mock, whose clock is far from the suite's asks for seconds, not years).
 */
function answeredAt(exchange: Exchange, now: number): number {
  const date = Date.parse(exchange.response.headers.date ?? '');
  return Number.isNaN(date) ? now : date;
}

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
  /** The raw connections the framing probe opened, in order: a connection whose bytes start no answer holds no exchange. */
  readonly connections: WireConnection[] = [];
  /** Requests given up at the transport (a GET after its retries, a POST at once). */
  transportFailures = 0;
  /** Requests in a row that got no answer: a deployment that stopped answering ends the run. */
  failuresInARow = 0;
  /** An answer started and never finished, on every try of its request: later ones are not tried again. */
  #answersCutShort = false;
  /**
   * The credentials whose requests the deployment was seen to drop while it answered others
   * (`mute`): nothing more is sent with them, so the run stays bounded.
   */
  readonly #muted = new Set<Bucket>();
  readonly #askedIfDropped = new Map<Bucket, number>();
  /** Per operation, requests in a row that got nothing within the timeout on every try. */
  readonly #silentRequests = new Map<string, number>();
  /** What the run keeps of answers' bodies. */
  readonly #retention = new RetentionBudget();
  /** Raw connections opened so far (the framing probe's), to number the next. */
  #wireConnections = 0;
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
        const waitMs = Math.max(retryAfterMs(exchange.response.headers['retry-after'], answeredAt(exchange, now)) ?? 0, 500 * 2 ** unavailableTries);
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

      const told = retryAfterMs(exchange.response.headers['retry-after'], answeredAt(exchange, now)) ?? 0;
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

  /** Sends nothing more with `bucket`'s credential: the deployment drops its requests while it answers others. */
  mute(bucket: Bucket): void {
    this.#muted.add(bucket);
  }

  /** How many times the run has asked whether `bucket`'s lost requests are dropped (`confirmDropped`), this one counted. */
  askedIfDropped(bucket: Bucket): number {
    const asked = (this.#askedIfDropped.get(bucket) ?? 0) + 1;
    this.#askedIfDropped.set(bucket, asked);
    return asked;
  }

  muted(bucket: Bucket): boolean {
    return this.#muted.has(bucket);
  }

  /**
   * Why no more requests to an operation are sent, once `silentAfter` requests to it in a row got
   * nothing at all within the timeout (the first on every try, the next on one): the deployment is
   * silent there, and whether it answers others decides if that is its failure or its outage.
   */
  silence(operationId: string): string | undefined {
    const silent = this.#silentRequests.get(operationId) ?? 0;
    if (silent < silentAfter) return undefined;
    return `not sent: ${silent} requests to ${operationId} in a row got no answer within ${this.#options.timeoutMs} ms`;
  }

  /**
   * Waits `ms` on the client's clock, `why` (`to …`); says so in the run's notes either way. False,
   * without waiting, when that is longer than the client waits at all or past the run's time budget.
   */
  async waitFor(ms: number, why: string): Promise<boolean> {
    const until = this.#options.now() + ms;
    const declined = ms > this.#options.maxWaitMs ? `longer than --max-wait (${Math.round(this.#options.maxWaitMs / 1000)} s)` : until >= (this.#options.deadline ?? Number.POSITIVE_INFINITY) ? 'past the run\'s time budget (--max-duration)' : undefined;
    this.#options.onEvent?.({ kind: 'wait', ms, until, why, ...(declined !== undefined ? { declined } : {}) });
    if (declined !== undefined) return false;
    if (ms > 0) await this.#options.sleep(ms);
    return true;
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
    let silent = true;
    for (let failures = 0; ; failures++) {
      try {
        const exchange = await this.#sendOnce(checkId, request, bucket, failures, failures >= transportRetries || this.#answersCutShort);
        this.#silentRequests.delete(request.operationId);
        return exchange;
      } catch (error) {
        if (!(error instanceof TransportError)) throw error;
        silent &&= error.timedOut;
        // An operation that already let a request time out on every try is not a blip: one try now.
        const silentBefore = silent && (this.#silentRequests.get(request.operationId) ?? 0) > 0;
        if (!retriable || failures >= transportRetries || silentBefore) {
          if (silent) this.#silentRequests.set(request.operationId, (this.#silentRequests.get(request.operationId) ?? 0) + 1);
          const lastTry = this.unanswered.at(-1);
          if (lastTry !== undefined && lastTry.wire !== true) lastTry.givenUp = true;
          this.transportFailures++;
          this.failuresInARow++;
          const why = retriable ? `${error.message} (${failures + 1} ${failures === 0 ? 'try' : 'tries'})` : `${error.message}; a ${request.method} is never sent again blindly, as the first may have been processed`;
          throw new TransportError(why, error.url);
        }
        const waitMs = 250 * 2 ** failures;
        this.#options.onEvent?.({ kind: 'transport-retry', method: request.method, url: error.url, reason: error.message, waitMs, attempt: failures + 1 });
        await this.#options.sleep(waitMs);
      }
    }
  }

  /** The headers a request goes with: the client's own, `--header`s, the request's, its credential. */
  #headersOf(request: ApiRequest): Record<string, string> {
    const { apiKey, apiKey2, userAgent } = this.#options;
    const headers = mergeHeaders(
      { 'user-agent': userAgent, 'x-conformance-run-id': this.runId, accept: 'application/json' },
      this.#options.headers ?? {},
      request.headers ?? {},
    );
    for (const name of request.omitHeaders ?? []) dropHeader(headers, name);
    setCredential(headers, request.auth, (which) => (which === 'key' ? apiKey : apiKey2 ?? ''));
    return headers;
  }

  /**
   * One try. `partialIsFinal`: an answer that starts and never finishes is taken as it came, not
   * tried again (the last try, or the deployment already cut an answer short on every try).
   */
  async #sendOnce(checkId: string, request: ApiRequest, bucket: Bucket, retries: number, partialIsFinal: boolean): Promise<Exchange> {
    const { baseUrl, transport, timeoutMs } = this.#options;
    const url = `${baseUrl}${request.path}`;
    const headers = this.#headersOf(request);
    const shownHeaders = this.#redactAll(headers);
    // A near miss of a key is shown as its description, never as the key with one character changed.
    const auth = request.auth;
    if (auth !== 'none' && typeof auth === 'object' && 'authorization' in auth && auth.shownAs !== undefined) shownHeaders.authorization = auth.shownAs;
    const shown = {
      method: request.method,
      url: this.#redact(url),
      headers: shownHeaders,
      ...(request.body !== undefined ? { body: this.#redact(request.body) } : {}),
      ...(request.connection !== undefined ? { connection: request.connection } : {}),
    };
    const sentAt = this.#options.now();
    const started = performance.now();
    let answer: Awaited<ReturnType<Transport['send']>>;
    let incomplete: string | undefined;
    try {
      answer = await transport.send({ method: request.method, url, headers, body: request.body, ...(request.connection !== undefined ? { connection: request.connection } : {}) }, timeoutMs);
    } catch (error) {
      const lastTry = !(request.method === 'GET' || request.method === 'HEAD') || partialIsFinal;
      if (error instanceof TransportError && error.partial && (lastTry || error.malformed)) {
        // The status line came and the answer never finished, on every try, or broke HTTP/1.1's
        // framing (which no retry mends): unreadable, the deployment's failure, judged with the bytes
        // that came. Once a request's answer was cut short on every try, the deployment cuts answers
        // short: no later one is tried again, so a run stays bounded (each try may wait the timeout).
        answer = error.partial;
        incomplete = this.#redact(error.message);
        if (!error.malformed && retries > 0) this.#answersCutShort = true;
      } else {
        // Kept for the reports (the HAR shows it with status 0), never handed to the checks.
        if (error instanceof TransportError) {
          this.unanswered.push({
            checkId,
            operationId: request.operationId,
            ...(request.case !== undefined ? { case: request.case } : {}),
            afterSeq: this.exchanges.length,
            sentAt,
            durationMs: Math.round(performance.now() - started),
            request: shown,
            error: this.#redact(error.message),
            path: this.#redact(request.path),
            attempt: retries + 1,
            bucket,
            ...(error.timedOut ? { timedOut: true } : {}),
          });
        }
        throw error;
      }
    }
    this.failuresInARow = 0;
    return this.#record(checkId, request, bucket, { sentAt, shown, retries, durationMs: Math.round(performance.now() - started) }, answer, incomplete);
  }

  /** Records an answer as an exchange: kept within the run's budget, its text redacted, parsed. */
  #record(checkId: string, request: ApiRequest, bucket: Bucket, sent: { sentAt: number; shown: Exchange['request']; retries: number; durationMs: number }, whole: TransportResponse, incomplete: string | undefined, wire?: WireExchange): Exchange {
    // Memory stays bounded whatever the deployment sends: see retention.ts for what is kept, and the marks that say so.
    const kept = this.#retention.keep(whole, incomplete !== undefined);
    const answer = kept.answer;
    const body = this.#redact(answer.body);
    // The text is redacted for the record; the bytes stay as received, for the checks only (no report writes them).
    const response = {
      status: answer.status,
      headers: this.#redactAll(answer.headers),
      rawHeaders: answer.rawHeaders.map(([name, value]): [string, string] => [name, this.#redact(value)]),
      body,
      bytes: answer.bytes,
      ...(answer.truncated ? { truncated: true } : {}),
      ...(kept.keptInPart !== undefined ? { keptInPart: kept.keptInPart } : {}),
      ...(incomplete !== undefined ? { incomplete } : {}),
      // The start of a body kept in part is no JSON value: not parsed, so no check reads a part as the whole.
      ...(kept.keptInPart !== undefined ? { json: undefined } : parseBody(body)),
    };
    const exchange: Exchange = {
      seq: this.exchanges.length + 1,
      checkId,
      operationId: request.operationId,
      intent: request.intent,
      ...(request.case !== undefined ? { case: request.case } : {}),
      ...(request.burst !== undefined ? { burst: request.burst } : {}),
      ...(request.equivalence !== undefined ? { equivalence: request.equivalence } : {}),
      ...(request.varies !== undefined ? { varies: request.varies } : {}),
      ...(request.expect !== undefined ? { expect: { ...request.expect, what: this.#redact(request.expect.what) } } : {}),
      ...(request.replay ? { replay: true } : {}),
      path: this.#redact(request.path),
      bucket,
      sentAt: sent.sentAt,
      request: sent.shown,
      response: { ...response, durationMs: sent.durationMs },
      retries: sent.retries,
      ...(wire ? { wire } : {}),
    };
    this.exchanges.push(exchange);
    return exchange;
  }

  /**
   * Sends requests on raw connections, for the framing probe: paced as one burst on each quota they
   * spend, never sent again. Each answer whose status line came is recorded as an exchange (with
   * `wire`: the connection's bytes, for the framing judges) and the deployment's quota headers are
   * learnt from it; a request that got none is recorded as unanswered, and counts as no failure of
   * the transport: a server may close a connection between requests.
   */
  async sendWire(checkId: string, plan: WirePlan): Promise<{ exchanges: Exchange[]; connections: WireConnection[] }> {
    const { baseUrl, transport, timeoutMs } = this.#options;
    if (!transport.openConnection) throw new TransportError(`no raw connection to ${baseUrl}: the transport has no sockets`, baseUrl);
    const counts = new Map<Bucket, number>();
    for (const r of plan.requests) counts.set(bucketOf(r.auth), (counts.get(bucketOf(r.auth)) ?? 0) + 1);
    const host = new URL(baseUrl).host;
    const sent = plan.requests.map((request) => {
      const url = new URL(`${baseUrl}${request.path}`);
      const target = `${url.pathname}${url.search}`;
      const headers = Object.entries(this.#headersOf(request));
      const raw = encodeRequest({ method: request.method, target, version: request.version, headers: [['Host', host], ...headers], ...(request.body !== undefined ? { body: request.body } : {}), ...(request.bodyAs ? { bodyAs: request.bodyAs } : {}), ...(request.close ? { close: true } : {}) });
      const written = latin1(raw.head).split('\r\n').slice(1, -2).map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
      const shown = { method: request.method, url: this.#redact(url.href), headers: this.#redactAll(Object.fromEntries(written)), ...(request.body !== undefined ? { body: this.#redact(request.body) } : {}) };
      return { request, raw, target: this.#redact(target), shown };
    });
    for (const [bucket, n] of counts) this.#state(bucket).inFlight += n;
    let records: RawConnectionRecord[];
    let sentAt: number;
    try {
      for (const bucket of counts.keys()) await this.#pace(bucket, this.#state(bucket), false);
      sentAt = this.#options.now();
      // No wait ends past the run's time budget.
      const budgetMs = this.#options.deadline !== undefined ? Math.max(0, this.#options.deadline - sentAt) : undefined;
      records = await exchangeRaw(() => transport.openConnection!(baseUrl, timeoutMs), sent.map((s) => s.raw), plan.pipelined, { timeoutMs, maxBytes: defaultRawMaxBytes, ...(budgetMs !== undefined ? { budgetMs } : {}) });
    } finally {
      for (const [bucket, n] of counts) this.#state(bucket).inFlight -= n;
    }
    const secrets = this.#secrets.map(([secret]) => secret);
    const exchanges: Exchange[] = [];
    const connections: WireConnection[] = [];
    for (const record of records) {
      const connection: WireConnection = { ...wireConnectionOf(record, ++this.#wireConnections, sent, secrets, timeoutMs), operationId: plan.requests[0]?.operationId ?? 'unlisted' };
      connections.push(connection);
      this.connections.push(connection);
      const framed = frameConnection(record.received, record.requests, streamEnd(record.ended));
      const masked = frameWire(connection);
      for (const [k, index] of record.indexes.entries()) {
        const { request, shown } = sent[index]!;
        const bucket = bucketOf(request.auth);
        const answer = framed.answers[k];
        const writtenMs = record.timings.writtenMs[k] ?? 0;
        // An answer past the bytes the probe reads is not the probe's to judge (the other requests judge size, by --max-body).
        if (!answer || answer.head.status === 0 || answer.unfinished === 'cap') {
          this.unanswered.push({ checkId, operationId: request.operationId, ...(request.case !== undefined ? { case: request.case } : {}), afterSeq: this.exchanges.length, sentAt: sentAt + writtenMs, durationMs: 0, request: shown, error: this.#redact(`${request.method} ${baseUrl}${request.path} on a raw connection: ${whyUnanswered(connection, masked, k)}`), path: this.#redact(request.path), attempt: 1, wire: true });
          continue;
        }
        const { response, incomplete } = responseOfAnswer(answer, connection);
        const decoded = await decodeContent(response.bytes, response.headers['content-encoding'], defaultRawMaxBytes).catch(() => undefined);
        const whole = decoded ? { ...response, bytes: decoded.bytes, body: bodyText(decoded.bytes), ...(decoded.truncated ? { truncated: true } : {}) } : response;
        const durationMs = Math.round((record.timings.answeredMs[k] ?? record.timings.closedMs ?? writtenMs) - writtenMs);
        const wire: WireExchange = { connection, index: k, head: headText(connection.received, masked.answers[k] ?? answer), framing: answer.framing };
        const exchange = this.#record(checkId, { ...request, ...(plan.pipelined ? { burst: -connection.id } : {}) }, bucket, { sentAt: sentAt + writtenMs, shown, retries: 0, durationMs }, whole, incomplete !== undefined ? this.#redact(incomplete) : undefined, wire);
        this.failuresInARow = 0;
        this.#learn(this.#state(bucket), exchange);
        exchanges.push(exchange);
      }
    }
    return { exchanges, connections };
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
