// Conditional requests and validators: a 304 answers only a conditional GET or HEAD whose
// condition was false (RFC 9110, 13.1.2, 13.1.3, 15.4.5), carries what its 200 would (15.4.5) and
// the contract's rate-limit headers; a false condition on GET is never a 412 (13.2.2); a strong
// entity tag names one body of its URL (8.8.1).
import { broken, held, holds, questionable, type Judgement } from '../judgement.ts';
import type { Answer } from './answerFields.ts';
import { contentCodingOf } from './contentCodings.ts';
import { parseEntityTag, parseTagList, showTag, weakMatch } from './entityTag.ts';
import { parseHttpDate } from './httpDate.ts';
import type { GetAnswer, HttpMemory } from './httpMemory.ts';
import { getKey, isSuccess, rateLimitFields, sameBytes } from './requestKey.ts';

/** The fields a 304 must carry when its 200 would have (15.4.5). */
const revalidationFields = ['content-location', 'date', 'etag', 'vary', 'cache-control', 'expires'];

/** The last 2xx to a GET of this URL with this credential, when nothing was written since (else the representation may have changed). */
function currentRepresentation(answer: Answer, memory: HttpMemory): GetAnswer | undefined {
  const last = memory.lastGet.get(getKey(answer.exchange, answer.view));
  return last && isSuccess(last.status) && last.writes === memory.writes ? last : undefined;
}

/** Why a 304 cannot be the answer to this request's condition, or undefined when it can. */
function whyNot304(answer: Answer, memory: HttpMemory): { reason: string; related?: number } | undefined {
  const { view } = answer;
  const noneMatch = view.headers['if-none-match'];
  const modifiedSince = view.headers['if-modified-since'];
  if (view.method !== 'GET' && view.method !== 'HEAD') return { reason: `a 304 answers only a conditional GET or HEAD, and this is a ${view.method}` };
  if (noneMatch === undefined && modifiedSince === undefined) return { reason: 'the request had no condition (neither If-None-Match nor If-Modified-Since), so nothing can have evaluated to false' };
  const current = currentRepresentation(answer, memory);
  if (noneMatch !== undefined) {
    // 13.1.3: If-Modified-Since is ignored beside If-None-Match.
    const tags = parseTagList(noneMatch);
    if (tags === undefined || tags === '*') return undefined;
    const sent = tags.map(showTag).join(', ');
    const own = parseEntityTag(answer.field('etag') ?? '');
    if (own && !tags.some((t) => weakMatch(t, own))) return { reason: `its own ETag ${showTag(own)} matches none of the tags sent (If-None-Match: ${sent}), so the condition was true` };
    if (current) {
      const tag = parseEntityTag(current.headers.etag ?? '');
      if (!tag) return { reason: `the representation #${current.seq} gave for this URL has no ETag, so no tag sent (${sent}) can match it`, related: current.seq };
      if (!tags.some((t) => weakMatch(t, tag))) return { reason: `the current representation's ETag is ${showTag(tag)} (#${current.seq}), and the tags sent (${sent}) do not match it, so the condition was true`, related: current.seq };
    }
    return undefined;
  }
  const since = parseHttpDate(modifiedSince!);
  // 13.1.3: an If-Modified-Since that is no HTTP-date is ignored.
  if (!since) return { reason: `If-Modified-Since ${JSON.stringify(modifiedSince)} is no HTTP-date, which a server must ignore (13.1.3)` };
  const modified = answer.field('last-modified') ?? current?.headers['last-modified'];
  const at = modified === undefined ? undefined : parseHttpDate(modified)?.at;
  if (at !== undefined && at > since.at) return { reason: `the representation was last modified ${modified}, after If-Modified-Since ${modifiedSince}, so the condition was true`, ...(current ? { related: current.seq } : {}) };
  return undefined;
}

function judgeConditionalAnswer(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange, where } = answer;
  if (status === 304) {
    const why = whyNot304(answer, memory);
    if (!why) return [held('http.conditional', answer.op, exchange)];
    return [broken('http.conditional', answer.op, exchange, `${where} answered 304 Not Modified, but ${why.reason}. A 304 says a conditional GET or HEAD found the client's copy current (RFC 9110, 15.4.5); here the client is left with a copy it does not have, or an old one. Answer 200 with the representation.`, why.related === undefined ? undefined : [why.related])];
  }
  const conditional = (view.method === 'GET' || view.method === 'HEAD') && (view.headers['if-none-match'] !== undefined || view.headers['if-modified-since'] !== undefined);
  if (!conditional) return [];
  if (status === 412) return [broken('http.conditional', answer.op, exchange, `${where} answered 412 to a conditional ${view.method}; a false If-None-Match or If-Modified-Since on GET or HEAD is answered 304, and a true one as if unconditional (RFC 9110, 13.1.2, 13.2.2).`)];
  if (!isSuccess(status)) return [];
  // A 200 where a 304 was owed costs the client bytes, never correctness: it gets the representation
  // it would have kept. A warning, as the shared corpus's legal deployment-b (etag-304) compares the
  // whole field exactly.
  const missed = missedMatch(answer, memory);
  return [missed ? questionable('http.conditional', answer.op, exchange, missed.message) : held('http.conditional', answer.op, exchange)];
}

/**
 * A 2xx to an If-None-Match one of whose tags matches, by weak comparison, the ETag the answer
 * itself gives, where the deployment answered 304 to an If-None-Match of this URL before (so it
 * evaluates the condition here, and nothing was written since): the condition was false, and a
 * recipient "MUST use the weak comparison function when comparing entity tags for If-None-Match"
 * (RFC 9110, 13.1.2), then answer 304 to a GET or HEAD. A tag read strongly (W/ prefix not
 * stripped) or a list read as one tag misses it.
 */
function missedMatch(answer: Answer, memory: HttpMemory): { message: string; related: number } | undefined {
  const noneMatch = answer.view.headers['if-none-match'];
  const before = memory.notModified.get(answer.exchange.path);
  if (noneMatch === undefined || before === undefined || currentRepresentation(answer, memory) === undefined) return undefined;
  const tags = parseTagList(noneMatch);
  const own = parseEntityTag(answer.field('etag') ?? '');
  if (tags === undefined || tags === '*' || !own) return undefined;
  const hit = tags.find((t) => weakMatch(t, own));
  if (!hit) return undefined;
  return {
    message: `${answer.where} answered ${answer.status} with ETag ${showTag(own)} to If-None-Match: ${noneMatch}, whose ${showTag(hit)} matches it by weak comparison, which If-None-Match uses (RFC 9110, 13.1.2: W/ is ignored, and each tag of a list is compared); #${before} shows the deployment answers 304 to a false If-None-Match on ${answer.exchange.path}. The condition was false: answer 304, and spare the client the body.`,
    related: before,
  };
}

function judge304Fields(answer: Answer, memory: HttpMemory): Judgement[] {
  if (answer.status !== 304) return [];
  const missing: string[] = rateLimitFields.filter((f) => answer.field(f) === undefined);
  const last = memory.lastGet.get(getKey(answer.exchange, answer.view));
  const reference = last && isSuccess(last.status) ? last : undefined;
  const fromTheOk = reference ? revalidationFields.filter((f) => reference.headers[f] !== undefined && answer.field(f) === undefined) : [];
  const all = [...missing, ...fromTheOk];
  return [
    holds(all.length === 0, 'http.304-fields', answer.op, answer.exchange, () =>
      `${answer.where} lacks ${all.join(', ')}: ${[missing.length > 0 ? `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} on every API response ("Every API response carries these headers"), a 304 too` : '', fromTheOk.length > 0 ? `the 200 to the same request (#${reference!.seq}) carried ${fromTheOk.join(', ')}, which a 304 must repeat (RFC 9110, 15.4.5)` : ''].filter(Boolean).join('; ')}. A 304 goes through the same header hooks as the 200 it stands for.`,
    reference && fromTheOk.length > 0 ? [reference.seq] : undefined),
  ];
}

function judgeStrongEtag(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange } = answer;
  if (view.method !== 'GET' || !isSuccess(status) || exchange.response.truncated || exchange.response.incomplete !== undefined) return [];
  const tag = parseEntityTag(answer.field('etag') ?? '');
  if (!tag || tag.weak) return [];
  const before = memory.strongTags.get(exchange.path)?.get(tag.opaque);
  if (!before) return [];
  const coding = contentCodingOf(answer.field('content-encoding'));
  if (coding !== before.coding) {
    // RFC 9110, 8.8.1: "if the origin server sends the same validator for a representation with a
    // gzip content coding applied as it does for a representation with no content coding, then that
    // validator is weak": the two are different representations, which a strong tag tells apart.
    const named = (c: string) => (c === '' ? 'no content coding' : `Content-Encoding ${c}`);
    return [broken('http.strong-etag', answer.op, exchange, `${answer.where} gives the strong ETag ${tag.opaque} with ${named(coding)}, which #${before.seq} gave for ${exchange.path} with ${named(before.coding)}; a validator shared by two content codings is weak (RFC 9110, 8.8.1), and a cache or a range request would join their bytes. Mark it weak (W/), or tag each coding apart.`, [before.seq])];
  }
  return [holds(sameBytes(before.bytes, exchange.response.bytes), 'http.strong-etag', answer.op, exchange, () => `${answer.where} gives the strong ETag ${tag.opaque} that #${before.seq} gave for ${exchange.path}, with a different body (${before.bytes.length} then ${exchange.response.bytes.length} octets); a strong validator changes whenever the representation does (RFC 9110, 8.8.1), or a cache or a range request joins two bodies. Mark it weak (W/) or derive it from the body.`, [before.seq])];
}

export function judgeConditional(answer: Answer, memory: HttpMemory): Judgement[] {
  return [...judgeConditionalAnswer(answer, memory), ...judge304Fields(answer, memory), ...judgeStrongEtag(answer, memory)];
}
