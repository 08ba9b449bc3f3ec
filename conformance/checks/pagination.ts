import type { Check } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { acceptedQueryCases, getList, limitBounds, listed, statusValues } from './listPets.ts';

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
  async run(ctx, report) {
    const { max, byDefault } = limitBounds(ctx);
    const pages = new Map<string, { count: number; exchange: Exchange }>();
    for await (const { c, exchange, items } of acceptedQueryCases(ctx, report, 'limit')) {
      const asked = c.values.length === 0 ? byDefault : Number(c.values[0]);
      report.expect(items.length <= asked, exchange, `GET ${exchange.path} returned ${items.length} pets for ${c.what}; it must return at most ${asked}.`);
      pages.set(c.name, { count: items.length, exchange });
    }

    // How many pets there are, as far as the run can tell: a limit=max page that is not full holds them all.
    const full = pages.get('limit/max');
    if (full === undefined) return;
    const all = full.count;
    const expectedDefault = all >= max ? byDefault : Math.min(byDefault, all);
    for (const name of ['limit/absent', 'limit/default']) {
      const page = pages.get(name);
      if (page === undefined) continue;
      const { count: got, exchange } = page;
      report.expect(got === expectedDefault, exchange, `GET ${exchange.path} returned ${got} pets while limit=${max} returned ${all}; the default limit is ${byDefault}, so it must return ${expectedDefault}.`);
    }
    const one = pages.get('limit/min');
    if (one !== undefined) {
      report.expect(one.count === Math.min(1, all), one.exchange, `GET ${one.exchange.path} returned ${one.count} pets; there are ${all}, so it must return ${Math.min(1, all)}.`);
    }
    if (all < max) {
      // Each pet has at most one status, so the status-filtered pages are disjoint subsets of all pets.
      let atLeast = 0;
      for (const status of statusValues(ctx)) {
        const items = listed(await getList(ctx, { status: [status], limit: [String(max)] }, `list-pets/query/limit/max-by-status/${status}`));
        atLeast += items?.length ?? 0;
      }
      report.expect(all >= Math.min(max, atLeast), full.exchange, `GET ${full.exchange.path} returned ${all} pets, yet the status-filtered pages hold ${atLeast} between them: limit=${max} is not honoured.`);
    }
  },
};
