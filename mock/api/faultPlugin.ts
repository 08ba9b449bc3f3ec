import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import type { FiredFault } from '../faults/faultRule.ts';
import { isPromise } from '../state/awaitable.ts';
import type { Clock } from '../state/clock.ts';
import type { FaultRules } from '../state/stateParts.ts';
import { forcedRequestError } from './forcedRequestError.ts';
import { routeConfig } from './routeConfig.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule that took the request, when one did: the request log names it. */
    fault: FiredFault | null;
  }
}

export interface FaultOptions {
  spec: LoadedSpec;
  faults: FaultRules;
  clock: Clock;
  /** Records a request the app gives no answer: the connection was reset, or the client left while its answer was held. */
  recordUnanswered(request: FastifyRequest, reply: FastifyReply): void;
}

type Done = (error?: Error) => void;

/**
 * The control API's fault rules (`POST /__mock/faults`) applied to the API's requests. A rule meets
 * a request once it is admitted, so the request has spent its quota and a wrong key still gets its
 * 401, as at a real deployment whose servers fail behind the gateway that checks keys; and before
 * `Prefer`, validation and the store, so nothing is applied. It answers an error as `Prefer: code=`
 * forces one (forcedRequestError), resets the connection with no answer, or holds the answer on the
 * mock's clock. Only requests routed to an operation of the spec meet the rules.
 */
const faultHooks: FastifyPluginAsync<FaultOptions> = async (app, { spec, faults, clock, recordUnanswered }) => {
  app.decorateRequest('fault', null);
  const operations = new Map(spec.operations.map((op) => [op.operationId, op]));

  app.addHook('onRequest', (request, reply, done) => {
    const op = operations.get(routeConfig(request).operationId ?? '');
    if (!op) return done();
    const fired = faults.fire({ operationId: op.operationId, method: request.method, url: request.url, keyBucket: request.apiKey?.bucketId });
    if (fired === undefined) return done();
    if (isPromise(fired)) return void fired.then((f) => (f ? apply(request, reply, op, f, done) : done()), (error: Error) => done(error));
    apply(request, reply, op, fired, done);
  });

  function apply(request: FastifyRequest, reply: FastifyReply, op: SpecOperation, fired: FiredFault, done: Done): void {
    request.fault = fired;
    if (fired.action === 'reset') return resetConnection(request, reply);
    if (fired.action === 'stall') return stall(request, reply, op, fired, done);
    done(errorOf(request, op, fired));
  }

  function errorOf(request: FastifyRequest, op: SpecOperation, fired: FiredFault): ApiError {
    return forcedRequestError(request, fired.status!, op, {
      clock,
      retryAfterSeconds: fired.retryAfter,
      forcedBy: { cause: `the fault rule ${fired.id}`, undo: `DELETE /__mock/faults/${fired.id} removes the rule` },
    });
  }

  /**
   * No answer at all: the connection is dropped, with a TCP reset where there is a socket (the
   * client reads ECONNRESET); in process, the answer is destroyed, which the adapters turn into their
   * host's network error. The request goes no further, so nothing is applied.
   */
  function resetConnection(request: FastifyRequest, reply: FastifyReply): void {
    reply.hijack();
    recordUnanswered(request, reply);
    const socket = request.raw.socket as { resetAndDestroy?: () => void } | null;
    if (typeof socket?.resetAndDestroy === 'function') socket.resetAndDestroy();
    else reply.raw.destroy();
  }

  /** Holds the answer (stalledAnswers.ts), then gives the rule's status, or the real answer when it names none. */
  function stall(request: FastifyRequest, reply: FastifyReply, op: SpecOperation, fired: FiredFault, done: Done): void {
    const { ended, cancel } = faults.stalls.hold(fired.id, fired.stallMs);
    // A client that gives up (its own timeout) closes the connection: nothing more is done for it.
    const left = () => {
      cancel();
      recordUnanswered(request, reply);
    };
    reply.raw.once('close', left);
    void ended.then(() => {
      reply.raw.off('close', left);
      if (fired.status !== undefined) done(errorOf(request, op, fired));
      else done();
    });
  }
};

export const faultPlugin = fp(faultHooks, { name: 'faults', dependencies: ['guard'] });
