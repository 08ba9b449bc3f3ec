import type { FastifyPluginAsync } from 'fastify';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import { toFastifyPath } from './routeSchema.ts';
import './routeConfig.ts';
import { namedContext } from '../namedContext.ts';

export interface PrismRoutesOptions {
  spec: LoadedSpec;
  /** Operations answered elsewhere (by the stateful store). */
  skip: readonly string[];
  prism: PrismResponder;
}

/**
 * Answers the operations that have no stateful handler from the OpenAPI document through Prism,
 * behind the same authentication, rate limits and headers as the rest (they run as app hooks).
 */
export const prismRoutes: FastifyPluginAsync<PrismRoutesOptions> = namedContext('prism-routes', async (app, { spec, skip, prism }) => {
  for (const op of spec.operations.filter((o) => !skip.includes(o.operationId))) {
    app.route({
      method: op.method.toUpperCase() as 'GET',
      url: toFastifyPath(op.path),
      config: { operationId: op.operationId },
      handler: async (request, reply) => {
        try {
          const answer = await prism.respond(op);
          return reply.code(answer.status).headers(answer.headers).send(answer.body);
        } catch (error) {
          request.log.error({ err: error }, 'prism could not mock the operation');
          throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${(error as Error).message}`);
        }
      },
    });
  }
});
