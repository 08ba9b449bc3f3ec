import { clientFacts } from '../clientReport/clientFacts.ts';
import { keyLabel } from './accessLog.ts';
import { redactUrl } from './redactUrl.ts';
import { MAX_RUN_ID } from '../state/requestLog.ts';
import type { RecordedRequest, StateParts } from '../state/stateParts.ts';
import type { Exchange } from './exchange.ts';
import type { ApiContext } from './context.ts';
import { isPromise } from '../state/awaitable.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { outageRateHeaders } from '../rateLimits/outageRateHeaders.ts';
import { peekRate } from '../rateLimits/peekRate.ts';
import { setRateHeaders } from '../rateLimits/refusals.ts';
import type { RateDecision } from '../rateLimits/rateLimiter.ts';
import { marksAt } from './deprecationMarks.ts';
import { draftExposedHeaders, draftRateLimitFields } from '../rateLimits/draftRateLimitFields.ts';

/** What records a request: the API context's request log, access log (`onAnswer`), server log, and its answers' field names. */
type Recorders = Pick<ApiContext, 'onAnswer' | 'log' | 'answerFields'> & { state: Pick<StateParts, 'log'> };

/**
 * Puts an API request in the request log (with what the client report needs of it) and the access
 * log, as answered at `at` on the mock's clock (status 0: left unanswered). Never an error: the
 * answer is already decided. How long it took is read now; the rest is made with the log's next
 * batch (RequestJournal.addLater) where the log takes one, else now.
 */
export function recordExchange(x: Exchange, answer: Answered, at: number, recorders: Recorders): void {
  const { state, log } = recorders;
  const ended = performance.now();
  const make = () => {
    try {
      return entryOf(x, answer, at, ended, recorders);
    } catch (error) {
      log?.error({ err: error }, 'could not record the request');
      return undefined;
    }
  };
  if (state.log.addLater) return state.log.addLater(make);
  const entry = make();
  if (!entry) return;
  try {
    const added = state.log.add(entry);
    if (added instanceof Promise) added.catch((error: Error) => log?.warn({ err: error }, 'could not record the request'));
  } catch (error) {
    log?.error({ err: error }, 'could not record the request');
  }
}

interface Answered {
  status: number;
  arrivedAt: number;
  corsRefused: boolean;
  body?: string | null;
  /** The value the body was written from, when the operation made it. */
  value?: unknown;
}

/** The request's entry, and its access-log line written. */
function entryOf(x: Exchange, { status, arrivedAt, corsRefused, body, value }: Answered, at: number, ended: number, { onAnswer, answerFields }: Recorders): RecordedRequest {
  const ms = ended - x.started;
  const key = x.apiKey?.label ?? null;
  const runId = x.request.headers['x-conformance-run-id'];
  const method = x.method;
  // What is written (the request log, the client report read from it, the access log) never holds a key.
  const url = redactUrl(x.request.url);
  const entry: RecordedRequest = { at, method, url, status, key, ms: Math.round(ms * 10) / 10, client: x.ip };
  if (runId) entry.runId = runId.slice(0, MAX_RUN_ID);
  if (x.fault) entry.fault = x.fault.id;
  entry.grade = clientFacts(x, { status, arrivedAt, body, value }, key, answerFields);
  onAnswer?.({
    method,
    url,
    status,
    ms,
    answeredAt: ended,
    key: key ?? keyLabel(x.request.headers.authorization),
    client: x.ip,
    runId: runId ? runId.slice(0, MAX_RUN_ID) : undefined,
    fault: x.fault?.id,
    corsRefused,
  });
  return entry;
}

/**
 * What every answer says of its client's window (X-RateLimit-*: as admitted, or peeked for an
 * answer given before any admission; the outage's when the store is away), and the deprecation
 * marks of its operation, at `now` on the mock's clock.
 */
export function rateAndMarks(ctx: Pick<ApiContext, 'state' | 'deprecated' | 'ratelimitHeaders'>, x: Exchange, now: number): Promise<void> | undefined {
  const deprecated = x.op ? ctx.deprecated.get(x.op.operationId) : undefined;
  const opMarks = x.removed ? deprecated?.after : marksAt(deprecated, now);
  const outage = () => Object.assign(x.headers, outageRateHeaders({ headers: x.request.headers, ip: x.ip }, ctx.state.keys, ctx.state.keylessLimits), opMarks);
  // Set in place, no object between: this runs on every answer.
  const set = (decision: RateDecision): undefined => {
    setRateHeaders(x.headers, decision);
    if (opMarks) Object.assign(x.headers, opMarks);
    if (ctx.ratelimitHeaders === 'draft') withDraftFields(x.headers, decision, now);
    return undefined;
  };
  if (x.rateDecision) return set(x.rateDecision);
  if (x.storeUnavailable) return void outage();
  const away = (error: unknown): undefined => {
    if (error instanceof StoreUnavailableError) outage();
    return undefined;
  };
  try {
    const peeked = peekRate({ headers: x.request.headers, ip: x.ip }, ctx.state);
    return isPromise(peeked) ? peeked.then(set, away).then(() => undefined) : set(peeked);
  } catch (error) {
    return away(error);
  }
}

/** The draft's RateLimit-Policy and RateLimit beside X-RateLimit-*, readable by a page where CORS is on. */
function withDraftFields(headers: Record<string, string>, decision: RateDecision, now: number): void {
  Object.assign(headers, draftRateLimitFields(decision, now));
  const exposed = headers['access-control-expose-headers'];
  if (exposed !== undefined) headers['access-control-expose-headers'] = `${exposed}, ${draftExposedHeaders.join(', ')}`;
}
