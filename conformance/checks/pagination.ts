import type { Check } from '../check.ts';
import { judgePagination, listed } from '../model/judgeListCases.ts';
import { limitBounds, statusValues } from '../model/listBounds.ts';
import { getList, sendQueryCases } from './listPets.ts';

export const pagination: Check = {
  id: 'pagination',
  title: 'limit is honoured and bounded to 1..100, default 20',
  severity: 'high',
  description:
    'From limit\'s schema in the spec: no limit returns the default (exactly 20 when more exist), limit at ' +
    'its minimum, maximum and default is honoured, and limit below the minimum, above the maximum, beyond int64, ' +
    'fractional or not a number is refused with a 4xx Error. No list returns more than asked. A limit=100 page is ' +
    'checked against the status-filtered pages, which together hold at least as many pets.',
  operations: ['listPets'],
  phase: 'active',
  async send(ctx) {
    const { max } = limitBounds(ctx.spec);
    let all: number | undefined;
    for await (const { c, exchange } of sendQueryCases(ctx, 'limit', { served: 'page.served', refused: 'page.refused', open: 'page.open' })) {
      if (c.name === 'limit/max') all = listed(exchange)?.length;
    }
    // A limit=max page that is not full holds every pet: the status-filtered pages, disjoint, hold no more.
    if (all === undefined || all >= max) return;
    for (const status of statusValues(ctx.spec)) await getList(ctx, { status: [status], limit: [String(max)] }, `list-pets/query/limit/max-by-status/${status}`);
  },
  judge: (input) => judgePagination(input.exchanges, input),
  modelRules: ['data.limit-bound'],
};
