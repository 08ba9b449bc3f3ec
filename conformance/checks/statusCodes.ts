import { findOperation } from '../../spec/loadSpec.ts';
import { requestLine, type Check, judgedAsOperation } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { allOperations } from './allOperations.ts';
import { isUnservedStoreOrders, storeOrdersIsOpen } from './unservedStoreOrders.ts';

/** A GET or HEAD with If-None-Match or If-Modified-Since (RFC 9110, 13.1.2, 13.1.3). */
const conditionalGet = (exchange: Exchange) =>
  (exchange.request.method === 'GET' || exchange.request.method === 'HEAD') && Object.keys(exchange.request.headers).some((h) => /^if-(none-match|modified-since)$/i.test(h));

export const statusCodes: Check = {
  id: 'status-codes',
  title: 'Every status is documented, and never a 5xx',
  severity: 'critical',
  description:
    'Every answer to a valid request has a status the contract documents for its operation, and no ' +
    'request, whatever it sends, gets a 5xx. (What an invalid request must get is judged by the check that sent it.)',
  operations: allOperations,
  phase: 'passive',
  async run(ctx, report) {
    for (const exchange of ctx.exchanges) {
      if (!judgedAsOperation(exchange)) continue;
      const { status } = exchange.response;
      const op = findOperation(ctx.spec, exchange.operationId);
      const documented = ctx.validators.documentedStatuses(op);
      if (isUnservedStoreOrders(exchange)) {
        report.warn(op.operationId, `GET /store/orders answered ${status}. The contract mentions this endpoint but shows nothing of it, so this is not counted as a failure.`, exchange, 'store-unserved');
        report.skip(op.operationId, `GET /store/orders answered ${status}: the deployment does not serve it, which the contract leaves open`);
        continue;
      }
      if (status >= 500) {
        report.fail(op.operationId, `${requestLine(exchange)} answered ${status}, a server error. The contract documents ${documented.join(', ')}; bad input must get a 4xx.`, exchange, `5xx ${status}`);
        continue;
      }
      // A 304 is HTTP's answer to a conditional GET, whatever the contract lists: http-semantics judges it.
      if (status === 304 && conditionalGet(exchange)) continue;
      if ((exchange.intent === 'valid' || exchange.intent === 'over-limit') && !documented.includes(status)) {
        const message = `${requestLine(exchange)} answered ${status}, which the contract does not document for ${op.operationId} (it documents ${documented.join(', ')}).`;
        if (storeOrdersIsOpen(op.operationId)) report.warn(op.operationId, `${message} The contract shows nothing of this endpoint, so this is a warning.`, exchange, `undocumented ${status}`);
        // Past a 429 on purpose, a key may be banned ("may lead to a temporary ban"), with a status the contract does not give.
        else if (exchange.intent === 'over-limit' && status >= 400) report.warn(op.operationId, `${message} It came after the probe's 429, perhaps as a ban, whose answer the contract does not show, so this is a warning.`, exchange, `undocumented ${status}`);
        else report.fail(op.operationId, message, exchange, `undocumented ${status}`);
        continue;
      }
      report.examined(op.operationId);
    }
  },
};
