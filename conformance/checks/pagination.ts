import type { Check } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { expectError } from './expectError.ts';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const list = (exchange: Exchange) => (Array.isArray(exchange.response.json) ? (exchange.response.json as unknown[]) : undefined);
const ok = (exchange: Exchange) => exchange.response.status === 200;

export const pagination: Check = {
  id: 'pagination',
  title: 'limit is honoured and bounded to 1..100, default 20',
  severity: 'high',
  description:
    'GET /pets returns at most 20 pets by default (exactly 20 when more exist), honours limit=1 and limit=100, ' +
    'rejects limit=0, 101, -1, abc and 1.5 with a 4xx Error, and never returns more than 100 pets or more than asked.',
  operations: ['listPets'],
  phase: 'active',
  async run(ctx, report) {
    const get = (query: string, intent: 'valid' | 'invalid' = 'valid') =>
      ctx.send({ method: 'GET', path: `/pets${query}`, auth: 'key', operationId: 'listPets', intent });

    const byDefault = ctx.exchanges.find((e) => e.checkId === 'baseline' && e.operationId === 'listPets') ?? (await get(''));
    const one = await get('?limit=1');
    const hundred = await get('?limit=100');

    const all = ok(hundred) ? list(hundred) : undefined;
    if (ok(byDefault) && list(byDefault) && all) {
      const got = list(byDefault)!.length;
      if (all.length > DEFAULT_LIMIT) {
        report.expect(got === DEFAULT_LIMIT, byDefault, `GET /pets without limit returned ${got} pets while limit=100 returned ${all.length}; the default limit is 20, so it must return exactly 20.`);
      } else {
        report.expect(got <= DEFAULT_LIMIT, byDefault, `GET /pets without limit returned ${got} pets; the default limit is 20.`);
      }
    }
    if (ok(one) && list(one) && all) {
      report.expect(list(one)!.length === Math.min(1, all.length), one, `GET /pets?limit=1 returned ${list(one)!.length} pets; it must return 1 when any exist.`);
    }
    if (ok(hundred) && all) {
      report.expect(all.length <= MAX_LIMIT, hundred, `GET /pets?limit=100 returned ${all.length} pets; at most 100.`);
      // The status-filtered lists are disjoint subsets of all pets (a pet has one status), so
      // together they say how many pets there are at least; an unfiltered limit=100 page that
      // holds fewer (and fewer than 100) was cut below the limit asked for.
      const filtered = ctx.exchanges.filter((e) => e.checkId === 'status-filter' && ok(e) && /[?&]limit=100(&|$)/.test(e.request.url));
      const atLeast = filtered.reduce((sum, e) => sum + (list(e)?.length ?? 0), 0);
      report.expect(all.length >= Math.min(MAX_LIMIT, atLeast), hundred, `GET /pets?limit=100 returned ${all.length} pets, yet the status-filtered lists hold ${atLeast} between them: limit=100 is not honoured.`);
    }

    // Every list the run got, whoever asked: never more than asked, never more than 100.
    for (const exchange of ctx.exchanges) {
      const items = exchange.operationId === 'listPets' && ok(exchange) ? list(exchange) : undefined;
      if (!items) continue;
      const asked = Number(new URL(exchange.request.url).searchParams.get('limit') ?? DEFAULT_LIMIT);
      const bound = Number.isInteger(asked) && asked >= 1 && asked <= MAX_LIMIT ? asked : MAX_LIMIT;
      report.expect(items.length <= bound, exchange, `${exchange.request.url} returned ${items.length} pets, more than the ${bound} allowed.`, 'over-limit');
    }

    for (const bad of ['0', '101', '-1', 'abc', '1.5']) {
      const exchange = await get(`?limit=${bad}`, 'invalid');
      expectError(report, ctx.validators, exchange, '4xx', `limit=${bad} is out of range or not an integer`);
    }
  },
};
