// The control API under /__mock: no API key, no quota, no delay, its own errors
// (INVALID_CONTROL_REQUEST), the control token when one is set; a wrong method on one of its paths
// is a 405 with Allow, as on the API (pipeline/route.ts).
import { utf8Length } from '../core/utf8Length.ts';
import type { LoadedSpec } from '../../spec/specModel.ts';
import { componentSchema } from '../../spec/specModel.ts';
import { compileSchema } from '../../spec/compileSchema.ts';
import { compileExactSchema } from '../../spec/compileExactSchema.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import type { CorsOrigins } from '../pipeline/corsOptions.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { toApiError } from '../errors/toApiError.ts';
import { RequestValidationError } from '../errors/requestErrors.ts';
import type { ErrorObject } from 'ajv';
import { ClockRangeError } from '../state/clock.ts';
import { PetSetError } from '../state/petStore.ts';
import { MAX_KEY_LIMIT, planNames, type Plan } from '../rateLimits/plans.ts';
import type { StateParts } from '../state/stateParts.ts';
import { keyDigest } from '../state/keyEntry.ts';
import { parseFaultRule } from './parseFaultRule.ts';
import { gradeClients } from '../clientReport/gradeClients.ts';
import { deprecatedOperations } from '../pipeline/deprecationMarks.ts';
import { observationOf } from '../clientReport/clientObservation.ts';
import { clientUsage } from '../clientReport/clientUsage.ts';
import { parseRequestFilter } from './parseRequestFilter.ts';
import { parseInstant } from './parseInstant.ts';
import { controlTokenCheck } from './controlTokenGuard.ts';
import { MAX_FAULT_RULES } from './faultLimits.ts';
import type { CoreAnswer, CoreLog, CoreRequest } from '../core/coreTypes.ts';
import { LogThrottle } from '../pipeline/logThrottle.ts';
import { logAnswerError } from '../pipeline/logAnswerError.ts';
import { corsHeaders, warnRefusedPreflight } from '../pipeline/cors.ts';
import { matchSegments, methodNotAllowed, pathSegments, templateSegments, type TemplateSegment } from '../pipeline/route.ts';
import { bodyBytes, parseQuery, readJsonBody } from '../pipeline/readRequest.ts';

export interface ControlPipelineOptions {
  spec: LoadedSpec;
  state: StateParts;
  prefix: string;
  apiPrefix: string;
  corsOrigins: CorsOrigins;
  bodyLimit: number;
  controlToken?: string | undefined;
  /** The server log: refused preflights. */
  log?: CoreLog | undefined;
}

/** The longest advance one call may ask for: ten years. */
const MAX_ADVANCE_SECONDS = 315_360_000;
const json = 'application/json; charset=utf-8';

type Handler = (input: { query: Record<string, string | string[]>; params: Record<string, string>; body: () => unknown }) => Promise<{ status?: number; body?: unknown }>;

const invalid = (message: string) => new ApiError('INVALID_CONTROL_REQUEST', message);

export interface ControlPipeline {
  /** A request under the control API's prefix. */
  answer(request: CoreRequest, path: string, search: string): Promise<CoreAnswer>;
  /** The 405 `method` gets on a control path that serves other methods; undefined when the path is none of the control API's. */
  methodNotAllowed(method: string, path: string): ApiError | undefined;
}

export function controlPipeline(options: ControlPipelineOptions): ControlPipeline {
  const { spec, state, prefix, apiPrefix, corsOrigins, bodyLimit } = options;
  const { store, keys, clock, log, faults } = state;
  // Compiled on first use: a mock that is never reset or reconfigured (most) never compiles them.
  const validatePets = once(() => compileExactSchema(componentSchema(spec, 'Pets')));
  const validateClock = once(() => compileSchema({
    type: 'object',
    properties: { advanceSeconds: { type: 'number', minimum: 0, maximum: MAX_ADVANCE_SECONDS }, freeze: { type: 'boolean' }, reset: { type: 'boolean' }, at: {} },
    additionalProperties: false,
    minProperties: 1,
  }));
  const validateKeyParam = once(() => compileSchema({ type: 'object', properties: { key: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9\\-._~+/]+=*$' } } }));
  const validateKeyBody = once(() => compileSchema({
    type: 'object',
    required: ['plan'],
    properties: { plan: { type: 'string', enum: [...planNames] }, perMinute: { type: 'integer', minimum: 1, maximum: MAX_KEY_LIMIT }, perDay: { type: 'integer', minimum: 1, maximum: MAX_KEY_LIMIT } },
    additionalProperties: false,
  }));
  const preflightWarnings = new LogThrottle();
  const deprecatedForReport = [...deprecatedOperations(spec, apiPrefix).values()].flatMap(({ operationId, method, path, removal, instead }) =>
    removal === undefined ? [] : [{ operationId, method, path, removal, instead: instead ?? 'no replacement is named' }]);
  const tokenCheck = options.controlToken === undefined ? undefined : controlTokenCheck(options.controlToken);
  const check = (valid: boolean, errors: ErrorObject[] | null | undefined, part: 'body' | 'params') => {
    if (!valid) throw new RequestValidationError(part, errors ?? []);
  };

  const routes: { method: string; segments: TemplateSegment[]; handler: Handler }[] = [];
  const route = (method: string, path: string, handler: Handler) => {
    const segments = templateSegments(path);
    routes.push({ method, segments, handler });
    if (method === 'GET') routes.push({ method: 'HEAD', segments, handler });
  };

  route('POST', '/reset', async () => {
    await state.reset();
    return { body: { pets: await store.count(), nextId: await store.peekNextId(), message: 'The mock is back to its fixtures: counters, bans, the request log, added keys, the clock and the fault rules are reset.' } };
  });
  route('GET', '/requests', async ({ query }) => {
    const filter = parseRequestFilter(query);
    return { body: { requests: await log.list(filter), dropped: await log.dropped(), capacity: log.capacity } };
  });
  route('DELETE', '/requests', async () => (await log.clear(), { status: 204 }));
  route('GET', '/client-report', async ({ query }) => {
    const { key, ...others } = query;
    const unknown = Object.keys(others);
    if (unknown.length > 0) throw invalid(`GET /__mock/client-report takes only key, not ${unknown.join(', ')}. Send ?key=<API key>, or nothing for every client.`);
    if (Array.isArray(key) || key === '') throw invalid(`key=${JSON.stringify(key)} must be one API key. Send ?key=demo-free, or nothing for every client.`);
    const client = key === undefined ? undefined : `key:${keyDigest(key)}`;
    const observations = (await log.recorded()).flatMap((entry) => observationOf(entry) ?? []).filter((o) => client === undefined || o.client === client);
    return { body: gradeClients(observations, { deprecated: deprecatedForReport, now: clock.now() }) };
  });
  // What each client used of the contract, as a usage file (common/usage/clientUsage.ts) for `pets-conformance --usage`.
  route('GET', '/client-usage', async ({ query }) => {
    const { key, ...others } = query;
    const unknown = Object.keys(others);
    if (unknown.length > 0) throw invalid(`GET /__mock/client-usage takes only key, not ${unknown.join(', ')}. Send ?key=<API key>, or nothing for every client.`);
    if (Array.isArray(key) || key === '') throw invalid(`key=${JSON.stringify(key)} must be one API key. Send ?key=demo-free, or nothing for every client.`);
    return { body: clientUsage((await log.recorded()).flatMap((entry) => observationOf(entry) ?? []), key === undefined ? undefined : `key:${keyDigest(key)}`) };
  });
  route('GET', '/clock', async () => ({ body: await clock.state() }));
  route('POST', '/clock', async ({ body: read }) => {
    const body = read() as { advanceSeconds?: number; freeze?: boolean; reset?: boolean; at?: unknown };
    check(validateClock()(body), validateClock().errors, 'body');
    const { advanceSeconds, freeze, reset: back, at } = body;
    if (at !== undefined) {
      const shown = JSON.stringify(at);
      if (freeze !== true) throw invalid(`Cannot freeze the clock at ${shown}: "at" needs "freeze": true beside it. Send {"freeze": true, "at": ${shown}}.`);
      if (advanceSeconds !== undefined) throw invalid(`Cannot freeze the clock at ${shown} and advance it by ${advanceSeconds} seconds in one call. Freeze it at the instant you want, without "advanceSeconds".`);
      const atMs = parseInstant(at);
      if (atMs === undefined) throw invalid(`Cannot freeze the clock at ${shown}: it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").`);
      try {
        await clock.freeze(true, atMs);
      } catch (error) {
        if (error instanceof ClockRangeError) throw invalid(`Cannot freeze the clock at ${shown}: ${error.message}`);
        throw error;
      }
    } else {
      if (back) await clock.reset();
      if (advanceSeconds !== undefined) await clock.advance(advanceSeconds);
      if (freeze !== undefined) await clock.freeze(freeze);
    }
    // A clock move may end stalls (a held answer waits on the mock's clock): they go before the move is answered.
    const answer = await clock.state();
    await faults.stalls.check();
    return { body: answer };
  });
  route('PUT', '/keys/:key', async ({ params, body: read }) => {
    check(validateKeyParam()(params), validateKeyParam().errors, 'params');
    const body = read() as { plan: Plan; perMinute?: number; perDay?: number };
    check(validateKeyBody()(body), validateKeyBody().errors, 'body');
    const existed = await keys.has(params.key!);
    const entry = await keys.set({ key: params.key!, ...body });
    return { status: existed ? 200 : 201, body: { key: params.key, plan: entry.plan, limits: entry.limits } };
  });
  route('DELETE', '/keys/:key', async ({ params }) => {
    if (!(await keys.delete(params.key!))) throw new ApiError('KEY_NOT_FOUND', `The mock has no API key "${params.key}". Create it with PUT /__mock/keys/{key}.`);
    return { status: 204 };
  });
  route('GET', '/pets', async () => ({ body: await store.all() }));
  route('PUT', '/pets', async ({ body: read }) => {
    const body = read();
    if (!validatePets()(body)) throw invalid(`Cannot replace the pets: ${describeAjvErrors(validatePets().errors, 'pets')}. Send a JSON array of Pet; nothing was changed.`);
    // Only the contract's fields are kept: anything else a client sent is not the API's to answer.
    const pets = (body as Pet[]).map(({ id, name, categoryId, status }): Pet => ({ id, name, categoryId, ...(status !== undefined ? { status } : {}) }));
    const seen = new Map<number, number>();
    for (const [index, pet] of pets.entries()) {
      const first = seen.get(pet.id);
      if (first !== undefined) throw invalid(`Cannot replace the pets: pets[${index}] has the id ${pet.id} of pets[${first}]. Give every pet its own id; nothing was changed.`);
      seen.set(pet.id, index);
    }
    await store.replaceAll(pets);
    return { body: { pets: await store.count(), nextId: await store.peekNextId() } };
  });
  route('POST', '/faults', async ({ body: read }) => {
    const rule = parseFaultRule(read(), spec, apiPrefix);
    const held = (await faults.list()).length;
    if (held >= MAX_FAULT_RULES) throw invalid(`Cannot add the fault rule: the mock already holds ${held} rules, the most it takes. Remove some with DELETE /__mock/faults/{id} or DELETE /__mock/faults; nothing was added.`);
    return { status: 201, body: await faults.add(rule) };
  });
  route('GET', '/faults', async () => ({ body: { faults: await faults.list() } }));
  route('DELETE', '/faults/:id', async ({ params }) => {
    const id = params.id!;
    if (!(await faults.remove(id))) {
      const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
      throw new ApiError('FAULT_NOT_FOUND', `The mock has no fault rule ${JSON.stringify(shown)}: it was never added, or was removed, cleared or reset away. List the rules with GET /__mock/faults.`);
    }
    return { status: 204 };
  });
  route('DELETE', '/faults', async () => (await faults.clear(), { status: 204 }));

  const reserved = corsOrigins === false ? [] : ['OPTIONS'];
  /** The methods a control path serves, when it is one of the control API's. */
  const servedOn = (segments: string[]) => {
    const served = routes.filter((r) => matchSegments(r.segments, segments, { nonEmpty: true })).map((r) => r.method);
    return served.length === 0 ? undefined : served;
  };
  const notAllowed = (method: string, path: string): ApiError | undefined => {
    const served = servedOn(pathSegments(path.slice(prefix.length) || '/'));
    return served && !served.includes(method) ? methodNotAllowed(method, path, [...served, ...reserved]) : undefined;
  };

  const answer = async (request: CoreRequest, path: string, search: string): Promise<CoreAnswer> => {
    const method = request.method.toUpperCase();
    const headers: Record<string, string> = { ...corsHeaders(corsOrigins, request.headers.origin, method === 'OPTIONS') };
    const send = (status: number, body?: unknown): CoreAnswer => {
      if (body === undefined) return { status, headers, body: null };
      // Pets' categoryIds past 2^53 - 1 are BigInts (GET /__mock/pets): written with their digits.
      const text = stringifyExact(body);
      Object.assign(headers, { 'content-type': json, 'content-length': String(utf8Length(text)) });
      return { status, headers, body: text };
    };
    if (method === 'OPTIONS' && corsOrigins !== false) {
      warnRefusedPreflight(options.log, preflightWarnings, { request: request.headers, path, answered: headers }, corsOrigins);
      // A 204 has no Content-Length (RFC 9110, 8.6).
      return { status: 204, headers, body: null };
    }
    let parsedBody: unknown;
    try {
      const refused = tokenCheck?.(request.headers.authorization);
      if (refused && method !== 'OPTIONS') throw refused;
      const segments = pathSegments(path.slice(prefix.length) || '/');
      for (const r of routes) {
        const params = r.method === method ? matchSegments(r.segments, segments, { nonEmpty: true }) : undefined;
        if (!params) continue;
        const bytes = await bodyBytes(request, method);
        // An empty body is no body, whatever its Content-Type: `curl -X POST -H 'Content-Type:
        // application/json' …/reset` asks for a reset; a route that needs a body says so itself.
        const body = (parsedBody = bytes === undefined || bytes.length === 0 ? undefined : readJsonBody(request, bytes, method, bodyLimit));
        const answer = await r.handler({ query: parseQuery(search), params, body: () => body });
        return send(answer.status ?? 200, answer.body);
      }
      // One answer for a method the path does not serve, whatever body came with it (RFC 9110, 15.5.6).
      const wrongMethod = notAllowed(method, path);
      if (wrongMethod) throw wrongMethod;
      throw new ApiError('ROUTE_NOT_FOUND', `No control route ${method} ${path}. The control API serves /reset, /requests, /client-report, /clock, /keys/{key}, /pets and /faults under ${prefix}; see docs/operators.md.`);
    } catch (error) {
      const apiError = error instanceof PetSetError || error instanceof ClockRangeError
        ? invalid((error as Error).message)
        : toApiError(error, { contentType: request.headers['content-type'], body: parsedBody }, { bodyLimit, context: 'control' });
      logAnswerError(options.log, error as Error, apiError);
      Object.assign(headers, apiError.headers);
      return send(apiError.statusCode, apiError.toBody());
    }
  };
  return { answer, methodNotAllowed: notAllowed };
}

/** `make()`'s value, made on the first call and kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
