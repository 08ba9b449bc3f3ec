import { findOperation, responseSchema } from '../../spec/loadSpec.ts';
import { bodyNotWhole, requestLine, type Check, judgedAsOperation } from '../check.ts';
import { allOperations } from './allOperations.ts';
import { isUnservedStoreOrders } from './unservedStoreOrders.ts';

const json = /^application\/json\s*(;|$)/i;

export const contentType: Check = {
  id: 'content-type',
  title: 'Bodies are JSON, labelled application/json',
  severity: 'high',
  description:
    'Every answer that has or should have a body carries valid JSON with Content-Type application/json, ' +
    'as the contract says "all request and response bodies are JSON (application/json)".',
  operations: allOperations,
  phase: 'passive',
  async run(ctx, report) {
    for (const exchange of ctx.exchanges) {
      if (!judgedAsOperation(exchange)) continue;
      const { status, headers, body, json: parsed } = exchange.response;
      if (isUnservedStoreOrders(exchange)) {
        // Not served: what a deployment answers for an endpoint the contract only mentions is not judged.
        report.warn(exchange.operationId, `GET /store/orders answered ${exchange.response.status}, so its answers are not judged. The contract mentions this endpoint but shows nothing of it.`, exchange, 'store-unserved');
        continue;
      }
      if (exchange.request.method === 'HEAD' || status === 204 || status === 304) continue;
      const op = findOperation(ctx.spec, exchange.operationId);
      const expectsBody = responseSchema(op, status) !== undefined || status >= 400;
      if (body === '') {
        report.expectOfAnswer(!expectsBody, exchange, `${requestLine(exchange)} answered ${status} with an empty body; the contract gives this answer a JSON body.`, `empty ${status}`);
        continue;
      }
      const type = headers['content-type'] ?? '';
      if (!report.expectOfAnswer(json.test(type), exchange, `${requestLine(exchange)} answered ${status} with Content-Type "${type || '(none)'}"; it must be application/json.`, `type ${status}`)) continue;
      // Only a whole body shows whether it is JSON: the start the suite kept of a longer one is not judged.
      const notWhole = bodyNotWhole(exchange);
      if (notWhole !== undefined) {
        report.inconclusive(exchange.operationId, notWhole, exchange.case);
        continue;
      }
      report.expectOfAnswer(parsed !== undefined, exchange, `${requestLine(exchange)} answered ${status} with a body that is not valid JSON.`, `json ${status}`);
    }
  },
};
