// Every answer's status: never a 5xx, whatever the request sent; a status the contract documents
// for its operation whenever the request was valid. (What an invalid request must get is judged by
// the check that sent it.)
import { findOperation } from '../../spec/loadSpec.ts';
import type { Exchange } from '../http/exchange.ts';
import type { SpecValidators } from '../specValidators.ts';
import { isUnservedStoreOrders, storeOrdersIsOpen, storeOrdersUnserved } from './judgeAuthCases.ts';
import { judgedAsOperation, requestLine } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import { isRemovedGetPet } from './removedOperation.ts';

/** A GET or HEAD with If-None-Match or If-Modified-Since (RFC 9110, 13.1.2, 13.1.3). */
const conditionalGet = (exchange: Exchange) =>
  (exchange.request.method === 'GET' || exchange.request.method === 'HEAD') && Object.keys(exchange.request.headers).some((h) => /^if-(none-match|modified-since)$/i.test(h));

export function judgeStatusCodes(exchange: Exchange, validators: SpecValidators): Judgement[] {
  if (!judgedAsOperation(exchange)) return [];
  const v = new JudgementList();
  const { status } = exchange.response;
  const op = findOperation(validators.spec, exchange.operationId);
  const documented = validators.documentedStatuses(op);
  if (isUnservedStoreOrders(exchange)) {
    storeOrdersUnserved(v, 'status.documented', exchange, `GET /store/orders answered ${status}. The contract mentions this endpoint but shows nothing of it, so this is not counted as a failure.`);
    return v.judgements;
  }
  if (status >= 500) {
    v.fail('status.no-5xx', exchange, `${requestLine(exchange)} answered ${status}, a server error. The contract documents ${documented.join(', ')}; bad input must get a 4xx.`, { kind: `5xx ${status}` });
    return v.judgements;
  }
  // A 304 is HTTP's answer to a conditional GET, whatever the contract lists: http-semantics judges it.
  if (status === 304 && conditionalGet(exchange)) return v.judgements;
  const valid = exchange.intent === 'valid' || exchange.intent === 'over-limit';
  // After the announced removal, getPet gone (410 or 404) is what the contract announced.
  if (isRemovedGetPet(exchange)) {
    v.held('status.no-5xx', exchange);
    if (valid) v.held('status.documented', exchange);
    return v.judgements;
  }
  if (valid && !documented.includes(status)) {
    const message = `${requestLine(exchange)} answered ${status}, which the contract does not document for ${op.operationId} (it documents ${documented.join(', ')}).`;
    const kind = { kind: `undocumented ${status}` };
    if (storeOrdersIsOpen(op.operationId)) v.warn('status.documented', exchange, `${message} The contract shows nothing of this endpoint, so this is a warning.`, kind);
    // Past a 429 on purpose, a key may be banned ("may lead to a temporary ban"), with a status the contract does not give.
    else if (exchange.intent === 'over-limit' && status >= 400) v.warn('status.documented', exchange, `${message} It came after the probe's 429, perhaps as a ban, whose answer the contract does not show, so this is a warning.`, kind);
    else v.fail('status.documented', exchange, message, kind);
    return v.judgements;
  }
  v.held('status.no-5xx', exchange);
  if (valid) v.held('status.documented', exchange);
  return v.judgements;
}
