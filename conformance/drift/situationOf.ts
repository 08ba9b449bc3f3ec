// What a generated request was, as the contract sees it: the situation whose answer it shows, the
// open choice (and its docs/contract-choices.md row) a difference in that answer belongs to, and the
// status the contract pins for it, if it pins one. A difference on a pinned status is never drift:
// one side (or both) broke the contract there, whether or not a judge said so.
import { parseBody, type ApiRequest, type ParsedBody } from '../http/exchange.ts';
import type { SituationName } from '../../mock/profile/situations.ts';
import type { DeploymentProfile } from '../../mock/profile/profile.ts';
import { bodyRefusal } from '../../mock/profile/bodyRefusal.ts';
import { parseJsonExact } from '../../common/json/exactJson.ts';

export interface Situation {
  /** In a report's words: `a limit out of range`, `a create with a long name`. */
  what: string;
  /** The open choice a status difference belongs to (a profile field, or a choice the profile cannot hold). */
  field?: string;
  /** The Error situation (profile `errors.<name>`) a refusal's code belongs to. */
  error?: SituationName;
  /**
   * The statuses the contract allows, when it pins them: 401 without a key, 400 for a body NewPet's
   * schema refuses, 200 for a valid read; a valid create gets 201, or 400 when the deployment calls
   * a value invalid (the contract leaves which values to it). Any other status is a break.
   */
  allowed?: readonly number[];
  /** Which pet a status depends on (a read of an id no side is known to have): 200 against 404 is which pets, meaningless. */
  dependsOnPets?: boolean;
}

/** Generated choices a profile field of another name makes: a categoryId past 2^53 - 1 is refused by a `categoryIdRange` bound. */
export const madeByProfileField: Partial<Record<string, string>> = { int64Range: 'categoryIdRange' };

/** Generated choices with no profile field of their own, with their contract-choices.md rows (the ones it has are driftFields.ts's). */
export const generatedChoices = {
  integerSpellings: { title: 'another spelling of an integer (`limit=1e1`, `/pets/+7`): refused or read as the number', row: 'Integer parameters' },
  statusFilterNearMiss: { title: 'a `status` filter that is no PetStatus (`?status=Sold`): refused, or a list with no pet', row: 'A `status` filter that is no PetStatus' },
  refusedValues: { title: 'a NewPet whose values a deployment may call invalid (400): refused or created', row: 'Values of `name` and `categoryId` a deployment may refuse' },
  nameValues: { title: 'a `name` NewPet allows that a deployment may refuse (empty, control characters, a lone surrogate)', row: 'Values of `name` and `categoryId` a deployment may refuse' },
  int64Range: { title: 'a `categoryId` past 2^53 - 1 (up to the int64 ends): taken exactly or refused; the mock takes every int64 exactly, and refuses past 2^53 - 1 given the profile\'s `categoryIdRange` bound', row: 'Range of int64 values' },
  maxBodySize: { title: 'the largest request body taken', row: 'Maximum request body' },
  methodsServed: { title: 'a method the contract does not list, served (`HEAD`, `OPTIONS`, `DELETE`)', row: 'A method a path does not serve' },
  trailingSlash: { title: 'a path with a trailing slash (`/pets/`)', row: 'Unknown routes, wrong methods' },
} as const;

export type GeneratedChoice = keyof typeof generatedChoices;

/** A generated request as its situation reads it: `sent` is its body as parseBody read it, when the sender kept that. */
export type SituationRequest = Pick<ApiRequest, 'method' | 'path' | 'auth' | 'intent' | 'operationId' | 'body' | 'headers'> & { sent?: ParsedBody };

/** The request's body, parsed: the one the sender kept, else read now; undefined when it sent none. */
export const sentBody = (request: SituationRequest): ParsedBody | undefined => (request.body === undefined ? undefined : (request.sent ?? parseBody(request.body)));

/** A NewPet body's name and categoryId as sent (undefined when the body is no JSON object). */
function newPetOf(body: string | undefined, sent: ParsedBody | undefined): { name?: unknown; categoryIdText?: string } | undefined {
  const value = sent?.json;
  if (body === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const categoryIdText = /"categoryId"\s*:\s*(-?[0-9.eE+-]+)/.exec(body)?.[1];
  return { name: (value as { name?: unknown }).name, ...(categoryIdText !== undefined ? { categoryIdText } : {}) };
}

/** Whether a request carries no usable key: none, or a near miss of one. */
const keyless = (request: Pick<ApiRequest, 'auth' | 'intent'>): boolean => request.auth === 'none' || request.intent === 'unauthenticated';

/** createPet's answers: 201, or 400 "The body is missing required fields or has invalid values". */
const createAllowed = [201, 400] as const;

const pathOnly = (path: string) => path.split('?')[0]!;
const queryOf = (path: string) => new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');

/**
 * The Error situation a create body refused for a value belongs to: the reason the side's learnt
 * profile refuses it for (a field NewPet lacks, a name over its maxNameLength, a categoryId outside
 * its categoryIdRange; bodyRefusal.ts, the mock's own rule, so the mock given that profile answers
 * it as that reason), else invalidBody. Read exactly: a categoryId past 2^53 - 1 as the BigInt it is.
 */
function refusalSituation(body: string | undefined, learnt: DeploymentProfile | undefined): SituationName {
  if (!learnt || body === undefined) return 'invalidBody';
  try {
    return bodyRefusal(learnt, parseJsonExact(body))?.reason ?? 'invalidBody';
  } catch {
    return 'invalidBody';
  }
}

/**
 * The situation of one generated request. `known`: the id it reads is a pet that side created or
 * listed. `learnt`: the profile the side's probes wrote, which tells why a create body is refused.
 */
export function situationOf(request: SituationRequest, known = false, learnt?: DeploymentProfile): Situation {
  const path = pathOnly(request.path);
  const sent = sentBody(request);
  if (request.operationId === 'unlisted') {
    if (keyless(request)) return { what: `${request.method} on a path or method the contract does not list, without a key`, field: 'keylessUnlisted' };
    if (/\/$/.test(path) && path !== '/') return { what: 'a path with a trailing slash', field: 'trailingSlash' };
    if (/^\/pets(\/[^/]+)?$/.test(path)) return { what: `${request.method} ${path.startsWith('/pets/') ? '/pets/{petId}' : '/pets'}, a method the contract does not list`, field: 'methodsServed', error: 'methodNotAllowed' };
    return { what: 'a path the API does not serve', field: 'errors.routeNotFound', error: 'routeNotFound' };
  }
  // Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body."
  if (keyless(request)) return { what: 'a request without a valid key', error: 'unauthorized', allowed: [401] };
  if (request.operationId === 'createPet') {
    // createPet's 400: "The body is missing required fields or has invalid values."
    if (request.intent === 'invalid') return sent !== undefined && sent.value === undefined ? { what: 'a create body that is not JSON', field: 'errors.malformedJson', error: 'malformedJson' } : { what: 'a create body NewPet\'s schema refuses', error: 'invalidBody', allowed: [400] };
    if ((request.body?.length ?? 0) > 64 * 1024) return { what: 'a create body hundreds of kilobytes long', field: 'maxBodySize', error: 'payloadTooLarge', allowed: [201, 400, 413] };
    const pet = newPetOf(request.body, sent);
    const name = typeof pet?.name === 'string' ? pet.name : undefined;
    const error = refusalSituation(request.body, learnt);
    if (request.intent === 'edge') {
      const category = pet?.categoryIdText;
      // Past 2^53 (16 digits and more): whether the side keeps such a number exactly; below it, whether 0 or a negative id names a category.
      if (category !== undefined && category.replace('-', '').length > 15) return { what: `a create with categoryId ${category}`, field: 'int64Range', error, allowed: createAllowed };
      if (category !== undefined && (category.startsWith('-') || category === '0')) return { what: `a create with categoryId ${category}`, field: 'categoryIdRange', error, allowed: createAllowed };
      if (name !== undefined && [...name].length > 40) return { what: `a create with a name of ${[...name].length} characters`, field: 'maxNameLength', error, allowed: createAllowed };
      return { what: 'a create with a name a deployment may refuse', field: 'nameValues', error, allowed: createAllowed };
    }
    return { what: 'a valid create', field: 'refusedValues', error, allowed: createAllowed };
  }
  if (request.operationId === 'listPets') {
    const query = queryOf(request.path);
    if (request.intent === 'invalid') return { what: 'a `limit` outside 1 to 100', field: 'errors.invalidQuery', error: 'invalidQuery' };
    if (request.intent === 'edge' && query.has('limit')) return { what: 'another spelling of a valid `limit`', field: 'integerSpellings', error: 'invalidQuery' };
    if (request.intent === 'edge') return { what: 'a `status` filter that is no PetStatus', field: 'statusFilterNearMiss', error: 'invalidQuery' };
    return { what: 'a valid list', allowed: [200] };
  }
  if (request.operationId === 'getPet') {
    if (request.intent === 'invalid') return { what: 'a `petId` that is not an int64', field: 'errors.invalidPathParameter', error: 'invalidPathParameter' };
    if (request.intent === 'edge') return { what: 'another spelling of a pet\'s id', field: 'integerSpellings', error: 'invalidPathParameter' };
    return known ? { what: 'a read of a pet that side has', allowed: [200], error: 'petNotFound' } : { what: 'a read of an id no pet may have', dependsOnPets: true, error: 'petNotFound' };
  }
  return { what: `${request.method} ${path}` };
}

/** The Error situation a refusal's code belongs to when the request's own situation names none: by its status. */
export function errorSituationOfStatus(status: number, operationId: string): SituationName | undefined {
  if (status === 401) return 'unauthorized';
  if (status === 429) return 'rateLimited';
  if (status === 413) return 'payloadTooLarge';
  if (status === 415) return 'unsupportedMediaType';
  if (status === 405) return 'methodNotAllowed';
  if (status === 404) return operationId === 'getPet' ? 'petNotFound' : 'routeNotFound';
  return undefined;
}
