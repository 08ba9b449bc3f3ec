// Cache-Control (RFC 9111, 5.2): `#cache-directive`, `cache-directive = token [ "=" ( token / quoted-string ) ]`.
import { isDelaySeconds, listMembers, quotedPattern, tokenOrQuoted, tokenPattern } from './fieldSyntax.ts';

export interface CacheDirective {
  /** Lower case: directive names are case-insensitive (5.2). */
  name: string;
  argument?: string;
  quoted: boolean;
}

const directive = new RegExp(`^(${tokenPattern})(?:=(${tokenPattern}|${quotedPattern}))?$`);

/** Directives whose argument is delta-seconds in the token form (5.2.2.1, 5.2.2.10; RFC 5861 3, 4). */
const deltaSeconds = new Set(['max-age', 's-maxage', 'stale-while-revalidate', 'stale-if-error']);
/** Directives that take no argument (5.2.2: "no argument is defined (nor allowed) unless otherwise specified"). */
const noArgument = new Set(['must-revalidate', 'must-understand', 'no-store', 'no-transform', 'proxy-revalidate', 'public', 'immutable']);
/** Directives whose optional argument is a quoted list of field names (5.2.2.4, 5.2.2.7). */
const fieldNames = new Set(['no-cache', 'private']);

export interface ParsedCacheControl {
  directives: CacheDirective[];
  /** Breaks of a MUST: the grammar, or a delta-seconds in the quoted form. */
  faults: string[];
  /** Breaks of a SHOULD or of "nor allowed" where caches ignore the argument. */
  doubts: string[];
}

export function parseCacheControl(value: string): ParsedCacheControl {
  const out: ParsedCacheControl = { directives: [], faults: [], doubts: [] };
  const members = listMembers(value);
  if (!members) return { ...out, faults: ['a quoted string never ends'] };
  for (const member of members) {
    if (member === '') {
      out.faults.push('it has an empty list member (a stray comma)');
      continue;
    }
    const m = directive.exec(member);
    if (!m) {
      out.faults.push(`${JSON.stringify(member)} is not token [ "=" ( token / quoted-string ) ]`);
      continue;
    }
    const name = m[1]!.toLowerCase();
    const argument = m[2] === undefined ? undefined : tokenOrQuoted(m[2])!;
    out.directives.push({ name, ...(argument ? { argument: argument.value } : {}), quoted: argument?.quoted ?? false });
    if (deltaSeconds.has(name)) {
      if (argument === undefined || !isDelaySeconds(argument.value)) out.faults.push(`${member}: ${name} takes delta-seconds (1*DIGIT)`);
      else if (argument.quoted && (name === 'max-age' || name === 's-maxage')) out.faults.push(`${member}: ${name} is written in the token form; "a sender MUST NOT generate the quoted-string form"`);
    } else if (noArgument.has(name) && argument !== undefined) {
      out.doubts.push(`${member}: ${name} takes no argument`);
    } else if (fieldNames.has(name) && argument !== undefined && !argument.quoted) {
      out.doubts.push(`${member}: ${name}'s field names are sent as a quoted string ("a sender SHOULD NOT generate the token form")`);
    }
  }
  return out;
}
