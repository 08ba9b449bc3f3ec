import type { Check } from '../check.ts';
import { judgeStatusFilter, listed, withLimitCase } from '../model/judgeListCases.ts';
import { limitBounds } from '../model/listBounds.ts';
import { getList, sendQueryCases } from './listPets.ts';

export const statusFilter: Check = {
  id: 'status-filter',
  title: 'The status filter returns only matching pets, within the limit',
  severity: 'high',
  description:
    'From the status parameter\'s schema in the spec: GET /pets?status=X returns only pets whose status is X, for ' +
    'each PetStatus; an unknown status or a case variant of a valid one is refused with a 4xx Error; and a status ' +
    'with a limit smaller than the number of matching pets honours both.',
  operations: ['listPets'],
  phase: 'active',
  async send(ctx) {
    const { max } = limitBounds(ctx.spec);
    const matching = new Map<string, number>();
    for await (const { c, exchange } of sendQueryCases(ctx, 'status', { served: 'filter.served', refused: 'filter.only-status', open: 'filter.open' }, { limit: [String(max)] })) {
      const items = listed(exchange);
      if (items !== undefined) matching.set(c.values[0]!, items.length);
    }
    // The filter and the limit together: a page smaller than the pets that match.
    const [status, count] = [...matching.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (status === undefined || count === undefined || count < 2) return;
    await getList(ctx, { status: [status], limit: [String(Math.min(count - 1, 2))] }, withLimitCase);
  },
  judge: (input) => judgeStatusFilter(input.exchanges, input),
  modelRules: ['data.status-filter', 'data.limit-bound'],
};
