import type { FastifyReply } from 'fastify';
import type { ApiError } from './errorCatalogue.ts';

declare module 'fastify' {
  interface FastifyReply {
    /** The catalogue code of the Error body sent, for the request log's client report. */
    errorCode?: string;
  }
}

/** Answers with the error's status, headers and Error body. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  reply.errorCode = error.code;
  return reply.code(error.statusCode).headers(error.headers).type('application/json; charset=utf-8').send(error.toBody());
}
