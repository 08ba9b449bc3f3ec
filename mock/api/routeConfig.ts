import type { FastifyContextConfig, FastifyRequest } from 'fastify';

// What a route tells the app-wide hooks about itself, through fastify's route config.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OpenAPI operation the route serves. */
    operationId?: string;
    /** Routes that only say a method is wrong: counted, but answered without a key. */
    keyless?: boolean;
  }
  interface FastifyRequest {
    /** The route's config, read once (see routeConfig). */
    mockRouteConfig: FastifyContextConfig | null;
  }
}

/**
 * The config of the request's route. fastify's `request.routeOptions` builds a new object on every
 * read, and half a dozen hooks ask on every request, so the answer is kept on the request
 * (declared with `decorateRequest('mockRouteConfig', null)` in the app).
 */
export function routeConfig(request: FastifyRequest): FastifyContextConfig {
  return (request.mockRouteConfig ??= request.routeOptions.config);
}
