import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import type { FaultTarget, FiredFault } from '../state/faultRule.ts';
import { isPromise } from '../state/awaitable.ts';
import { ClientGoneError, ConnectionResetError } from '../core/coreTypes.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { bytesOf } from './body.ts';
import { forcedError } from './forcedError.ts';

/** What a fault rule is matched against. */
export function faultTarget(x: Exchange, op: SpecOperation): FaultTarget {
  return { operationId: op.operationId, method: x.method, url: x.request.url, keyBucket: x.apiKey?.bucketId };
}

/**
 * Fault-rule step, once the request is admitted: the first rule that takes it answers its error,
 * resets the connection or holds the answer. Undefined at once when none does (and when the
 * store's operation already ran with the admission: the rules were current and none could take it).
 */
export function applyFaultRules(ctx: Pick<ApiContext, 'state'>, x: Exchange): Promise<void> | undefined {
  const { op } = x;
  if (!op || x.stepResult) return undefined;
  const fired = ctx.state.faults.fire(faultTarget(x, op));
  if (isPromise(fired)) return fired.then((f) => (f ? applyFired(ctx, x, op, f) : undefined));
  return fired ? applyFired(ctx, x, op, fired) : undefined;
}

async function applyFired(ctx: Pick<ApiContext, 'state'>, x: Exchange, op: SpecOperation, fired: FiredFault): Promise<void> {
  x.fault = fired;
  // The body is read (not parsed) all the same, once the rule answers: the client report tells a
  // create sent again after this fault from a new one by it (client.post-retry).
  const readForLog = async () => void (await bytesOf(x));
  if (fired.action === 'reset') {
    await readForLog();
    throw new ConnectionResetError(`The fault rule ${fired.id} reset the connection of ${x.request.method} ${x.request.url}.`);
  }
  if (fired.action === 'stall') {
    const held = ctx.state.faults.stalls.hold(fired.id, fired.stallMs);
    const signal = x.request.signal;
    if (signal) {
      // A client that gives up (its own timeout) closes the connection: nothing more is done for it.
      const left = new Promise<'left'>((resolve) => (signal.aborted ? resolve('left') : signal.addEventListener('abort', () => resolve('left'), { once: true })));
      if ((await Promise.race([held.ended, left])) === 'left') {
        held.cancel();
        throw new ClientGoneError(`The client of ${x.request.method} ${x.request.url} left while the fault rule ${fired.id} held its answer.`);
      }
    } else await held.ended;
    if (fired.status === undefined) return;
  }
  await readForLog();
  throw forcedErrorOf(ctx, x, fired.status!, op, { cause: `the fault rule ${fired.id}`, undo: `DELETE /__mock/faults/${fired.id} removes the rule` }, fired.retryAfter);
}

/** An error a fault rule or `Prefer: code=` forces, with the Retry-After the client's window gives it. */
export function forcedErrorOf(ctx: Pick<ApiContext, 'state'>, x: Exchange, status: number, op: SpecOperation, forcedBy: { cause: string; undo: string }, retryAfterSeconds?: number): ApiError {
  const now = Math.floor(ctx.state.clock.now() / 1000);
  const error = forcedError(status, op, {
    params: x.route?.params ?? {},
    retryAfterSeconds: retryAfterSeconds ?? Math.max(1, (x.rateDecision?.reset ?? now + 60) - now),
    serviceRetryAfterSeconds: retryAfterSeconds,
    forcedBy,
  });
  if (error.statusCode === 429 && x.rateDecision) x.rateDecision = { ...x.rateDecision, remaining: 0 };
  return error;
}
