// WWW-Authenticate (RFC 9110, 11.6.1): `#challenge` wherever it is sent; on a 401 it names the
// Bearer scheme the contract uses (RFC 6750, 3). A 401 without it breaks a MUST of HTTP the
// contract does not repeat: a warning.
import { broken, held, holds, questionable, type Judgement } from '../judgement.ts';
import type { Answer } from './answerFields.ts';
import { parseChallenges } from './challenges.ts';

export function judgeAuthFields(answer: Answer): Judgement[] {
  const value = answer.field('www-authenticate');
  const { exchange, where, status } = answer;
  if (value === undefined) {
    if (status !== 401) return [];
    return [questionable('http.www-authenticate', answer.op, exchange, `${where} has no WWW-Authenticate; a 401 carries at least one challenge (RFC 9110, 15.5.2), here Bearer (RFC 6750, 3: WWW-Authenticate: Bearer realm="pets"), so a client knows how to authenticate.`)];
  }
  const parsed = parseChallenges(value);
  if ('fault' in parsed) return [broken('http.www-authenticate', answer.op, exchange, `${where} has WWW-Authenticate ${JSON.stringify(value)}: ${parsed.fault} (RFC 9110, 11.6.1). Send Bearer realm="..." (RFC 6750, 3).`)];
  if (status !== 401) return [held('http.www-authenticate', answer.op, exchange)];
  const schemes = parsed.challenges.map((c) => c.scheme);
  return [holds(schemes.some((s) => s.toLowerCase() === 'bearer'), 'http.www-authenticate', answer.op, exchange, () => `${where} challenges with ${schemes.join(', ')}, not Bearer; the API takes its key as a bearer token ("Every operation requires HTTP bearer authentication"), and a 401 of a bearer-protected resource names the Bearer scheme (RFC 6750, 3).`)];
}
