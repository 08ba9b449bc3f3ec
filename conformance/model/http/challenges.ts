// WWW-Authenticate (RFC 9110, 11.6.1): `#challenge`, where
// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]` and
// `auth-param = token BWS "=" BWS ( token / quoted-string )` (11.2). Commas separate both the
// challenges and one challenge's parameters, so a member that is an auth-param belongs to the
// challenge before it.
import { listMembers, quotedPattern, tokenOrQuoted, tokenPattern } from './fieldSyntax.ts';

export interface Challenge {
  /** As sent; compare case-insensitively (11.1). */
  scheme: string;
  token68?: string;
  params: { name: string; value: string }[];
}

const authParam = new RegExp(`^(${tokenPattern})[ \\t]*=[ \\t]*(${tokenPattern}|${quotedPattern})$`);
const schemeOnly = new RegExp(`^(${tokenPattern})$`);
const schemeThen = new RegExp(`^(${tokenPattern}) +(.+)$`);
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The challenges, or the reason the value is not `#challenge`. */
export function parseChallenges(value: string): { challenges: Challenge[] } | { fault: string } {
  const members = listMembers(value);
  if (!members) return { fault: 'a quoted string never ends' };
  const challenges: Challenge[] = [];
  for (const member of members) {
    if (member === '') continue;
    const param = authParam.exec(member);
    if (param) {
      const current = challenges.at(-1);
      if (!current || current.token68 !== undefined) return { fault: `the parameter ${JSON.stringify(member)} belongs to no challenge` };
      current.params.push({ name: param[1]!.toLowerCase(), value: tokenOrQuoted(param[2]!)!.value });
      continue;
    }
    const bare = schemeOnly.exec(member);
    if (bare) {
      challenges.push({ scheme: bare[1]!, params: [] });
      continue;
    }
    const withRest = schemeThen.exec(member);
    if (withRest) {
      const rest = withRest[2]!;
      const first = authParam.exec(rest);
      if (first) challenges.push({ scheme: withRest[1]!, params: [{ name: first[1]!.toLowerCase(), value: tokenOrQuoted(first[2]!)!.value }] });
      else if (token68.test(rest)) challenges.push({ scheme: withRest[1]!, token68: rest, params: [] });
      else return { fault: `${JSON.stringify(member)} is neither a scheme with a token68 nor a scheme with auth-params (name=token or name="quoted")` };
      continue;
    }
    return { fault: `${JSON.stringify(member)} is not a challenge (an auth-scheme token, then a space and its parameters)` };
  }
  if (challenges.length === 0) return { fault: 'it holds no challenge' };
  return { challenges };
}
