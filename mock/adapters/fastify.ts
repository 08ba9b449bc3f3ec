// The mock inside a fastify app: `app.register(petsMockPlugin, options)` serves the API under /v1
// and the control API under /__mock in the user's own app, beside its routes; buildMock() is a
// fastify app holding nothing else. fastify only carries requests: the mock decides every answer.
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { openMock, type Mock, type MockOptions } from '../core/openMock.ts';
import { API_PREFIX, CONTROL_PREFIX } from '../core/prefixes.ts';
import type { TrustProxy } from '../server/parseTrustProxy.ts';
import { answerRaw } from './nodeHttp.ts';
import { clientAddressOf } from './clientAddress.ts';

export interface PetsMockPluginOptions extends MockOptions {
  /** A mock opened by the caller, who closes it; when absent, the plugin opens one from the options and closes it with the app. */
  mock?: Mock;
  /**
   * The proxies to believe about the client's address (X-Forwarded-For), which requests without a
   * valid key are counted by: a number of hops, or their addresses and ranges. Default: none, so
   * behind a proxy every such request shares the proxy's bucket.
   */
  trustProxy?: TrustProxy;
}

/** Where the mock answers in a fastify app: its own paths beside the app's routes, or every path (buildMock). */
export interface MountOptions {
  /** 'own': /v1 and /__mock; 'all': every path and method, including what fastify itself would refuse. */
  paths: 'own' | 'all';
  bodyLimit: number;
  trustProxy?: TrustProxy | undefined;
}

/**
 * Routes requests of `app` to `mock`: each handed over as Node gave it (answerRaw), its body
 * unread by fastify, so the mock decides what it refuses (415, 413) in its own order (after the
 * key and the rate limit).
 */
export function mountMock(app: FastifyInstance, mock: Mock, { paths, bodyLimit, trustProxy }: MountOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const clientAddress = clientAddressOf(trustProxy);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    // Stamped before anything is awaited: when the client sent it, as near as the mock knows.
    const arrivedAt = mock.arrival();
    reply.hijack();
    // The raw request is the body's stream: fastify's pass-through parser has not read it.
    await answerRaw(mock, { req: request.raw, res: reply.raw, ip: clientAddress(request.raw), arrivedAt }, { bodyLimit, log: mock.log });
  };
  const urls = paths === 'all' ? ['/*'] : [API_PREFIX, `${API_PREFIX}/*`, CONTROL_PREFIX, `${CONTROL_PREFIX}/*`];
  for (const url of urls) app.route({ method: app.supportedMethods, url, handler });
  if (paths === 'all') {
    // What fastify itself refuses before a route (a malformed Content-Type, a QUERY without one),
    // and a method no route can carry (PROPFIND is still a 405 with Allow), go to the mock too.
    app.setErrorHandler((_error, request, reply) => handler(request, reply));
    app.setNotFoundHandler(handler);
  }
  return handler;
}

/**
 * A fastify plugin serving the mock in the app it is registered in: the API under /v1 and the
 * control API under /__mock, exactly as `npx pets-mock` serves them. It takes buildMock's options,
 * or a mock already opened (`mock`).
 */
export const petsMockPlugin: FastifyPluginAsync<PetsMockPluginOptions> = async (app, options) => {
  const { mock: given, trustProxy, ...mockOptions } = options;
  const mock = given ?? (await openMock(mockOptions));
  if (!given) app.addHook('onClose', () => mock.close());
  mountMock(app, mock, { paths: 'own', bodyLimit: mock.bodyLimit, trustProxy });
};
