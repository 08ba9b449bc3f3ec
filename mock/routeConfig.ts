// What a route tells the app-wide hooks about itself, through fastify's route config.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OpenAPI operation the route serves. */
    operationId?: string;
    /** Routes of the control API: no authentication, rate limits, latency or request log. */
    control?: boolean;
  }
}

export {};
