import { sha256Base64 } from '../state/sha256.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeConfig } from '../api/routeConfig.ts';
import { keyDigest } from '../state/keyEntry.ts';
import { redactKey } from '../state/keyRing.ts';
import type { ClientFacts, ClientObservation } from './clientObservation.ts';

/** Where clients put keys when they do not send `Authorization: Bearer` (query parameters, headers). */
const keyParameters = /[?&](api_?key|apikey|access_token|token|key)=/i;
const keyParameterName = /^(api_?key|apikey|access_token|token|key)$/i;
const keyHeaders = ['x-api-key', 'api-key', 'apikey'];

/**
 * The key a request presented where the contract does not take it: in a query parameter, in
 * another header, or in Authorization under another scheme (`Token <key>`, or the bare key).
 */
function misplacedKey(request: FastifyRequest, auth: ClientObservation['auth']): string | undefined {
  const query = request.url.indexOf('?');
  if (query >= 0) {
    for (const [name, value] of new URLSearchParams(request.url.slice(query + 1))) if (keyParameterName.test(name) && value.trim() !== '') return value.trim();
  }
  for (const name of keyHeaders) {
    const value = request.headers[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  if (auth !== 'scheme') return undefined;
  const token = request.headers.authorization!.trim().split(/\s+/).pop()!.replace(/^"(.*)"$/, '$1');
  return token === '' ? undefined : token;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** How many API answers this app has given (app.ts). */
    answerOrder: { id: string; answered: number };
  }
  interface FastifyRequest {
    /** How many answers the API had given when this request arrived (apiContext.ts). */
    arrivedAfter: number | null;
    /** This request's answer's number among them, once it is answered. */
    answerNumber: number | null;
  }
}

const numberHeader = (reply: FastifyReply, name: string): number | undefined => {
  const value = Number(reply.getHeader(name));
  return Number.isFinite(value) && String(reply.getHeader(name) ?? '').trim() !== '' ? value : undefined;
};

/**
 * What the client report needs of an answered request, read once the answer is out: who sent it
 * (the key's bucket; without a valid bearer key, the key it presented elsewhere, so that
 * `?key=` finds a client that sends `?api_key=` or `Token <key>`; else its address), how it
 * presented its key, and what the mock told it (its error code, Retry-After, what remains of its window).
 */
export function clientFacts(request: FastifyRequest, reply: FastifyReply, label: string | null): ClientFacts {
  const authorization = request.headers.authorization;
  const auth: ClientObservation['auth'] = authorization === undefined ? 'none' : /^bearer +\S+$/i.test(authorization) ? 'bearer' : 'scheme';
  const operationId = routeConfig(request).operationId as ClientFacts['operationId'];
  const facts: ClientFacts = { client: request.apiKey?.bucketId ?? `ip:${request.ip}`, label: label ?? request.ip, auth };
  const elsewhere = request.apiKey ? undefined : misplacedKey(request, auth);
  if (elsewhere !== undefined) {
    facts.client = `key:${keyDigest(elsewhere)}`;
    facts.label = redactKey(elsewhere);
  }
  if (operationId) facts.operationId = operationId;
  if (typeof request.arrivedAfter === 'number') {
    facts.arrivedAfter = request.arrivedAfter;
    facts.order = request.server.answerOrder.id;
  }
  if (typeof request.answerNumber === 'number') facts.answerNumber = request.answerNumber;
  if (reply.errorCode) facts.code = reply.errorCode;
  if (keyParameters.test(request.url) || keyHeaders.some((h) => request.headers[h] !== undefined)) facts.keyElsewhere = true;
  const retryAfter = numberHeader(reply, 'retry-after');
  if (retryAfter !== undefined) facts.retryAfter = retryAfter;
  const remaining = numberHeader(reply, 'x-ratelimit-remaining');
  if (remaining !== undefined) facts.remaining = remaining;
  const reset = numberHeader(reply, 'x-ratelimit-reset');
  if (reset !== undefined) facts.reset = reset;
  // The same body sent again digests the same: what tells a retried POST from a new one.
  if (request.method === 'POST' && request.body !== undefined) facts.bodyDigest = sha256Base64(JSON.stringify(request.body)).slice(0, 16);
  return facts;
}
