import type { FastifyError, FastifyPluginAsync } from 'fastify';
import cors from '@fastify/cors';
import { componentSchema, type LoadedSpec } from '../../spec/loadSpec.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import { compileSchema } from '../../spec/compileSchema.ts';
import type { Pet } from '../../spec/types.ts';
import { corsOptions, type CorsOrigins } from '../api/corsOptions.ts';
import { logRefusedPreflight } from '../api/refusedPreflight.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { logAnswerError } from '../errors/logAnswerError.ts';
import { sendApiError } from '../errors/sendApiError.ts';
import { toApiError } from '../errors/toApiError.ts';
import { ClockRangeError } from '../state/clock.ts';
import type { StateParts } from '../state/stateParts.ts';
import { PetSetError } from '../state/petStore.ts';
import { MAX_KEY_LIMIT, planNames, type Plan } from '../state/plans.ts';
import { namedContext } from '../namedContext.ts';
import { controlTokenGuard } from './controlTokenGuard.ts';
import { parseRequestFilter } from './parseRequestFilter.ts';
import { faultRoutes } from './faultRoutes.ts';
import { clientReportRoute } from './clientReportRoute.ts';
import { parseInstant } from './parseInstant.ts';

export interface ControlOptions {
  spec: LoadedSpec;
  state: StateParts;
  /** Validates bodies against the spec's schemas (no type coercion). */
  bodyLimit: number;
  corsOrigins: CorsOrigins;
  /** When set, every control request must carry `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined;
  /** Where the API is mounted, for the paths fault rules name. Default `/v1`. */
  apiPrefix?: string | undefined;
}

/** The longest advance one call may ask for: ten years. */
const MAX_ADVANCE_SECONDS = 315_360_000;

/**
 * The control API under /__mock, a fastify context of its own: reset the mock, read its request
 * log, move its clock, manage keys and replace its pets. It needs no API key, counts against no
 * quota, and its errors are its own (INVALID_CONTROL_REQUEST, never a NewPet hint): none of the
 * API's hooks run here. With a control token, it serves only requests that carry it.
 */
export const controlContext: FastifyPluginAsync<ControlOptions> = namedContext('control', async (app, { spec, state, bodyLimit, corsOrigins, controlToken, apiPrefix = '/v1' }) => {
  const { store, keys, clock, log } = state;
  const validatePets = compileSchema(componentSchema(spec, 'Pets'));
  if (corsOrigins !== false) await app.register(cors, corsOptions(corsOrigins));
  if (corsOrigins !== false && !corsOrigins.includes('*')) app.addHook('onResponse', logRefusedPreflight(corsOrigins));
  // After CORS, so a refusal carries the CORS headers a page needs to read it; before every route
  // and the not-found handler, so without the token nothing is read, changed, or even listed.
  if (controlToken !== undefined) app.addHook('onRequest', controlTokenGuard(controlToken));

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = error instanceof PetSetError || error instanceof ClockRangeError
      ? new ApiError('INVALID_CONTROL_REQUEST', error.message)
      : toApiError(error, request, { bodyLimit, context: 'control' });
    logAnswerError(request, error, apiError);
    return sendApiError(reply, apiError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    return sendApiError(reply, new ApiError('ROUTE_NOT_FOUND', `No control route ${request.method} ${path}. The control API serves /reset, /requests, /client-report, /clock, /keys/{key}, /pets and /faults under ${app.prefix}; see docs/operators.md.`));
  });

  app.post('/reset', async () => {
    await state.reset();
    return { pets: await store.count(), nextId: await store.peekNextId(), message: 'The mock is back to its fixtures: counters, bans, the request log, added keys, the clock and the fault rules are reset.' };
  });

  app.get<{ Querystring: Record<string, string | string[]> }>('/requests', async (request) => {
    const filter = parseRequestFilter(request.query);
    return { requests: await log.list(filter), dropped: await log.dropped(), capacity: log.capacity };
  });

  app.delete('/requests', async (_, reply) => {
    await log.clear();
    return reply.code(204).send();
  });

  app.get('/clock', async () => clock.state());

  app.post<{ Body: { advanceSeconds?: number; freeze?: boolean; reset?: boolean; at?: unknown } }>('/clock', {
    schema: {
      body: {
        type: 'object',
        // Ten years a call and a hundred in all (MAX_CLOCK_OFFSET_SECONDS): far enough for any
        // window, ban or sunset, near enough for every time the mock shows to stay a valid date.
        // `at` is read below, so that a bad instant is named in the answer.
        properties: { advanceSeconds: { type: 'number', minimum: 0, maximum: MAX_ADVANCE_SECONDS }, freeze: { type: 'boolean' }, reset: { type: 'boolean' }, at: {} },
        additionalProperties: false,
        minProperties: 1,
      },
    },
  }, async (request) => {
    const { advanceSeconds, freeze, reset: back, at } = request.body;
    if (at !== undefined) {
      const shown = JSON.stringify(at);
      if (freeze !== true) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot freeze the clock at ${shown}: "at" needs "freeze": true beside it. Send {"freeze": true, "at": ${shown}}.`);
      if (advanceSeconds !== undefined) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot freeze the clock at ${shown} and advance it by ${advanceSeconds} seconds in one call. Freeze it at the instant you want, without "advanceSeconds".`);
      const atMs = parseInstant(at);
      if (atMs === undefined) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot freeze the clock at ${shown}: it is not an instant. Give Unix milliseconds (1780317045000) or an ISO 8601 date-time with a zone ("2026-06-01T12:30:45Z").`);
      // No reset first, even when asked: freezing at an instant sets the whole clock, and a refused
      // instant (ClockRangeError) must leave it as it was.
      try {
        await clock.freeze(true, atMs);
      } catch (error) {
        if (error instanceof ClockRangeError) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot freeze the clock at ${shown}: ${error.message}`);
        throw error;
      }
      return clock.state();
    }
    // The advance is checked first (it throws, changing nothing, past the 100-year range), so a
    // refused call leaves the clock as it was.
    if (back) await clock.reset();
    if (advanceSeconds !== undefined) await clock.advance(advanceSeconds);
    if (freeze !== undefined) await clock.freeze(freeze);
    return clock.state();
  });

  app.put<{ Params: { key: string }; Body: { plan: Plan; perMinute?: number; perDay?: number } }>('/keys/:key', {
    schema: {
      params: { type: 'object', properties: { key: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[A-Za-z0-9\\-._~+/]+=*$' } } },
      body: {
        type: 'object',
        required: ['plan'],
        properties: {
          plan: { type: 'string', enum: [...planNames] },
          perMinute: { type: 'integer', minimum: 1, maximum: MAX_KEY_LIMIT },
          perDay: { type: 'integer', minimum: 1, maximum: MAX_KEY_LIMIT },
        },
        additionalProperties: false,
      },
    },
  }, async (request, reply) => {
    const existed = await keys.has(request.params.key);
    const entry = await keys.set({ key: request.params.key, ...request.body });
    return reply.code(existed ? 200 : 201).send({ key: request.params.key, plan: entry.plan, limits: entry.limits });
  });

  app.delete<{ Params: { key: string } }>('/keys/:key', async (request, reply) => {
    if (!(await keys.delete(request.params.key))) throw new ApiError('KEY_NOT_FOUND', `The mock has no API key "${request.params.key}". Create it with PUT /__mock/keys/{key}.`);
    return reply.code(204).send();
  });

  app.get('/pets', async () => store.all());

  app.put<{ Body: unknown }>('/pets', async (request) => {
    if (!validatePets(request.body)) {
      throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot replace the pets: ${describeAjvErrors(validatePets.errors, 'pets')}. Send a JSON array of Pet; nothing was changed.`);
    }
    const pets = request.body as Pet[];
    const seen = new Map<number, number>();
    for (const [index, pet] of pets.entries()) {
      const first = seen.get(pet.id);
      if (first !== undefined) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot replace the pets: pets[${index}] has the id ${pet.id} of pets[${first}]. Give every pet its own id; nothing was changed.`);
      seen.set(pet.id, index);
    }
    await store.replaceAll(pets);  // a PetSetError (400) for ids past 2^53 - 2; ids keep growing
    return { pets: await store.count(), nextId: await store.peekNextId() };
  });

  await app.register(faultRoutes, { spec, faults: state.faults, apiPrefix });
  await app.register(clientReportRoute, { log });
  // A clock move may end stalls (a held answer waits on the mock's clock): let them go before the
  // move is answered, so a test that advances the clock finds them answered.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'POST' && reply.statusCode === 200 && request.routeOptions.url === `${app.prefix}/clock`) await state.faults.stalls.check();
    return payload;
  });
});
