import type { FastifyPluginAsync } from 'fastify';
import type { Ajv } from 'ajv';
import { componentSchema, type LoadedSpec } from '../../spec/loadSpec.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import type { Pet } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import type { MockClock } from '../state/clock.ts';
import type { KeyRing } from '../state/keyRing.ts';
import type { PetStore } from '../state/petStore.ts';
import { planNames, type Plan } from '../state/plans.ts';
import type { RequestFilter, RequestLog } from '../state/requestLog.ts';
import '../api/routeConfig.ts';

export interface ControlOptions {
  spec: LoadedSpec;
  store: PetStore;
  keys: KeyRing;
  clock: MockClock;
  log: RequestLog;
  ajv: Ajv;
  /** Puts the mock back as it started. */
  reset(): void;
}

const config = { control: true } as const;

/**
 * The control API, outside `/v1`: reset the mock, read its request log, move its clock, manage
 * keys and replace its pets. It needs no key and counts against no quota.
 */
export const controlRoutes: FastifyPluginAsync<ControlOptions> = async (app, { spec, store, keys, clock, log, ajv, reset }) => {
  const validatePets = ajv.compile(componentSchema(spec, 'Pets'));

  app.post('/reset', { config }, async () => {
    reset();
    return { pets: store.size, nextId: store.nextId, message: 'The mock is back to its fixtures: counters, bans, the request log, added keys and the clock are reset.' };
  });

  app.get<{ Querystring: RequestFilter }>('/requests', {
    config,
    schema: {
      querystring: {
        type: 'object',
        properties: {
          method: { type: 'string', pattern: '^[A-Za-z]+$' },
          path: { type: 'string' },
          status: { type: 'string', pattern: '^([1-5]\\d\\d|[1-5]xx)$' },
        },
        additionalProperties: false,
      },
    },
  }, async (request) => ({ requests: log.list(request.query), dropped: log.dropped, capacity: log.capacity }));

  app.delete('/requests', { config }, async (_, reply) => {
    log.clear();
    return reply.code(204).send();
  });

  app.get('/clock', { config }, async () => clock.state());

  app.post<{ Body: { advanceSeconds?: number; freeze?: boolean; reset?: boolean } }>('/clock', {
    config,
    schema: {
      body: {
        type: 'object',
        // Ten years at most: far enough for any window or ban, near enough for dates to stay dates.
        properties: { advanceSeconds: { type: 'number', minimum: 0, maximum: 315_360_000 }, freeze: { type: 'boolean' }, reset: { type: 'boolean' } },
        additionalProperties: false,
        minProperties: 1,
      },
    },
  }, async (request) => {
    const { advanceSeconds, freeze, reset: back } = request.body;
    if (back) clock.reset();
    if (freeze !== undefined) clock.freeze(freeze);
    if (advanceSeconds !== undefined) clock.advance(advanceSeconds);
    return clock.state();
  });

  app.put<{ Params: { key: string }; Body: { plan: Plan; perMinute?: number; perDay?: number } }>('/keys/:key', {
    config,
    schema: {
      params: { type: 'object', properties: { key: { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9\\-._~+/]+=*$' } } },
      body: {
        type: 'object',
        required: ['plan'],
        properties: {
          plan: { type: 'string', enum: [...planNames] },
          perMinute: { type: 'integer', minimum: 1 },
          perDay: { type: 'integer', minimum: 1 },
        },
        additionalProperties: false,
      },
    },
  }, async (request, reply) => {
    const existed = keys.has(request.params.key);
    const entry = keys.set({ key: request.params.key, ...request.body });
    return reply.code(existed ? 200 : 201).send({ key: request.params.key, plan: entry.plan, limits: entry.limits });
  });

  app.delete<{ Params: { key: string } }>('/keys/:key', { config }, async (request, reply) => {
    if (!keys.delete(request.params.key)) throw new ApiError('KEY_NOT_FOUND', `The mock has no API key "${request.params.key}". Create it with PUT /__mock/keys/{key}.`);
    return reply.code(204).send();
  });

  app.get('/pets', { config }, async () => store.all());

  app.put<{ Body: unknown }>('/pets', { config }, async (request) => {
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
    store.replaceAll(pets, store.nextId);
    return { pets: store.size, nextId: store.nextId };
  });
};
