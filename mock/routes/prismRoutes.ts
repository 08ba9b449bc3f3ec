import type { FastifyPluginAsync } from 'fastify';
import { createInstance, getHttpOperationsFromSpec, type IHttpRequest } from '@stoplight/prism-http';
import { pino } from 'pino';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors.ts';
import { toFastifyPath } from '../routeSchema.ts';
import '../routeConfig.ts';

export interface PrismRoutesOptions {
  spec: LoadedSpec;
  /** Operations answered elsewhere (by the stateful store). */
  skip: readonly string[];
  prismLogLevel: string;
}

/**
 * Answers the operations that have no stateful handler from the OpenAPI document through Prism,
 * behind the same authentication, rate limits and headers as the rest (they run as app hooks).
 */
export const prismRoutes: FastifyPluginAsync<PrismRoutesOptions> = async (app, { spec, skip, prismLogLevel }) => {
  const remaining = spec.operations.filter((op) => !skip.includes(op.operationId));
  if (remaining.length === 0) return;

  const operations = await getHttpOperationsFromSpec(spec.document);
  // Prism 5.12 logs with a `success` level that plain pino does not have.
  const logger = pino({ customLevels: { success: 11 }, level: prismLogLevel, name: 'prism' });
  const prism = createInstance(
    { isProxy: false, mock: { dynamic: false }, checkSecurity: false, validateRequest: false, validateResponse: false, errors: false, upstreamProxy: undefined },
    { logger: logger as never },
  );

  for (const op of remaining) {
    app.route({
      method: op.method.toUpperCase() as 'GET',
      url: toFastifyPath(op.path),
      config: { operationId: op.operationId },
      handler: async (request, reply) => {
        const url = new URL(request.url, 'http://mock.invalid');
        const prismRequest: IHttpRequest = {
          method: op.method,
          url: { path: url.pathname.slice(app.prefix.length) || '/', query: Object.fromEntries(url.searchParams) },
          headers: request.headers as Record<string, string>,
          body: request.body,
        };
        const result = await prism.request(prismRequest, operations)();
        if (result._tag === 'Left') {
          request.log.error({ err: result.left }, 'prism could not mock the operation');
          throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${result.left.message}`);
        }
        const { statusCode, headers, body } = result.right.output;
        return reply.code(statusCode).headers(headers ?? {}).send(body);
      },
    });
  }
};
