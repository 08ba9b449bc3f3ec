// The routing step: the method and the path against the API's routes (route.ts), whatever body came.
import type { SpecOperation } from '../../spec/loadSpec.ts';
import type { Exchange } from './exchange.ts';
import type { ApiRoutes, RouteMatch } from './route.ts';

/** Routing step: a method the path does not serve is 405, a path the API does not serve is 404, whatever body came with it. */
export function allowMethod(routes: ApiRoutes, x: Exchange): void {
  if (x.route && !x.op) throw routes.notAllowed(x.route, x.method);
}

/** After the body is read (a malformed one is told first): a path that is no route of the API. */
export function requireRoute(routes: ApiRoutes, x: Exchange): asserts x is Exchange & { route: RouteMatch; op: SpecOperation } {
  if (!x.route || !x.op) throw routes.notFound(x.method, x.path, { outside: false });
}
