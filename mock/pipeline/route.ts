// Routing: a path to its operation and parameters, and the one source of every 405 and its Allow
// (the API's, the control API's, and the methods Node refuses before the mock sees them).
import { keptFor } from './keptFor.ts';
import type { LoadedSpec, SpecOperation } from '../../spec/specModel.ts';
import { ApiError } from '../errors/errorCatalogue.ts';

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

/**
 * The 405 for a method a resource does not serve (RFC 9110, 15.5.6), with the Allow header listing
 * those it does: every 405 the mock gives is made here.
 */
export function methodNotAllowed(method: string, resource: string, allowed: readonly string[]): ApiError {
  const allow = allowed.join(', ');
  return new ApiError('METHOD_NOT_ALLOWED', `${method} is not allowed on ${resource}. Use ${allow}.`, { allow });
}

/** The API's routes under its prefix, and the 405s and 404s they give. */
export interface ApiRoutes {
  /** Where a path under the prefix leads for a method; undefined when it is no route. */
  match(path: string, method: string): RouteMatch | undefined;
  /** The 405 for a method the route does not serve. */
  notAllowed(route: RouteMatch, method: string): ApiError;
  /**
   * The 405 `method` gets on a request target: its path's when it is a route of the API; for a
   * target that names no resource of the API (CONNECT's `host:port`, `*`, another path), every
   * method the API serves anywhere.
   */
  notAllowedOn(method: string, target: string): ApiError;
  /** The 404 for a path the API does not serve, naming what it serves. */
  notFound(method: string, path: string, { outside }: { outside: boolean }): ApiError;
}

export function apiRoutes(spec: LoadedSpec, prefix: string, { cors }: { cors: boolean }): ApiRoutes {
  const match = routeTable(spec);
  // OPTIONS is answered on every path when CORS is on (the preflight).
  const reserved = cors ? ['OPTIONS'] : [];
  const served = spec.operations.map((op) => `${op.method.toUpperCase()} ${prefix}${op.path}`).join(', ');
  const everywhere = [...new Set(spec.operations.flatMap((op) => (op.method === 'get' ? ['GET', 'HEAD'] : [op.method.toUpperCase()]))), ...reserved];
  const under = (path: string) => path === prefix || path.startsWith(`${prefix}/`);
  const notAllowed = (route: RouteMatch, method: string) => methodNotAllowed(method, `${prefix}${route.template}`, [...route.served, ...reserved]);
  const find = (path: string, method: string) => (under(path) ? match(path.slice(prefix.length) || '/', method) : undefined);
  // Where a method and path lead, kept for the pairs last asked (a client repeats its paths): a
  // RouteMatch is read only, so one serves every request to its path.
  const known = keptFor((id: string) => {
    const space = id.indexOf(' ');
    return find(id.slice(space + 1), id.slice(0, space));
  });
  return {
    // A method is a token (RFC 9110, 9.1): one with a space, handed over in process, is not kept.
    match: (path, method) => (method.includes(' ') ? find(path, method) : known(`${method} ${path}`)),
    notAllowed,
    notAllowedOn(method, target) {
      const path = target.split(/[?#]/)[0]!;
      const route = path.startsWith('/') && under(path) ? match(path.slice(prefix.length) || '/', method) : undefined;
      if (route) return notAllowed(route, method);
      return methodNotAllowed(method, target.startsWith('/') ? path : `the request target ${JSON.stringify(target.slice(0, 80))}`, everywhere);
    },
    notFound: (method, path, { outside }) => new ApiError('ROUTE_NOT_FOUND', outside ? `No route ${method} ${path}. The API lives under ${prefix}: ${served}.` : `No route ${method} ${path}. The API serves ${served}.`),
  };
}
