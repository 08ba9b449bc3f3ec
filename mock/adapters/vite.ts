// `import petsMock from 'pet-adoption-toolkit/vite'`: the mock served by Vite's own dev and preview servers.
import type { Logger, Plugin } from 'vite';
import { API_PREFIX } from '../core/prefixes.ts';
import type { PetsMockOptions } from './inProcessMock.ts';
import { petsMockMiddleware, type PetsMockMiddleware } from './petsMockMiddleware.ts';

export interface PetsMockPluginOptions extends Omit<PetsMockOptions, 'baseUrl'> {
  /**
   * The path on the dev server's origin the mock sits under: `/api` serves the API at `/api/v1` and
   * the control API at `/api/__mock`. Default: '' (`/v1` and `/__mock`, as `npx pets-mock` has them).
   */
  prefix?: string;
}

/**
 * A Vite plugin serving the mock on the dev server's own origin (so the page needs no CORS and no
 * second process): `plugins: [petsMock({ prefix: '/api' })]` answers `/api/v1/...` and
 * `/api/__mock/...` in Vite's process, exactly as `npx pets-mock` answers `/v1` and `/__mock`; every
 * other path is Vite's. It takes the options `buildMock` takes (`pets`, `keys`, `clock`, `latency`,
 * `controlToken`, ...). `vite` and `vite preview` each build their own mock, on the first request
 * for it, and free it when they close.
 */
export default function petsMock(options: PetsMockPluginOptions = {}): Plugin {
  const { prefix = '', ...mockOptions } = options;
  const basePath = `${checkedPrefix(prefix)}${API_PREFIX}`;
  const start = (logger: Logger) => {
    const log = { info: (message: string) => logger.info(message, { timestamp: true }), error: (message: string) => logger.error(message, { timestamp: true }) };
    return petsMockMiddleware({ ...mockOptions, basePath, configuredIn: 'the options given to petsMock() in the Vite config', log });
  };
  // A dev server's mock is found again, when the server closes, by the server's client environment:
  // the plugin's `buildEnd` runs then with that environment as `this.environment` (Vite 6 and later).
  // A restart builds the new server before closing the old one, so both may be open at once. Vite 5
  // has no environments: there a closing server's mock is the oldest one open, which is the old
  // server's on a restart.
  const devMocks = new Map<object, PetsMockMiddleware>();

  return {
    name: 'pet-adoption-toolkit:pets-mock',
    configureServer(server) {
      const middleware = start(server.config.logger);
      devMocks.set((server as { environments?: { client?: object } }).environments?.client ?? server, middleware);
      // Added now, so it runs before Vite serves files (transforms, static files, the SPA fallback); Vite's
      // host check and CORS run before it, as for every path of the dev server, and Vite answers OPTIONS.
      server.middlewares.use(middleware);
    },
    async buildEnd() {
      const key = (this as { environment?: object }).environment ?? devMocks.keys().next().value;
      const middleware = key === undefined ? undefined : devMocks.get(key);
      if (!middleware) return;
      devMocks.delete(key!);
      await middleware.close();
    },
    configurePreviewServer(server) {
      const middleware = start(server.config.logger);
      server.middlewares.use(middleware);
      // A preview server always listens, and has no plugin hook at its close before Vite 8: its HTTP server's close is the one sign.
      server.httpServer.once('close', () => void middleware.close());
    },
  };
}

/** The prefix as a path with no trailing slash (`/api`), or a TypeError saying how to write it. */
function checkedPrefix(prefix: string): string {
  if (typeof prefix !== 'string' || (prefix !== '' && !/^\/[^?#]*$/.test(prefix))) {
    throw new TypeError(`petsMock({ prefix: ${JSON.stringify(prefix)} }) is not a path on the dev server: give one starting with "/", such as "/api", or leave it out to serve at /v1.`);
  }
  return prefix.replace(/\/+$/, '');
}
