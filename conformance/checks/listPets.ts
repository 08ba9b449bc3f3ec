import { findOperation } from '../../spec/loadSpec.ts';
import type { CheckContext } from '../check.ts';
import type { Exchange, Expectation } from '../http/exchange.ts';
import { operationQueryCases, queryString, type QueryCase } from '../cases/queryCases.ts';
import type { RuleId } from '../model/rules.ts';

/** Sends `GET /pets` with the given query parameters, for a named case. */
export function getList(ctx: CheckContext, query: Record<string, string[]>, caseName: string, intent: 'valid' | 'invalid' = 'valid', expect?: Expectation) {
  return ctx.send({ method: 'GET', path: `/pets${queryString(query)}`, auth: 'key', operationId: 'listPets', intent, case: caseName, ...(expect ? { expect } : {}) });
}

/** The rules a query parameter's cases rest on, by what each case expects. */
export interface QueryRules {
  served: RuleId;
  refused: RuleId;
  open: RuleId;
}

/** What a generated query case demands of its answer, as its request carries it for the judges. */
function expectationOf(c: QueryCase, rules: QueryRules): Expectation {
  const base = { what: c.what, because: c.rule };
  switch (c.expect) {
    case 'accept':
      return { rule: rules.served, answer: 'accept', ...base };
    case 'open':
      return { rule: rules.open, answer: 'open', ...base };
    case 'refuse-or-none':
      return { rule: rules.refused, answer: 'refuse-or-none', parameter: c.parameter, ...(c.values[0] !== undefined ? { value: c.values[0] } : {}), ...base };
    default:
      return { rule: rules.refused, answer: 'refuse', status: '4xx', ...base };
  }
}

/**
 * Sends each generated case of one listPets query parameter, in order, with `withAccepted`'s
 * parameters added to the cases to accept, each carrying what it expects. Yields the answers to the
 * cases to accept, for the plan to choose what it sends next.
 */
export async function* sendQueryCases(ctx: CheckContext, parameter: string, rules: QueryRules, withAccepted: Record<string, string[]> = {}): AsyncGenerator<{ c: QueryCase; exchange: Exchange }> {
  for (const c of operationQueryCases(findOperation(ctx.spec, 'listPets')).filter((q) => q.parameter === parameter)) {
    const accept = c.expect === 'accept';
    const query = { ...(c.values.length === 0 ? {} : { [parameter]: c.values }), ...(accept ? withAccepted : {}) };
    const exchange = await getList(ctx, query, `list-pets/query/${c.name}`, accept ? 'valid' : 'invalid', expectationOf(c, rules));
    if (exchange && accept) yield { c, exchange };
  }
}
