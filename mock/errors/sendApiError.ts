import type { FastifyReply } from 'fastify';
import type { ApiError } from './errorCatalogue.ts';

/** Answers with the error's status, headers and Error body. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.statusCode).headers(error.headers).type('application/json; charset=utf-8').send(error.toBody());
}
