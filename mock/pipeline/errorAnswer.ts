import { ApiError } from '../errors/errorCatalogue.ts';
import { toApiError } from '../errors/toApiError.ts';
import { PetSetError } from '../state/petStore.ts';
import { jsonType, type ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { logAnswerError } from './logAnswerError.ts';

/** Any error a step threw, as the catalogue's Error answer (and the server log's line, when it is the mock's fault). */
export function errorAnswer(ctx: Pick<ApiContext, 'bodyLimit' | 'log'>, x: Exchange, error: unknown): { status: number; body: string } {
  const apiError = error instanceof PetSetError ? new ApiError('IDS_EXHAUSTED') : toApiError(error, { contentType: x.request.headers['content-type'], body: x.body }, { bodyLimit: ctx.bodyLimit, context: 'api' });
  x.errorCode = apiError.code;
  logAnswerError(ctx.log, error as Error, apiError);
  delete x.headers.location;
  Object.assign(x.headers, apiError.headers, { 'content-type': jsonType });
  return { status: apiError.statusCode, body: JSON.stringify(apiError.toBody()) };
}
