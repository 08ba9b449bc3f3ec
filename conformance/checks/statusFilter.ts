import type { Check } from '../check.ts';
import { expectError } from './expectError.ts';

export const statusFilter: Check = {
  id: 'status-filter',
  title: 'The status filter returns only matching pets',
  severity: 'high',
  description: 'GET /pets?status=X returns only pets whose status is X, for each PetStatus; an unknown status is rejected with a 4xx Error.',
  operations: ['listPets'],
  phase: 'active',
  async run(ctx, report) {
    const statusParam = ctx.spec.operations.find((o) => o.operationId === 'listPets')!.parameters.find((p) => p.name === 'status')!;
    const statuses = (statusParam.schema as { enum: string[] }).enum;
    for (const status of statuses) {
      const exchange = await ctx.send({ method: 'GET', path: `/pets?status=${status}&limit=100`, auth: 'key', operationId: 'listPets', intent: 'valid' });
      const items = exchange.response.json;
      if (exchange.response.status !== 200 || !Array.isArray(items)) continue;
      const wrong = items.filter((item) => (item as { status?: unknown })?.status !== status);
      report.expect(wrong.length === 0, exchange, `GET /pets?status=${status} returned ${wrong.length} of ${items.length} pets with another status (first: ${JSON.stringify(wrong[0])}).`);
    }
    const unknown = await ctx.send({ method: 'GET', path: '/pets?status=not-a-status', auth: 'key', operationId: 'listPets', intent: 'invalid' });
    expectError(report, ctx.validators, unknown, '4xx', 'status=not-a-status is not a PetStatus');
  },
};
