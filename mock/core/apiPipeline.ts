// The API under /v1 as one pipeline of plain functions: the order of the server's hooks (CORS,
// unknown query parameters, the guard, fault rules, Prefer, the body, validation, the forced
// answer, the operation; then the rate-limit headers, deprecation marks, latency and the request
// log), with no framework, so that it runs wherever a request can be handed over.
import type { OpenAPIV3 } from 'openapi-types';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import { requestBodySchema } from '../../spec/specModel.ts';
import { compileSchema } from '../../spec/compileSchema.ts';
import type { NewPet, PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { toApiError } from '../errors/toApiError.ts';
import { forcedError, serverErrorStatuses } from '../prism/forcedError.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import { realisticBody } from '../prism/realisticBody.ts';
import { parseAuthorization } from '../api/parseAuthorization.ts';
import { parsePrefer } from '../api/parsePrefer.ts';
import { rateHeaders, refusal, unauthorized } from '../api/refusals.ts';
import { outageRateHeaders } from '../api/outageRateHeaders.ts';
import type { CorsOrigins } from '../api/corsOptions.ts';
import type { Latency } from '../api/latencyPlugin.ts';
import { PetSetError } from '../state/petStore.ts';
import { planLimits } from '../state/plans.ts';
import type { ApiKeyEntry } from '../state/keyRing.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { StateParts } from '../state/stateParts.ts';
import { StoreUnavailableError } from '../state/storeUnavailableError.ts';
import { realTimers } from '../state/realTimers.ts';
import type { FiredFault } from '../faults/faultRule.ts';
import { clientFacts } from '../clientReport/clientFacts.ts';
import { MAX_RUN_ID } from '../state/requestLog.ts';
import { ConnectionResetError, type CoreAnswer, type CoreRequest } from './coreTypes.ts';
import { corsHeaders } from './corsHeaders.ts';
import { routeTable, routerMethods, type RouteMatch } from './routeTable.ts';
import { deprecationMarks } from './deprecationMarks.ts';
import { parseQuery, readJsonBody } from './readRequest.ts';

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
}

/** One request on its way through the pipeline: what the server keeps on fastify's request and reply. */
interface Exchange {
  request: CoreRequest;
  path: string;
  query: Record<string, string | string[]>;
  ip: string;
  route: RouteMatch | undefined;
  op: SpecOperation | undefined;
  apiKey: ApiKeyEntry | null;
  rateDecision: RateDecision | null;
  storeUnavailable: boolean;
  fault: FiredFault | null;
  preferredDelay: number | null;
  unknownQuery: string[] | null;
  headers: Record<string, string>;
  /** The parsed body, once read: a validation error of a missing body says so. */
  body?: unknown;
  errorCode?: string;
  started: number;
}

const decimalInteger = /^-?\d+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_LISTED = 20;
const shownName = (name: string) => (/^[!-+\--~]{1,64}$/.test(name) ? name : encodeURIComponent(name.slice(0, 64)));
const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');
const json = 'application/json; charset=utf-8';
const paramOptions = { coerceTypes: true, useDefaults: true, int64: 'range' } as const;

function validationError(validation: unknown[], validationContext: string): Error {
  return Object.assign(new Error(`${validationContext} is invalid`), { validation, validationContext });
}

export function apiPipeline(options: ApiPipelineOptions): (request: CoreRequest, path: string, search: string) => Promise<CoreAnswer> {
  const { spec, state, prefix, corsOrigins, bodyLimit, examples, order } = options;
  const match = routeTable(spec);
  const marks = deprecationMarks(spec);
  const served = spec.operations.map((op) => `${op.method.toUpperCase()} ${prefix}${op.path}`).join(', ');
  const reserved = corsOrigins === false ? [] : ['OPTIONS'];
  const definedQuery = new Map(spec.operations.map((op) => [op.operationId, new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))]));
  const validators = new Map(spec.operations.map((op) => [op.operationId, validatorsOf(op)]));

  return async (request, path, search) => {
    const x: Exchange = {
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
    };
    const arrivedAfter = request.arrivedAfter ?? order.answered;
    const method = request.method.toUpperCase();
    x.route = match(path.slice(prefix.length) || '/', method);
    x.op = x.route?.op;
    const origin = request.headers.origin;
    let answer: { status: number; body: string | null };
    try {
      if (method === 'OPTIONS' && corsOrigins !== false) {
        // The preflight (and any OPTIONS, as the server's CORS plugin answers them): counted against nothing.
        Object.assign(x.headers, corsHeaders(corsOrigins, origin, true), { 'content-length': '0' });
        answer = { status: 204, body: null };
      } else {
        Object.assign(x.headers, corsHeaders(corsOrigins, origin, false));
        answer = await serve(x, method);
      }
    } catch (error) {
      if (error instanceof ConnectionResetError) {
        record(x, 0, arrivedAfter);
        throw error;
      }
      answer = errorAnswer(x, error as Error);
    }
    await finish(x, answer.status);
    const delay = x.preferredDelay ?? (options.latency ? options.latency.minMs + Math.round(Math.random() * (options.latency.maxMs - options.latency.minMs)) : 0);
    if (delay > 0) await new Promise((resolve) => realTimers.setTimeout(resolve, delay));
    record(x, answer.status, arrivedAfter);
    if (answer.body !== null && x.headers['content-length'] === undefined) x.headers['content-length'] = String(new TextEncoder().encode(answer.body).length);
    return { status: answer.status, headers: x.headers, body: method === 'HEAD' ? null : answer.body };
  };

  async function serve(x: Exchange, method: string): Promise<{ status: number; body: string | null }> {
    const { op, route } = x;
    // Query parameters the operation does not define are named, before the key is checked.
    if (op && x.request.url.includes('?')) {
      const names = definedQuery.get(op.operationId)!;
      const unknown = Object.keys(x.query).filter((name) => name !== '' && !names.has(name));
      if (unknown.length > 0) {
        x.unknownQuery = unknown;
        const listed = unknown.slice(0, MAX_LISTED).map(shownName);
        x.headers['x-mock-ignored-query'] = unknown.length > MAX_LISTED ? `${listed.join(', ')}, ...` : listed.join(', ');
      }
    }
    await guard(x, route);
    if (op) await applyFault(x, op);
    const forced = x.request.headers.prefer === undefined ? undefined : readPreferences(x, op);
    const body = (x.body = readJsonBody(x.request, method, bodyLimit, { routed: route !== undefined }));
    if (!route) throw new ApiError('ROUTE_NOT_FOUND', `No route ${method} ${x.path}. The API serves ${served}.`);
    if (!op) {
      const allow = [...route.served, ...reserved].join(', ');
      const where = routerMethods.includes(method) ? `${prefix}${route.template}` : x.path;
      throw new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${where}. Use ${allow}.`, { allow });
    }
    const { params, query } = validate(x, op, body);
    if (forced) return forcedAnswer(x, forced, params, query);
    return operation(x, op, params, query, body);
  }

  /** Counts the request against its key's quota, or its address's, and refuses it over the limit or without a valid key. */
  async function guard(x: Exchange, route: RouteMatch | undefined): Promise<void> {
    const credentials = parseAuthorization(x.request.headers.authorization);
    let key: ApiKeyEntry | undefined;
    try {
      key = credentials.kind === 'bearer' ? await state.keys.find(credentials.token) : undefined;
      const decision = await (key ? state.limiter.consume(key.bucketId, key.limits) : state.anonymousLimiter.consume(`ip:${x.ip}`, planLimits.free));
      x.rateDecision = decision;
      x.apiKey = key ?? null;
      if (!decision.allowed) throw refusal(decision, key !== undefined);
    } catch (error) {
      if (error instanceof StoreUnavailableError) x.storeUnavailable = true;
      throw error;
    }
    // A wrong method or an unknown route is told as such with or without a key: nothing is there to protect.
    if (!key && route?.op) throw unauthorized(credentials);
  }

  async function applyFault(x: Exchange, op: SpecOperation): Promise<void> {
    const fired = await state.faults.fire({ operationId: op.operationId, method: x.request.method.toUpperCase(), url: x.request.url, keyBucket: x.apiKey?.bucketId });
    if (!fired) return;
    x.fault = fired;
    if (fired.action === 'reset') throw new ConnectionResetError(`The fault rule ${fired.id} reset the connection of ${x.request.method} ${x.request.url}.`);
    if (fired.action === 'stall') {
      await state.faults.stalls.hold(fired.id, fired.stallMs).ended;
      if (fired.status === undefined) return;
    }
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

  interface Forced {
    op: SpecOperation;
    applied: string;
    code: number | undefined;
    example: string | undefined;
    dynamic: boolean;
    seed: string | undefined;
  }

  function readPreferences(x: Exchange, op: SpecOperation | undefined): Forced | undefined {
    const preferError = (message: string) => new ApiError('INVALID_PREFER_HEADER', message);
    const preferences = parsePrefer(x.request.headers.prefer);
    const applied = [...preferences.keys()].filter((k) => ['code', 'example', 'dynamic', 'seed', 'delay'].includes(k)).map((k) => `${k}=${preferences.get(k)}`);
    const delay = preferences.get('delay');
    if (delay !== undefined) {
      if (!/^\d+$/.test(delay) || Number(delay) > options.maxPreferDelayMs) throw preferError(`Prefer: delay=${delay} is not a whole number of milliseconds from 0 to ${options.maxPreferDelayMs}. Send for example delay=500.`);
      x.preferredDelay = Number(delay);
      x.headers['preference-applied'] = `delay=${delay}`;
    }
    const code = preferences.get('code');
    const example = preferences.get('example');
    const dynamic = preferences.get('dynamic');
    const seed = preferences.get('seed');
    if (!op || (code === undefined && example === undefined && dynamic === undefined)) return undefined;
    const documented = Object.keys(op.operation.responses).filter((s) => /^\d{3}$/.test(s));
    if (code !== undefined && !documented.includes(code) && !(serverErrorStatuses as readonly number[]).includes(Number(code))) {
      throw preferError(`Prefer: code=${code} is not a status the spec documents for ${op.operationId}. Use one of ${documented.join(', ')}, or a server error beyond the contract: ${serverErrorStatuses.join(', ')}.`);
    }
    if (example !== undefined) {
      const known = examplesOf(op, code === undefined ? undefined : Number(code));
      if (!known.includes(example)) {
        throw preferError(`Prefer: example=${example} is not an example of ${op.operationId}${code ? ` ${code}` : ''}. ${known.length > 0 ? `Use one of ${known.join(', ')}.` : 'The spec names no examples there; use code= or dynamic=true.'}`);
      }
    }
    if (dynamic !== undefined && dynamic !== 'true' && dynamic !== 'false') throw preferError(`Prefer: dynamic=${dynamic} must be true or false.`);
    return { op, applied: applied.join(', '), code: code === undefined ? undefined : Number(code), example, dynamic: dynamic === 'true', seed };
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
      const realistic = realisticBody(spec, { op, status: answered.status, seed: seed ?? (dynamic ? undefined : 'static'), query, params });
      if (realistic !== undefined) body = realistic;
    }
    Object.assign(x.headers, answered.headers, { 'preference-applied': applied });
    return { status: answered.status, body: bodyText(x, body) };
  }

  function validatorsOf(op: SpecOperation) {
    const part = (place: 'query' | 'path') => {
      const params = op.parameters.filter((p) => p.in === place);
      if (params.length === 0) return undefined;
      return compileSchema({ type: 'object', properties: Object.fromEntries(params.map((p) => [p.name, structuredClone(p.schema as OpenAPIV3.SchemaObject)])), required: params.filter((p) => p.required).map((p) => p.name) }, paramOptions);
    };
    const bodySchema = requestBodySchema(op);
    const integers = op.parameters
      .filter((p) => (p.in === 'query' || p.in === 'path') && (p.schema as OpenAPIV3.SchemaObject | undefined)?.type === 'integer')
      .map((p) => ({ name: p.name, part: p.in as 'query' | 'path', int64: (p.schema as OpenAPIV3.SchemaObject).format === 'int64' }));
    return { query: part('query'), params: part('path'), body: bodySchema ? compileSchema(structuredClone(bodySchema)) : undefined, integers };
  }

  /** Validation as the server's: plain decimal integers, the unknown query under strict, then path, body and query against the spec. */
  function validate(x: Exchange, op: SpecOperation, body: unknown): { params: Record<string, unknown>; query: Record<string, unknown> } {
    const v = validators.get(op.operationId)!;
    const params: Record<string, unknown> = { ...x.route!.params };
    const query: Record<string, unknown> = { ...x.query };
    for (const { name, part, int64 } of v.integers) {
      const value = (part === 'query' ? query : params)[name];
      if (typeof value !== 'string') continue;
      const context = part === 'query' ? 'querystring' : 'params';
      if (!decimalInteger.test(value)) throw validationError([{ keyword: 'type', instancePath: `/${name}`, schemaPath: '#/type', params: { type: 'integer' }, message: 'is invalid' }], context);
      if (int64 && (BigInt(value) < INT64_MIN || BigInt(value) > INT64_MAX)) throw validationError([{ keyword: 'format', instancePath: `/${name}`, schemaPath: '#/format', params: { format: 'int64-range' }, message: 'is invalid' }], context);
    }
    if (options.strict && x.unknownQuery) {
      const unknown = x.unknownQuery;
      const names = [...(definedQuery.get(op.operationId) ?? [])];
      const takes = names.length === 0 ? 'takes no query parameters' : `takes only ${names.join(' and ')}`;
      const which = unknown.length === 1 ? `The query parameter ${quoted(unknown)} is` : `The query parameters ${quoted(unknown.slice(0, MAX_LISTED))}${unknown.length > MAX_LISTED ? ', ...' : ''} are`;
      throw new ApiError('UNKNOWN_QUERY_PARAMETER', `${which} not defined for ${x.request.method.toUpperCase()} ${x.path}, which ${takes}. Remove ${unknown.length === 1 ? 'it' : 'them'}, or start the mock without --strict (strict: false) to have ${unknown.length === 1 ? 'it' : 'them'} ignored.`);
    }
    if (v.params && !v.params(params)) throw validationError(v.params.errors ?? [], 'params');
    if (v.body && !v.body(body)) throw validationError(v.body.errors ?? [], 'body');
    if (v.query && !v.query(query)) throw validationError(v.query.errors ?? [], 'querystring');
    return { params, query };
  }

  async function operation(x: Exchange, op: SpecOperation, params: Record<string, unknown>, query: Record<string, unknown>, body: unknown): Promise<{ status: number; body: string | null }> {
    x.headers['content-type'] = json;
    switch (op.operationId) {
      case 'listPets':
        return { status: 200, body: JSON.stringify(await state.store.list({ limit: query.limit as number, status: query.status as PetStatus | undefined })) };
      case 'createPet': {
        const input = body as NewPet;
        const pet = await state.store.create(input.status === undefined && options.defaultStatus ? { ...input, status: options.defaultStatus } : input);
        x.headers.location = `${prefix}/pets/${pet.id}`;
        return { status: 201, body: JSON.stringify(pet) };
      }
      case 'getPet': {
        const pet = await state.store.get(params.petId as number);
        const segment = x.path.split('/').filter(Boolean).pop() ?? '';
        if (!pet) throw new ApiError('PET_NOT_FOUND', `No pet has the id ${decodeSafe(segment)}. List pets with GET /v1/pets to find an existing id.`);
        return { status: 200, body: JSON.stringify(pet) };
      }
      default: {
        delete x.headers['content-type'];
        try {
          const answered = await examples.respond(op);
          const realistic = realisticBody(spec, { op, status: answered.status, seed: 'static', query, params });
          Object.assign(x.headers, answered.headers);
          return { status: answered.status, body: bodyText(x, realistic ?? answered.body) };
        } catch (error) {
          throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${(error as Error).message}`);
        }
      }
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
    const apiError = error instanceof PetSetError ? new ApiError('IDS_EXHAUSTED') : toApiError(error as never, { headers: x.request.headers, body: x.body } as never, { bodyLimit, context: 'api' });
    x.errorCode = apiError.code;
    delete x.headers.location;
    Object.assign(x.headers, apiError.headers, { 'content-type': json });
    return { status: apiError.statusCode, body: JSON.stringify(apiError.toBody()) };
  }

  /** What every answer says of its client's window, and the deprecation marks of its operation. */
  async function finish(x: Exchange, _status: number): Promise<void> {
    if (x.rateDecision) Object.assign(x.headers, rateHeaders(x.rateDecision));
    else if (x.storeUnavailable) Object.assign(x.headers, outageRateHeaders({ headers: x.request.headers, ip: x.ip } as never, state.keys));
    else {
      try {
        const credentials = parseAuthorization(x.request.headers.authorization);
        const key = credentials.kind === 'bearer' ? await state.keys.find(credentials.token) : undefined;
        Object.assign(x.headers, rateHeaders(await (key ? state.limiter.peek(key.bucketId, key.limits) : state.anonymousLimiter.peek(`ip:${x.ip}`, planLimits.free))));
      } catch (error) {
        if (error instanceof StoreUnavailableError) Object.assign(x.headers, outageRateHeaders({ headers: x.request.headers, ip: x.ip } as never, state.keys));
      }
    }
    const opMarks = x.op ? marks.get(x.op.operationId) : undefined;
    if (opMarks) Object.assign(x.headers, opMarks);
  }

  function record(x: Exchange, status: number, arrivedAfter: number): void {
    const answerNumber = ++order.answered;
    const key = x.apiKey?.label ?? null;
    const runId = x.request.headers['x-conformance-run-id'];
    const headerOf = (name: string) => (status === 0 ? undefined : x.headers[name]);
    // The request and answer as the client report reads them (clientFacts), without a framework.
    const view = {
      method: x.request.method.toUpperCase(),
      url: x.request.url,
      headers: x.request.headers,
      ip: x.ip,
      apiKey: x.apiKey,
      // The body as parsed: one a fault rule answered before it was read is not (as on the server).
      body: x.body,
      mockRouteConfig: { operationId: x.op?.operationId },
      arrivedAfter,
      answerNumber,
      server: { answerOrder: order },
    };
    const reply = { errorCode: x.errorCode, getHeader: headerOf };
    const added = state.log.add({
      at: state.clock.now(), method: view.method, url: x.request.url, status, key, ms: Math.round((performance.now() - x.started) * 10) / 10,
      client: x.ip,
      ...(runId ? { runId: runId.slice(0, MAX_RUN_ID) } : {}),
      ...(x.fault ? { fault: x.fault.id } : {}),
      grade: clientFacts(view as never, reply as never, key),
    });
    if (added instanceof Promise) added.catch(() => undefined);
  }
}

function examplesOf(op: SpecOperation, status: number | undefined): string[] {
  const statuses = status !== undefined ? [String(status)] : Object.keys(op.operation.responses).filter((s) => s.startsWith('2'));
  return statuses.flatMap((s) => Object.keys(((op.operation.responses[s] as OpenAPIV3.ResponseObject | undefined)?.content?.['application/json']?.examples) ?? {}));
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
