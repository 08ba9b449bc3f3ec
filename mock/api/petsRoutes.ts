import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { findOperation, type LoadedSpec } from '../../spec/loadSpec.ts';
import type { NewPet, Pet, PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { isPromise } from '../state/awaitable.ts';
import type { PetRepository } from '../state/stateParts.ts';
import { decimalIntegersOnly, routeSchema, toFastifyPath } from './routeSchema.ts';
import { namedContext } from '../namedContext.ts';

export interface PetsRoutesOptions {
  spec: LoadedSpec;
  store: PetRepository;
  /** The status a pet created without one gets; null keeps it absent. The contract leaves it open. */
  defaultStatus: PetStatus | null;
}

/** The operations this plugin answers from the store; the rest of the spec is answered by Prism. */
export const petsOperationIds = ['listPets', 'createPet', 'getPet'] as const;

export const petsRoutes: FastifyPluginAsync<PetsRoutesOptions> = namedContext('pets-routes', async (app, { spec, store, defaultStatus }) => {
  const listPets = findOperation(spec, 'listPets');
  const createPet = findOperation(spec, 'createPet');
  const getPet = findOperation(spec, 'getPet');

  // Pages are served as JSON text kept until the store changes: most reads repeat the last ones,
  // and the text of a page costs more to build than the rest of the request. The store holds only
  // the contract's fields, so JSON.stringify writes exactly what the schema allows.
  const pages = new Map<string, string>();
  let pagesVersion: number | string = -1;
  app.get<{ Querystring: { limit: number; status?: PetStatus } }>(toFastifyPath(listPets.path), {
    schema: routeSchema(listPets),
    preValidation: decimalIntegersOnly(listPets),
    config: { operationId: listPets.operationId },
  }, (request, reply) => {
    // In memory both steps answer at once, with no promise or closure on the hot path; from a
    // shared store they are awaited, and the cache is dropped whenever any replica changed the pets.
    const version = store.changes();
    if (isPromise(version)) return void version.then((v) => servePage(request.query, reply, v), (error: Error) => reply.send(error));
    servePage(request.query, reply, version);
  });

  function servePage({ limit, status }: { limit: number; status?: PetStatus | undefined }, reply: FastifyReply, version: number | string): void {
    if (pagesVersion !== version) {
      pages.clear();
      pagesVersion = version;
    }
    const key = `${limit} ${status ?? ''}`;
    const page = pages.get(key);
    if (page !== undefined) return void reply.type('application/json; charset=utf-8').send(page);
    const pets = store.list({ limit, status });
    if (isPromise(pets)) return void pets.then((list) => sendPage(reply, key, version, list), (error: Error) => reply.send(error));
    sendPage(reply, key, version, pets);
  }

  function sendPage(reply: FastifyReply, key: string, version: number | string, pets: Pet[]): void {
    const text = JSON.stringify(pets);
    if (pagesVersion === version) pages.set(key, text);
    reply.type('application/json; charset=utf-8').send(text);
  }

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
});

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
