import { sha256Base64 } from '../state/sha256.ts';
import { keyDigest } from '../state/keyEntry.ts';
import { redactKey, type ApiKeyEntry } from '../state/keyRing.ts';
import { isKeyName, keyHeaderNames, keyParameterInUrl } from '../../common/secretPlaces.ts';
import type { ClientFacts, ClientObservation } from './clientObservation.ts';
import { anonymousBucketId } from '../rateLimits/anonymousBucket.ts';
import { answerFieldNames, bodyFieldNames, fieldNamesOf, objectFieldNames, queryKindsOf } from '../../common/usage/usageFacts.ts';

/**
 * The key a request presented where the contract does not take it: in a query parameter, in
 * another header, or in Authorization under another scheme (`Token <key>`, or the bare key).
 */
function misplacedKey(request: AnsweredExchange, auth: ClientObservation['auth']): string | undefined {
  const url = request.request.url;
  const query = url.indexOf('?');
  // Parsed only when a key-like parameter name is there at all: most queries are `limit=20`.
  if (query >= 0 && keyParameterInUrl.test(url)) {
    for (const [name, value] of new URLSearchParams(url.slice(query + 1))) if (isKeyName(name) && value.trim() !== '') return value.trim();
  }
  const headers = request.request.headers;
  for (const name of keyHeaderNames) {
    const value = headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  if (auth !== 'scheme') return undefined;
  const token = headers.authorization!.trim().split(/\s+/).pop()!.replace(/^"(.*)"$/, '$1');
  return token === '' ? undefined : token;
}

/**
 * An answered request as the pipeline holds it (its Exchange fits): what the client sent, and
 * what it was told. Read in place, with no copy: this runs on every request.
 */
export interface AnsweredExchange {
  method: string;
  /** Path and query as sent, and the headers (names in lower case). */
  request: { url: string; headers: Record<string, string | undefined> };
  /** The query as parsed (a repeated name gives an array). */
  query: Readonly<Record<string, string | readonly string[]>>;
  /** The client's address. */
  ip: string;
  /** The accepted key, when the request carried one. */
  apiKey: ApiKeyEntry | null;
  op?: { operationId: string } | undefined;
  /** The body's bytes as read (undefined when none was). */
  bytes?: Uint8Array | undefined;
  /** The body as parsed, when it was (a body that is no JSON has none). */
  body?: unknown;
  /** The catalogue code of the Error body sent, if one was. */
  errorCode?: string | undefined;
  /** The answer's headers. */
  headers: Readonly<Record<string, string>>;
}

/** How it was answered: its status (0: left unanswered), when it arrived, and the body sent (only its field names are kept). */
export interface AnswerSeen {
  status: number;
  /** Unix ms on the mock's clock when the host was handed the request. */
  arrivedAt: number;
  body?: string | null | undefined;
  /** The value the body was written from, when the mock made it (a created or read Pet): its field names are read from it, not parsed again. */
  value?: unknown;
}

/** Bytes as text for the digest: invalid UTF-8 is replaced, the same way for the same bytes. */
const utf8 = new TextDecoder();
const bytesText = (bytes: Uint8Array) => utf8.decode(bytes);

const numberHeader = (headers: Readonly<Record<string, string>>, name: string): number | undefined => {
  const text = headers[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  // Number('') and Number('  ') are 0: a field with no digits says no number.
  return Number.isFinite(value) && (value !== 0 || text.trim() !== '') ? value : undefined;
};

/**
 * What the client report needs of an answered request, read once the answer is out: who sent it
 * (the key's bucket; without a valid bearer key, the key it presented elsewhere, so that
 * `?key=` finds a client that sends `?api_key=` or `Token <key>`; else its address), how it
 * presented its key, and what the mock told it (its error code, Retry-After, what remains of its window).
 */
export function clientFacts(request: AnsweredExchange, answer: AnswerSeen, label: string | null, answerFields: (body: string) => string[] = answerFieldNames): ClientFacts {
  const headers = request.request.headers;
  const authorization = headers.authorization;
  const auth: ClientObservation['auth'] = authorization === undefined ? 'none' : /^bearer +\S+$/i.test(authorization) ? 'bearer' : 'scheme';
  const operationId = request.op?.operationId as ClientFacts['operationId'] | undefined;
  const facts: ClientFacts = { client: request.apiKey?.bucketId ?? anonymousBucketId(request.ip), label: label ?? request.ip, auth };
  const elsewhere = request.apiKey ? undefined : misplacedKey(request, auth);
  if (elsewhere !== undefined) {
    facts.client = `key:${keyDigest(elsewhere)}`;
    facts.label = redactKey(elsewhere);
  }
  if (operationId) facts.operationId = operationId;
  facts.arrivedAt = answer.arrivedAt;
  if (request.errorCode) facts.code = request.errorCode;
  if (keyParameterInUrl.test(request.request.url) || keyHeaderNames.some((h) => headers[h] !== undefined)) facts.keyElsewhere = true;
  // What the client was told: a request left unanswered was told nothing.
  const told = answer.status === 0 ? noHeaders : request.headers;
  const retryAfter = numberHeader(told, 'retry-after');
  if (retryAfter !== undefined) facts.retryAfter = retryAfter;
  const remaining = numberHeader(told, 'x-ratelimit-remaining');
  if (remaining !== undefined) facts.remaining = remaining;
  const reset = numberHeader(told, 'x-ratelimit-reset');
  if (reset !== undefined) facts.reset = reset;
  // The draft's RateLimit says the same window (r = Remaining, t = seconds to Reset): a client told by
  // either was told, and one that waits t seconds waits until Reset (rateLimits/draftRateLimitFields.ts).
  if (told.ratelimit !== undefined) facts.draftFields = true;
  const body = request.bytes;
  // The same body sent again digests the same: what tells a retried POST from a new one. Its bytes
  // are digested, a leading BOM left out as the body's reading leaves it out: for any body of
  // valid UTF-8, the digest of its text (a text is digested as its UTF-8 bytes).
  if (request.method === 'POST' && body !== undefined && body.length > 0) facts.bodyDigest = sha256Base64(withoutBom(body)).slice(0, 16);
  // The parts of the contract the request used, by name only (common/usage/usageFacts.ts).
  if (operationId) {
    const query = queryKindsOf(operationId, request.query);
    if (query !== undefined) facts.query = query;
    // The body as the pipeline parsed it, when it did; else its bytes, which may still be JSON of another type.
    const sent = request.body !== null && typeof request.body === 'object' && !Array.isArray(request.body) ? objectFieldNames(request.body) : body !== undefined && body.length > 0 ? bodyFieldNames(bytesText(body)) : [];
    if (sent.length > 0) facts.sent = sent;
    const given = answer.value !== undefined ? fieldNamesOf(answer.value) : answer.body === undefined || answer.body === null ? [] : answerFields(answer.body);
    if (given.length > 0) facts.given = given;
  }
  return facts;
}

/** The bytes after a UTF-8 byte order mark, as a TextDecoder reads them. */
const withoutBom = (bytes: Uint8Array) => (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes);

const noHeaders: Readonly<Record<string, string>> = Object.freeze({});
