// What an answer teaches the HTTP linter, once it is judged.
import type { Exchange } from '../../http/exchange.ts';
import { isUnavailable } from '../../http/pacedClient.ts';
import type { RequestView } from '../requestView.ts';
import { contentCodingOf, parseContentEncoding } from './contentCodings.ts';
import { parseEntityTag } from './entityTag.ts';
import { standing, type HttpMemory } from './httpMemory.ts';
import { sharedCacheDirective } from './judgeCacheFields.ts';
import { getKey, isSuccess } from './requestKey.ts';

const writes = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function learnHttp(exchange: Exchange, view: RequestView, memory: HttpMemory): void {
  const { status, headers } = exchange.response;
  if (isUnavailable(status)) return;
  const served = isSuccess(status);
  if (view.method === 'GET' && status !== 429 && status !== 304) {
    const coding = headers['content-encoding'];
    memory.lastGet.set(getKey(exchange, view), {
      seq: exchange.seq,
      status,
      headers,
      bytes: exchange.response.bytes,
      coded: coding !== undefined && !(parseContentEncoding(coding)?.every((c) => c === 'identity') ?? false),
      writes: memory.writes,
      asked: { authorization: view.headers.authorization, accept: view.headers.accept },
    });
  }
  if (view.method === 'GET' && served && !exchange.response.truncated && exchange.response.incomplete === undefined) {
    const tag = parseEntityTag(headers.etag ?? '');
    if (tag && !tag.weak) {
      const tags = memory.strongTags.get(exchange.path) ?? new Map();
      if (!tags.has(tag.opaque)) tags.set(tag.opaque, { seq: exchange.seq, bytes: exchange.response.bytes, coding: contentCodingOf(headers['content-encoding']) });
      memory.strongTags.set(exchange.path, tags);
    }
    const directive = view.headers.authorization !== undefined ? sharedCacheDirective(headers['cache-control']) : undefined;
    if (directive) memory.sharedCacheable.set(exchange.path, { seq: exchange.seq, directive, bytes: exchange.response.bytes });
  }
  if (status === 304 && view.headers['if-none-match'] !== undefined && !memory.notModified.has(exchange.path)) memory.notModified.set(exchange.path, exchange.seq);
  if (served && writes.has(view.method)) memory.writes++;
  if (view.credential.kind !== 'key' || view.preflight) return;
  // OPTIONS is answered for the server as a whole as often as for the resource (RFC 9110, 9.3.7): not counted.
  if (served && view.method !== 'OPTIONS') {
    const methods = memory.served.get(view.pathname) ?? new Map<string, number>();
    if (!methods.has(view.method)) methods.set(view.method, exchange.seq);
    memory.served.set(view.pathname, methods);
  }
  const key = standing(memory, view.credential.key);
  // Only an operation of the contract shows a key valid: an unlisted path may answer anyone.
  if (served && view.operation !== undefined && key.servedAt === undefined) {
    key.servedAt = exchange.seq;
    key.refusedBefore = [];
  } else if ((status === 401 || status === 403) && key.servedAt === undefined) key.refusedBefore.push(exchange);
  else if (status === 429) key.throttledAt = exchange.seq;
}
