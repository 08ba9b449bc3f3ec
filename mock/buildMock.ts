import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { openMock, type Mock, type MockOptions as CoreMockOptions } from './core/openMock.ts';
import { defaultBodyLimit } from './core/createMockCore.ts';
import { API_PREFIX, CONTROL_PREFIX } from './core/prefixes.ts';
import type { RedisStateConfig } from './core/openState.ts';
import { MockState, defaultBan, defaultMaxAnonymousBuckets, defaultRequestLogSize } from './state/mockState.ts';
import type { StateParts } from './state/stateParts.ts';
import type { TrustProxy } from './server/parseTrustProxy.ts';
import { mountMock } from './adapters/fastify.ts';

export { exposedHeaders } from './pipeline/corsOptions.ts';
export { defaultBodyLimit, defaultBan, defaultMaxAnonymousBuckets, defaultRequestLogSize, MockState };
export { API_PREFIX, CONTROL_PREFIX };

export interface MockOptions extends CoreMockOptions {
  /**
   * The proxies to believe about the client's address (X-Forwarded-For), which requests without a
   * valid key are counted by: a number of hops, or their addresses and ranges. Default: none, so
   * behind a proxy every such request shares the proxy's bucket.
   */
  trustProxy?: TrustProxy;
}

/** Where a Redis-backed mock keeps its state (`redis`). */
export type RedisMockOptions = RedisStateConfig;

declare module 'fastify' {
  interface FastifyInstance {
    /** The mock's state (MockState in memory, RedisState in Redis), for tests and the CLI. */
    mock: StateParts;
    /** The mock this app serves: its answers without fastify (`answer`, `handle`), its lifecycle. */
    petsMock: Mock;
  }
}

/**
 * Builds a fresh mock with its own state, as a fastify app serving it on every path. It never
 * listens: use `inject()` or `listen()`. The mock itself is openMock's; fastify only carries the
 * requests (adapters/fastify.ts), as Node's server does for pets-mock.
 */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const { trustProxy, ...mockOptions } = options;
  const mock = await openMock(mockOptions);
  let handle: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  const app = Fastify({
    // Requests that reach an app being closed are answered, not given a non-contract 503.
    return503OnClosing: false,
    // The mock writes its own logs (mock.log, the access log); fastify only carries requests.
    logger: false,
    // HEAD is the mock's to answer, as every other method.
    exposeHeadRoutes: false,
    // Node's 16 KiB header limit already bounds a URL.
    routerOptions: { maxParamLength: 16 * 1024 },
    // A URL the router cannot decode still goes to the mock, which answers it from the catalogue.
    frameworkErrors: (_error, request, reply) => void handle(request, reply),
  });
  app.decorate('mock', mock.state);
  app.decorate('petsMock', mock);
  app.addHook('onClose', () => mock.close());
  handle = mountMock(app, mock, { paths: 'all', bodyLimit: mock.bodyLimit, trustProxy });
  return app;
}
