import type { FastifyPluginAsync } from 'fastify';
import { findOperation, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { NewPet, PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { whenReady } from '../state/awaitable.ts';
import type { PetRepository } from '../state/stateParts.ts';
import { decimalIntegersOnly, routeSchema, toFastifyPath } from './routeSchema.ts';

export interface PetsRoutesOptions {
  spec: LoadedSpec;
  store: PetRepository;
  /** The status a pet created without one gets; null keeps it absent. The contract leaves it open. */
  defaultStatus: PetStatus | null;
}

/** The operations this plugin answers from the store; the rest of the spec is answered by Prism. */
export const petsOperationIds = ['listPets', 'createPet', 'getPet'] as const;

export const petsRoutes: FastifyPluginAsync<PetsRoutesOptions> = async (app, { spec, store, defaultStatus }) => {
  const listPets = findOperation(spec, 'listPets');
  const createPet = findOperation(spec, 'createPet');
  const getPet = findOperation(spec, 'getPet');

  // Pages are served as JSON text kept until the store changes: most reads repeat the last ones,
  // and the text of a page costs more to build than the rest of the request. The store holds only
  // the contract's fields, so JSON.stringify writes exactly what the schema allows.
  const pages = new Map<string, string>();
  let pagesVersion = -1;
  app.get<{ Querystring: { limit: number; status?: PetStatus } }>(toFastifyPath(listPets.path), {
    schema: routeSchema(listPets),
    preValidation: decimalIntegersOnly(listPets),
    config: { operationId: listPets.operationId },
  }, (request, reply) => {
    // In memory both steps answer at once (no promise on the hot path); from a shared store they
    // are awaited, and the page cache is dropped whenever any replica changed the pets.
    const fail = (error: Error) => void reply.send(error);
    whenReady(store.changes(), (version) => {
      if (pagesVersion !== version) {
        pages.clear();
        pagesVersion = version;
      }
      const { limit, status } = request.query;
      const key = `${limit} ${status ?? ''}`;
      const page = pages.get(key);
      if (page !== undefined) return void reply.type('application/json; charset=utf-8').send(page);
      whenReady(store.list({ limit, status }), (pets) => {
        const text = JSON.stringify(pets);
        if (pagesVersion === version) pages.set(key, text);
        reply.type('application/json; charset=utf-8').send(text);
      }, fail);
    }, fail);
  });

  app.post<{ Body: NewPet }>(toFastifyPath(createPet.path), {
    schema: routeSchema(createPet),
    config: { operationId: createPet.operationId },
  }, async (request, reply) => {
    const input = request.body;
    const pet = await store.create(input.status === undefined && defaultStatus ? { ...input, status: defaultStatus } : input);
    return reply.code(201).header('location', `${app.prefix}/pets/${pet.id}`).send(pet);
  });

  app.get<{ Params: { petId: number } }>(toFastifyPath(getPet.path), {
    schema: routeSchema(getPet),
    preValidation: decimalIntegersOnly(getPet),
    config: { operationId: getPet.operationId },
  }, async (request) => {
    const pet = await store.get(request.params.petId);
    // Name the id as sent: above 2^53 the number the mock holds is rounded. The raw URL may carry a
    // fragment or a stray `%` (a raw client sent `/v1/pets/9#%`): cut at `?` or `#`, and keep the
    // segment undecoded if it cannot be decoded.
    const segment = request.url.split(/[?#]/)[0]!.split('/').filter(Boolean).pop() ?? '';
    const sent = safeDecode(segment);
    if (!pet) throw new ApiError('PET_NOT_FOUND', `No pet has the id ${sent}. List pets with GET /v1/pets to find an existing id.`);
    return pet;
  });
};

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
