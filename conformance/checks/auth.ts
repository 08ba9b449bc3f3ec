import { requestLine, type Check, type CheckContext } from '../check.ts';
import type { ApiRequest, Auth } from '../http/exchange.ts';
import { allOperations } from './allOperations.ts';
import { expectError } from './expectError.ts';
import { newPetBody } from './newPetBody.ts';
import { isUnservedStoreOrders } from './unservedStoreOrders.ts';

/** A request that would succeed with the key, per operation. Writes only outside --read-only. */
function requestFor(ctx: CheckContext, operationId: string): Omit<ApiRequest, 'auth' | 'intent'> | undefined {
  switch (operationId) {
    case 'listPets':
      return { method: 'GET', path: '/pets?limit=1', operationId };
    case 'createPet':
      if (ctx.options.readOnly) return undefined;
      return { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: JSON.stringify(newPetBody(ctx, true)), operationId };
    case 'getPet':
      return { method: 'GET', path: ctx.knownPets()[0] ? ctx.petPath(ctx.knownPets()[0]!) : '/pets/1', operationId };
    case 'listStoreOrders':
      return { method: 'GET', path: '/store/orders', operationId };
    default:
      return undefined;
  }
}

export const auth: Check = {
  id: 'auth',
  title: 'Every operation needs a valid bearer key',
  severity: 'critical',
  description:
    'On every operation, a request with no key, an unknown key, the key under another scheme, or a ' +
    'malformed Authorization header gets 401 with an Error body; the run\'s valid key is accepted.',
  operations: allOperations,
  phase: 'active',
  async run(ctx, report) {
    const variants: { name: string; auth: Auth }[] = [
      { name: 'no key', auth: 'none' },
      { name: 'an unknown key', auth: { authorization: `Bearer pets-conformance-unknown-${Math.floor(ctx.random() * 1e9)}` } },
      { name: 'the key under another scheme', auth: { authorization: `Token ${ctx.apiKey}` } },
      // The scheme with no credentials: refused by any reading of the header.
      { name: 'a malformed header', auth: { authorization: 'Bearer' } },
    ];
    for (const operationId of allOperations) {
      const base = requestFor(ctx, operationId);
      if (!base) {
        report.skip(operationId, 'it writes, and --read-only is on');
        continue;
      }
      for (const variant of variants) {
        const exchange = await ctx.send({ ...base, auth: variant.auth, intent: 'unauthenticated' });
        if (isUnservedStoreOrders(exchange)) {
          report.warn(operationId, `GET /store/orders answered ${exchange.response.status}, so its authentication cannot be checked. The contract mentions it but shows nothing of it, so this is not a failure.`, exchange, 'store-unserved');
          continue;
        }
        if (expectError(report, ctx.validators, exchange, 401, variant.name) && exchange.response.headers['www-authenticate'] === undefined) {
          report.warn(operationId, `${requestLine(exchange)} answered 401 without WWW-Authenticate, which RFC 9110 (11.6.1) requires on a 401. The contract does not say, so this is a warning.`, exchange, 'www-authenticate');
        }
      }
    }
    // The valid key: every answer the run got with it on a valid request must not be a 401.
    for (const exchange of ctx.exchanges) {
      if (exchange.bucket !== 'key' || exchange.intent !== 'valid') continue;
      report.expect(exchange.response.status !== 401, exchange, `${requestLine(exchange)} refused the run's API key with 401. Check the key; a valid key must be accepted.`, 'valid-key-refused');
    }
  },
};
