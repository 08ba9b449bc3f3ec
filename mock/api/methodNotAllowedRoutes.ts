import type { FastifyPluginAsync, HTTPMethods } from 'fastify';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { toFastifyPath } from './routeSchema.ts';

export interface MethodNotAllowedOptions {
  spec: LoadedSpec;
  /** Methods some other plugin answers on every path (OPTIONS, when CORS is on). */
  reserved: readonly string[];
}

const allMethods: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A known path with an unknown method is 405 with `Allow` listing what the path serves (RFC 9110, 15.5.6). */
export const methodNotAllowedRoutes: FastifyPluginAsync<MethodNotAllowedOptions> = async (app, { spec, reserved }) => {
  const byPath = new Map<string, Set<string>>();
  for (const op of spec.operations) {
    const methods = byPath.get(op.path) ?? new Set<string>();
    methods.add(op.method.toUpperCase());
    if (op.method === 'get') methods.add('HEAD');
    byPath.set(op.path, methods);
  }
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
};
