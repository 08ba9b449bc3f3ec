import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorCode } from './errorCatalogue.ts';
import { describeAjvErrors } from '../../spec/describeAjvErrors.ts';
import { routeConfig } from '../api/routeConfig.ts';

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

/** fastify's own errors, by code, as catalogue errors. */
function fromFastifyError(error: FastifyError, request: FastifyRequest, bodyLimit: number): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type "${request.headers['content-type'] ?? '(none)'}". Send the body as JSON with "Content-Type: application/json".`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_BODY', 'The request body is empty. Send a JSON object such as {"name": "Rex", "categoryId": 1}.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('BAD_REQUEST', 'Content-Length does not match the body. Send the body with its exact length.');
    default:
      break;
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
    return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${bodyLimit} bytes. Send a smaller body.`);
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
    return new ApiError('MALFORMED_JSON', `The request body is not valid JSON (${error.message}). Send a JSON object.`);
  }
  if (error.statusCode === 400 && /prototype|constructor/i.test(error.message)) {
    return new ApiError('INVALID_BODY', 'The request body has a "__proto__" or "constructor" key, which is refused. Remove it.');
  }
  return undefined;
}

function toApiError(error: FastifyError, request: FastifyRequest, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    const place = routeConfig(request).control
      ? { ...validationPlaces[error.validationContext ?? 'body']!, code: 'INVALID_CONTROL_REQUEST' as const, lead: 'Invalid control request' }
      : validationPlaces[error.validationContext ?? 'body'] ?? validationPlaces.body!;
    const first = error.validation[0];
    const missingBody = request.body === undefined && error.validationContext === 'body';
    const described = missingBody ? 'the request body is required' : describeAjvErrors(error.validation as never, place.root);
    const hint = missingBody
      ? 'Send a JSON object such as {"name": "Rex", "categoryId": 1}.'
      : first?.keyword === 'type' ? place.typeHint : keywordHints[first?.keyword ?? ''] ?? 'Check it against the API description.';
    return new ApiError(place.code, `${place.lead}: ${described}. ${hint}`);
  }
  const known = fromFastifyError(error, request, bodyLimit);
  if (known) return known;
  const status = error.statusCode ?? 500;
  if (status === 404) return new ApiError('ROUTE_NOT_FOUND');
  if (status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) return new ApiError('BAD_REQUEST', `${error.message}. Check the request against the API description.`);
  return new ApiError('INTERNAL_ERROR');
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.statusCode).headers(error.headers).type('application/json; charset=utf-8').send(error.toBody());
}

/**
 * Every error, whoever raised it (a handler, validation, fastify, the body parser, the router),
 * leaves as the contract's Error body with `status` equal to the HTTP status.
 */
export function installErrorHandling(app: FastifyInstance, { bodyLimit, routes }: { bodyLimit: number; routes: string[] }): void {
  const served = `The API serves ${routes.join(', ')}.`;
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, request, bodyLimit);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'unexpected error');
    return sendApiError(reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const hint = path === '/v1' || path.startsWith('/v1/') ? served : `The API lives under /v1. ${served}`;
    return sendApiError(reply, new ApiError('ROUTE_NOT_FOUND', `No route ${request.method} ${path}. ${hint}`));
  });
}
