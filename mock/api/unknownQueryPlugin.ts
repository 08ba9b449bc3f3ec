import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { LogThrottle } from './logThrottle.ts';
import { routeConfig } from './routeConfig.ts';

/** Names the query parameters an answer ignored, because the contract does not define them for its operation. */
export const ignoredQueryHeader = 'X-Mock-Ignored-Query';

export interface UnknownQueryOptions {
  spec: LoadedSpec;
  /** Refuse such a parameter with 400 UNKNOWN_QUERY_PARAMETER instead of ignoring it. */
  strict: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The query parameters the operation does not define, as sent; null when there are none. */
    unknownQuery: string[] | null;
  }
}

/** A name as the header shows it: as sent when it is plain visible ASCII, percent-encoded otherwise (a header holds no other bytes, and a comma would split the list). */
const shown = (name: string) => (/^[!-+\--~]{1,64}$/.test(name) ? name : encodeURIComponent(name.slice(0, 64)));
/** The most names one answer lists: a URL of a thousand made-up parameters gets a bounded header. */
const MAX_LISTED = 20;

const quoted = (names: readonly string[]) => names.map((name) => JSON.stringify(name)).join(', ');

/**
 * A query parameter the contract does not define for the operation (`?offset=100`, `?page=2`) is
 * never silently ignored: the answer names it in `X-Mock-Ignored-Query` (set before the key is
 * checked, so a 401 or 429 carries it too), the log warns once a minute per name, and under
 * `strict` it is refused with 400 UNKNOWN_QUERY_PARAMETER, after the key and the rate limit, as
 * the contract's own validation errors are. A developer paging with `offset` learns that the mock
 * answered page 1, instead of thinking the list is broken.
 */
const unknownQuery: FastifyPluginAsync<UnknownQueryOptions> = async (app, { spec, strict }) => {
  app.decorateRequest('unknownQuery', null);
  const defined = new Map(spec.operations.map((op) => [op.operationId, new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name))]));
  // A page polling with `?page=2` would otherwise fill the log.
  const throttle = new LogThrottle();

  function unknownOf(request: FastifyRequest): string[] | undefined {
    const operationId = routeConfig(request).operationId;
    const names = operationId === undefined ? undefined : defined.get(operationId);
    if (!names) return undefined;
    const unknown = Object.keys(request.query as object).filter((name) => name !== '' && !names.has(name));
    return unknown.length > 0 ? unknown : undefined;
  }

  function takes(request: FastifyRequest): string {
    const names = [...(defined.get(routeConfig(request).operationId!) ?? [])];
    return names.length === 0 ? 'takes no query parameters' : `takes only ${names.join(' and ')}`;
  }

  app.addHook('onRequest', (request, reply, done) => {
    // Most requests carry no query at all: keep their path short.
    if (!request.url.includes('?')) return done();
    const unknown = unknownOf(request);
    if (!unknown) return done();
    request.unknownQuery = unknown;
    const listed = unknown.slice(0, MAX_LISTED).map(shown);
    reply.header(ignoredQueryHeader, unknown.length > MAX_LISTED ? `${listed.join(', ')}, ...` : listed.join(', '));
    const fresh = throttle.fresh(unknown);
    if (fresh.length > 0) {
      const path = request.url.split('?')[0];
      const action = strict ? 'refuses it with 400 (--strict)' : `answers as if it were absent (--strict refuses it with 400); the answer names it in ${ignoredQueryHeader}`;
      request.log.warn({ ignoredQuery: fresh }, `${request.method} ${path} ${takes(request)}, not ${quoted(fresh)}: the contract does not define ${fresh.length === 1 ? 'it' : 'them'}, and the mock ${action}. Logged once a minute per name.`);
    }
    done();
  });

  if (strict) {
    app.addHook('preValidation', (request, _reply, done) => {
      const unknown = request.unknownQuery;
      if (!unknown) return done();
      const path = request.url.split('?')[0];
      const which = unknown.length === 1 ? `The query parameter ${quoted(unknown)} is` : `The query parameters ${quoted(unknown.slice(0, MAX_LISTED))}${unknown.length > MAX_LISTED ? ', ...' : ''} are`;
      done(new ApiError('UNKNOWN_QUERY_PARAMETER', `${which} not defined for ${request.method} ${path}, which ${takes(request)}. Remove ${unknown.length === 1 ? 'it' : 'them'}, or start the mock without --strict (strict: false) to have ${unknown.length === 1 ? 'it' : 'them'} ignored.`));
    });
  }
};

export const unknownQueryPlugin = fp(unknownQuery, { name: 'unknown-query' });
