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
 * behind the same authentication, rate limits and headers as the rest (they run as app hooks),
 * with the realistic content forced answers get (a list of records the spec leaves open: empty
 * objects, never `null` nor an invented field).
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
          // Prism picks the status and the example; the mock gives it realistic content, the same
          // every time (loaded on first use, as in the Prefer plugin: it brings Faker).
          const { realisticBody } = await import('../prism/realisticBody.ts');
          const realistic = realisticBody(spec, { op, status: answer.status, seed: 'static', query: request.query as Record<string, unknown>, params: request.params as Record<string, unknown> });
          return reply.code(answer.status).headers(answer.headers).send(realistic ?? answer.body);
        } catch (error) {
          request.log.error({ err: error }, 'prism could not mock the operation');
          throw new ApiError('INTERNAL_ERROR', `The mock could not answer ${op.operationId} from the OpenAPI document: ${(error as Error).message}`);
        }
      },
    });
  }
});
