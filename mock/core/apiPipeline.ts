// The API under /v1 as one pipeline of plain functions: the order of the server's hooks (CORS,
// unknown query parameters, the guard, fault rules, Prefer, the body, validation, the forced
// answer, the operation; then the rate-limit headers, deprecation marks, latency and the request
// log), with no framework, so that it runs wherever a request can be handed over.
import { utf8Length } from './utf8Length.ts';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import type { NewPet, PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { toApiError } from '../errors/toApiError.ts';
import { forcedError } from '../prism/forcedError.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import { realisticBody } from '../prism/realisticBody.ts';
import { parseAuthorization } from '../api/parseAuthorization.ts';
import { rateHeaders, refusal, unauthorized } from '../api/refusals.ts';
import { outageRateHeaders } from '../api/outageRateHeaders.ts';
import type { CorsOrigins } from '../api/corsOptions.ts';
import type { Latency } from '../api/parseLatency.ts';
import { PetSetError } from '../state/petStore.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { Credentials } from '../api/parseAuthorization.ts';
import type { Admission, PetStep, PetStepResult, StateParts } from '../state/stateParts.ts';
import { StoreUnavailableError } from '../state/storeUnavailableError.ts';
import { realTimers } from '../state/realTimers.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';
import type { FiredFault } from '../faults/faultRule.ts';
import { ClientGoneError, ConnectionResetError, type AnsweredRequest, type CoreAnswer, type CoreLog, type CoreRequest } from './coreTypes.ts';
import { LogThrottle } from '../api/logThrottle.ts';
import { logAnswerError } from './logAnswerError.ts';
import { corsHeaders, isRefusedPreflight, warnRefusedPreflight } from './corsHeaders.ts';
import { decodeSegment, routeTable, type RouteMatch } from './routeTable.ts';
import { deprecationMarks } from './deprecationMarks.ts';
import { peekRate } from './peekRate.ts';
import { bodyBytes, parseQuery, readJsonBody } from './readRequest.ts';
import { MAX_LISTED, quoted, requestValidation } from './requestValidation.ts';
import { readPreferences, type Forced } from './readPreferences.ts';
import { PageCache } from './pageCache.ts';
import type { Exchange } from './exchange.ts';
import { recordExchange } from './recordExchange.ts';

export interface ApiPipelineOptions {
  spec: LoadedSpec;
  state: StateParts;
  prefix: string;
  corsOrigins: CorsOrigins;
  bodyLimit: number;
  defaultStatus: PetStatus | null;
  strict: boolean;
  latency?: Latency | undefined;
  maxPreferDelayMs: number;
  /** Answers Prefer's 2xx and the operations the store does not hold, from the spec. */
  examples: PrismResponder;
  /** Numbers the answers, for the client report's arrivals. */
  order: { id: string; answered: number };
  /** The server log: ignored query parameters, refused preflights, server errors. */
  log?: CoreLog | undefined;
  /** Called once per API request as answered (or left unanswered): the access log's line. */
  onAnswer?: ((answered: AnsweredRequest) => void) | undefined;
}

const shownName = (name: string) => (/^[!-+\--~]{1,64}$/.test(name) ? name : encodeURIComponent(name.slice(0, 64)));
const json = 'application/json; charset=utf-8';
/** The operations the store answers (PetStep); the contract's others are answered from the spec. */
const storeOperations = new Set(['listPets', 'createPet', 'getPet']);

export interface ApiPipeline {
  /** A request under the API's prefix. */
  api(request: CoreRequest, path: string, search: string): Promise<CoreAnswer>;
  /** A request on a path neither the API nor the control API serves. */
  outside(request: CoreRequest, path: string): Promise<CoreAnswer>;
  /** The 405 the API answers `method` with on `path` (Allow from the spec); undefined when the path is no route of the API, or serves the method. */
  methodNotAllowed(method: string, path: string): ApiError | undefined;
}

export function apiPipeline(options: ApiPipelineOptions): ApiPipeline {
  const { spec, state, prefix, corsOrigins, bodyLimit, examples, order } = options;
  const match = routeTable(spec);
  const marks = deprecationMarks(spec);
  const served = spec.operations.map((op) => `${op.method.toUpperCase()} ${prefix}${op.path}`).join(', ');
  const reserved = corsOrigins === false ? [] : ['OPTIONS'];
  const validation = requestValidation(spec, { strict: options.strict });
  // A page polling with `?page=2`, or retrying a refused preflight, would otherwise fill the log.
  const queryWarnings = new LogThrottle();
  const preflightWarnings = new LogThrottle();
  const log = options.log;
  const pages = new PageCache();

  const exchange = (request: CoreRequest, path: string, search: string): Exchange => ({
    request,
    path,
    query: parseQuery(search),
    ip: request.client ?? '127.0.0.1',
    route: undefined,
    op: undefined,
    apiKey: null,
    rateDecision: null,
    storeUnavailable: false,
    fault: null,
    preferredDelay: null,
    unknownQuery: null,
    headers: {},
    started: performance.now(),
  });

  /**
   * A path outside the API and the control API: 404 with where the API lives (a malformed JSON
   * body is told first, as the server's parser reads it), the client's window as it stands (nothing
   * is counted), in the request log, so a frontend calling a path without /v1 finds its mistake.
   */
  const outside = async (request: CoreRequest, path: string): Promise<CoreAnswer> => {
    const x = exchange(request, path, '');
    const arrivedAfter = request.arrivedAfter ?? order.answered;
    const method = request.method.toUpperCase();
    let answer: { status: number; body: string };
    try {
      await bytesOf(x, method);
      x.body = readJsonBody(request, x.bytes, method, bodyLimit, { routed: false });
      // Where the client's window stands: a store that cannot say answers 503, as everywhere.
      try {
        x.rateDecision = await peekRate({ headers: request.headers, ip: x.ip }, state);
      } catch (error) {
        if (error instanceof StoreUnavailableError) x.storeUnavailable = true;
        throw error;
      }
      answer = errorAnswer(x, new ApiError('ROUTE_NOT_FOUND', `No route ${method} ${path}. The API lives under ${prefix}: ${served}.`));
    } catch (error) {
      answer = errorAnswer(x, error as Error);
    }
    const finished = finish(x);
    if (finished) await finished;
    record(x, answer.status, arrivedAfter);
    x.headers['content-length'] = String(utf8Length(answer.body));
    return { status: answer.status, headers: x.headers, body: answer.body };
  };

  const api = async (request: CoreRequest, path: string, search: string): Promise<CoreAnswer> => {
    const x = exchange(request, path, search);
    const arrivedAfter = request.arrivedAfter ?? order.answered;
    const method = request.method.toUpperCase();
    x.route = match(path.slice(prefix.length) || '/', method);
    x.op = x.route?.op;
    const origin = request.headers.origin;
    let answer: { status: number; body: string | null };
    try {
      if (method === 'OPTIONS' && corsOrigins !== false) {
        // The preflight (and any OPTIONS, as the server's CORS plugin answers them): counted against nothing.
        // A 204 has no Content-Length (RFC 9110, 8.6).
        Object.assign(x.headers, corsHeaders(corsOrigins, origin, true));
        answer = { status: 204, body: null };
        warnRefusedPreflight(log, preflightWarnings, { request: x.request.headers, path: x.path, answered: x.headers }, corsOrigins);
      } else {
        Object.assign(x.headers, corsHeaders(corsOrigins, origin, false));
        answer = await serve(x, method);
      }
    } catch (error) {
      if (error instanceof ConnectionResetError || error instanceof ClientGoneError) {
        record(x, 0, arrivedAfter);
        throw error;
      }
      answer = errorAnswer(x, error as Error);
    }
    const finished = finish(x);
    if (finished) await finished;
    const delay = x.preferredDelay ?? (options.latency ? options.latency.minMs + Math.round(Math.random() * (options.latency.maxMs - options.latency.minMs)) : 0);
    // A real timer, so that a test's fake timers neither hold the answer nor release it early;
    // unref'd, so that a held answer never keeps a shutting-down process alive.
    if (delay > 0) await new Promise((resolve) => (realTimers.setTimeout(resolve, delay) as { unref?: () => void }).unref?.());
    record(x, answer.status, arrivedAfter);
    if (answer.body !== null && x.headers['content-length'] === undefined) x.headers['content-length'] = String(utf8Length(answer.body));
    return { status: answer.status, headers: x.headers, body: answer.body };
  };
  return {
    api,
    outside,
    methodNotAllowed(method, path) {
      const route = path === prefix || path.startsWith(`${prefix}/`) ? match(path.slice(prefix.length) || '/', method) : undefined;
      return route && !route.op ? notAllowed(route, method) : undefined;
    },
  };

  /** 405 with the methods the path serves, from the spec. */
  function notAllowed(route: RouteMatch, method: string): ApiError {
    const allow = [...route.served, ...reserved].join(', ');
    return new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${prefix}${route.template}. Use ${allow}.`, { allow });
  }

  /** Puts the request in the request log and the access log: never an error, the answer is already decided. */
  function record(x: Exchange, status: number, arrivedAfter: number): void {
    recordExchange(x, { status, arrivedAfter, corsRefused: x.request.method.toUpperCase() === 'OPTIONS' && isRefusedPreflight(x.request.headers, x.headers) }, { state, order, onAnswer: options.onAnswer, log });
  }

  async function serve(x: Exchange, method: string): Promise<{ status: number; body: string | null }> {
    const { op, route } = x;
    // Query parameters the operation does not define are named, before the key is checked.
    if (op && x.request.url.includes('?')) {
      const names = validation.definedQuery(op.operationId);
      const unknown = Object.keys(x.query).filter((name) => name !== '' && !names.has(name));
      if (unknown.length > 0) {
        x.unknownQuery = unknown;
        const listed = unknown.slice(0, MAX_LISTED).map(shownName);
        x.headers['x-mock-ignored-query'] = unknown.length > MAX_LISTED ? `${listed.join(', ')}, ...` : listed.join(', ');
        const fresh = log ? queryWarnings.fresh(unknown) : [];
        if (fresh.length > 0) {
          const action = options.strict ? 'refuses it with 400 (--strict)' : 'answers as if it were absent (--strict refuses it with 400); the answer names it in X-Mock-Ignored-Query';
          log!.warn({ ignoredQuery: fresh }, `${method} ${x.path} ${validation.takes(op.operationId)}, not ${quoted(fresh)}: the contract does not define ${fresh.length === 1 ? 'it' : 'them'}, and the mock ${action}. Logged once a minute per name.`);
        }
      }
    }
    const credentials = parseAuthorization(x.request.headers.authorization);
    if (op && credentials.kind === 'bearer' && storeOperations.has(op.operationId)) {
      // Rules this process knows changed are read first: the step then goes ahead unless one may take the request.
      const refreshed = state.faults.refresh();
      // A store that does not answer is told once: the 503's headers do not wait on it again.
      if (refreshed) await refreshed.catch(storeAway(x));
      if (stepsAhead(x, op, credentials.token)) return inOneStep(x, method, op, credentials);
    }
    const guarded = guard(x, route, credentials);
    if (guarded) await guarded;
    const faulted = op ? applyFault(x, op) : undefined;
    if (faulted) await faulted;
    const forced = x.request.headers.prefer === undefined ? undefined : preferencesOf(x, op);
    // One answer for every method the path does not serve, known to routers or not, whatever
    // body came with it (RFC 9110, 15.5.6): the method is what is wrong.
    if (route && !op) throw notAllowed(route, method);
    const bytes = bytesOf(x, method);
    if (isPromise(bytes)) await bytes;
    const body = (x.body = readJsonBody(x.request, x.bytes, method, bodyLimit, { routed: route !== undefined }));
    if (!route || !op) throw new ApiError('ROUTE_NOT_FOUND', `No route ${method} ${x.path}. The API serves ${served}.`);
    const { params, query } = validate(x, op, body);
    if (forced) return forcedAnswer(x, forced, params, query);
    return operation(x, op, params, query, body);
  }

  /** Whether the request's Prefer forces no answer (a delay, or preferences the mock does not take): the store still answers it. */
  function preferenceFree(x: Exchange, op: SpecOperation): boolean {
    try {
      return (x.preferences = readPreferences(x.request.headers.prefer!, op, { maxDelayMs: options.maxPreferDelayMs })).forced === undefined;
    } catch {
      // A Prefer the mock refuses is refused in the step-by-step order (after the key and the quota).
      return false;
    }
  }

  /**
   * Whether a request for an operation of the store can be admitted and the operation run in one
   * step (one round trip on a shared store): no Prefer that forces an answer (those are not the store's), no fault
   * rule that may take it, and its body at hand, or worth reading before the key is checked. It is
   * on a shared store, for a key this replica last found valid: the round trip is saved, and the
   * body of a key the mock does not know is never read before its 401. Any other request goes
   * step by step.
   */
  function stepsAhead(x: Exchange, op: SpecOperation, token: string): boolean {
    if (x.request.headers.prefer !== undefined && !preferenceFree(x, op)) return false;
    if (op.operation.requestBody !== undefined && x.request.body === undefined && !state.keys.lastSeen?.(token)) return false;
    return !state.faults.mayFire(faultTarget(x, op));
  }

  /**
   * The request read and validated first, then admitted and its operation run in one step. The
   * answers are the step-by-step path's: a request that turns out bad is admitted on its own and
   * then refused as that path would (a 401 or 429 first, then a fault rule, then the 4xx).
   */
  async function inOneStep(x: Exchange, method: string, op: SpecOperation, credentials: Credentials & { kind: 'bearer' }): Promise<{ status: number; body: string | null }> {
    let step: PetStep;
    let checked: { params: Record<string, unknown>; query: Record<string, unknown> };
    try {
      const bytes = bytesOf(x, method);
      if (isPromise(bytes)) await bytes;
      x.body = readJsonBody(x.request, x.bytes, method, bodyLimit);
      checked = validate(x, op, x.body);
      step = petStep(op, checked, x.body);
    } catch (error) {
      const guarded = guard(x, x.route, credentials);
      if (guarded) await guarded;
      const faulted = applyFault(x, op);
      if (faulted) await faulted;
      if (x.request.headers.prefer !== undefined) preferencesOf(x, op);
      throw error;
    }
    const pending = state.admit({ token: credentials.token, ip: x.ip }, true, step);
    const admission = isPromise(pending) ? await pending.catch(storeAway(x)) : pending;
    admitted(x, admission, x.route, credentials);
    // A delay Prefer asked for, applied where the step-by-step path applies it: once admitted.
    if (x.request.headers.prefer !== undefined && admission.step) preferencesOf(x, op);
    if (admission.step) return stepAnswer(x, step, admission.step);
    // Admitted, but the step was not run: the fault rules changed meanwhile, and one may take it.
    const faulted = applyFault(x, op);
    if (faulted) await faulted;
    if (x.request.headers.prefer !== undefined) preferencesOf(x, op);
    return operation(x, op, checked.params, checked.query, x.body);
  }

  /** The body's bytes, read once (x.bytes): a host that streams them hands them over once. */
  function bytesOf(x: Exchange, method: string): Awaitable<Uint8Array | undefined> {
    if (x.bodyRead) return x.bytes;
    const keep = (bytes: Uint8Array | undefined) => {
      x.bodyRead = true;
      return (x.bytes = bytes);
    };
    const bytes = bodyBytes(x.request, method);
    return isPromise(bytes) ? bytes.then(keep) : keep(bytes);
  }

  function validate(x: Exchange, op: SpecOperation, body: unknown): { params: Record<string, unknown>; query: Record<string, unknown> } {
    return validation.validate(op, { method: x.request.method.toUpperCase(), path: x.path, params: x.route!.params, query: x.query, body, unknownQuery: x.unknownQuery });
  }


  /**
   * Counts the request against its key's quota, or its address's, and refuses it over the limit or
   * without a valid key. In memory every step answers at once, with no promise on the hot path; a
   * shared store's answer (one round trip) is awaited.
   */
  function guard(x: Exchange, route: RouteMatch | undefined, credentials: Credentials): Promise<void> | undefined {
    const pending = state.admit({ token: credentials.kind === 'bearer' ? credentials.token : undefined, ip: x.ip }, true);
    if (isPromise(pending)) return pending.then((admission) => admitted(x, admission, route, credentials), storeAway(x));
    admitted(x, pending, route, credentials);
    return undefined;
  }

  /** Notes the admission on the exchange; throws the 429 over the limit, and the 401 for an operation without a valid key. */
  function admitted(x: Exchange, { key, decision }: Admission, route: RouteMatch | undefined, credentials: Credentials): void {
    x.rateDecision = decision;
    x.apiKey = key ?? null;
    if (!decision.allowed) throw refusal(decision, key !== undefined);
    // A wrong method or an unknown route is told as such with or without a key: nothing is there to protect.
    if (!key && route?.op) throw unauthorized(credentials);
  }

  /** Notes a shared store that did not answer (the answer's rate headers say so), and passes the error on. */
  function storeAway(x: Exchange): (error: unknown) => never {
    return (error) => {
      if (error instanceof StoreUnavailableError) x.storeUnavailable = true;
      throw error;
    };
  }

  function faultTarget(x: Exchange, op: SpecOperation) {
    return { operationId: op.operationId, method: x.request.method.toUpperCase(), url: x.request.url, keyBucket: x.apiKey?.bucketId };
  }

  /** The fault rule that takes the request, applied; undefined at once when none does. */
  function applyFault(x: Exchange, op: SpecOperation): Promise<void> | undefined {
    const fired = state.faults.fire(faultTarget(x, op));
    if (isPromise(fired)) return fired.then((f) => (f ? applyFired(x, op, f) : undefined));
    return fired ? applyFired(x, op, fired) : undefined;
  }

  async function applyFired(x: Exchange, op: SpecOperation, fired: FiredFault): Promise<void> {
    x.fault = fired;
    // The body is read (not parsed) all the same, once the rule answers: the client report tells a
    // create sent again after this fault from a new one by it (client.post-retry).
    const readForLog = async () => void (await bytesOf(x, x.request.method.toUpperCase()));
    if (fired.action === 'reset') {
      await readForLog();
      throw new ConnectionResetError(`The fault rule ${fired.id} reset the connection of ${x.request.method} ${x.request.url}.`);
    }
    if (fired.action === 'stall') {
      const held = state.faults.stalls.hold(fired.id, fired.stallMs);
      const signal = x.request.signal;
      if (signal) {
        // A client that gives up (its own timeout) closes the connection: nothing more is done for it.
        const left = new Promise<'left'>((resolve) => (signal.aborted ? resolve('left') : signal.addEventListener('abort', () => resolve('left'), { once: true })));
        if ((await Promise.race([held.ended, left])) === 'left') {
          held.cancel();
          throw new ClientGoneError(`The client of ${x.request.method} ${x.request.url} left while the fault rule ${fired.id} held its answer.`);
        }
      } else await held.ended;
      if (fired.status === undefined) return;
    }
    await readForLog();
    throw forcedErrorOf(x, fired.status!, op, { cause: `the fault rule ${fired.id}`, undo: `DELETE /__mock/faults/${fired.id} removes the rule` }, fired.retryAfter);
  }

  function forcedErrorOf(x: Exchange, status: number, op: SpecOperation, forcedBy: { cause: string; undo: string }, retryAfterSeconds?: number): ApiError {
    const now = Math.floor(state.clock.now() / 1000);
    const error = forcedError(status, op, {
      params: x.route?.params ?? {},
      retryAfterSeconds: retryAfterSeconds ?? Math.max(1, (x.rateDecision?.reset ?? now + 60) - now),
      serviceRetryAfterSeconds: retryAfterSeconds,
      forcedBy,
    });
    if (error.statusCode === 429 && x.rateDecision) x.rateDecision = { ...x.rateDecision, remaining: 0 };
    return error;
  }

  /** Reads `Prefer`: its delay noted on the exchange (and applied), the answer it forces returned. */
  function preferencesOf(x: Exchange, op: SpecOperation | undefined): Forced | undefined {
    const { delayMs, forced } = x.preferences ?? readPreferences(x.request.headers.prefer!, op, { maxDelayMs: options.maxPreferDelayMs });
    if (delayMs !== undefined) {
      x.preferredDelay = delayMs;
      x.headers['preference-applied'] = `delay=${delayMs}`;
    }
    return forced;
  }

  async function forcedAnswer(x: Exchange, forced: Forced, params: Record<string, unknown>, query: Record<string, unknown>): Promise<{ status: number; body: string | null }> {
    const { op, applied, code, example, dynamic, seed } = forced;
    if (code !== undefined && code >= 400) {
      x.headers['preference-applied'] = applied;
      throw forcedErrorOf(x, code, op, { cause: `Prefer: code=${code}`, undo: `Send the request without code=${code} for the real answer` });
    }
    const answered = await examples.respond(op, { ...(code !== undefined ? { code } : {}), ...(example !== undefined ? { exampleKey: example } : {}), dynamic, ...(seed !== undefined ? { seed } : {}) });
    let body = answered.body;
    if (example === undefined) {
      const realistic = await realisticBody(spec, { op, status: answered.status, seed: seed ?? (dynamic ? undefined : 'static'), query, params });
      if (realistic !== undefined) body = realistic;
    }
    Object.assign(x.headers, lowerCased(answered.headers), { 'preference-applied': applied });
    return { status: answered.status, body: bodyText(x, body) };
  }

  /** The store's operation for a valid request of listPets, createPet or getPet. */
  function petStep(op: SpecOperation, { params, query }: { params: Record<string, unknown>; query: Record<string, unknown> }, body: unknown): PetStep {
    switch (op.operationId) {
      case 'createPet': {
        const input = body as NewPet;
        return { kind: 'create', input: input.status === undefined && options.defaultStatus ? { ...input, status: options.defaultStatus } : input };
      }
      case 'getPet':
        return { kind: 'get', id: params.petId as number };
      default: {
        const limit = query.limit as number;
        const status = query.status as PetStatus | undefined;
        // The page's text is kept until the store changes: a store that still has this version sends none.
        return { kind: 'page', limit, status, heldVersion: pages.heldVersion(limit, status) };
      }
    }
  }

  /** The answer to what the store's operation gave. */
  function stepAnswer(x: Exchange, step: PetStep, result: PetStepResult): Awaitable<{ status: number; body: string | null }> {
    x.headers['content-type'] = json;
    switch (result.kind) {
      case 'create': {
        if ('exhausted' in result) throw new ApiError('IDS_EXHAUSTED');
        x.headers.location = `${prefix}/pets/${result.pet.id}`;
        return { status: 201, body: JSON.stringify(result.pet) };
      }
      case 'get': {
        if (result.pet) return { status: 200, body: JSON.stringify(result.pet) };
        const segment = x.path.split('/').filter(Boolean).pop() ?? '';
        throw new ApiError('PET_NOT_FOUND', `No pet has the id ${decodeSegment(segment)}. List pets with GET /v1/pets to find an existing id.`);
      }
      case 'page': {
        const { limit, status } = step as PetStep & { kind: 'page' };
        const text = pages.take(result, limit, status);
        if (text !== undefined) return { status: 200, body: text };
        // The copy this answer counted on went with a newer version meanwhile: read the page again.
        const fresh = { kind: 'page', limit, status } as const;
        const again = state.runStep(fresh);
        return isPromise(again) ? again.then((page) => stepAnswer(x, fresh, page)) : stepAnswer(x, fresh, again);
      }
    }
  }

  async function operation(x: Exchange, op: SpecOperation, params: Record<string, unknown>, query: Record<string, unknown>, body: unknown): Promise<{ status: number; body: string | null }> {
    if (storeOperations.has(op.operationId)) {
      const step = petStep(op, { params, query }, body);
      const result = state.runStep(step);
      const answer = stepAnswer(x, step, isPromise(result) ? await result : result);
      return isPromise(answer) ? await answer : answer;
    }
    try {
      const answered = await examples.respond(op);
      const realistic = await realisticBody(spec, { op, status: answered.status, seed: 'static', query, params });
      Object.assign(x.headers, lowerCased(answered.headers));
      return { status: answered.status, body: bodyText(x, realistic ?? answered.body) };
    } catch (error) {
      log?.error({ err: error }, 'prism could not mock the operation');
      throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${(error as Error).message}`);
    }
  }

  function bodyText(x: Exchange, body: unknown): string | null {
    if (body === undefined || body === null) return null;
    if (typeof body === 'string') {
      x.headers['content-type'] ??= 'text/plain; charset=utf-8';
      return body;
    }
    const type = x.headers['content-type'];
    if (type === undefined) x.headers['content-type'] = json;
    else if (/^application\/json\s*$/i.test(type)) x.headers['content-type'] = json;
    return JSON.stringify(body);
  }

  function errorAnswer(x: Exchange, error: Error): { status: number; body: string } {
    const apiError = error instanceof PetSetError ? new ApiError('IDS_EXHAUSTED') : toApiError(error, { contentType: x.request.headers['content-type'], body: x.body }, { bodyLimit, context: 'api' });
    x.errorCode = apiError.code;
    logAnswerError(log, error, apiError);
    delete x.headers.location;
    Object.assign(x.headers, apiError.headers, { 'content-type': json });
    return { status: apiError.statusCode, body: JSON.stringify(apiError.toBody()) };
  }

  /** What every answer says of its client's window, and the deprecation marks of its operation. */
  function finish(x: Exchange): Promise<void> | undefined {
    const opMarks = x.op ? marks.get(x.op.operationId) : undefined;
    const outage = () => Object.assign(x.headers, outageRateHeaders({ headers: x.request.headers, ip: x.ip }, state.keys), opMarks);
    if (x.rateDecision) return void Object.assign(x.headers, rateHeaders(x.rateDecision), opMarks);
    if (x.storeUnavailable) return void outage();
    const set = (decision: RateDecision) => void Object.assign(x.headers, rateHeaders(decision), opMarks);
    const away = (error: unknown): undefined => {
      if (error instanceof StoreUnavailableError) outage();
      return undefined;
    };
    try {
      const peeked = peekRate({ headers: x.request.headers, ip: x.ip }, state);
      return isPromise(peeked) ? peeked.then(set, away) : set(peeked);
    } catch (error) {
      return away(error);
    }
  }
}

/** Header names in lower case, as the answer's own are: Prism names its own `Content-Type`, and one name must not go out twice. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
