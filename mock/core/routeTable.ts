import type { LoadedSpec, SpecOperation } from '../../spec/specModel.ts';

interface PathRoute {
  /** The OpenAPI template, `/pets/{petId}`. */
  template: string;
  pattern: RegExp;
  names: string[];
  /** The operation of each method the path serves; GET serves HEAD too. */
  byMethod: Map<string, SpecOperation>;
}

/** Where a path leads; shared between requests, so read only. */
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

/** A path segment percent-decoded, or as sent when it cannot be. */
export function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A path as a router matches it: each segment percent-decoded (`/%70ets` is `/pets`), a `/` that
 * was encoded within a segment kept as `%2F`, so that it stays inside its segment.
 */
export function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  return path.split('/').map((segment) => decodeSegment(segment).replace(/\//g, '%2F')).join('/');
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
  // Most requests repeat a few paths: their matches are kept (each one read only), a bounded number.
  const seen = new Map<string, RouteMatch | undefined>();
  const cached = (path: string, method: string) => {
    const key = `${method} ${path}`;
    if (seen.has(key)) return seen.get(key);
    if (seen.size >= 1000) seen.clear();
    const found = find(path, method);
    seen.set(key, found);
    return found;
  };
  return cached;

  function find(path: string, method: string): RouteMatch | undefined {
    // One trailing slash is ignored (`/pets/` is `/pets`), as the server's router does.
    const bare = decodedPath(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    for (const route of routes) {
      const match = route.pattern.exec(bare);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => (params[name] = match[i + 1]!.replace(/%2F/g, '/')));
      return { template: route.template, op: route.byMethod.get(method), params, served: [...route.byMethod.keys()] };
    }
    return undefined;
  }
}
