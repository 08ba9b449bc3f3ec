// Link (RFC 8288, 3): `#link-value`, `link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )`,
// `link-param = token BWS [ "=" BWS ( token / quoted-string ) ]`.
import { listMembers, parseParameters, type Parameter } from './fieldSyntax.ts';
import { uriReferenceFault } from './uriReference.ts';

export interface LinkValue {
  target: string;
  params: Parameter[];
}

/** The links, or the reason the value is not `#link-value` with one rel each (3.3). */
export function parseLinks(value: string): { links: LinkValue[] } | { fault: string } {
  const members = listMembers(value, { angleBrackets: true });
  if (!members) return { fault: 'a quoted string or a <...> never ends' };
  const links: LinkValue[] = [];
  for (const member of members) {
    if (member === '') continue;
    const m = /^<([^>]*)>(.*)$/s.exec(member);
    if (!m) return { fault: `${JSON.stringify(member)} does not start with <URI-Reference>` };
    const uriFault = uriReferenceFault(m[1]!);
    if (uriFault) return { fault: `the target <${m[1]}> is no URI-reference: ${uriFault}` };
    const params = parseParameters(m[2]!, { bws: true, valueOptional: true });
    if (!params) return { fault: `the parameters of <${m[1]}> are not ; name[=value] (a token or a quoted string)` };
    const rels = params.filter((p) => p.name === 'rel').length;
    // RFC 8288, 3.3: "The rel parameter MUST be present but MUST NOT appear more than once in a given link-value".
    if (rels !== 1) return { fault: `<${m[1]}> has ${rels === 0 ? 'no rel parameter' : `rel ${rels} times`}; each link-value has exactly one` };
    links.push({ target: m[1]!, params });
  }
  return { links };
}
