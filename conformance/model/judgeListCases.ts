// The pagination and status-filter checks' judges: each generated case of limit or status judged
// by what it expects, then what the pages served say together (the default page against the
// largest, a limit against the pets that match). That every list holds at most its limit and only
// the status asked for is data-integrity's (data.limit-bound, data.status-filter), judged by the
// model on every list of the run.
import type { Exchange } from '../http/exchange.ts';
import { judgeExpectation } from './judgeRefusal.ts';
import { requestName } from './judgeable.ts';
import type { Judgement } from './judgement.ts';
import { JudgementList } from './judgementList.ts';
import { limitBounds, statusValues } from './listBounds.ts';
import type { RuleId } from './rules.ts';
import type { RunFacts } from './runFacts.ts';

/** The items of a 200 list answer, read losslessly; undefined for any other answer. */
export function listed(exchange: Exchange | undefined): unknown[] | undefined {
  return exchange && exchange.response.status === 200 && Array.isArray(exchange.response.value) ? exchange.response.value : undefined;
}

const queryOf = (exchange: Exchange) => new URLSearchParams(exchange.path.split('?')[1] ?? '');

/**
 * Each generated case of one query parameter, in the order sent: one to refuse or left open judged
 * by its expectation, one to accept held to listing pets with 200 (`served`) and yielded with its
 * items for the check to judge what it is about.
 */
function* acceptedCases(v: JudgementList, facts: RunFacts, exchanges: readonly Exchange[], parameter: string, served: RuleId): Generator<{ exchange: Exchange; items: unknown[] }> {
  for (const exchange of exchanges) {
    if (!exchange.case?.startsWith(`list-pets/query/${parameter}/`) || exchange.expect === undefined) continue;
    const e = judgeExpectation(v, facts.validators, exchange);
    if (e === undefined || e.rule !== served) continue;
    const items = listed(exchange);
    if (!v.expect(items !== undefined, served, exchange, () => `GET ${exchange.path} answered ${exchange.response.status}${items ? '' : ' without a JSON array'}; ${e.because}, so ${e.what} must list pets with 200.`)) continue;
    yield { exchange, items: items! };
  }
}

/** The pagination check's judgements over its own exchanges. */
export function judgePagination(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const { max, byDefault } = limitBounds(facts.validators.spec);
  const pages = new Map<string, { count: number; exchange: Exchange }>();
  for (const { exchange, items } of acceptedCases(v, facts, exchanges, 'limit', 'page.served')) {
    pages.set(exchange.case!.slice('list-pets/query/'.length), { count: items.length, exchange });
  }

  // How many pets there are, as far as the run can tell: a limit=max page that is not full holds them all.
  const full = pages.get('limit/max');
  if (full === undefined) return v.judgements;
  const all = full.count;
  const expectedDefault = all >= max ? byDefault : Math.min(byDefault, all);
  for (const name of ['limit/absent', 'limit/default']) {
    const page = pages.get(name);
    if (page === undefined) continue;
    const { count: got, exchange } = page;
    v.expect(got === expectedDefault, 'page.default-size', exchange, () => `GET ${exchange.path} returned ${got} pets while limit=${max} returned ${all}; the default limit is ${byDefault}, so it must return ${expectedDefault}.`);
  }
  const one = pages.get('limit/min');
  if (one !== undefined) v.expect(one.count === Math.min(1, all), 'page.min-size', one.exchange, () => `GET ${one.exchange.path} returned ${one.count} pets; there are ${all}, so it must return ${Math.min(1, all)}.`);
  if (all < max) {
    // Each pet has at most one status, so the status-filtered pages are disjoint subsets of all pets.
    let atLeast = 0;
    for (const status of statusValues(facts.validators.spec)) atLeast += listed(exchanges.find((e) => e.case === `list-pets/query/limit/max-by-status/${status}`))?.length ?? 0;
    v.expect(all >= Math.min(max, atLeast), 'page.max-holds-all', full.exchange, () => `GET ${full.exchange.path} returned ${all} pets, yet the status-filtered pages hold ${atLeast} between them: limit=${max} is not honoured.`);
  }
  return v.judgements;
}

/** The case of status and a limit smaller than the pets that match. */
export const withLimitCase = 'list-pets/query/status/with-limit';

/** The status-filter check's judgements over its own exchanges. */
export function judgeStatusFilter(exchanges: readonly Exchange[], facts: RunFacts): Judgement[] {
  const v = new JudgementList();
  const matching = new Map<string, number>();
  for (const { exchange, items } of acceptedCases(v, facts, exchanges, 'status', 'filter.served')) {
    const status = queryOf(exchange).get('status') ?? '';
    matching.set(status, items.length);
  }

  // The filter and the limit together: a page smaller than the pets that match.
  const [status, count] = [...matching.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (status === undefined || count === undefined || count < 2) {
    v.judgements.push({ rule: 'filter.with-limit', operationId: 'listPets', outcome: 'inconclusive', message: 'no status has two pets or more, so a smaller limit cannot be tried', case: withLimitCase });
    return v.judgements;
  }
  const page = exchanges.find((e) => e.case === withLimitCase);
  if (!page) return v.judgements;
  const limit = Number(queryOf(page).get('limit'));
  const items = listed(page);
  if (!v.expect(items !== undefined, 'filter.with-limit', page, () => `GET ${page.path} answered ${page.response.status}; status=${status} with limit=${limit} must list pets with 200.`)) return v.judgements;
  if (items!.length < limit) {
    // Fewer than asked while more match: odd, but the contract only says limit is a maximum.
    v.warn('filter.with-limit', page, `GET ${page.path} returned ${items!.length} pets while ${count} have status ${status}; a client asking for ${limit} expects ${limit}. The contract makes limit a maximum, so this is a warning.`, { kind: 'short-page' });
  }
  return v.judgements;
}
