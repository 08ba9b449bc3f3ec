import type { ErrorBody } from '../../spec/types.ts';

/**
 * The one catalogue every Error body comes from. The contract fixes the body's shape
 * ({code, message, status}, with status equal to the HTTP status) and leaves the set of
 * codes open ("The set of values of `code`: not shown"), so the codes below are the mock's.
 */
export const errorCatalogue = {
  INVALID_QUERY_PARAMETER: { status: 400, message: 'A query parameter is invalid. Check the parameter against the API description.' },
  UNKNOWN_QUERY_PARAMETER: { status: 400, message: 'A query parameter is not defined for this operation, and the mock runs strict (--strict). Remove it, or start the mock without --strict to have it ignored.' },
  INVALID_PATH_PARAMETER: { status: 400, message: 'A path parameter is invalid. Check the parameter against the API description.' },
  INVALID_BODY: { status: 400, message: 'The request body is invalid. Send a NewPet: {"name": string, "categoryId": integer, "status"?: "available"|"pending"|"sold"}.' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON. Send a JSON object.' },
  BAD_REQUEST: { status: 400, message: 'The request is malformed. Check it against the API description.' },
  INVALID_PREFER_HEADER: { status: 400, message: 'The Prefer header asks for something the mock cannot do. Use code=<a documented status, or 500, 502, 503 or 504>, example=<name>, dynamic=true, seed=<text> or delay=<milliseconds>.' },
  INVALID_CONTROL_REQUEST: { status: 400, message: 'The control request is invalid. Check it against the control API in docs/operators.md.' },
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid API key. Send it as "Authorization: Bearer <API_KEY>".' },
  CONTROL_TOKEN_REQUIRED: { status: 401, message: 'The control API needs the control token the mock was started with. Send it as "Authorization: Bearer <token>" (the value of --control-token or PETS_MOCK_CONTROL_TOKEN).' },
  CONTROL_TOKEN_INVALID: { status: 401, message: 'The control token sent is not the one the mock was started with. Send the value of --control-token (or PETS_MOCK_CONTROL_TOKEN) as "Authorization: Bearer <token>".' },
  PET_NOT_FOUND: { status: 404, message: 'No pet has this id. List pets with GET /v1/pets to find an existing id.' },
  KEY_NOT_FOUND: { status: 404, message: 'The mock has no such API key. Create it with PUT /__mock/keys/{key}.' },
  FAULT_NOT_FOUND: { status: 404, message: 'The mock has no such fault rule. List the rules with GET /__mock/faults.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such route. Check the method and the path against the API description.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed on this route. Use a method listed in the Allow header.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request did not arrive in time. Send the whole request line, headers and body without pausing.' },
  IDS_EXHAUSTED: { status: 409, message: 'The mock has handed out every id up to 2^53 - 1, the largest JSON clients read exactly. Ids are never reissued, not even after a reset: restart the mock without its state file, or with a new one (with --redis: on another --redis-prefix, or an emptied one).' },
  // After the removal date the contract announces for a deprecated operation (getPet: 5 December
  // 2030), on the mock's clock: the contract shows no answer for then; 410 says the removal is
  // deliberate and permanent (RFC 9110, 15.5.11). The message names the replacement.
  OPERATION_REMOVED: { status: 410, message: 'This operation was removed on the date its Sunset header announced. Call its replacement instead (for GET /pets/{petId}: GET /pets with the status filter).' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large. Send a smaller body.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be JSON. Send it with "Content-Type: application/json".' },
  EXPECTATION_FAILED: { status: 417, message: 'The Expect header asks for something the mock does not do. Send "Expect: 100-continue" or no Expect header.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large. Send fewer or smaller headers (cookies included).' },
  RATE_LIMITED: { status: 429, message: 'Rate limit exceeded. Wait for the number of seconds in Retry-After, then retry with exponential backoff.' },
  API_KEY_BANNED: { status: 429, message: 'This API key is temporarily banned for sending requests while rate limited. Stop sending and wait for the number of seconds in Retry-After.' },
  STORE_UNAVAILABLE: { status: 503, message: 'The mock\'s shared store (Redis) is unreachable; the request was not applied. Retry after the number of seconds in Retry-After; if it persists, check the Redis server the mock is configured with.' },
  INTERNAL_ERROR: { status: 500, message: 'The mock failed unexpectedly. This is a bug in the mock; please report it with the request that caused it.' },
  // Only ever forced (Prefer: code=, a fault rule): the contract documents no 5xx, and the mock
  // gives them so that a frontend can build its error screens on realistic bodies.
  BAD_GATEWAY: { status: 502, message: 'A server behind the API gave an invalid answer; the request was not applied. Retry with exponential backoff.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The API is temporarily unavailable (overloaded or down for maintenance); the request was not applied. Retry after the number of seconds in Retry-After.' },
  GATEWAY_TIMEOUT: { status: 504, message: 'A server behind the API did not answer in time. Retry with exponential backoff; read back what a create would have made before repeating it.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** An error that answers with an Error body from the catalogue. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    // An ApiError is an answer, not a fault of the mock's: no stack is kept. V8 would walk the
    // whole call stack for each one, which cost a refused request (401, 429) about a fifth of
    // its time in the server. A fault of the mock is logged with its own error, stack and all
    // (pipeline/logAnswerError.ts).
    const { stackTraceLimit } = Error;
    Error.stackTraceLimit = 0;
    super(message ?? errorCatalogue[code].message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.code = code;
    this.statusCode = errorCatalogue[code].status;
    this.headers = headers;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.statusCode };
  }
}
