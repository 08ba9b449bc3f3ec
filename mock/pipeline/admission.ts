import { isPromise } from '../state/awaitable.ts';
import type { Admission } from '../state/stateParts.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { refusal, unauthorized } from '../rateLimits/refusals.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { parseAuthorization } from './parseAuthorization.ts';

/**
 * Admission step: counts the request against its key's quota, or its address's, and refuses it
 * over the limit (429) or, for an operation, without a valid key (401). A store operation prepared
 * ahead (x.step) runs in the same call: one round trip on a shared store. In memory every answer
 * comes at once, with no promise on the hot path, and a refusal is returned, not thrown: a flood
 * of refused requests is the load a rate limit exists for, and a throw costs each one its unwinding.
 */
export function admit(ctx: Pick<ApiContext, 'state' | 'keyFirst'>, x: Exchange): Promise<void> | ApiError | undefined {
  const credentials = (x.credentials ??= parseAuthorization(x.request.headers.authorization));
  const pending = ctx.state.admit({ token: credentials.kind === 'bearer' ? credentials.token : undefined, ip: x.ip }, true, x.step);
  if (isPromise(pending)) {
    return pending.then((admission) => {
      const refused = admitted(x, admission, ctx.keyFirst);
      if (refused) throw refused;
    }, storeAway(x));
  }
  return admitted(x, pending, ctx.keyFirst);
}

/**
 * Notes the admission on the exchange; gives the 429 over the limit, and the 401 for an operation
 * without a valid key, or for any request without one when `keyFirst` (the key asked before the
 * route is looked at, as a gateway in front of the API does).
 */
function admitted(x: Exchange, { key, decision, step }: Admission, keyFirst: boolean): ApiError | undefined {
  x.rateDecision = decision;
  x.apiKey = key ?? null;
  if (step) x.stepResult = step;
  if (!decision.allowed) return refusal(decision, key !== undefined);
  // By default a wrong method or an unknown route is told as such with or without a key: nothing is there to protect.
  if (!key && (x.op || keyFirst)) return unauthorized(x.credentials!);
  return undefined;
}

/** Notes a shared store that did not answer (the answer's rate headers say so), and passes the error on. */
export function storeAway(x: Exchange): (error: unknown) => never {
  return (error) => {
    if (error instanceof StoreUnavailableError) x.storeUnavailable = true;
    throw error;
  };
}
