// A key's validity is one fact of the run: once an answer served the key, a 401 to that key
// (another operation, another spelling, before or after) says a valid key is "missing or
// invalid", which the contract's 401 is for and nothing else (Authentication 3; RFC 9110, 15.5.2).
import type { Exchange } from '../../http/exchange.ts';
import { broken, held, questionable, type Judgement } from '../judgement.ts';
import { viewRequest, type RequestView } from '../requestView.ts';
import type { Answer } from './answerFields.ts';
import type { HttpMemory, KeyStanding } from './httpMemory.ts';
import { isSuccess } from './requestKey.ts';

/** The verdict on a 401 to a key `servedAt` showed valid. */
function refusal(exchange: Exchange, view: RequestView, standing: KeyStanding, servedAt: number): Judgement {
  const op = view.operation ?? 'unlisted';
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (401)`;
  const authorization = view.headers.authorization ?? '';
  const message = `${where} refused with 401 the key that #${servedAt} was served with${view.operation ? `, on ${view.operation}` : ''} (Authorization ${JSON.stringify(authorization)}); a key is valid or not, whatever the operation: 401 is for a key "missing or invalid".`;
  // After a 429 the key may be banned ("may lead to a temporary ban"), which the contract does not say how.
  if (standing.throttledAt !== undefined && standing.throttledAt < exchange.seq) return questionable('http.401-valid-key', op, exchange, `${message} It came after the 429 of #${standing.throttledAt}, perhaps as a ban, so this is a warning.`);
  // The exact spelling `Bearer <key>` is the contract's; another (`bearer`, two spaces) is HTTP's, a warning.
  if (!/^Bearer [^\s]+$/.test(authorization)) return questionable('http.401-valid-key', op, exchange, `${message} The header is spelled otherwise than "Bearer <key>", which HTTP allows (RFC 9110, 11.1; RFC 6750, 2.1), so this is a warning.`);
  if (view.operation === undefined) return questionable('http.401-valid-key', op, exchange, `${message} The request is none of the contract's operations, so this is a warning.`);
  return broken('http.401-valid-key', op, exchange, message, [servedAt]);
}

export function judgeKeyValidity(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange } = answer;
  if (view.credential.kind !== 'key' || view.preflight) return [];
  const standing = memory.keys.get(view.credential.key);
  if (standing?.servedAt !== undefined) {
    if (status === 401) return [refusal(exchange, view, standing, standing.servedAt)];
    return status === 429 ? [] : [held('http.401-valid-key', answer.op, exchange)];
  }
  // The first answer to serve the key judges the 401s it got before.
  if (isSuccess(status) && standing) return standing.refusedBefore.map((e) => refusal(e, viewRequest(e), standing, exchange.seq));
  return [];
}
