import { findOperation } from '../../spec/loadSpec.ts';
import { bodyNotWhole, requestLine, type Check, judgedAsOperation } from '../check.ts';
import { allOperations } from './allOperations.ts';
import { isUnservedStoreOrders, storeOrdersIsOpen } from './unservedStoreOrders.ts';
import { beyondInt64 } from '../json/losslessJson.ts';

export const responseSchemaCheck: Check = {
  id: 'response-schema',
  title: 'Bodies match their schemas',
  severity: 'high',
  description:
    'Every JSON body matches the schema the spec gives its status: every Pet of every list, every ' +
    'created or fetched Pet, and every Error, whose `status` must equal the HTTP status. Integers are read ' +
    'losslessly and held to int64. Extra fields are allowed.',
  operations: allOperations,
  phase: 'passive',
  async run(ctx, report) {
    for (const exchange of ctx.exchanges) {
      if (!judgedAsOperation(exchange)) continue;
      const { status, json } = exchange.response;
      if (isUnservedStoreOrders(exchange)) {
        // Not served: what a deployment answers for an endpoint the contract only mentions is not judged.
        report.warn(exchange.operationId, `GET /store/orders answered ${exchange.response.status}, so its answers are not judged. The contract mentions this endpoint but shows nothing of it.`, exchange, 'store-unserved');
        continue;
      }
      const notWhole = bodyNotWhole(exchange);
      if (notWhole !== undefined) {
        report.inconclusive(exchange.operationId, notWhole, exchange.case);
        continue;
      }
      if (json === undefined) continue;
      const op = findOperation(ctx.spec, exchange.operationId);
      const schema = ctx.validators.schemaFor(op, status);
      if (!schema) continue;
      const verdict = ctx.validators.check(schema, json);
      const what = status >= 400 ? 'Error body' : 'body';
      if (!verdict.valid && status < 400 && storeOrdersIsOpen(op.operationId)) {
        report.warn(op.operationId, `${requestLine(exchange)} answered ${status} with a body unlike the spec's open guess at a store order listing: ${verdict.problem}. The contract shows nothing of this endpoint, so this is a warning.`, exchange, `schema ${status}`);
        continue;
      }
      if (!report.expectOfAnswer(verdict.valid, exchange, `${requestLine(exchange)} answered ${status} with a ${what} that does not match the spec: ${verdict.problem}.`, `schema ${status} ${verdict.problem}`)) continue;
      // JSON.parse would read an integer past int64 as a plausible double: the lossless reading holds it to int64.
      const outside = exchange.response.value === undefined ? [] : beyondInt64(exchange.response.value);
      if (!report.expectOfAnswer(outside.length === 0, exchange, `${requestLine(exchange)} answered ${status} with ${outside.map((o) => `${o.path} ${o.digits}`).join(', ')}, beyond the int64 range every integer of the contract is held to.`, `int64 ${status}`)) continue;
      if (status >= 400) {
        const bodyStatus = (json as { status?: unknown }).status;
        report.expectOfAnswer(bodyStatus === status, exchange, `${requestLine(exchange)} answered ${status} with an Error whose status is ${JSON.stringify(bodyStatus)}; the contract says it equals the HTTP status.`, `error-status ${status}`);
      }
    }
  },
};
