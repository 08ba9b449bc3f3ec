import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { pino } from 'pino';
import { loadSpec, type LoadedSpec } from '../spec/loadSpec.ts';
import { createAjv } from '../spec/createAjv.ts';
import type { Pet, PetStatus } from '../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadKeysFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { MockClock, systemClock, type Clock } from './state/clock.ts';
import { controlRoutes } from './control/controlContext.ts';
import { installErrorHandling, sendApiError } from './errors/errorHandling.ts';
import { ApiError } from './errors/errorCatalogue.ts';
import { KeyRing, type ApiKeyConfig } from './state/keyRing.ts';
import { PetStore } from './state/petStore.ts';
import { createPrismResponder } from './prism/prismResponder.ts';
import { RateLimiter, type BanPolicy } from './state/rateLimiter.ts';
import { RequestLog } from './state/requestLog.ts';
import { RequestLogController } from './api/requestLogController.ts';
import { deprecationPlugin } from './api/deprecationPlugin.ts';
import { guardPlugin, peekRate, setRateHeaders } from './api/guardPlugin.ts';
import { latencyPlugin, type Latency } from './api/latencyPlugin.ts';
import { preferPlugin } from './api/preferPlugin.ts';
import { methodNotAllowedRoutes } from './api/methodNotAllowedRoutes.ts';
import { petsOperationIds, petsRoutes } from './api/petsRoutes.ts';
import { prismRoutes } from './api/prismRoutes.ts';
import { routeConfig } from './api/routeConfig.ts';

export const API_PREFIX = '/v1';
export const CONTROL_PREFIX = '/__mock';

/** Headers a browser page may read from the mock's answers. */
export const exposedHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Deprecation', 'Sunset', 'WWW-Authenticate', 'Preference-Applied'];

export interface MockOptions {
  /** The loaded OpenAPI document; read from spec/openapi.yaml when absent. */
  spec?: LoadedSpec;
  /** The pets the store starts with and goes back to on reset; read from fixtures/pets.json when absent. */
  pets?: readonly Pet[];
  /** The state to start from instead of `pets` (a state file, or the pets kept across a reload). */
  startState?: { pets: readonly Pet[]; nextId: number };
  /** The accepted API keys; read from fixtures/keys.json when absent. */
  keys?: readonly ApiKeyConfig[];
  /** The clock the mock's own clock runs on. Default: the system clock. */
  clock?: Clock;
  /** Allowed CORS origins (`*` for any), or false to turn CORS off. Default: any origin. */
  corsOrigins?: readonly string[] | false;
  /** Largest request body in bytes. Default: 1 MiB. */
  bodyLimit?: number;
  /** Ban a key after this many refused requests in one throttled spell, for this long. */
  ban?: Partial<BanPolicy>;
  /** The status given to a pet created without one; null leaves it absent. Default: available. */
  defaultStatus?: PetStatus | null;
  /** fastify's log level, or false for no logs. Default: false (the CLI turns logs on). */
  logLevel?: string | false;
  /** Serve the control API under /__mock. Default: true. */
  control?: boolean;
  /** Latency added to every API answer. */
  latency?: Latency;
  /** How many requests the request log keeps. Default: 1000. */
  requestLogSize?: number;
  /** How many client addresses the anonymous rate limit keeps counts for. Default: 10,000. */
  maxAnonymousBuckets?: number;
  /** A previous mock whose keys, counters, clock and request log this one takes over (a reload). */
  carry?: MockState;
}

export const defaultBodyLimit = 1024 * 1024;
export const defaultBan: BanPolicy = { threshold: 20, seconds: 300 };
export const defaultRequestLogSize = 1000;
export const defaultMaxAnonymousBuckets = 10_000;
const maxPreferDelayMs = 60_000;

export interface MockState {
  store: PetStore;
  keys: KeyRing;
  limiter: RateLimiter;
  anonymousLimiter: RateLimiter;
  clock: MockClock;
  log: RequestLog;
  spec: LoadedSpec;
  /** The pets a reset goes back to. */
  fixtures: readonly Pet[];
  /** Puts the mock back as it started: fixtures, keys, counters and bans, request log, clock. */
  reset(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The mock's state, for tests, the control API and the CLI. */
    mock: MockState;
  }
}

/** Builds a fresh mock with its own state. It never listens: the CLI does, tests use `inject()`. */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const spec = options.spec ?? (await loadSpec());
  const fixtures = options.pets ?? (await loadPetsFile(defaultPetsFile, createAjv(), spec.document.components!.schemas!.Pets!));
  const keyConfigs = options.keys ?? (await loadKeysFile(defaultKeysFile));
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const logLevel = options.logLevel ?? false;

  const carry = options.carry;
  const clock = carry?.clock ?? new MockClock(options.clock ?? systemClock);
  const store = new PetStore();
  store.replaceAll(options.startState?.pets ?? fixtures, options.startState?.nextId);
  const keys = carry?.keys ?? new KeyRing(keyConfigs);
  const ban = { ...defaultBan, ...options.ban };
  const limiter = carry?.limiter ?? new RateLimiter(clock, ban);
  const anonymousLimiter = carry?.anonymousLimiter ?? new RateLimiter(clock, ban, { maxBuckets: options.maxAnonymousBuckets ?? defaultMaxAnonymousBuckets });
  const log = carry?.log ?? new RequestLog(options.requestLogSize ?? defaultRequestLogSize);
  const state: MockState = {
    store, keys, limiter, anonymousLimiter, clock, log, spec, fixtures,
    reset() {
      store.replaceAll(fixtures);
      keys.replaceAll(keyConfigs);
      limiter.clear();
      anonymousLimiter.clear();
      log.clear();
      clock.reset();
    },
  };

  const app = Fastify({
    bodyLimit,
    // Asynchronous writes: under load, lines are gathered into few writes instead of a write each.
    logger: logLevel === false ? false : { level: logLevel, stream: pino.destination({ dest: 1, sync: false }) },
    logController: new RequestLogController(logLevel === 'debug' || logLevel === 'trace'),
    // The request line carries method and URL; a child logger per request only to add a request
    // id costs more than the rest of the logging.
    childLoggerFactory: (logger) => logger,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL the router cannot decode never reaches a route: answer it from the catalogue too.
    frameworkErrors: (error, request, reply) => {
      setRateHeaders(reply, peekRate(request, { keys, limiter, anonymousLimiter }));
      sendApiError(reply, new ApiError('BAD_REQUEST', `The URL ${JSON.stringify(request.url)} cannot be decoded (${error.message}). Percent-encode it correctly.`));
    },
    schemaErrorFormatter: (errors, dataVar) => Object.assign(new Error(`${dataVar} is invalid`), { validation: errors }),
  });
  // Query and path parameters are coerced from strings; bodies never are (no "5" becoming 5).
  // int64 parameters are read as far as doubles go, so /v1/pets/9223372036854775807 is a 404, not a 400.
  const paramAjv = createAjv({ coerceTypes: true, useDefaults: true, int64: 'range' });
  const bodyAjv = createAjv();
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema));
  // Only JSON bodies are accepted: anything else is 415, not a string for the schema to reject.
  app.removeContentTypeParser('text/plain');

  app.decorate('mock', state);
  app.decorateRequest('mockRouteConfig', null);

  const routes = spec.operations.map((op) => `${op.method.toUpperCase()} ${API_PREFIX}${op.path}`);
  installErrorHandling(app, { bodyLimit, routes });

  app.addHook('onResponse', (request, reply, done) => {
    if (!routeConfig(request).control) {
      log.add({ at: clock.now(), method: request.method, url: request.url, status: reply.statusCode, key: request.apiKey?.label ?? null, ms: Math.round(reply.elapsedTime * 10) / 10 });
    }
    done();
  });

  if (options.corsOrigins !== false) {
    const origins = options.corsOrigins ?? ['*'];
    await app.register(cors, {
      origin: origins.includes('*') ? '*' : [...origins],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Prefer'],
      exposedHeaders,
      maxAge: 600,
      strictPreflight: false,
    });
  }
  const prism = createPrismResponder(spec, logLevel === false ? 'silent' : logLevel);
  await app.register(guardPlugin, { keys, limiter, anonymousLimiter });
  await app.register(preferPlugin, { spec, prism, clock, maxDelayMs: maxPreferDelayMs });
  await app.register(latencyPlugin, { ...(options.latency ? { latency: options.latency } : {}) });
  await app.register(deprecationPlugin, { spec });

  await app.register(async (api) => {
    await api.register(petsRoutes, { spec, store, defaultStatus: options.defaultStatus === undefined ? 'available' : options.defaultStatus });
    await api.register(prismRoutes, { spec, skip: petsOperationIds, prism });
    await api.register(methodNotAllowedRoutes, { spec, reserved: options.corsOrigins === false ? [] : ['OPTIONS'] });
  }, { prefix: API_PREFIX });

  if (options.control !== false) {
    await app.register(controlRoutes, { spec, store, keys, clock, log, ajv: bodyAjv, reset: state.reset, prefix: CONTROL_PREFIX });
  }

  return app;
}
