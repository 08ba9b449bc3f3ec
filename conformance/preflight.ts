import type { KnownPet } from './check.ts';
import { parseBody, type Exchange } from './http/exchange.ts';
import { isUnavailable, QuotaExhaustedError, type PacedClient } from './http/pacedClient.ts';
import { TransportError } from './http/transport.ts';
import { integerText } from '../common/json/losslessJson.ts';

export type PreflightResult = { pets: KnownPet[]; exchange: Exchange } | { reason: string };

/**
 * Before any check: one plain read with the run's key. It proves the base URL answers like this
 * API and that the key is accepted, and its pets are the baseline every check may use. A run that
 * cannot get past it cannot judge anything: the key refused, the URL unreachable, or something
 * else answering there.
 */
export async function preflight(client: PacedClient, baseUrl: string): Promise<PreflightResult> {
  let list: Exchange;
  try {
    list = await client.send('preflight', { method: 'GET', path: '/pets', auth: 'key', operationId: 'listPets', intent: 'valid', case: 'preflight/list-pets' });
  } catch (error) {
    if (error instanceof TransportError) return { reason: `Cannot reach ${baseUrl}: ${error.message}. Check --base-url and that the deployment is up.` };
    if (error instanceof QuotaExhaustedError) return { reason: `${error.message} Wait for the key's quota to reset, or run with another key.` };
    throw error;
  }
  const { status, json, value, headers } = list.response;
  if (isUnavailable(status)) {
    return { reason: `the deployment was unavailable: GET ${baseUrl}/pets answered ${status}${headers['retry-after'] ? ` (Retry-After ${headers['retry-after']})` : ''}, after retries. This says nothing of the contract; run again when it is up.` };
  }
  if (status === 401 || status === 403) {
    return { reason: `The deployment refused the API key: GET ${baseUrl}/pets answered ${status}. Check --api-key (or PETS_API_KEY): with a key the deployment does not accept, no check can be judged.` };
  }
  const isObject = json !== null && typeof json === 'object';
  // An answer labelled JSON and carrying the contract's rate-limit headers is this API, even when
  // its body is unreadable: that is a broken deployment for the checks to fail, not a wrong URL.
  const claimsApi = status === 200 && /json/i.test(headers['content-type'] ?? '') && headers['x-ratelimit-limit'] !== undefined;
  const looksLikeApi = (status === 200 && json !== undefined) || claimsApi || (status >= 400 && status < 600 && status !== 404 && isObject && !Array.isArray(json));
  if (!looksLikeApi) {
    const type = headers['content-type'] ?? 'no content type';
    return { reason: `${baseUrl} does not answer like the Pet Adoption API: GET ${baseUrl}/pets gave ${status} (${type}). Check that --base-url ends with the API's /v1.` };
  }
  const items = status === 200 && Array.isArray(value) ? value : status === 200 ? leniently(list.response.body) : [];
  return { pets: items.map(knownPet).filter((p): p is KnownPet => p !== undefined), exchange: list };
}

/** A listed item as a known pet, when it has an integer id. */
export function knownPet(item: unknown): KnownPet | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const { id, name, categoryId, status } = item as Record<string, unknown>;
  const idText = integerText(id);
  if (idText === undefined) return undefined;
  // categoryId stays as read (a BigInt past 2^53): sent back, it must name the same category.
  return { id: Number(id), idText, name, categoryId, status };
}


/** The pets of a list a strict reader refuses (a BOM before it): known pets to go on with, the fault judged elsewhere. */
function leniently(body: string): unknown[] {
  const parsed = parseBody(body.replace(/^\uFEFF/, '')).value;
  return Array.isArray(parsed) ? parsed : [];
}
