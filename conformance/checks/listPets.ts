import { findOperation } from '../../spec/loadSpec.ts';
import type { CheckContext } from '../check.ts';
import type { Exchange } from '../http/exchange.ts';
import { queryString } from '../cases/queryCases.ts';

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
