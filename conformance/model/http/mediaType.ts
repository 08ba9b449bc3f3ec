// `media-type = type "/" subtype parameters` (RFC 9110, 8.3.1).
import { isToken, parseParameters, type Parameter } from './fieldSyntax.ts';

export interface MediaType {
  /** Lower case: type and subtype are case-insensitive. */
  type: string;
  subtype: string;
  parameters: Parameter[];
}

/** The media type, or the reason the value is not one. */
export function parseMediaType(value: string): MediaType | { fault: string } {
  const semicolon = value.indexOf(';');
  const head = (semicolon < 0 ? value : value.slice(0, semicolon)).replace(/[ \t]+$/, '');
  const slash = head.indexOf('/');
  const type = slash < 0 ? head : head.slice(0, slash);
  const subtype = slash < 0 ? '' : head.slice(slash + 1);
  if (slash < 0 || !isToken(type) || !isToken(subtype)) return { fault: `${JSON.stringify(head)} is not type "/" subtype, two tokens` };
  const parameters = semicolon < 0 ? [] : parseParameters(value.slice(semicolon));
  if (!parameters) return { fault: `its parameters ${JSON.stringify(value.slice(semicolon))} are not ; name=value (a token or a quoted string, no space around "=")` };
  const names = parameters.map((p) => p.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  // RFC 9110, 8.3.2: the charset is one parameter; a type with two charsets says two things.
  if (twice === 'charset') return { fault: 'it names the charset twice' };
  return { type: type.toLowerCase(), subtype: subtype.toLowerCase(), parameters };
}
