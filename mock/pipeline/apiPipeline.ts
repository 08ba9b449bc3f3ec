// The API under /v1 as one pipeline of named steps, in one order for every request:
//
//   cors → unknown query → (the store's operation prepared ahead) → admission → fault rules →
//   Prefer → method and route → body → removal → validation → forced answer or operation;
//   then the rate-limit headers and deprecation marks, latency, and the record.
//
// Each step is a module of this folder with its own tests. The only reordering is a read ahead,
// not a second order: a store operation's body and validation may be read before the admission
// so that the store admits and runs it in one step (operation.ts, prepareStoreStep); a request
// that turns out bad is still refused in its turn, after its admission.
import { utf8Length } from '../core/utf8Length.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import { ClientGoneError, ConnectionResetError, type CoreAnswer, type CoreRequest } from '../core/coreTypes.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { peekRate } from '../rateLimits/peekRate.ts';
import { apiContext, type ApiContext, type ApiPipelineOptions } from './context.ts';
import { newExchange, type Exchange } from './exchange.ts';
import { cors, isRefusedPreflight } from './cors.ts';
import { nameUnknownQuery } from './unknownQuery.ts';
import { parseAuthorization } from './parseAuthorization.ts';
import { prepareStoreStep, operate } from './operation.ts';
import { admit } from './admission.ts';
import { applyFaultRules } from './faults.ts';
import { forcedAnswer, readPrefer } from './prefer.ts';
import type { Forced } from './readPreferences.ts';
import { allowMethod, requireRoute } from './routing.ts';
import { bytesOf, readBody } from './body.ts';
import { noQuery, readJsonBody } from './readRequest.ts';
import { validate } from './validation.ts';
import { refuseRemoved } from './removedOperation.ts';
import { delayAnswer } from './latency.ts';
import { errorAnswer } from './errorAnswer.ts';
import { rateAndMarks, recordExchange } from './record.ts';

export type { ApiPipelineOptions } from './context.ts';

/** An answer's status and body, and the value the body was written from when the operation made one (its field names are recorded). */
type Answer = { status: number; body: string | null; value?: unknown };

export interface ApiPipeline {
  /** A request under the API's prefix. */
  api(request: CoreRequest, path: string, search: string): Awaitable<CoreAnswer>;
  /** A request on a path neither the API nor the control API serves. */
  outside(request: CoreRequest, path: string): Promise<CoreAnswer>;
  /** The 405 `method` gets on a request target (Allow from the spec): its path's, or every method the API serves. */
  methodNotAllowed(method: string, target: string): ApiError;
}

export function apiPipeline(options: ApiPipelineOptions): ApiPipeline {
  const ctx = apiContext(options);
  return {
    api: (request, path, search) => answerApi(ctx, request, path, search),
    outside: (request, path) => answerOutside(ctx, request, path),
    methodNotAllowed: (method, target) => ctx.routes.notAllowedOn(method, target),
  };
}

/**
 * The steps that decide the answer, in their order. A step that must wait (a shared store, a body
 * still arriving, a fault rule's hold) returns a promise, and the steps after it continue from it;
 * in memory a read runs every step at once, with no promise between them.
 */
function serve(ctx: ApiContext, x: Exchange): Awaitable<Answer> {
  const preflight = cors(ctx, x);
  if (preflight) return preflight;
  nameUnknownQuery(ctx, x);
  x.credentials = parseAuthorization(x.request.headers.authorization);
  const prepared = prepareStoreStep(ctx, x);
  return prepared ? prepared.then(() => serveAdmission(ctx, x)) : serveAdmission(ctx, x);
}

function serveAdmission(ctx: ApiContext, x: Exchange): Awaitable<Answer> {
  const admitted = admit(ctx, x);
  if (admitted instanceof ApiError) return errorAnswer(ctx, x, admitted);
  return admitted ? admitted.then(() => serveFaults(ctx, x)) : serveFaults(ctx, x);
}

function serveFaults(ctx: ApiContext, x: Exchange): Awaitable<Answer> {
  const faulted = applyFaultRules(ctx, x);
  return faulted ? faulted.then(() => serveRequest(ctx, x)) : serveRequest(ctx, x);
}

function serveRequest(ctx: ApiContext, x: Exchange): Awaitable<Answer> {
  const forced = readPrefer(ctx, x);
  allowMethod(ctx.routes, x);
  const read = readBody(ctx, x);
  return read ? read.then(() => serveValid(ctx, x, forced)) : serveValid(ctx, x, forced);
}

function serveValid(ctx: ApiContext, x: Exchange, forced: Forced | undefined): Awaitable<Answer> {
  requireRoute(ctx.routes, x);
  refuseRemoved(ctx, x);
  validate(ctx, x);
  if (forced) return forcedAnswer(ctx, x, forced);
  return operate(ctx, x);
}

/**
 * A request under the API's prefix, answered at once when no step had to wait (in memory, a read),
 * else once they have: the answer's headers (rate limits, marks), its latency and its record.
 */
function answerApi(ctx: ApiContext, request: CoreRequest, path: string, search: string): Awaitable<CoreAnswer> {
  const x = newExchange(request, path, ctx.query(search));
  const arrivedAt = request.arrivedAt ?? ctx.state.clock.now();
  x.route = ctx.routes.match(path, x.method);
  x.op = x.route?.op;
  let served: Awaitable<Answer>;
  try {
    served = serve(ctx, x);
  } catch (error) {
    return answered(ctx, request, x, arrivedAt, failed(ctx, x, arrivedAt, error));
  }
  if (!isPromise(served)) return answered(ctx, request, x, arrivedAt, served);
  return served.then(
    (answer) => answered(ctx, request, x, arrivedAt, answer),
    (error: unknown) => answered(ctx, request, x, arrivedAt, failed(ctx, x, arrivedAt, error)),
  );
}

/** A step's failure as its Error answer; a reset or a client gone is recorded unanswered and left to the host. */
function failed(ctx: ApiContext, x: Exchange, arrivedAt: number, error: unknown): Answer {
  if (error instanceof ConnectionResetError || error instanceof ClientGoneError) {
    record(ctx, x, 0, arrivedAt, ctx.state.clock.now());
    throw error;
  }
  return errorAnswer(ctx, x, error);
}

/**
 * The decided answer given its rate-limit headers and deprecation marks, then its latency, then
 * sent. The clock is read once for all three where nothing waits between them (in memory, without
 * latency), and again after anything that waited.
 */
function answered(ctx: ApiContext, request: CoreRequest, x: Exchange, arrivedAt: number, answer: Answer): Awaitable<CoreAnswer> {
  const now = ctx.state.clock.now();
  const marked = rateAndMarks(ctx, x, now);
  if (marked) return marked.then(() => delayed(ctx, request, x, arrivedAt, answer, undefined));
  return delayed(ctx, request, x, arrivedAt, answer, now);
}

function delayed(ctx: ApiContext, request: CoreRequest, x: Exchange, arrivedAt: number, answer: Answer, now: number | undefined): Awaitable<CoreAnswer> {
  const delay = delayAnswer(ctx.latency, x);
  if (delay) return delay.then(() => sent(ctx, request, x, arrivedAt, answer, ctx.state.clock.now()));
  return sent(ctx, request, x, arrivedAt, answer, now ?? ctx.state.clock.now());
}

/** The answer as sent at `now`: its length, its Date (RFC 9110, 6.6.1), a profile's bending, and its record. */
function sent(ctx: ApiContext, request: CoreRequest, x: Exchange, arrivedAt: number, answer: Answer, now: number): CoreAnswer {
  if (answer.body !== null && x.headers['content-length'] === undefined) x.headers['content-length'] = ctx.contentLength(answer.body);
  x.headers.date = ctx.dateField(now);
  if (!request.finish) {
    record(ctx, x, answer.status, arrivedAt, now, answer.body, answer.value);
    return { status: answer.status, headers: x.headers, body: answer.body };
  }
  // Recorded with the status and body sent (a profile's status, its 304); the facts of the headers
  // stay the core's (a Retry-After in seconds, whatever form the profile sends it in).
  const finished = request.finish({ status: answer.status, headers: { ...x.headers }, body: answer.body });
  record(ctx, x, finished.status, arrivedAt, now, finished.body, finished.body === answer.body ? answer.value : undefined);
  return finished;
}

/**
 * A path outside the API and the control API: 404 with where the API lives (a malformed JSON
 * body is told first), the client's window as it stands (nothing is counted), in the request log,
 * so a frontend calling a path without /v1 finds its mistake.
 */
async function answerOutside(ctx: ApiContext, request: CoreRequest, path: string): Promise<CoreAnswer> {
  const x = newExchange(request, path, noQuery);
  const arrivedAt = request.arrivedAt ?? ctx.state.clock.now();
  let answer: Answer;
  try {
    const bytes = bytesOf(x);
    if (isPromise(bytes)) await bytes;
    x.body = readJsonBody(request, x.bytes, x.method, ctx.bodyLimit, { routed: false });
    // Where the client's window stands: a store that cannot say answers 503, as everywhere.
    try {
      x.rateDecision = await peekRate({ headers: request.headers, ip: x.ip }, ctx.state);
    } catch (error) {
      if (error instanceof StoreUnavailableError) x.storeUnavailable = true;
      throw error;
    }
    throw ctx.routes.notFound(x.method, path, { outside: true });
  } catch (error) {
    answer = errorAnswer(ctx, x, error);
  }
  const marked = rateAndMarks(ctx, x, ctx.state.clock.now());
  if (marked) await marked;
  record(ctx, x, answer.status, arrivedAt, ctx.state.clock.now());
  x.headers['content-length'] = String(utf8Length(answer.body!));
  return { status: answer.status, headers: x.headers, body: answer.body };
}

/** Puts the request in the request log and the access log: never an error, the answer is already decided. */
function record(ctx: ApiContext, x: Exchange, status: number, arrivedAt: number, at: number, body?: string | null, value?: unknown): void {
  recordExchange(x, { status, arrivedAt, corsRefused: x.method === 'OPTIONS' && isRefusedPreflight(x.request.headers, x.headers), body, value }, at, ctx);
}
