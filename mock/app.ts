import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { loadSpec, componentSchema, type LoadedSpec } from '../spec/loadSpec.ts';
import { compileSchema } from '../spec/compileSchema.ts';
import type { Pet, PetStatus } from '../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { AccessLog, type AccessLogSink } from './api/accessLog.ts';
import { recordAnswer } from './api/recordAnswer.ts';
import { apiContext } from './api/apiContext.ts';
import type { CorsOrigins } from './api/corsOptions.ts';
import { checkCorsOrigins } from './api/checkCorsOrigins.ts';
import { peekRate, setRateHeaders } from './api/guardPlugin.ts';
import { outageRateHeaders } from './api/outageRateHeaders.ts';
import type { Latency } from './api/latencyPlugin.ts';
import { RequestLogController } from './api/requestLogController.ts';
import { controlContext } from './control/controlContext.ts';
import { checkControlToken } from './control/controlTokenGuard.ts';
import { ApiError } from './errors/errorCatalogue.ts';
import { parseJsonBody } from './errors/parseJsonBody.ts';
import { logAnswerError } from './errors/logAnswerError.ts';
import { sendApiError } from './errors/sendApiError.ts';
import { toApiError } from './errors/toApiError.ts';
import { createPrismResponder, type PrismResponder } from './prism/prismResponder.ts';
import type { TrustProxy } from './server/parseTrustProxy.ts';
import type { Clock } from './state/clock.ts';
import type { ApiKeyConfig } from './state/keyRing.ts';
import { loadKeysFile } from './state/loadKeysFile.ts';
import { whenReady } from './state/awaitable.ts';
import { MockState, defaultBan, defaultMaxAnonymousBuckets, defaultRequestLogSize } from './state/mockState.ts';
import type { StateParts } from './state/stateParts.ts';
import { StoreUnavailableError } from './state/storeUnavailableError.ts';
import type { RedisState } from './redis/openRedisState.ts';
import type { BanPolicy } from './state/rateLimiter.ts';
import './api/routeConfig.ts';
import { API_PREFIX, CONTROL_PREFIX } from './core/prefixes.ts';

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

export interface RedisMockOptions {
  /** `redis://[user:password@]host[:port][/db]` or `rediss://…` (TLS). */
  url: string;
  /** Put before every key, so several mocks can share one Redis. Default `pets-mock:`. */
  prefix?: string | undefined;
  /** How long one Redis command may take before the request answers 503. Default 1000 ms. */
  commandTimeoutMs?: number | undefined;
  /** What this replica is called in the shared request log and its access log. Default `host:pid`. */
  replicaId?: string | undefined;
}

export const defaultBodyLimit = 1024 * 1024;

/** `trustProxy` as fastify takes it: a number of hops believes that many proxies nearest the mock. */
const fastifyTrustProxy = (trust: TrustProxy | undefined) => (typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : (trust ?? false));
const maxPreferDelayMs = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The mock's state (MockState in memory, RedisState in Redis), for tests and the CLI. */
    mock: StateParts;
  }
}

/** The Redis-backed state for these options (`options.redis` set); the server keeps one across reloads. */
export async function openRedisStateFor(options: Pick<MockOptions, 'redis' | 'clock' | 'ban' | 'requestLogSize'>, fixtures: readonly Pet[], keys: readonly ApiKeyConfig[], logger: { info(message: string): void; warn(message: string): void }): Promise<RedisState> {
  // Loaded only when asked for: an in-memory mock never loads the Redis client.
  const { openRedisState } = await import('./redis/openRedisState.ts');
  return openRedisState({
    ...options.redis!,
    fixtures,
    keys,
    clock: options.clock,
    ban: { ...defaultBan, ...options.ban },
    requestLogSize: options.requestLogSize ?? defaultRequestLogSize,
    logger,
  });
}

async function createState(options: MockOptions, spec: LoadedSpec, logger: { info(message: string): void; warn(message: string): void }): Promise<StateParts> {
  const fixtures = options.pets ?? (await loadPetsFile(defaultPetsFile, compileSchema(componentSchema(spec, 'Pets'))));
  const keys = options.keys ?? (await loadKeysFile(defaultKeysFile));
  if (options.redis) {
    if (options.startState) throw new Error('A start state (a state file) cannot be used with Redis: Redis holds the state and keeps it across restarts. Leave out one of them.');
    return openRedisStateFor(options, fixtures, keys, logger);
  }
  return MockState.create({
    fixtures,
    keys,
    startState: options.startState,
    clock: options.clock,
    ban: options.ban,
    requestLogSize: options.requestLogSize,
    maxAnonymousBuckets: options.maxAnonymousBuckets,
  });
}

/**
 * Builds a fresh mock with its own state. It never listens: the server does, tests use `inject()`.
 *
 * The root context holds only what every request needs before it is routed: the body limit, the
 * JSON-only content types, the validators, and answers for URLs no route takes. The API (/v1) and
 * the control API (/__mock) are two contexts of their own, each with its hooks and error handling.
 */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  // Before any state is opened: a token no client could send is refused with nothing to close.
  if (options.controlToken !== undefined) checkControlToken(options.controlToken, 'controlToken');
  if (options.corsOrigins) checkCorsOrigins(options.corsOrigins, 'corsOrigins');
  const spec = options.spec ?? (await loadSpec());
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const logLevel = options.logLevel ?? false;
  const corsOrigins = options.corsOrigins ?? ['*'];
  // Where the Redis connection reports an outage and a return: this app's log, once it exists.
  let appLog: { info(message: string): void; warn(message: string): void } | undefined;
  const state = options.state ?? (await createState(options, spec, { info: (m) => appLog?.info(m), warn: (m) => appLog?.warn(m) }));
  const ownsRedis = options.state === undefined && options.redis !== undefined;
  const ownPrism = options.prism === undefined;
  const prism = options.prism ?? createPrismResponder(spec, logLevel);

  const app = Fastify({
    bodyLimit,
    // Requests that reach an app being closed (a reload's old app) are answered, not given a non-contract 503.
    return503OnClosing: false,
    // Behind a proxy, the client's address (its anonymous rate-limit bucket) from X-Forwarded-For.
    trustProxy: fastifyTrustProxy(options.trustProxy),
    logger: logLevel === false ? false : { level: logLevel, stream: options.logStream ?? pino.destination({ dest: 1, sync: false }) },
    logController: new RequestLogController(),
    // A child logger per request only to add a request id costs more than the rest of the logging.
    childLoggerFactory: (logger) => logger,
    // find-my-way cuts path parameters at 100 characters and reports them as undecodable URLs; here
    // the schemas bound them (a key name of 256 characters, a petId in int64), with the right code.
    // Node's 16 KiB header limit already bounds a URL.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16 * 1024 },
    // A URL the router cannot decode never reaches a route: answer it from the catalogue too.
    frameworkErrors: (error, request, reply) => {
      const answer = () => void sendApiError(reply, new ApiError('BAD_REQUEST', `The URL ${JSON.stringify(request.url)} cannot be decoded (${error.message}). Percent-encode it correctly.`));
      whenReady(peekRate(request, state), (decision) => (setRateHeaders(reply, decision), answer()), (failure) => (setOutageRateHeaders(reply, request, failure), answer()));
    },
    schemaErrorFormatter: (errors, dataVar) => Object.assign(new Error(`${dataVar} is invalid`), { validation: errors }),
  });
  // Query and path parameters are coerced from strings; bodies never are (no "5" becoming 5).
  // int64 parameters are read as far as doubles go, so /v1/pets/9223372036854775807 is a 404, not a 400.
  const paramOptions = { coerceTypes: true, useDefaults: true, int64: 'range' } as const;
  app.setValidatorCompiler(({ schema, httpPart }) => compileSchema(schema, httpPart === 'body' ? {} : paramOptions));
  // Only JSON bodies are accepted: anything else is 415, not a string for the schema to reject.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  appLog = app.log;
  app.decorate('mock', state);
  // How many API answers this app has given: the client report's order of arrivals and answers.
  // Its id tells this app's numbers from another's (replicas on one Redis, in one process or many).
  app.decorate('answerOrder', { id: randomUUID().slice(0, 8), answered: 0 });
  // Answers stall rules hold go out when the mock that owns them closes, rather than never.
  if (options.state === undefined) app.addHook('onClose', (_, done) => (state.faults.stalls.close(), done()));
  if (ownsRedis) app.addHook('onClose', () => (state as StateParts & { close(): Promise<void> }).close());
  app.decorateRequest('mockRouteConfig', null);
  if (ownPrism) app.addHook('onClose', () => prism.close());
  const accessLog = options.accessLog ? new AccessLog(options.accessLog, { replica: state.log.replica }) : undefined;
  if (accessLog) app.addHook('onClose', (_, done) => (accessLog.flush(), done()));

  // Outside both contexts: errors before routing, and paths neither serves.
  // A body refused on a path outside both contexts (not JSON, malformed, too large) carries the
  // client's rate-limit headers too, as the 404 for the same path does.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = () => {
      const apiError = toApiError(error, request, { bodyLimit, context: 'api' });
      logAnswerError(request, error, apiError);
      void sendApiError(reply, apiError);
    };
    whenReady(peekRate(request, state), (decision) => (setRateHeaders(reply, decision), answer()), (failure) => (setOutageRateHeaders(reply, request, failure), answer()));
  });
  /** Where the store could not say where the client's bucket stands: the headers that are still knowable. */
  function setOutageRateHeaders(reply: FastifyReply, request: FastifyRequest, failure: Error): void {
    if (failure instanceof StoreUnavailableError) reply.headers(outageRateHeaders(request, state.keys));
  }
  const served = spec.operations.map((op) => `${op.method.toUpperCase()} ${API_PREFIX}${op.path}`).join(', ');
  app.setNotFoundHandler(async (request, reply) => {
    setRateHeaders(reply, await peekRate(request, state));
    // A frontend calling a path without /v1 finds its mistake in the request log and the access log.
    reply.raw.once('finish', () => recordAnswer(state, accessLog, request, reply, null));
    const path = request.url.split('?')[0] ?? '/';
    return sendApiError(reply, new ApiError('ROUTE_NOT_FOUND', `No route ${request.method} ${path}. The API lives under ${API_PREFIX}: ${served}.`));
  });

  await app.register(apiContext, {
    prefix: API_PREFIX,
    spec,
    state,
    prism,
    bodyLimit,
    corsOrigins,
    defaultStatus: options.defaultStatus === undefined ? 'available' : options.defaultStatus,
    latency: options.latency,
    accessLog,
    maxPreferDelayMs,
    strict: options.strict,
  });
  if (options.control !== false) {
    await app.register(controlContext, { prefix: CONTROL_PREFIX, spec, state, bodyLimit, corsOrigins, controlToken: options.controlToken, apiPrefix: API_PREFIX });
  }
  return app;
}
