import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { toFastifyPath } from './routeSchema.ts';
import { namedContext } from '../namedContext.ts';

export interface MethodNotAllowedOptions {
  spec: LoadedSpec;
  /** Methods some other plugin answers on every path (OPTIONS, when CORS is on). */
  reserved: readonly string[];
}

const allMethods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods each path of the spec serves (GET brings HEAD). */
function methodsByPath(spec: LoadedSpec): Map<string, Set<string>> {
  const byPath = new Map<string, Set<string>>();
  for (const op of spec.operations) {
    const methods = byPath.get(op.path) ?? new Set<string>();
    methods.add(op.method.toUpperCase());
    if (op.method === 'get') methods.add('HEAD');
    byPath.set(op.path, methods);
  }
  return byPath;
}

/**
 * For methods the router has no route for at all (PROPFIND, TRACE, ...): the `Allow` header of
 * the spec path a URL (under `prefix`) matches, or undefined when it matches none.
 */
export function allowedMethods(spec: LoadedSpec, prefix: string, reserved: readonly string[]): (path: string) => string | undefined {
  const patterns = [...methodsByPath(spec)].map(([path, served]) => ({
    pattern: new RegExp(`^${(prefix + path).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`),
    allow: [...served, ...reserved].join(', '),
  }));
  return (path) => patterns.find(({ pattern }) => pattern.test(path))?.allow;
}

/** A known path with an unknown method is 405 with `Allow` listing what the path serves (RFC 9110, 15.5.6). */
export const methodNotAllowedRoutes: FastifyPluginAsync<MethodNotAllowedOptions> = namedContext('method-not-allowed-routes', async (app, { spec, reserved }) => {
  const byPath = methodsByPath(spec);
  for (const [path, served] of byPath) {
    const allow = [...served, ...reserved].join(', ');
    const missing = allMethods.filter((m) => !served.has(m) && !reserved.includes(m));
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url: toFastifyPath(path),
      config: { keyless: true },
      handler: async (request) => {
        throw new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${app.prefix}${path}. Use ${allow}.`, { allow });
      },
    });
  }
});
