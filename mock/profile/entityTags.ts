// The ETag and the conditional GET of a profile's `etag` choice (RFC 9110, 8.8.3, 13.1.2, 15.4.5):
// a 200 to a GET carries an entity tag derived from the bytes of its body, so the tag changes
// whenever the body does; under `conditional`, a GET whose If-None-Match matches it gets 304.
import type { CoreAnswer } from '../core/coreTypes.ts';
import { sha256Base64 } from '../state/sha256.ts';

/**
 * The body's entity tag: weak (W/), as a tag of the JSON text, not of the bytes a host may
 * content-code, and weak comparison is what If-None-Match uses anyway (13.1.2). Base64 stays within
 * etagc (%x21 / %x23-7E): no quote, no space.
 */
export const entityTagOf = (body: string): string => `W/"${sha256Base64(body).slice(0, 27)}"`;

/** One member of `#entity-tag`: `[ W/ ] DQUOTE *etagc DQUOTE` (8.8.3), then OWS and a comma or the end. */
const tagMember = /^(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*(?:,|$)/;

/**
 * The opaque-tags of an If-None-Match field value (`"*" / #entity-tag`, 13.1.2): `*`, the tags,
 * or undefined when the value is no such list, which the condition then ignores.
 */
export function tagsOf(field: string): '*' | string[] | undefined {
  if (field.trim() === '*') return '*';
  const opaques: string[] = [];
  let rest = field;
  for (;;) {
    rest = rest.replace(/^[ \t,]+/, '');
    if (rest === '') break;
    const m = tagMember.exec(rest);
    if (!m) return undefined;
    opaques.push(m[1]!);
    rest = rest.slice(m[0].length);
  }
  return opaques.length > 0 ? opaques : undefined;
}

/** Whether If-None-Match evaluates to false for the tag: `*`, or a tag that matches it by weak comparison (8.8.3.2). */
export function noneMatchIsFalse(field: string, tag: string): boolean {
  const tags = tagsOf(field);
  const opaque = tag.replace(/^W\//, '');
  return tags === '*' || (tags !== undefined && tags.includes(opaque));
}

/**
 * A 200 to a GET with its ETag; under `conditional` and a false If-None-Match, a 304 instead: no
 * content, and the fields the 200 would have sent but for the content's own (Content-Type,
 * Content-Length: 15.4.5 asks for no representation metadata beyond the validators and caching
 * fields), so X-RateLimit-*, CORS, Deprecation, Sunset and Link stay, as every answer carries them.
 */
export function tagged(answer: CoreAnswer & { body: string }, ifNoneMatch: string | undefined, conditional: boolean): CoreAnswer {
  const etag = entityTagOf(answer.body);
  const headers: Record<string, string> = { ...answer.headers, etag };
  if (!conditional || ifNoneMatch === undefined || !noneMatchIsFalse(ifNoneMatch, etag)) return { ...answer, headers };
  delete headers['content-type'];
  delete headers['content-length'];
  return { status: 304, headers, body: null };
}
