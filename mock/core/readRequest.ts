// Reading a request as the server's parsers do, for the framework-free pipelines.
import { parseJsonBody } from '../errors/parseJsonBody.ts';
import type { CoreRequest } from './coreTypes.ts';
import type { Awaitable } from '../state/awaitable.ts';

/** The query as the server's parser reads it: a repeated name gives an array; `+` is a space. */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (search === '') return out;
  for (const [name, value] of new URLSearchParams(search)) {
    const had = out[name];
    out[name] = had === undefined ? value : Array.isArray(had) ? [...had, value] : [had, value];
  }
  return out;
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

/** The methods the server's parser reads a body for; any other's body is never read. */
const bodyMethods = ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The body's bytes, read now (from a host that streams them) when the method has one to read. */
export function bodyBytes(request: CoreRequest, method: string): Awaitable<Uint8Array | undefined> {
  if (!bodyMethods.includes(method)) return undefined;
  return request.body ?? request.readBody?.();
}

/** fastify's error codes for the body, so toApiError answers them as the server does. */
const bodyError = (code: string, message: string, statusCode = 400) => Object.assign(new Error(message), { code, statusCode });

/**
 * The body as the server reads it: JSON only (any other type is 415), within the limit (413),
 * parsed with the server's own parser (malformed JSON, prototype keys). GET and HEAD bodies are
 * never read; DELETE and OPTIONS only when they carry one (even empty). Undefined when there is none.
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
    throw bodyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415);
  }
  if ((method === 'DELETE' || method === 'OPTIONS') && bytes === undefined) return undefined;
  if (!json) throw bodyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415);
  if (length > bodyLimit) throw bodyError('FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large', 413);
  let parsed: unknown;
  let failure: Error | null = null;
  parseJsonBody(undefined as never, new TextDecoder().decode(bytes), (error, value) => {
    failure = error;
    parsed = value;
  });
  if (failure) throw failure;
  return parsed;
}
