import { componentSchema } from '../../spec/loadSpec.ts';
import type { Intent } from '../http/exchange.ts';
import { parseBody } from '../http/exchange.ts';
import { integerText } from '../../common/json/losslessJson.ts';
import type { RequestView } from '../model/requestView.ts';
import type { SpecValidators } from '../specValidators.ts';

const int64Max = 9223372036854775807n;
/** An integer as the suite itself writes one: decimal digits, no sign, no leading zero (`007` is an alias). */
const canonicalWhole = (text: string) => /^(0|[1-9]\d*)$/.test(text) && BigInt(text) <= int64Max;

/** The longest name the proxy holds a deployment to accept: the suite's own bound ("Maximum length of `name` ...: not shown"). */
const ordinaryNameLength = 40;
/**
 * A name no deployment may refuse: 1 to 40 characters, not blank, none of them a control character
 * or a lone surrogate (the suite sends those, and longer ones, as values a deployment may refuse).
 */
const ordinaryName = (name: string) => name.trim() !== '' && [...name].length <= ordinaryNameLength && !/[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(name);

/**
 * The longest create body the proxy holds a deployment to accept, in bytes: a NewPet of a 40-character
 * name, every character escaped, fits in far less. "Maximum length of `name` and of a request body:
 * not shown": a larger body (the suite pads one with whitespace to 300 KB) may be refused.
 */
const ordinaryBodyBytes = 1024;

/** The fields of NewPet: any other a deployment may refuse ("has the shape NewPet"). */
const newPetFields = new Set(['name', 'categoryId', 'status']);

/** The request headers that make a request conditional or partial (RFC 9110, 13.1 and 14.2). */
const conditional = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];

/** The opaque tags of an If-None-Match or ETag value, weak or strong alike (RFC 9110, 8.8.3.2: weak comparison); `*` as itself. */
const entityTags = (value: string) => (value.match(/(?:W\/)?"[^"]*"|\*/g) ?? []).map((tag) => tag.replace(/^W\//, ''));

/**
 * Whether the answer is one HTTP's own rules allow for the request's conditions, beside the
 * operation's documented statuses: 304 to a GET whose If-None-Match matches the ETag the 304
 * carries (or that carries none, so the proxy cannot tell) or to If-Modified-Since (RFC 9110,
 * 13.1.2 and 13.1.3), 412 to a failed precondition (13.1.1, 13.1.4), 206 or 416 to a range (14).
 * Without the answer, any conditional request may get one.
 */
function answeredByCondition(view: RequestView, answer: AnswerSeen | undefined): boolean {
  const has = (name: string) => view.headers[name] !== undefined;
  if (!answer) return conditional.some(has);
  switch (answer.status) {
    case 304: {
      const ifNoneMatch = view.headers['if-none-match'];
      if (ifNoneMatch === undefined) return has('if-modified-since');
      const tags = entityTags(ifNoneMatch);
      const etag = answer.headers.etag;
      return etag === undefined || tags.includes('*') || entityTags(etag).some((tag) => tags.includes(tag));
    }
    case 412:
      return has('if-match') || has('if-unmodified-since');
    case 206:
    case 416:
      return has('range');
    default:
      return false;
  }
}

/** Whether an Accept header admits JSON: absent, or a range `application/json`, `application/*` or `*\/*` with a q above 0 (RFC 9110, 12.5.1). */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined) return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => /^q\s*=/.test(param));
    return ['application/json', 'application/*', '*/*'].includes(type ?? '') && (q === undefined || Number(q.split('=')[1]) > 0);
  });
}

/** A JSON request body's media type as the suite sends one: its case is free, its only parameter a UTF-8 charset. */
const jsonBody = (contentType: string | undefined) => /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(contentType ?? '');

/** The answer's status and headers (names in lower case), when the proxy classifies a request it saw answered. */
export interface AnswerSeen {
  status: number;
  headers: Record<string, string>;
}

/** What the proxy learned from earlier answers that decides whether a request must be served. */
export interface Learned {
  /** The categoryIds of the deployment's own pets seen so far, as exact digits. */
  categories: ReadonlySet<string>;
}

/**
 * What a request the proxy saw asks of the deployment, read from the wire as the model reads it:
 * `valid` when the contract says it must be served (a documented operation, a key the deployment
 * accepts, every parameter and the body as the suite itself would send them in a request it calls
 * valid), `unauthenticated` without a usable key, and `edge` otherwise: a request the proxy does not
 * hold to a documented status, only to "never a 5xx". Nobody generated it, so when in doubt it is
 * never called valid: an unknown query parameter (pagination beyond `limit` is "not shown"), an
 * integer spelled with leading zeros, a conditional request answered as HTTP allows (a 304 to a
 * matching If-None-Match), an Accept without JSON, a categoryId none of the deployment's
 * pets has been seen with ("Fields of a category record: not shown"), a name longer than the
 * suite's own 40 characters or with a control character, a field beyond NewPet's, or a body over 1 KiB.
 */
export function classifyRequest(view: RequestView, validators: SpecValidators, learned: Learned = { categories: new Set() }, answer?: AnswerSeen): Intent {
  if (view.credential.kind !== 'key') return 'unauthenticated';
  // A 304, 412, 206 or 416 that HTTP allows for the request's own conditions; a 406 to a client that accepts no JSON.
  if (answeredByCondition(view, answer) || !acceptsJson(view.headers.accept)) return 'edge';
  const params = [...view.query.keys()];
  const only = (...names: string[]) => params.every((name) => names.includes(name)) && names.every((name) => view.query.getAll(name).length <= 1);
  switch (view.operation) {
    case 'listPets': {
      const limit = view.query.get('limit');
      const status = view.query.get('status');
      const statuses = (componentSchema(validators.spec, 'PetStatus').enum ?? []) as string[];
      const limitOk = limit === null || (canonicalWhole(limit) && Number(limit) >= 1 && Number(limit) <= 100);
      return only('limit', 'status') && limitOk && (status === null || statuses.includes(status)) ? 'valid' : 'edge';
    }
    case 'getPet':
      return only() && view.petId !== undefined && canonicalWhole(view.petId) ? 'valid' : 'edge';
    case 'createPet': {
      if (!only() || (view.body !== undefined && Buffer.byteLength(view.body) > ordinaryBodyBytes)) return 'edge';
      const json = jsonBody(view.headers['content-type']);
      const parsed = view.body === undefined ? undefined : parseBody(view.body);
      const body = parsed?.json;
      if (!json || body === undefined || !validators.check(componentSchema(validators.spec, 'NewPet'), body).valid) return 'edge';
      const fields = body as Record<string, unknown>;
      const category = integerText((parsed!.value as Record<string, unknown> | undefined)?.categoryId);
      const ordinary = Object.keys(fields).every((name) => newPetFields.has(name)) && typeof fields.name === 'string' && ordinaryName(fields.name);
      return ordinary && category !== undefined && learned.categories.has(category) ? 'valid' : 'edge';
    }
    case 'listStoreOrders':
      return 'valid';
    default:
      return 'edge';
  }
}

/** The categoryIds of the pets a 2xx answer to a pet operation holds, as exact digits. */
export function categoriesIn(operation: string | undefined, status: number, value: unknown): string[] {
  if (status < 200 || status >= 300 || (operation !== 'listPets' && operation !== 'getPet' && operation !== 'createPet')) return [];
  const pets = Array.isArray(value) ? value : [value];
  return pets.flatMap((pet) => {
    const id = pet !== null && typeof pet === 'object' ? integerText((pet as Record<string, unknown>).categoryId) : undefined;
    return id === undefined ? [] : [id];
  });
}
