import { sha256Base64 } from '../state/sha256.ts';
import { keyDigest } from '../state/keyEntry.ts';
import { redactKey, type ApiKeyEntry } from '../state/keyRing.ts';
import { isKeyName, keyHeaderNames, keyParameterInUrl } from '../../common/secretPlaces.ts';
import type { ClientFacts, ClientObservation } from './clientObservation.ts';
import { anonymousBucketId } from '../rateLimits/anonymousBucket.ts';
import { answerFieldNames, bodyFieldNames, queryKinds } from '../../common/usage/usageFacts.ts';

/**
 * The key a request presented where the contract does not take it: in a query parameter, in
 * another header, or in Authorization under another scheme (`Token <key>`, or the bare key).
 */
function misplacedKey(request: AnsweredExchange, auth: ClientObservation['auth']): string | undefined {
  const query = request.url.indexOf('?');
  // Parsed only when a key-like parameter name is there at all: most queries are `limit=20`.
  if (query >= 0 && keyParameterInUrl.test(request.url)) {
    for (const [name, value] of new URLSearchParams(request.url.slice(query + 1))) if (isKeyName(name) && value.trim() !== '') return value.trim();
  }
  for (const name of keyHeaderNames) {
    const value = request.headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  if (auth !== 'scheme') return undefined;
  const token = request.headers.authorization!.trim().split(/\s+/).pop()!.replace(/^"(.*)"$/, '$1');
  return token === '' ? undefined : token;
}

/** An answered request as the core saw it: what the client sent, and what it was told. */
export interface AnsweredExchange {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string>;
  /** The client's address. */
  ip: string;
  /** The accepted key, when the request carried one. */
  apiKey: ApiKeyEntry | null;
  operationId: string | undefined;
  /** The body's bytes as sent (undefined when none was read). */
  body: Uint8Array | undefined;
  /** Unix ms on the mock's clock when the host was handed the request. */
  arrivedAt: number;
  /** The answer's header (undefined for a request given no answer). */
  header(name: string): string | undefined;
  /** The catalogue code of the Error body sent, if one was. */
  errorCode: string | undefined;
  /** The answer's body as sent (undefined for none): only its field names are kept, for the client's usage. */
  answerBody?: string | undefined;
}

/** Bytes as text for the digest: invalid UTF-8 is replaced, the same way for the same bytes. */
const bytesText = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const numberHeader = (exchange: AnsweredExchange, name: string): number | undefined => {
  const text = exchange.header(name) ?? '';
  const value = Number(text);
  return Number.isFinite(value) && text.trim() !== '' ? value : undefined;
};

/**
 * What the client report needs of an answered request, read once the answer is out: who sent it
 * (the key's bucket; without a valid bearer key, the key it presented elsewhere, so that
 * `?key=` finds a client that sends `?api_key=` or `Token <key>`; else its address), how it
 * presented its key, and what the mock told it (its error code, Retry-After, what remains of its window).
 */
export function clientFacts(request: AnsweredExchange, label: string | null, answerFields: (body: string) => string[] = answerFieldNames): ClientFacts {
  const authorization = request.headers.authorization;
  const auth: ClientObservation['auth'] = authorization === undefined ? 'none' : /^bearer +\S+$/i.test(authorization) ? 'bearer' : 'scheme';
  const operationId = request.operationId as ClientFacts['operationId'];
  const facts: ClientFacts = { client: request.apiKey?.bucketId ?? anonymousBucketId(request.ip), label: label ?? request.ip, auth };
  const elsewhere = request.apiKey ? undefined : misplacedKey(request, auth);
  if (elsewhere !== undefined) {
    facts.client = `key:${keyDigest(elsewhere)}`;
    facts.label = redactKey(elsewhere);
  }
  if (operationId) facts.operationId = operationId;
  facts.arrivedAt = request.arrivedAt;
  if (request.errorCode) facts.code = request.errorCode;
  if (keyParameterInUrl.test(request.url) || keyHeaderNames.some((h) => request.headers[h] !== undefined)) facts.keyElsewhere = true;
  const retryAfter = numberHeader(request, 'retry-after');
  if (retryAfter !== undefined) facts.retryAfter = retryAfter;
  const remaining = numberHeader(request, 'x-ratelimit-remaining');
  if (remaining !== undefined) facts.remaining = remaining;
  const reset = numberHeader(request, 'x-ratelimit-reset');
  if (reset !== undefined) facts.reset = reset;
  // The draft's RateLimit says the same window (r = Remaining, t = seconds to Reset): a client told by
  // either was told, and one that waits t seconds waits until Reset (rateLimits/draftRateLimitFields.ts).
  if (request.header('ratelimit') !== undefined) facts.draftFields = true;
  // The same body sent again digests the same: what tells a retried POST from a new one.
  if (request.method === 'POST' && request.body !== undefined && request.body.length > 0) facts.bodyDigest = sha256Base64(bytesText(request.body)).slice(0, 16);
  // The parts of the contract the request used, by name only (common/usage/usageFacts.ts).
  if (operationId) {
    const query = queryKinds(operationId, request.url);
    if (Object.keys(query).length > 0) facts.query = query;
    const sent = request.body !== undefined && request.body.length > 0 ? bodyFieldNames(bytesText(request.body)) : [];
    if (sent.length > 0) facts.sent = sent;
    const given = request.answerBody === undefined ? [] : answerFields(request.answerBody);
    if (given.length > 0) facts.given = given;
  }
  return facts;
}
