import type { FastifyError, FastifyRequest } from 'fastify';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import { ApiError, type ErrorCode } from './errorCatalogue.ts';
import { StoreUnavailableError } from '../state/storeUnavailableError.ts';
import { NestingTooDeepError, PrototypeKeyError } from './parseJsonBody.ts';

/** Where an error happened decides the code of a bad request: the API's, or the control API's. */
export type ErrorContext = 'api' | 'control';

const keywordHints: Record<string, string> = {
  required: 'Add it.',
  type: 'Send a value of that type.',
  enum: 'Use one of those values.',
  minimum: 'Send a value in range.',
  maximum: 'Send a value in range.',
  format: 'Send a value in range.',
};

const validationPlaces: Record<string, { code: ErrorCode; lead: string; root: string; typeHint: string }> = {
  body: { code: 'INVALID_BODY', lead: 'Invalid request body', root: 'the request body', typeHint: 'Send the value with that JSON type: strings are not converted to numbers.' },
  querystring: { code: 'INVALID_QUERY_PARAMETER', lead: 'Invalid query parameter', root: 'the query', typeHint: 'Send a value of that type, for example limit=20.' },
  params: { code: 'INVALID_PATH_PARAMETER', lead: 'Invalid path parameter', root: 'the path', typeHint: 'Send a value of that type, for example /v1/pets/1.' },
  headers: { code: 'BAD_REQUEST', lead: 'Invalid header', root: 'the headers', typeHint: 'Send a value of that type.' },
};

const emptyBodyHint: Record<ErrorContext, string> = {
  api: 'Send a JSON object such as {"name": "Rex", "categoryId": 1}.',
  control: 'Send the JSON body the control API describes (docs/operators.md, "The control API").',
};

/** fastify's own errors (body parsing, content types, limits), by code, as catalogue errors. */
function fromFastifyError(error: FastifyError, request: FastifyRequest, bodyLimit: number, context: ErrorContext): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type "${request.headers['content-type'] ?? '(none)'}". Send the body as JSON with "Content-Type: application/json".`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(context === 'api' ? 'INVALID_BODY' : 'INVALID_CONTROL_REQUEST', `The request body is empty. ${emptyBodyHint[context]}`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BAD_REQUEST', 'Content-Length does not match the body. Send the body with its exact length.');
    default:
      break;
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${bodyLimit} bytes. Send a smaller body.`);
  }
  if (error instanceof NestingTooDeepError) {
    return new ApiError(context === 'api' ? 'INVALID_BODY' : 'INVALID_CONTROL_REQUEST', `${error.message}, which the mock refuses. Send a flatter body: ${emptyBodyHint[context]}`);
  }
  if (error instanceof PrototypeKeyError) {
    return new ApiError(context === 'api' ? 'INVALID_BODY' : 'INVALID_CONTROL_REQUEST', 'The request body is valid JSON but has a "__proto__" or "constructor.prototype" key, which the mock refuses (prototype poisoning). Remove the key.');
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
    return new ApiError('MALFORMED_JSON', `The request body is not valid JSON (${error.message}). Send a JSON object.`);
  }
  return undefined;
}

/**
 * What a client is told when the store is away: what happened to its request and what to do, for
 * a person reading it. The Redis client's own reason ("Stream isn't writeable and
 * enableOfflineQueue options is false") says nothing to them; it goes to the server log instead
 * (logAnswerError), and the connection logs the outage once.
 */
function storeUnavailableMessage(error: StoreUnavailableError): string {
  const retry = `Retry after ${error.retryAfterSeconds} s`;
  const persists = 'if it persists, check the Redis server the mock is configured with.';
  return error.mayHaveRun
    ? `The mock's shared store (Redis) stopped answering while the request was in progress; it may or may not have been applied. ${retry} (read back what it would have changed before repeating a create); ${persists}`
    : `The mock's shared store (Redis) is unreachable; the request was not applied. ${retry}; ${persists}`;
}

/**
 * Any error raised while answering (by a handler, validation, fastify, the body parser) as a
 * catalogue error. In the control context, a request the schema refuses is INVALID_CONTROL_REQUEST.
 */
export function toApiError(error: FastifyError, request: FastifyRequest, { bodyLimit, context }: { bodyLimit: number; context: ErrorContext }): ApiError {
  if (error instanceof ApiError) return error;
  // Redis is away (issue 13): 503 with Retry-After (RFC 9110, 15.6.4), never a hang or a 500.
  if (error instanceof StoreUnavailableError) return new ApiError('STORE_UNAVAILABLE', storeUnavailableMessage(error), { 'retry-after': String(error.retryAfterSeconds) });
  if (error.validation) {
    const base = validationPlaces[error.validationContext ?? 'body'] ?? validationPlaces.body!;
    const place = context === 'control' ? { ...base, code: 'INVALID_CONTROL_REQUEST' as const, lead: 'Invalid control request' } : base;
    const first = error.validation[0];
    const missingBody = request.body === undefined && error.validationContext === 'body';
    const described = missingBody ? 'the request body is required' : describeAjvErrors(error.validation as never, place.root);
    const hint = missingBody
      ? emptyBodyHint[context]
      : first?.keyword === 'type' ? place.typeHint : keywordHints[first?.keyword ?? ''] ?? 'Check it against the API description.';
    return new ApiError(place.code, `${place.lead}: ${described}. ${hint}`);
  }
  const known = fromFastifyError(error, request, bodyLimit, context);
  if (known) return known;
  const status = error.statusCode ?? 500;
  if (status === 404) return new ApiError('ROUTE_NOT_FOUND');
  if (status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) return new ApiError(context === 'api' ? 'BAD_REQUEST' : 'INVALID_CONTROL_REQUEST', `${error.message}. Check the request against the ${context === 'api' ? 'API description' : 'control API in docs/operators.md'}.`);
  return new ApiError('INTERNAL_ERROR');
}
