import type { SpecOperation } from '../../spec/loadSpec.ts';
import { ApiError, errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.ts';
import { requestBodySchema } from '../../spec/loadSpec.ts';
import { unauthorized } from '../api/guardPlugin.ts';

export interface ForcedErrorContext {
  /** The path parameters as sent (`petId`), for a message that names them. */
  params: Record<string, unknown>;
  /** Seconds until the client's rate-limit window ends, for Retry-After. */
  retryAfterSeconds: number;
}

/** The catalogue code a real answer of this status would carry, for this operation. */
function codeFor(status: number, op: SpecOperation): ErrorCode {
  if (status === 400) {
    if (requestBodySchema(op)) return 'INVALID_BODY';
    return op.parameters.some((p) => p.in === 'path') ? 'INVALID_PATH_PARAMETER' : 'INVALID_QUERY_PARAMETER';
  }
  if (status === 404) return op.parameters.some((p) => p.in === 'path') && op.path.startsWith('/pets/') ? 'PET_NOT_FOUND' : 'ROUTE_NOT_FOUND';
  const first = (Object.keys(errorCatalogue) as ErrorCode[]).find((code) => errorCatalogue[code].status === status);
  return first ?? 'INTERNAL_ERROR';
}

/**
 * The error a `Prefer: code=` answer forces, as the mock would really answer it: a code from the
 * catalogue, a message that says what happened, `status` equal to the HTTP status, and the
 * headers that go with it (WWW-Authenticate on 401, RFC 6750 3; Retry-After on 429, RFC 6585 4).
 */
export function forcedError(status: number, op: SpecOperation, { params, retryAfterSeconds }: ForcedErrorContext): ApiError {
  const code = codeFor(status, op);
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
