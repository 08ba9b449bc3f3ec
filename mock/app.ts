import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { loadSpec, componentSchema, type LoadedSpec } from '../spec/loadSpec.ts';
import { compileSchema } from '../spec/compileSchema.ts';
import type { Pet, PetStatus } from '../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { AccessLog, type AccessLogSink } from './api/accessLog.ts';
import type { CorsOrigins } from './api/corsOptions.ts';
import { checkCorsOrigins } from './api/checkCorsOrigins.ts';
import type { Latency } from './api/parseLatency.ts';
import { RequestLogController } from './api/requestLogController.ts';
import { checkControlToken } from './control/controlTokenGuard.ts';
import { createMockCore, type MockCore } from './core/createMockCore.ts';
import { API_PREFIX, CONTROL_PREFIX } from './core/prefixes.ts';
import { createPrismResponder, type PrismResponder } from './prism/prismResponder.ts';
import { serveCore } from './server/serveCore.ts';
import { clientAddressOf, serveNode } from './server/serveNode.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TrustProxy } from './server/parseTrustProxy.ts';
import type { Clock } from './state/clock.ts';
import type { ApiKeyConfig } from './state/keyRing.ts';
import { loadKeysFile } from './state/loadKeysFile.ts';
import { MockState, defaultBan, defaultMaxAnonymousBuckets, defaultRequestLogSize } from './state/mockState.ts';
import { openState, type OpenedState, type RedisStateConfig } from './state/openState.ts';
import type { StateParts } from './state/stateParts.ts';
import type { BanPolicy } from './state/rateLimiter.ts';

export { exposedHeaders } from './api/corsOptions.ts';
export { defaultBan, defaultMaxAnonymousBuckets, defaultRequestLogSize, MockState };

export { API_PREFIX, CONTROL_PREFIX };

export interface MockOptions {
  /** The loaded OpenAPI document; read from spec/openapi.yaml when absent. */
  spec?: LoadedSpec;
  /** The pets the store starts with and goes back to on reset; read from fixtures/pets.json when absent. */
  pets?: readonly Pet[];
  /** The state to start from instead of `pets` (a state file). */
  startState?: { pets: readonly Pet[]; nextId: number };
  /** The accepted API keys; read from fixtures/keys.json when absent. */
  keys?: readonly ApiKeyConfig[];
  /** The clock the mock's own clock runs on. Default: the system clock. */
  clock?: Clock;
  /** Allowed CORS origins (`*` for any), or false to turn CORS off. Default: any origin. */
  corsOrigins?: CorsOrigins;
  /** Largest request body in bytes. Default: 1 MiB. */
  bodyLimit?: number;
  /** Ban a key after this many refused requests in one throttled spell, for this long. */
  ban?: Partial<BanPolicy>;
  /** The status given to a pet created without one; null leaves it absent. Default: available. */
  defaultStatus?: PetStatus | null;
  /** fastify's log level, or false for no logs. Default: false (the CLI turns logs on). */
  logLevel?: string | false;
  /** Where log lines go. Default: standard output. */
  logStream?: { write(text: string): unknown };
  /** Where the access log (a line per API request) goes; off when absent. */
  accessLog?: AccessLogSink;
  /** Serve the control API under /__mock. Default: true. */
  control?: boolean;
  /**
   * When set, every control API request must carry `Authorization: Bearer <controlToken>`, or it
   * is refused with 401 (a shared sandbox). Default: none, the control API is open (local use).
   */
  controlToken?: string | undefined;
  /** Latency added to every API answer. */
  latency?: Latency;
  /**
   * Refuse a query parameter the spec does not define for the operation (`?offset=100`) with 400
   * UNKNOWN_QUERY_PARAMETER. Default: false, such a parameter is ignored, named in the answer's
   * `X-Mock-Ignored-Query` header and in a warning in the log.
   */
  strict?: boolean;
  /** How many requests the request log keeps. Default: 1000. */
  requestLogSize?: number;
  /** How many client addresses the anonymous rate limit keeps counts for. Default: 10,000. */
  maxAnonymousBuckets?: number;
  /**
   * The proxies to believe about the client's address (X-Forwarded-For), which requests without a
   * valid key are counted by: a number of hops, or their addresses and ranges. Default: none, so
   * behind a proxy every such request shares the proxy's bucket.
   */
  trustProxy?: TrustProxy;
  /**
   * Keep the state in Redis, shared with every mock on the same Redis and prefix (issue 13): the
   * app opens the connection, seeds an empty Redis with `pets` and `keys`, and closes it with the app.
   * Without it the state is in memory.
   */
  redis?: RedisMockOptions;
  /**
   * The state to serve, built by the caller (the server builds it, and a new one on reload), and
   * closed by the caller. When absent, a fresh one is made from `pets`, `startState`, `keys`,
   * `clock`, `ban` and the sizes: in Redis with `redis`, in memory otherwise.
   */
  state?: StateParts;
  /**
   * The Prism answering `Prefer` and the operations without a stateful handler. The server keeps
   * one across reloads; when absent, the app makes its own (loaded in a worker on first use) and
   * closes it with the app.
   */
  prism?: PrismResponder;
}

/** Where a Redis-backed mock keeps its state (`redis`). */
export type RedisMockOptions = RedisStateConfig;

export const defaultBodyLimit = 1024 * 1024;


declare module 'fastify' {
  interface FastifyInstance {
    /** The mock's state (MockState in memory, RedisState in Redis), for tests and the CLI. */
    mock: StateParts;
    /**
     * Answers a request of Node's HTTP server with this app's core, as the app's own routing would
     * but without fastify's request lifecycle: what the `pets-mock` server hands requests to.
     */
    handleNode(req: IncomingMessage, res: ServerResponse): void;
    /** The app's framework-free core: what the in-process adapters hand requests to. */
    core: MockCore;
  }
}

/** The state buildMock opens for itself when it is given none: from `pets` (or the fixtures file), `keys`, and the rest. */
async function openOwnState(options: MockOptions, spec: LoadedSpec, logger: { info(message: string): void; warn(message: string): void }): Promise<OpenedState> {
  return openState({
    fixtures: options.pets ?? (await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets')))),
    keys: options.keys ?? (await loadKeysFile(defaultKeysFile)),
    startState: options.startState,
    clock: options.clock,
    ban: options.ban,
    requestLogSize: options.requestLogSize,
    maxAnonymousBuckets: options.maxAnonymousBuckets,
    redis: options.redis,
    logger,
  });
}

/**
 * Builds a fresh mock with its own state. It never listens: the server does, tests use `inject()`.
 * fastify is a thin host (serveCore): every request goes to the framework-free core (mock/core),
 * which the MSW, Playwright and browser hosts run too, so every host answers alike.
 */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  // Before any state is opened: a token no client could send is refused with nothing to close.
  if (options.controlToken !== undefined) checkControlToken(options.controlToken, 'controlToken');
  if (options.corsOrigins) checkCorsOrigins(options.corsOrigins, 'corsOrigins');
  const spec = options.spec ?? (await loadSpec());
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const logLevel = options.logLevel ?? false;
  // Where the Redis connection reports an outage and a return: this app's log, once it exists.
  let appLog: { info(message: string): void; warn(message: string): void } | undefined;
  const owned = options.state ? undefined : await openOwnState(options, spec, { info: (m) => appLog?.info(m), warn: (m) => appLog?.warn(m) });
  const state = options.state ?? owned!.current;
  const ownPrism = options.prism === undefined;
  const prism = options.prism ?? createPrismResponder(spec, logLevel);

  const app = Fastify({
    // Requests that reach an app being closed (a reload's old app) are answered, not given a non-contract 503.
    return503OnClosing: false,
    logger: logLevel === false ? false : { level: logLevel, stream: options.logStream ?? pino.destination({ dest: 1, sync: false }) },
    logController: new RequestLogController(),
    // A child logger per request only to add a request id costs more than the rest of the logging.
    childLoggerFactory: (logger) => logger,
    // HEAD is the core's to answer, as every other method.
    exposeHeadRoutes: false,
    // Node's 16 KiB header limit already bounds a URL.
    routerOptions: { maxParamLength: 16 * 1024 },
    // A URL the router cannot decode still goes to the core, which answers it from the catalogue.
    frameworkErrors: (_error, request, reply) => void handle(request, reply),
  });
  appLog = app.log;
  const accessLog = options.accessLog ? new AccessLog(options.accessLog, { replica: state.log.replica }) : undefined;
  const core = createMockCore({
    spec,
    state,
    corsOrigins: options.corsOrigins,
    bodyLimit,
    defaultStatus: options.defaultStatus,
    strict: options.strict,
    latency: options.latency,
    control: options.control,
    controlToken: options.controlToken,
    examples: prism,
    log: logLevel === false ? undefined : app.log,
    onAnswer: accessLog ? (answered) => accessLog.record(answered) : undefined,
  });
  app.decorate('mock', state);
  // A state the app opened closes with it: answers stall rules hold go out rather than never, and a Redis connection closes.
  if (owned) app.addHook('onClose', () => owned.close());
  if (ownPrism) app.addHook('onClose', () => prism.close());
  if (accessLog) app.addHook('onClose', (_, done) => (accessLog.flush(), done()));
  // Behind a proxy, the client's address (its anonymous rate-limit bucket) from X-Forwarded-For: one reading for both hosts.
  const clientAddress = clientAddressOf(options.trustProxy);
  const handle = serveCore(app, core, { bodyLimit, clientAddress });
  app.decorate('core', core);
  app.decorate('handleNode', serveNode(core, { bodyLimit, clientAddress, log: app.log }));
  return app;
}
