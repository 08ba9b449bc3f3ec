import type { Check } from '../check.ts';
import { expectError } from './expectError.ts';

export const getPet: Check = {
  id: 'get-pet',
  title: 'GET /pets/{petId} returns the pet, or 404',
  severity: 'high',
  description: 'A known id (taken from the list) gives that Pet; an id no pet has gives 404 with an Error body.',
  operations: ['getPet'],
  phase: 'active',
  async run(ctx, report) {
    const known = ctx.knownPets();
    const first = known[0];
    if (first) {
      const exchange = ctx.exchanges.find((e) => e.checkId === 'baseline' && e.operationId === 'getPet')
        ?? (await ctx.send({ method: 'GET', path: ctx.petPath(first), auth: 'key', operationId: 'getPet', intent: 'valid' }));
      if (report.expect(exchange.response.status === 200, exchange, `GET ${ctx.petPath(first)} answered ${exchange.response.status}, but the list has a pet with that id; it must answer 200 with it.`)) {
        const pet = exchange.response.json as { id?: unknown } | undefined;
        report.expect(pet?.id === first.id, exchange, `GET ${ctx.petPath(first)} returned the pet with id ${JSON.stringify(pet?.id)}.`);
      }
    } else {
      report.skip('getPet', 'the deployment lists no pets, so there is no known id to fetch');
    }
    // An id far above every listed one, but small enough for any int64 (or even int32) store.
    const unknownId = Math.max(0, ...known.map((p) => p.id)) + 1_000_000;
    const missing = await ctx.send({ method: 'GET', path: `/pets/${unknownId}`, auth: 'key', operationId: 'getPet', intent: 'invalid' });
    expectError(report, ctx.validators, missing, 404, 'no pet has this id');
  },
};
