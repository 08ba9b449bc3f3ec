import type { LoadedSpec, SpecOperation } from '../../spec/specModel.ts';

/** The methods the server's router knows (fastify's), beside the ones a spec path serves. */
export const routerMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface PathRoute {
  /** The OpenAPI template, `/pets/{petId}`. */
  template: string;
  pattern: RegExp;
  names: string[];
  /** The operation of each method the path serves; GET serves HEAD too. */
  byMethod: Map<string, SpecOperation>;
}

export interface RouteMatch {
  template: string;
  /** The operation, when the path serves the method. */
  op: SpecOperation | undefined;
  /** The path parameters, percent-decoded (undecodable ones as sent). */
  params: Record<string, string>;
  /** The methods the path serves, GET bringing HEAD, in the spec's order. */
  served: string[];
}

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The spec's paths as a router: a request path (under the API's prefix) to its operation and parameters. */
export function routeTable(spec: LoadedSpec): (path: string, method: string) => RouteMatch | undefined {
  const routes: PathRoute[] = [];
  for (const op of spec.operations) {
    let route = routes.find((r) => r.template === op.path);
    if (!route) {
      const names: string[] = [];
      const source = op.path.split(/(\{[^}]+\})/).map((part) => (/^\{[^}]+\}$/.test(part) ? (names.push(part.slice(1, -1)), '([^/]*)') : escape(part))).join('');
      route = { template: op.path, pattern: new RegExp(`^${source}$`), names, byMethod: new Map() };
      routes.push(route);
    }
    route.byMethod.set(op.method.toUpperCase(), op);
    if (op.method === 'get') route.byMethod.set('HEAD', op);
  }
  // Static paths before templated ones, as a router prefers them.
  routes.sort((a, b) => a.names.length - b.names.length);
  return (path, method) => {
    // One trailing slash is ignored (`/pets/` is `/pets`), as the server's router does.
    const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    for (const route of routes) {
      const match = route.pattern.exec(bare);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = decode(match[i + 1]!)));
      return { template: route.template, op: route.byMethod.get(method), params, served: [...route.byMethod.keys()] };
    }
    return undefined;
  };
}
