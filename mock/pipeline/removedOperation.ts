// The removal step: a deprecated operation past its removal date on the mock's clock is gone.
import type { SpecOperation } from '../../spec/specModel.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import type { ApiContext } from './context.ts';
import { isRemoved } from './deprecationMarks.ts';
import type { Exchange } from './exchange.ts';

/**
 * Removal step, once the request is admitted (its key checked and counted, so a 401 and a 429 come
 * first, as for every operation) and routed: from the removal instant on, the operation answers 410
 * Gone with an OPERATION_REMOVED Error naming its replacement, whatever its parameters, a Prefer or
 * its data. The contract shows no answer for after the removal; 410 says it is deliberate and
 * permanent (RFC 9110, 15.5.11), which 404 ("the requested animal not found") would not.
 */
export function refuseRemoved(ctx: Pick<ApiContext, 'deprecated' | 'state'>, x: Exchange & { op: SpecOperation }): void {
  const deprecated = ctx.deprecated.get(x.op.operationId);
  if (!deprecated || !isRemoved(deprecated, ctx.state.clock.now())) return;
  x.removed = true;
  const on = new Date(deprecated.removal!).toISOString().slice(0, 10);
  throw new ApiError('OPERATION_REMOVED', `${deprecated.method} ${deprecated.path} was removed on ${on}, as its Sunset header announced.${deprecated.instead ? ` Use ${deprecated.instead} instead.` : ''}`);
}
