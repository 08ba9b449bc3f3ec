// The checks that judge traffic the proxy saw rather than traffic the suite sent: the same objects
// the suite's passive phase runs, and the contract's words for those that carry no rule of their own.
import type { Check } from '../check.ts';
import { contentType } from '../checks/contentType.ts';
import { rateLimitHeaders } from '../checks/rateLimitHeaders.ts';
import { responseSchemaCheck } from '../checks/responseSchema.ts';
import { statusCodes } from '../checks/statusCodes.ts';
import { modelChecks } from '../model/modelChecks.ts';
import { validCreates } from './validCreates.ts';

export const proxyChecks: readonly Check[] = [statusCodes, validCreates, contentType, responseSchemaCheck, rateLimitHeaders, ...modelChecks];

/** The checks that report the model's judgements rather than judge exchanges themselves. */
export const judgementChecks: ReadonlySet<Check> = new Set(modelChecks);

/**
 * How many earlier answers (with the key) a check looks back over: rate-limit-headers fails eight
 * successful answers in a row that never count Remaining down, so it is shown the ones before the
 * exchanges it judges (with their bodies left out: it reads headers and statuses). Twice its run,
 * for answers in between that do not count (a 404, a 401) take places too.
 */
export const lookbackOf: Readonly<Record<string, number>> = { [rateLimitHeaders.id]: 16 };

export const checkQuotes: Readonly<Record<string, string>> = {
  'status-codes': 'Responses: | Status | Body | (each operation documents its statuses; "Error responses carry an Error body")',
  'content-type': 'The request body is required, is `application/json` … Error responses carry an Error body (`code`, `message`, `status`)',
  'response-schema': 'Error responses carry an Error body (`code`, `message`, `status`), with `status` equal to the HTTP status code.',
  'rate-limit-headers': 'Every API response carries these headers: X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset.',
  'valid-creates': '400 | Error. The body is missing required fields or has invalid values.',
};
