// The validation step: the request against the spec, once routed and its body read.
import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { ApiContext } from './context.ts';
import type { Exchange } from './exchange.ts';
import type { RouteMatch } from './route.ts';

/** Validation step: the parameters and body against the spec, coerced as it types them (x.checked); once. */
export function validate(ctx: Pick<ApiContext, 'validation'>, x: Exchange & { route: RouteMatch; op: SpecOperation }): void {
  x.checked ??= ctx.validation.validate(x.op, { method: x.method, path: x.path, params: x.route.params, query: x.query, body: x.body });
}
