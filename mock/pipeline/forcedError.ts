import type { SpecOperation } from '../../spec/loadSpec.ts';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.ts';
import { requestBodySchema } from '../../spec/specModel.ts';
import { unauthorized } from '../rateLimits/refusals.ts';
import { ForcedServerError } from '../errors/forcedServerError.ts';

/** The server errors any operation may force, though the contract documents none: for error screens. */
export const serverErrorStatuses = [500, 502, 503, 504] as const;

/** The Retry-After of a forced 503 that names none: long enough to show a countdown, short enough to wait out. */
export const defaultServiceRetryAfterSeconds = 30;

/** What forced an error, for the message of a forced 5xx (which would otherwise blame the mock). */
export interface ForcedBy {
  /** `Prefer: code=503`, `the fault rule fault-2`. */
  cause: string;
  /** How to get the real answer back: `Send the request without code=503`. */
  undo: string;
}

export interface ForcedErrorContext {
  /** The path parameters as sent (`petId`), for a message that names them. */
  params: Record<string, unknown>;
  /** Seconds for Retry-After: until the client's rate-limit window ends on a 429; on a 503, defaultServiceRetryAfterSeconds unless given. */
  retryAfterSeconds: number;
  /** Retry-After of a 503, when the one forcing it names one (a fault rule's `retryAfter`). */
  serviceRetryAfterSeconds?: number | undefined;
  forcedBy: ForcedBy;
}

const serverErrorCodes: Record<number, ErrorCode> = { 500: 'INTERNAL_ERROR', 502: 'BAD_GATEWAY', 503: 'SERVICE_UNAVAILABLE', 504: 'GATEWAY_TIMEOUT' };

/** What a forced server error tells a client to do, as the real one would. */
const serverErrorAdvice: Record<number, string> = {
  500: 'The server failed unexpectedly. Show the error and let the user retry.',
  502: 'A server behind the API gave an invalid answer. Retry with exponential backoff.',
  503: 'The API is temporarily unavailable. Retry after the number of seconds in Retry-After.',
  504: 'A server behind the API did not answer in time. Retry with exponential backoff.',
};

/** The catalogue code a real answer of this status would carry, for this operation. */
function codeFor(status: number, op: SpecOperation): ErrorCode {
  const serverError = serverErrorCodes[status];
  if (serverError) return serverError;
  if (status === 400) {
    if (requestBodySchema(op)) return 'INVALID_BODY';
    return op.parameters.some((p) => p.in === 'path') ? 'INVALID_PATH_PARAMETER' : 'INVALID_QUERY_PARAMETER';
  }
  if (status === 404) return op.parameters.some((p) => p.in === 'path') && op.path.startsWith('/pets/') ? 'PET_NOT_FOUND' : 'ROUTE_NOT_FOUND';
  const first = (Object.keys(errorCatalogue) as ErrorCode[]).find((code) => errorCatalogue[code].status === status);
  return first ?? 'INTERNAL_ERROR';
}

/**
 * The error a `Prefer: code=` answer or a fault rule forces, as the mock would really answer it: a
 * code from the catalogue, a message that says what happened, `status` equal to the HTTP status,
 * and the headers that go with it (WWW-Authenticate on 401, RFC 6750 3; Retry-After on 429, RFC
 * 6585 4, and on 503, RFC 9110 10.2.3). A 5xx says in its message what forced it and that nothing
 * was applied: the catalogue's INTERNAL_ERROR text would send a developer to report a bug.
 */
export function forcedError(status: number, op: SpecOperation, { params, retryAfterSeconds, serviceRetryAfterSeconds, forcedBy }: ForcedErrorContext): ApiError {
  const code = codeFor(status, op);
  if (status >= 500) {
    const message = `${serverErrorAdvice[status] ?? errorCatalogue[code].message} This ${status} was forced by ${forcedBy.cause}: nothing was applied, and the mock is fine. ${forcedBy.undo}.`;
    const headers: Record<string, string> = status === 503 ? { 'retry-after': String(serviceRetryAfterSeconds ?? defaultServiceRetryAfterSeconds) } : {};
    return new ForcedServerError(code, message, headers, forcedBy.cause);
  }
  switch (code) {
    case 'UNAUTHORIZED':
      // As a real one for a key the mock does not know.
      return unauthorized({ kind: 'bearer', token: '' });
    case 'RATE_LIMITED':
      return new ApiError(code, undefined, { 'retry-after': String(retryAfterSeconds) });
    case 'PET_NOT_FOUND':
      return new ApiError(code, `No pet has the id ${String(Object.values(params)[0] ?? '')}. List pets with GET /v1/pets to find an existing id.`);
    case 'INVALID_BODY':
      // Forced answers come after validation: the body is a valid NewPet, so name no field of it.
      return new ApiError(code, 'Invalid request body: it is not a valid NewPet. Send {"name": string, "categoryId": integer, "status"?: "available"|"pending"|"sold"}.');
    default:
      return new ApiError(code);
  }
}
