import type { FastifyRequest } from 'fastify';
import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import { forcedError, type ForcedBy } from '../prism/forcedError.ts';
import type { Clock } from '../state/clock.ts';

export interface ForcedRequestErrorOptions {
  clock: Clock;
  forcedBy: ForcedBy;
  /** Retry-After the one forcing it names (a fault rule's `retryAfter`), on a 429 or a 503. */
  retryAfterSeconds?: number | undefined;
}

/** Seconds until the client's current window ends, on the mock's clock, as a real 429 would say. */
function windowLeft(request: FastifyRequest, clock: Clock): number {
  const now = Math.floor(clock.now() / 1000);
  return Math.max(1, (request.rateDecision?.reset ?? now + 60) - now);
}

/**
 * The error `request` is answered with when `Prefer: code=` or a fault rule forces `status`: the one
 * function both use, so that a forced answer is the same whoever forced it. A forced 429 reports the
 * window spent (X-RateLimit-Remaining 0), as a real one does; the quota itself is left as it is.
 */
export function forcedRequestError(request: FastifyRequest, status: number, op: SpecOperation, { clock, forcedBy, retryAfterSeconds }: ForcedRequestErrorOptions): ApiError {
  const error = forcedError(status, op, {
    params: request.params as Record<string, unknown>,
    retryAfterSeconds: retryAfterSeconds ?? windowLeft(request, clock),
    serviceRetryAfterSeconds: retryAfterSeconds,
    forcedBy,
  });
  if (error.statusCode === 429 && request.rateDecision) request.rateDecision = { ...request.rateDecision, remaining: 0 };
  return error;
}
