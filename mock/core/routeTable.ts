import type { LoadedSpec, SpecOperation } from '../../spec/specModel.ts';

interface PathRoute {
  /** The OpenAPI template, `/pets/{petId}`. */
  template: string;
  segments: TemplateSegment[];
  /** The operation of each method the path serves; GET serves HEAD too. */
  byMethod: Map<string, SpecOperation>;
  /** The methods the path serves, GET bringing HEAD, in the spec's order. */
  served: string[];
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

/** A path segment percent-decoded, or as sent when it cannot be. */
export function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * A path's segments as a router reads them: one trailing slash ignored (`/pets/` is `/pets`), each
 * segment percent-decoded on its own (`/%70ets` is `/pets`), so an encoded `/` stays inside its
 * segment and `%252F` is the text `%2F`.
 */
export function pathSegments(path: string): string[] {
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const raw = bare.split('/');
  return path.includes('%') ? raw.map(decodeSegment) : raw;
}

/** A segment of a path template: text to equal, or a parameter (`{name}`, `:name`) that takes the whole segment. */
export type TemplateSegment = { text: string } | { param: string };

export function templateSegments(template: string): TemplateSegment[] {
  return template.split('/').map((part) => {
    const name = /^\{([^}]+)\}$/.exec(part)?.[1] ?? /^:(\w+)$/.exec(part)?.[1];
    return name === undefined ? { text: part } : { param: name };
  });
}

/** The parameters when `segments` (pathSegments) follow the template; undefined when they do not. `nonEmpty`: a parameter takes no empty segment. */
export function matchSegments(template: readonly TemplateSegment[], segments: readonly string[], { nonEmpty = false } = {}): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const part = template[i]!;
    const segment = segments[i]!;
    if ('text' in part) {
      if (part.text !== segment) return undefined;
    } else {
      if (nonEmpty && segment === '') return undefined;
      params[part.param] = segment;
    }
  }
  return params;
}

/** The spec's paths as a router: a request path (under the API's prefix) to its operation and parameters. */
export function routeTable(spec: LoadedSpec): (path: string, method: string) => RouteMatch | undefined {
  const routes: PathRoute[] = [];
  for (const op of spec.operations) {
    let route = routes.find((r) => r.template === op.path);
    if (!route) routes.push((route = { template: op.path, segments: templateSegments(op.path), byMethod: new Map(), served: [] }));
    route.byMethod.set(op.method.toUpperCase(), op);
    if (op.method === 'get') route.byMethod.set('HEAD', op);
  }
  for (const route of routes) route.served = [...route.byMethod.keys()];
  // Static paths before templated ones, as a router prefers them.
  const params = (route: PathRoute) => route.segments.filter((segment) => 'param' in segment).length;
  routes.sort((a, b) => params(a) - params(b));

  return (path, method) => {
    const segments = pathSegments(path);
    for (const route of routes) {
      const found = matchSegments(route.segments, segments);
      if (found) return { template: route.template, op: route.byMethod.get(method), params: found, served: route.served };
    }
    return undefined;
  };
}
