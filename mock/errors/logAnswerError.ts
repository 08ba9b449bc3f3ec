import type { FastifyRequest } from 'fastify';
import type { ApiError } from './errorCatalogue.ts';
import { ForcedServerError } from './forcedServerError.ts';

/**
 * What the server log keeps of an error answer, beside the Error body the client gets. A fault of
 * the mock is logged in full. A store outage is already logged once, as a warning, by the
 * connection (and would flood the log once per request): each request's own internal reason (the
 * Redis client's words, which the 503 no longer shows) is kept at debug level. A 5xx the client
 * forced (Prefer, a fault rule) is what was asked for: one line at info level says so.
 */
export function logAnswerError(request: FastifyRequest, error: Error, answer: ApiError): void {
  if (answer instanceof ForcedServerError) request.log.info(`answered ${answer.statusCode} ${answer.code}, forced by ${answer.forcedBy}`);
  else if (answer.code === 'STORE_UNAVAILABLE') request.log.debug({ err: error }, `answered 503 STORE_UNAVAILABLE: ${error.message}`);
  else if (answer.statusCode >= 500) request.log.error({ err: error }, 'unexpected error');
}
