import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routeConfig } from '../api/routeConfig.ts';
import type { ClientFacts, ClientObservation } from './clientObservation.ts';

/** Where clients put keys when they do not send `Authorization: Bearer` (query parameters, headers). */
const keyParameters = /[?&](api_?key|apikey|access_token|token|key)=/i;
const keyHeaders = ['x-api-key', 'api-key', 'apikey'];

const numberHeader = (reply: FastifyReply, name: string): number | undefined => {
  const value = Number(reply.getHeader(name));
  return Number.isFinite(value) && String(reply.getHeader(name) ?? '').trim() !== '' ? value : undefined;
};

/**
 * What the client report needs of an answered request, read once the answer is out: who sent it
 * (the key's bucket, or the address without a valid key), how it presented its key, and what the
 * mock told it (its error code, Retry-After, what remains of its window).
 */
export function clientFacts(request: FastifyRequest, reply: FastifyReply, label: string | null): ClientFacts {
  const authorization = request.headers.authorization;
  const auth: ClientObservation['auth'] = authorization === undefined ? 'none' : /^bearer +\S+$/i.test(authorization) ? 'bearer' : 'scheme';
  const operationId = routeConfig(request).operationId as ClientFacts['operationId'];
  const facts: ClientFacts = { client: request.apiKey?.bucketId ?? `ip:${request.ip}`, label: label ?? request.ip, auth };
  if (operationId) facts.operationId = operationId;
  if (reply.errorCode) facts.code = reply.errorCode;
  if (keyParameters.test(request.url) || keyHeaders.some((h) => request.headers[h] !== undefined)) facts.keyElsewhere = true;
  const retryAfter = numberHeader(reply, 'retry-after');
  if (retryAfter !== undefined) facts.retryAfter = retryAfter;
  const remaining = numberHeader(reply, 'x-ratelimit-remaining');
  if (remaining !== undefined) facts.remaining = remaining;
  const reset = numberHeader(reply, 'x-ratelimit-reset');
  if (reset !== undefined) facts.reset = reset;
  // The same body sent again digests the same: what tells a retried POST from a new one.
  if (request.method === 'POST' && request.body !== undefined) facts.bodyDigest = createHash('sha256').update(JSON.stringify(request.body)).digest('base64').slice(0, 16);
  return facts;
}
