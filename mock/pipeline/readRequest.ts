// Reading a request's query and body, for every host alike.
import { parseJsonBody } from './parseJsonBody.ts';
import { BodyError } from '../errors/requestErrors.ts';
import type { CoreRequest } from '../core/coreTypes.ts';
import type { Awaitable } from '../state/awaitable.ts';

/** Printable ASCII but `%`, `+` and `?`: a query that the form decoding leaves as it is. */
const plainQuery = /^[\x20-\x24\x26-\x2a\x2c-\x3e\x40-\x7e]*$/;

/** A query as parsed, read only: a repeated name gives an array. */
export type Query = Readonly<Record<string, string | readonly string[]>>;

/** The query parsed, frozen: what ApiContext.query keeps, one object for every request with that query. */
export function frozenQuery(search: string): Query {
  const query = parseQuery(search);
  for (const name in query) if (Array.isArray(query[name])) Object.freeze(query[name]);
  return Object.freeze(query);
}

/** No query at all, as every other query is held. */
export const noQuery: Query = frozenQuery('');

/**
 * The query (application/x-www-form-urlencoded): a repeated name gives an array; `+` is a space.
 * An object with no prototype: `__proto__` and `constructor` are names like any other, never an
 * object's own machinery.
 */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  if (search === '') return out;
  // Most queries (`limit=20`) have nothing to decode: split as the URL standard's form parser
  // does (empty pairs skipped, a name without `=` has the value ''), without building URLSearchParams.
  if (plainQuery.test(search)) {
    for (const pair of search.split('&')) {
      if (pair === '') continue;
      const equals = pair.indexOf('=');
      if (equals < 0) addParam(out, pair, '');
      else addParam(out, pair.slice(0, equals), pair.slice(equals + 1));
    }
    return out;
  }
  for (const [name, value] of new URLSearchParams(search)) addParam(out, name, value);
  return out;
}

function addParam(out: Record<string, string | string[]>, name: string, value: string): void {
  const had = out[name];
  out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
}

/**
 * Whether a request has a body (RFC 9112, 6.3): it says how long it is, with a Content-Length
 * other than 0, or it is chunked. Every host decides by this one rule, so that they tell "no body"
 * from "a body" alike: a DELETE sent with a Content-Type and nothing else has none (as a client
 * that sets Content-Type on every request sends it), and a DELETE with a length but no
 * Content-Type has one, of no type the API takes (415).
 */
export function bodyIsSent(headers: { 'content-length'?: string | undefined; 'transfer-encoding'?: string | undefined }): boolean {
  const { 'content-length': length, 'transfer-encoding': chunked } = headers;
  return chunked !== undefined || (length !== undefined && length !== '0');
}

/** The methods whose body is read; GET's and HEAD's never are (RFC 9110, 9.3.1: a GET body has no meaning). */
const bodyMethods = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The body's bytes, read now (from a host that streams them) when the method has one to read. */
export function bodyBytes(request: CoreRequest, method: string): Awaitable<Uint8Array | undefined> {
  if (!bodyMethods.includes(method)) return undefined;
  return request.body ?? request.readBody?.();
}

/**
 * The body's JSON value: JSON only (any other type is 415), within the limit (413), parsed by
 * parseJsonBody (malformed JSON, prototype keys, nesting). GET and HEAD bodies are never read;
 * DELETE and OPTIONS only when they carry one (even empty). Undefined when there is none. Throws
 * BodyError.
 */
export function readJsonBody(request: CoreRequest, bytes: Uint8Array | undefined, method: string, bodyLimit: number, { routed = true }: { routed?: boolean } = {}): unknown {
  if (!bodyMethods.includes(method)) return undefined;
  const length = bytes?.length ?? 0;
  const type = request.headers['content-type'];
  const json = type !== undefined && (type.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
  // A path no route serves refuses no type: its answer is the 404 (a JSON body is still read).
  if (!json && !routed) return undefined;
  if (type === undefined) {
    if (length === 0) return undefined;
    throw new BodyError('unsupported-media-type', 'The request body has no Content-Type');
  }
  if ((method === 'DELETE' || method === 'OPTIONS') && bytes === undefined) return undefined;
  if (!json) throw new BodyError('unsupported-media-type', `The request body is ${type}, not JSON`);
  if (length > bodyLimit) throw new BodyError('too-large', `The request body is larger than ${bodyLimit} bytes`);
  return parseJsonBody(new TextDecoder().decode(bytes));
}
