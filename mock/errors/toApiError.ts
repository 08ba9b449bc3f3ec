import { UnheldFraction } from '../../common/json/exactJson.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import { ApiError, type ErrorCode } from './errorCatalogue.ts';
import { StoreUnavailableError } from './storeUnavailableError.ts';
import { BodyError, RequestValidationError, type RequestPart } from './requestErrors.ts';

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

const validationPlaces: Record<RequestPart, { code: ErrorCode; lead: string; root: string; typeHint: string }> = {
  body: { code: 'INVALID_BODY', lead: 'Invalid request body', root: 'the request body', typeHint: 'Send the value with that JSON type.' },
  query: { code: 'INVALID_QUERY_PARAMETER', lead: 'Invalid query parameter', root: 'the query', typeHint: 'Send a value of that type, for example limit=20.' },
  params: { code: 'INVALID_PATH_PARAMETER', lead: 'Invalid path parameter', root: 'the path', typeHint: 'Send a value of that type, for example /v1/pets/1.' },
};

const emptyBodyHint: Record<ErrorContext, string> = {
  api: 'Send a JSON object such as {"name": "Rex", "categoryId": 1}.',
  control: 'Send the JSON body the control API describes (docs/operators.md, "The control API").',
};

/** The JSON type of a value, as a client would name it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'a whole number' : 'a fraction';
  if (typeof value === 'bigint') return 'a whole number';
  if (value instanceof UnheldFraction) return 'a fraction';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The value at a JSON Pointer (RFC 6901) in a body, if there is one. */
function valueAt(body: unknown, pointer: string): unknown {
  let value = body;
  for (const token of pointer.split('/').slice(1).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** `, not "4" (a string)`: the value a body gave where its schema wanted another, short. */
function givenValue(body: unknown, pointer: string): string {
  const value = valueAt(body, pointer);
  if (value === undefined) return '';
  // A number read exactly is shown with the digits sent (a BigInt, a fraction a double rounds to a whole number).
  const text = typeof value === 'bigint' ? String(value) : value instanceof UnheldFraction ? value.text : typeof value === 'object' && value !== null ? '' : JSON.stringify(value);
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return shown === '' ? `, not ${jsonType(value)}` : `, not ${shown} (${jsonType(value)})`;
}

/** What to send instead of a value of the wrong JSON type: the type wanted, and no conversion. */
function typeHint(wanted: unknown, given: unknown): string | undefined {
  const wants = String(wanted);
  if ((wants === 'integer' || wants === 'number') && typeof given === 'string') return `Send ${wants === 'integer' ? 'a whole number' : 'a number'} as a JSON number, without quotes: strings are not converted to numbers.`;
  if (wants === 'string' && given !== undefined && typeof given !== 'string') return 'Send it as a JSON string, in quotes: other types are not converted to strings.';
  if (wants === 'integer') return 'Send a whole number.';
  return undefined;
}

/** A body the mock could not read, as a catalogue error. */
function fromBodyError(error: BodyError, request: AnsweredRequestParts, bodyLimit: number, context: ErrorContext): ApiError {
  const invalidBody = context === 'api' ? 'INVALID_BODY' : 'INVALID_CONTROL_REQUEST';
  switch (error.problem) {
    case 'unsupported-media-type':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type "${request.contentType ?? '(none)'}". Send the body as JSON with "Content-Type: application/json".`);
    case 'empty':
      return new ApiError(invalidBody, `The request body is empty. ${emptyBodyHint[context]}`);
    case 'too-large':
      return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${bodyLimit} bytes. Send a smaller body.`);
    case 'too-deep':
      return new ApiError(invalidBody, `${error.message}, which the mock refuses. Send a flatter body: ${emptyBodyHint[context]}`);
    case 'prototype-key':
      return new ApiError(invalidBody, 'The request body is valid JSON but has a "__proto__" or "constructor.prototype" key, which the mock refuses (prototype poisoning). Remove the key.');
    case 'malformed':
      return new ApiError('MALFORMED_JSON', `The request body is not valid JSON (${error.message}). Send a JSON object.`);
  }
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

/** What the words of an error answer need of its request: its Content-Type, and its body as read (undefined when none came). */
export interface AnsweredRequestParts {
  contentType: string | undefined;
  body: unknown;
}

/**
 * Any error raised while answering (a step of a pipeline, validation, the body reader, the store)
 * as a catalogue error. In the control context, a request the schema refuses is
 * INVALID_CONTROL_REQUEST. Anything else is the mock's own fault: 500 INTERNAL_ERROR.
 */
export function toApiError(error: unknown, request: AnsweredRequestParts, { bodyLimit, context }: { bodyLimit: number; context: ErrorContext }): ApiError {
  if (error instanceof ApiError) return error;
  // Redis is away (issue 13): 503 with Retry-After (RFC 9110, 15.6.4), never a hang or a 500.
  if (error instanceof StoreUnavailableError) return new ApiError('STORE_UNAVAILABLE', storeUnavailableMessage(error), { 'retry-after': String(error.retryAfterSeconds) });
  if (error instanceof RequestValidationError) {
    const base = validationPlaces[error.part];
    const place = context === 'control' ? { ...base, code: 'INVALID_CONTROL_REQUEST' as const, lead: 'Invalid control request' } : base;
    const first = error.problems[0];
    const missingBody = request.body === undefined && error.part === 'body';
    // The value given, where the body had one: `categoryId must be a whole number, not "4" (a string)`.
    const given = error.part === 'body' && first && first.keyword !== 'required' && first.keyword !== 'additionalProperties' && !missingBody ? givenValue(request.body, first.instancePath) : '';
    const described = missingBody ? 'the request body is required' : `${describeAjvErrors(error.problems, place.root)}${given}`;
    const hint = missingBody
      ? emptyBodyHint[context]
      : first?.keyword === 'type' ? (error.part === 'body' ? typeHint(first.params.type, valueAt(request.body, first.instancePath)) : undefined) ?? place.typeHint : keywordHints[first?.keyword ?? ''] ?? 'Check it against the API description.';
    return new ApiError(place.code, `${place.lead}: ${described}. ${hint}`);
  }
  if (error instanceof BodyError) return fromBodyError(error, request, bodyLimit, context);
  return new ApiError('INTERNAL_ERROR');
}
