// Content codings (RFC 9110, 8.4) and what a request's Accept-Encoding accepts (12.5.3).
import { isToken, listMembers } from './fieldSyntax.ts';

/** The codings of a Content-Encoding, lower case, in the order applied; undefined when not `#content-coding`. */
export function parseContentEncoding(value: string): string[] | undefined {
  const members = listMembers(value);
  if (!members || members.some((m) => !isToken(m))) return undefined;
  // RFC 9110, 8.4.1.3: x-gzip is gzip.
  return members.map((m) => (m.toLowerCase() === 'x-gzip' ? 'gzip' : m.toLowerCase()));
}

/** A Content-Encoding as one comparable value: its codings in order, `identity` dropped ("" for none, or for a value not `#content-coding`, compared as written). */
export function contentCodingOf(value: string | undefined): string {
  const codings = parseContentEncoding(value ?? '');
  return codings === undefined ? (value ?? '').trim().toLowerCase() : codings.filter((c) => c !== 'identity').join(', ');
}

export interface AcceptEncoding {
  /** Coding (lower case, `*` included) to its qvalue. */
  weights: Map<string, number>;
}

const member = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?$/;

/** `Accept-Encoding = #( codings [ weight ] )`; undefined when malformed (the server may then ignore it). */
export function parseAcceptEncoding(value: string): AcceptEncoding | undefined {
  const members = listMembers(value);
  if (!members) return undefined;
  const weights = new Map<string, number>();
  for (const m of members) {
    if (m === '') continue;
    const match = member.exec(m);
    if (!match) return undefined;
    const coding = match[1]!.toLowerCase() === 'x-gzip' ? 'gzip' : match[1]!.toLowerCase();
    weights.set(coding, match[2] === undefined ? 1 : Number(match[2]));
  }
  return { weights };
}

/**
 * Whether a content coding is acceptable (RFC 9110, 12.5.3): a listed coding unless its qvalue is
 * 0; an unlisted one only through `*`; an empty field value wants no coding at all.
 */
export function acceptsCoding(accept: AcceptEncoding, coding: string): boolean {
  const listed = accept.weights.get(coding);
  if (listed !== undefined) return listed > 0;
  const any = accept.weights.get('*');
  return any !== undefined && any > 0;
}
