import type { ApiError } from '../errors/errorCatalogue.ts';
import { ForcedServerError } from '../errors/forcedServerError.ts';
import type { CoreLog } from '../core/coreTypes.ts';

/**
 * What the server log keeps of an error answer, beside the Error body the client gets. A fault of
 * the mock is logged in full. A store outage is already logged once, as a warning, by the
 * connection (and would flood the log once per request): each request's own internal reason (the
 * Redis client's words, which the 503 no longer shows) is kept at debug level. A 5xx the client
 * forced (Prefer, a fault rule) is what was asked for: one line at info level says so.
 */
export function logAnswerError(log: CoreLog | undefined, error: Error, answer: ApiError): void {
  if (!log) return;
  if (answer instanceof ForcedServerError) log.info(`answered ${answer.statusCode} ${answer.code}, forced by ${answer.forcedBy}`);
  else if (answer.code === 'STORE_UNAVAILABLE') log.debug({ err: error }, `answered 503 STORE_UNAVAILABLE: ${error.message}`);
  else if (answer.statusCode >= 500) log.error({ err: error }, 'unexpected error');
}
