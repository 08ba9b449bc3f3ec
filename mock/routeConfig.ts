// What a route tells the app-wide hooks about itself, through fastify's route config.
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OpenAPI operation the route serves. */
    operationId?: string;
    /** Routes outside the API (the control API) skip authentication and rate limits. */
    unguarded?: boolean;
  }
}

export {};
