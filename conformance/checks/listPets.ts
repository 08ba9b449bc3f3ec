import { findOperation } from '../../spec/loadSpec.ts';
import type { CheckContext, Outcomes } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { operationQueryCases, queryString, type QueryCase } from '../cases/queryCases.ts';
import { expectError, expectOpen } from './expectError.ts';

/** The listPets operation of the loaded document. */
export const listOperation = (ctx: CheckContext) => findOperation(ctx.spec, 'listPets');

/** The items of a 200 list answer, read losslessly; undefined for any other answer. */
export function listed(exchange: Exchange | undefined): unknown[] | undefined {
  return exchange && exchange.response.status === 200 && Array.isArray(exchange.response.value) ? exchange.response.value : undefined;
}

/** Sends `GET /pets` with the given query parameters, for a named case. */
export function getList(ctx: CheckContext, query: Record<string, string[]>, caseName: string, intent: 'valid' | 'invalid' = 'valid') {
  return ctx.send({ method: 'GET', path: `/pets${queryString(query)}`, auth: 'key', operationId: 'listPets', intent, case: caseName });
}

/** A parameter's schema bound from the document, e.g. limit's maximum. */
export function limitBounds(ctx: CheckContext): { min: number; max: number; byDefault: number } {
  const limit = listOperation(ctx).parameters.find((p) => p.name === 'limit');
  const schema = (limit?.schema ?? {}) as { minimum?: number; maximum?: number; default?: number };
  return { min: schema.minimum ?? 1, max: schema.maximum ?? 100, byDefault: schema.default ?? 20 };
}

/** The PetStatus values the status parameter takes, from the document. */
export function statusValues(ctx: CheckContext): string[] {
  const status = listOperation(ctx).parameters.find((p) => p.name === 'status');
  return ((status?.schema as { enum?: unknown[] } | undefined)?.enum ?? []).map(String);
}

/**
 * Sends each generated case of one listPets query parameter, in order, with `withAccepted`'s
 * parameters added to the cases to accept. A case to refuse must get a 4xx Error and an open one
 * may get either (both judged here); an accepted case must list pets with 200, and is yielded with
 * its items for the check to judge what it is about.
 */
export async function* acceptedQueryCases(
  ctx: CheckContext,
  report: Outcomes,
  parameter: string,
  withAccepted: Record<string, string[]> = {},
): AsyncGenerator<{ c: QueryCase; exchange: Exchange; items: unknown[] }> {
  for (const c of operationQueryCases(listOperation(ctx)).filter((q) => q.parameter === parameter)) {
    const accept = c.expect === 'accept';
    const query = { ...(c.values.length === 0 ? {} : { [parameter]: c.values }), ...(accept ? withAccepted : {}) };
    const exchange = await getList(ctx, query, `list-pets/query/${c.name}`, accept ? 'valid' : 'invalid');
    if (!exchange) continue;
    if (c.expect === 'refuse') {
      expectError(report, ctx.validators, exchange, '4xx', c.what, c.rule);
      continue;
    }
    if (c.expect === 'refuse-or-none') {
      const items = listed(exchange);
      if (items === undefined) {
        expectError(report, ctx.validators, exchange, '4xx', c.what, c.rule);
        continue;
      }
      const value = c.values[0];
      const other = items.filter((item) => (item as Record<string, unknown> | null)?.[parameter] !== value);
      if (report.expect(other.length === 0, exchange, `GET ${exchange.path} answered 200 with ${other.length} pets whose ${parameter} is not ${JSON.stringify(value)} (first: ${JSON.stringify((other[0] as Record<string, unknown> | null)?.[parameter])}); ${c.rule}, so ${c.what} matches no pet: refuse it with a 4xx, or list none.`)) {
        report.warn(exchange.operationId, `GET ${exchange.path} answered ${c.what} with 200 and an empty list; ${c.rule}. The contract names no status for a value outside it, so this is a warning: a client that sent it is told nothing is wrong.`, exchange, `open ${exchange.case ?? c.what}`);
      }
      continue;
    }
    if (c.expect === 'open') {
      expectOpen(report, ctx.validators, exchange, c.what, c.rule);
      continue;
    }
    const items = listed(exchange);
    if (!report.expect(items !== undefined, exchange, `GET ${exchange.path} answered ${exchange.response.status}${items ? '' : ' without a JSON array'}; ${c.rule}, so ${c.what} must list pets with 200.`)) continue;
    yield { c, exchange, items: items! };
  }
}
