import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import { MAX_LISTED, quoted } from './requestValidation.ts';

const shownName = (name: string) => (/^[!-+\--~]{1,64}$/.test(name) ? name : encodeURIComponent(name.slice(0, 64)));

/**
 * Names the query parameters the operation does not define, before the key is checked: in
 * `X-Mock-Ignored-Query` and, once a minute per name, in the log. `strict` refuses them later, in
 * validation.
 */
export function nameUnknownQuery(ctx: Pick<ApiContext, 'validation' | 'log' | 'queryWarnings' | 'strict'>, x: Exchange): void {
  const { op } = x;
  if (!op || !x.request.url.includes('?')) return;
  const unknown = ctx.validation.unknownQuery(op.operationId, x.query);
  if (unknown.length === 0) return;
  const listed = unknown.slice(0, MAX_LISTED).map(shownName);
  x.headers['x-mock-ignored-query'] = unknown.length > MAX_LISTED ? `${listed.join(', ')}, ...` : listed.join(', ');
  const fresh = ctx.log ? ctx.queryWarnings.fresh(unknown) : [];
  if (fresh.length === 0) return;
  const action = ctx.strict ? 'refuses it with 400 (--strict)' : 'answers as if it were absent (--strict refuses it with 400); the answer names it in X-Mock-Ignored-Query';
  ctx.log!.warn({ ignoredQuery: fresh }, `${x.method} ${x.path} ${ctx.validation.takes(op.operationId)}, not ${quoted(fresh)}: the contract does not define ${fresh.length === 1 ? 'it' : 'them'}, and the mock ${action}. Logged once a minute per name.`);
}
