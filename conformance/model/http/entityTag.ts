// Entity tags (RFC 9110, 8.8.3) and the lists of them a conditional request sends (13.1.2).
import { listMembers } from './fieldSyntax.ts';

export interface EntityTag {
  weak: boolean;
  /** The opaque-tag with its quotes. */
  opaque: string;
}

/** `entity-tag = [ weak ] opaque-tag`, `opaque-tag = DQUOTE *etagc DQUOTE`, `etagc = %x21 / %x23-7E / obs-text`. */
const entityTag = /^(W\/)?("[\x21\x23-\x7e\x80-\xff]*")$/;

export function parseEntityTag(text: string): EntityTag | undefined {
  const m = entityTag.exec(text);
  return m ? { weak: m[1] !== undefined, opaque: m[2]! } : undefined;
}

/** RFC 9110, 8.8.3.2: weak comparison matches the opaque-tags whatever their weakness. */
export const weakMatch = (a: EntityTag, b: EntityTag): boolean => a.opaque === b.opaque;

/** RFC 9110, 8.8.3.2: strong comparison needs both strong and the same opaque-tag. */
export const strongMatch = (a: EntityTag, b: EntityTag): boolean => !a.weak && !b.weak && a.opaque === b.opaque;

/** `If-None-Match = "*" / #entity-tag` (13.1.2): `*`, the tags, or undefined when malformed. */
export function parseTagList(text: string): '*' | EntityTag[] | undefined {
  if (text.trim() === '*') return '*';
  const members = listMembers(text);
  if (!members) return undefined;
  const tags = members.filter((m) => m !== '').map(parseEntityTag);
  return tags.length > 0 && tags.every((t) => t !== undefined) ? (tags as EntityTag[]) : undefined;
}

export const showTag = (tag: EntityTag): string => `${tag.weak ? 'W/' : ''}${tag.opaque}`;
