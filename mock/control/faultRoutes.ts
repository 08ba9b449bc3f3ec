import type { FastifyPluginAsync } from 'fastify';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { parseFaultRule } from '../faults/parseFaultRule.ts';
import { namedContext } from '../namedContext.ts';
import type { FaultRules } from '../state/stateParts.ts';
import { MAX_FAULT_RULES } from './faultLimits.ts';

export interface FaultRoutesOptions {
  spec: LoadedSpec;
  faults: FaultRules;
  /** Where the API is (`/v1`): rules name the mock's own paths. */
  apiPrefix: string;
}

export { MAX_FAULT_RULES };

/**
 * The control API's fault rules: `POST /faults` adds one (201, with its id), `GET /faults` lists
 * them with how often each fired and will fire, `DELETE /faults/{id}` removes one, `DELETE /faults`
 * every one. `POST /reset` clears them too. Registered inside the control context: its token,
 * CORS and error handling apply.
 */
export const faultRoutes: FastifyPluginAsync<FaultRoutesOptions> = namedContext('faultRoutes', async (app, { spec, faults, apiPrefix }) => {
  app.post<{ Body: unknown }>('/faults', async (request, reply) => {
    const rule = parseFaultRule(request.body, spec, apiPrefix);
    const held = (await faults.list()).length;
    if (held >= MAX_FAULT_RULES) throw new ApiError('INVALID_CONTROL_REQUEST', `Cannot add the fault rule: the mock already holds ${held} rules, the most it takes. Remove some with DELETE /__mock/faults/{id} or DELETE /__mock/faults; nothing was added.`);
    return reply.code(201).send(await faults.add(rule));
  });

  app.get('/faults', async () => ({ faults: await faults.list() }));

  app.delete<{ Params: { id: string } }>('/faults/:id', async (request, reply) => {
    const { id } = request.params;
    if (!(await faults.remove(id))) {
      const shown = id.length > 80 ? `${id.slice(0, 80)}…` : id;
      throw new ApiError('FAULT_NOT_FOUND', `The mock has no fault rule ${JSON.stringify(shown)}: it was never added, or was removed, cleared or reset away. List the rules with GET /__mock/faults.`);
    }
    return reply.code(204).send();
  });

  app.delete('/faults', async (_, reply) => {
    await faults.clear();
    return reply.code(204).send();
  });
});
