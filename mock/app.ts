import Fastify, { type FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import { loadSpec, type LoadedSpec } from '../spec/loadSpec.ts';
import { createAjv } from '../spec/createAjv.ts';
import type { Pet, PetStatus } from '../spec/types.ts';
import { defaultKeysFile, defaultPetsFile, loadKeysFile, loadPetsFile } from '../fixtures/loadFixtures.ts';
import { systemClock, type Clock } from './clock.ts';
import { installErrorHandling, sendApiError } from './errorHandling.ts';
import { ApiError } from './errors.ts';
import { KeyRing, type ApiKeyConfig } from './keyRing.ts';
import { PetStore } from './petStore.ts';
import { RateLimiter, type BanPolicy } from './rateLimiter.ts';
import { guardPlugin, peekRate, setRateHeaders } from './plugins/guardPlugin.ts';
import { deprecationPlugin } from './plugins/deprecationPlugin.ts';
import { petsOperationIds, petsRoutes } from './routes/petsRoutes.ts';
import { prismRoutes } from './routes/prismRoutes.ts';
import { methodNotAllowedRoutes } from './routes/methodNotAllowedRoutes.ts';
import { RequestLogController } from './requestLogController.ts';

export const API_PREFIX = '/v1';

/** Headers a browser page may read from the mock's answers. */
export const exposedHeaders = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Deprecation', 'Sunset', 'WWW-Authenticate'];

export interface MockOptions {
  /** The loaded OpenAPI document; read from spec/openapi.yaml when absent. */
  spec?: LoadedSpec;
  /** The pets the store starts with; read from fixtures/pets.json when absent. */
  pets?: readonly Pet[];
  /** The accepted API keys; read from fixtures/keys.json when absent. */
  keys?: readonly ApiKeyConfig[];
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
}

export const defaultBodyLimit = 1024 * 1024;
export const defaultBan: BanPolicy = { threshold: 20, seconds: 300 };

declare module 'fastify' {
  interface FastifyInstance {
    /** The mock's state, for tests and the control API. */
    mock: { store: PetStore; keys: KeyRing; limiter: RateLimiter; spec: LoadedSpec; clock: Clock };
  }
}

/** Builds a fresh mock with its own state. It never listens: the CLI does, tests use `inject()`. */
export async function buildMock(options: MockOptions = {}): Promise<FastifyInstance> {
  const spec = options.spec ?? (await loadSpec());
  const pets = options.pets ?? (await loadPetsFile(defaultPetsFile, createAjv(), spec.document.components!.schemas!.Pets!));
  const keyConfigs = options.keys ?? (await loadKeysFile(defaultKeysFile));
  const clock = options.clock ?? systemClock;
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const logLevel = options.logLevel ?? false;

  const store = new PetStore(pets);
  const keys = new KeyRing(keyConfigs);
  const limiter = new RateLimiter(clock, { ...defaultBan, ...options.ban });

  const app = Fastify({
    bodyLimit,
    logger: logLevel === false ? false : { level: logLevel },
    logController: new RequestLogController(),
    routerOptions: { ignoreTrailingSlash: true },
    // Query and path parameters are coerced from strings; bodies never are (no "5" becoming 5).
    // A URL the router cannot decode never reaches a route: answer it from the catalogue too.
    frameworkErrors: (error, request, reply) => {
      setRateHeaders(reply, peekRate(request, keys, limiter));
      sendApiError(reply, new ApiError('BAD_REQUEST', `The URL ${JSON.stringify(request.url)} cannot be decoded (${error.message}). Percent-encode it correctly.`));
    },
    schemaErrorFormatter: (errors, dataVar) => Object.assign(new Error(`${dataVar} is invalid`), { validation: errors }),
  });
  const paramAjv = createAjv({ coerceTypes: true, useDefaults: true });
  const bodyAjv = createAjv();
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema));
  // Only JSON bodies are accepted: anything else is 415, not a string for the schema to reject.
  app.removeContentTypeParser('text/plain');

  app.decorate('mock', { store, keys, limiter, spec, clock });

  const routes = spec.operations.map((op) => `${op.method.toUpperCase()} ${API_PREFIX}${op.path}`);
  installErrorHandling(app, { bodyLimit, routes });

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
  await app.register(guardPlugin, { keys, limiter });
  await app.register(deprecationPlugin, { spec });

  await app.register(async (api) => {
    await api.register(petsRoutes, { spec, store, defaultStatus: options.defaultStatus === undefined ? 'available' : options.defaultStatus });
    await api.register(prismRoutes, { spec, skip: petsOperationIds, prismLogLevel: logLevel === false ? 'silent' : logLevel });
    await api.register(methodNotAllowedRoutes, { spec, reserved: options.corsOrigins === false ? [] : ['OPTIONS'] });
  }, { prefix: API_PREFIX });

  return app;
}
