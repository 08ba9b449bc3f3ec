// A key's validity is one fact of the run: once an answer to one of the contract's operations
// served the key, a 401 or 403 to that key (another operation, another spelling, before or after)
// says a valid key is "missing or invalid", which the contract's 401 is for and nothing else
// (Authentication 3; RFC 9110, 15.5.2): a plan read as a permission, a key valid for reads only.
import type { Exchange } from '../../http/exchange.ts';
import { broken, held, questionable, type Judgement } from '../judgement.ts';
import { keyToken, viewRequest, type RequestView } from '../requestView.ts';
import type { Answer } from './answerFields.ts';
import type { HttpMemory, KeyStanding } from './httpMemory.ts';
import { isSuccess } from './requestKey.ts';

const refused = (status: number) => status === 401 || status === 403;

/** The verdict on a 401 or 403 to a key `servedAt` showed valid. */
function refusal(exchange: Exchange, view: RequestView, standing: KeyStanding, servedAt: number): Judgement {
  const op = view.operation ?? 'unlisted';
  const where = `#${exchange.seq} ${view.method} ${exchange.path} (${exchange.response.status})`;
  const authorization = view.headers.authorization ?? '';
  const key = view.credential.kind === 'key' ? keyToken(view.credential.key) : 'the key';
  const message = `${where}: the key ${key} was refused${view.operation ? ` on ${view.operation}` : ''}, yet #${servedAt} served it (Authorization ${JSON.stringify(authorization)}); a key is valid or not for every operation alike, and 401 is only for a missing or invalid one.`;
  // After a 429 the key may be banned ("may lead to a temporary ban"), which the contract does not say how.
  if (standing.throttledAt !== undefined && standing.throttledAt < exchange.seq) return questionable('auth.valid-key-accepted', op, exchange, `${message} It came after the 429 of #${standing.throttledAt}, perhaps as a ban, so this is a warning.`);
  // The exact spelling `Bearer <key>` is the contract's; another (`bearer`, two spaces) is HTTP's, a warning.
  if (!/^Bearer [^\s]+$/.test(authorization)) return questionable('auth.valid-key-accepted', op, exchange, `${message} The header is spelled otherwise than "Bearer <key>", which HTTP allows (RFC 9110, 11.1; RFC 6750, 2.1), so this is a warning.`);
  // The store-orders listing's security is "not shown", and an unlisted request is no operation at all.
  if (view.operation === undefined || view.operation === 'listStoreOrders') return questionable('auth.valid-key-accepted', op, exchange, `${message} The request is ${view.operation ? 'an operation whose security the contract does not show' : "none of the contract's operations"}, so this is a warning.`);
  return broken('auth.valid-key-accepted', op, exchange, message, [servedAt]);
}

export function judgeKeyValidity(answer: Answer, memory: HttpMemory): Judgement[] {
  const { view, status, exchange } = answer;
  if (view.credential.kind !== 'key' || view.preflight) return [];
  const standing = memory.keys.get(view.credential.key);
  if (standing?.servedAt !== undefined) {
    if (refused(status)) return [refusal(exchange, view, standing, standing.servedAt)];
    return status === 429 ? [] : [held('auth.valid-key-accepted', answer.op, exchange)];
  }
  // The first answer to serve the key judges the refusals it got before.
  if (isSuccess(status) && view.operation !== undefined && standing) return standing.refusedBefore.map((e) => refusal(e, viewRequest(e), standing, exchange.seq));
  return [];
}
