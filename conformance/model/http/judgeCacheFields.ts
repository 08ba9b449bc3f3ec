// The fields caches act on: Cache-Control (RFC 9111, 5.2), Expires (5.3), Age (5.1) and Vary
// (RFC 9110, 12.5.5). A keyed answer that lets a shared cache store it may be handed to requests
// without the key (RFC 9111, 3.5): questionable, and a failure once a keyless request is served it.
import { broken, held, holds, questionable, type Judgement } from '../judgement.ts';
import { sentTwice, type Answer } from './answerFields.ts';
import { parseCacheControl } from './cacheDirectives.ts';
import { isDelaySeconds, isToken, listMembers } from './fieldSyntax.ts';
import { parseHttpDate } from './httpDate.ts';
import type { HttpMemory } from './httpMemory.ts';
import { isSuccess, sameBytes } from './requestKey.ts';

/** The directive that lets a shared cache reuse an answer to a request with Authorization (RFC 9111, 3.5), if any. */
export function sharedCacheDirective(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const { directives } = parseCacheControl(value);
  const names = new Set(directives.map((d) => d.name));
  // `private` keeps it out of shared caches; `no-store` out of every cache.
  if (names.has('private') || names.has('no-store')) return undefined;
  return ['public', 's-maxage', 'must-revalidate'].find((n) => names.has(n));
}

function judgeCacheControl(answer: Answer): Judgement[] {
  const value = answer.field('cache-control');
  if (value === undefined) return [];
  const { exchange, where, view, status } = answer;
  const parsed = parseCacheControl(value);
  if (parsed.faults.length > 0) return [broken('http.cache-control', answer.op, exchange, `${where} has Cache-Control ${JSON.stringify(value)}: ${parsed.faults.join('; ')} (RFC 9111, 5.2). A cache that cannot read a directive ignores it.`)];
  const out: Judgement[] = parsed.doubts.map((d) => questionable('http.cache-control', answer.op, exchange, `${where} has Cache-Control ${JSON.stringify(value)}: ${d} (RFC 9111, 5.2.2).`));
  const shared = view.headers.authorization !== undefined && status >= 200 && status < 300 ? sharedCacheDirective(value) : undefined;
  if (shared) {
    out.push(questionable('http.cache-control', answer.op, exchange, `${where} answers a request with the key with Cache-Control ${JSON.stringify(value)}: "${shared}" lets a shared cache store it and give it to later requests without the key (RFC 9111, 3.5), though every endpoint requires authentication. Send "private" (or no-store) on keyed answers.`));
  }
  if (out.length === 0) out.push(held('http.cache-control', answer.op, exchange));
  return out;
}

function judgeExpiresAge(answer: Answer): Judgement[] {
  const out: Judgement[] = [];
  const { exchange, where } = answer;
  const expires = answer.field('expires');
  if (expires !== undefined) {
    const twice = sentTwice(answer, 'http.expires-age', 'Expires');
    const date = parseHttpDate(expires);
    if (twice) out.push(twice);
    // RFC 9111, 5.3 gives invalid values ("0") a meaning: already expired. Not the grammar, but read alike.
    else if (!date) out.push(questionable('http.expires-age', answer.op, exchange, `${where} has Expires ${JSON.stringify(expires)}, not an HTTP-date; caches read it as already expired (RFC 9111, 5.3). Send an IMF-fixdate, or Cache-Control: no-cache.`));
    else if (date.form !== 'imf') out.push(broken('http.expires-age', answer.op, exchange, `${where} has Expires ${JSON.stringify(expires)}, an obsolete date form; a sender generates IMF-fixdate (RFC 9110, 5.6.7).`));
    else out.push(held('http.expires-age', answer.op, exchange));
  }
  const age = answer.field('age');
  if (age !== undefined) {
    const twice = sentTwice(answer, 'http.expires-age', 'Age');
    out.push(twice ?? holds(isDelaySeconds(age), 'http.expires-age', answer.op, exchange, () => `${where} has Age ${JSON.stringify(age)}; it is delta-seconds, a non-negative integer (RFC 9111, 5.1).`));
  }
  return out;
}

function judgeVary(answer: Answer): Judgement[] {
  const value = answer.field('vary');
  if (value === undefined) return [];
  const members = listMembers(value);
  const bad = members === undefined ? [value] : members.filter((m) => m !== '*' && !isToken(m));
  return [holds(bad.length === 0, 'http.vary', answer.op, answer.exchange, () => `${answer.where} has Vary ${JSON.stringify(value)}: ${bad.map((b) => JSON.stringify(b)).join(', ')} ${bad.length > 1 ? 'are' : 'is'} neither "*" nor a field name (RFC 9110, 12.5.5); a cache cannot tell which request fields the answer depends on.`)];
}

export function judgeCacheFields(answer: Answer): Judgement[] {
  return [...judgeCacheControl(answer), ...judgeExpiresAge(answer), ...judgeVary(answer)];
}

/**
 * A request without the key served what a keyed answer let shared caches store: the cache handed a
 * key's answer to whoever asked (RFC 9111, 3.5). Shown when the body is the keyed one, or Age says
 * a cache served it.
 */
export function judgeSharedCacheServed(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange } = answer;
  if (view.credential.kind === 'key' || view.method !== 'GET' || !isSuccess(status)) return [];
  const stored = memory.sharedCacheable.get(exchange.path);
  if (!stored) return [];
  const fromCache = answer.field('age') !== undefined || sameBytes(stored.bytes, exchange.response.bytes);
  if (!fromCache) return [];
  return [broken('http.cache-control', answer.op, exchange, `${answer.where} was served without a valid key the answer #${stored.seq} gave to the key, which its Cache-Control "${stored.directive}" let shared caches store (RFC 9111, 3.5); every endpoint requires authentication. Send "private" on keyed answers, and refuse keyless requests before any cache.`, [stored.seq])];
}
