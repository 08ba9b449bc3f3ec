// The mock as one object, whatever hosts it: its state, clock, keys, fault rules, Prism, logs and
// lifecycle (open, reload, close), answering requests through the framework-free core. Every host
// adapts it: Node's HTTP server (pets-mock), fastify (buildMock and the plugin), MSW, Playwright
// and the Vite dev server.
import { isDeepStrictEqual } from 'node:util';
import { pino, type Logger } from 'pino';
import { loadSpec, componentSchema, type LoadedSpec } from '../../spec/loadSpec.ts';
import { compileExactSchema } from '../../spec/compileExactSchema.ts';
import type { PetStatus } from '../../spec/types.ts';
import type { StoredPet as Pet } from '../state/petJson.ts';
import { defaultKeysFile, defaultPetsFile, loadPetsFile } from '../../fixtures/loadFixtures.ts';
import { AccessLog, type AccessLogSink } from '../pipeline/accessLog.ts';
import type { CorsOrigins } from '../pipeline/corsOptions.ts';
import { checkCorsOrigins } from '../pipeline/checkCorsOrigins.ts';
import type { Latency } from '../pipeline/latency.ts';
import { checkControlToken } from '../control/controlTokenGuard.ts';
import { createPrismResponder, type PrismResponder } from '../prism/prismResponder.ts';
import type { Clock } from '../state/clock.ts';
import type { ApiKeyConfig } from '../state/keyRing.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import type { IdReserver } from '../state/petStore.ts';
import type { BanPolicy } from '../rateLimits/rateLimiter.ts';
import type { Limits } from '../rateLimits/plans.ts';
import type { StateParts } from '../state/stateParts.ts';
import type { ApiError } from '../errors/errorCatalogue.ts';
import { openState, type OpenedState, type RedisStateConfig } from './openState.ts';
import { createMockCore, defaultBodyLimit, type MockCore } from './createMockCore.ts';
import type { RateLimitHeaders } from '../rateLimits/draftRateLimitFields.ts';
import type { CoreAnswer, CoreRequest } from './coreTypes.ts';
import type { Awaitable } from '../state/awaitable.ts';
import { checkProfileOnce, type DeploymentProfile } from '../profile/profile.ts';
import { profiledCore, profiledOptions } from '../profile/profiledCore.ts';

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
  /**
   * The limits requests without a valid key are counted at, per client address (the contract gives
   * none). Default: the Free plan's, 60 a minute and 1,000 a day.
   */
  keylessLimits?: Partial<Limits>;
  /** The status given to a pet created without one; null leaves it absent. Default: available. */
  defaultStatus?: PetStatus | null;
  /** The server log's level, or false for no log. Default: false (the CLI turns it on). */
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
  /**
   * 'draft': every answer also carries `RateLimit-Policy` and `RateLimit` of the IETF httpapi draft
   * (draft-ietf-httpapi-ratelimit-headers-11), saying what X-RateLimit-* say. Default: 'contract',
   * X-RateLimit-* only.
   */
  ratelimitHeaders?: RateLimitHeaders;
  /** How many requests the request log keeps. Default: 1000. */
  requestLogSize?: number;
  /** How many client addresses the anonymous rate limit keeps counts for. Default: 10,000. */
  maxAnonymousBuckets?: number;
  /**
   * Keep the state in Redis, shared with every mock on the same Redis and prefix (issue 13): the
   * mock opens the connection, seeds an empty Redis with `pets` and `keys`, and closes it with the
   * mock. Without it the state is in memory.
   */
  redis?: RedisStateConfig;
  /**
   * The state to serve, built and closed by the caller. When absent, the mock opens its own from
   * `pets`, `startState`, `keys`, `clock`, `ban` and the sizes (in Redis with `redis`, in memory
   * otherwise), and closes it when it closes.
   */
  state?: StateParts;
  /**
   * The Prism answering `Prefer` and the operations without a stateful handler. When absent, the
   * mock makes its own (loaded in a worker on first use) and closes it when it closes.
   */
  prism?: PrismResponder;
  /**
   * A deployment's open choices (mock/profile/profile.schema.json, docs/drift.md): the mock makes
   * them instead of its own. Its default status, strictness, ban rule, keyless limits and body
   * limit win over those options.
   */
  profile?: DeploymentProfile;
}

/** What openMock takes beyond MockOptions: the state file's id journal (pets-mock --state-file). */
export interface OpenMockOptions extends MockOptions {
  /** Makes ids durable before they are handed out (in memory only). */
  ids?: IdReserver;
}

/** The server log of a mock: pino's logger. */
export type MockLog = Logger;

/** A --watch reload: the spec and the fixtures as edited, and which created pets may stay. */
export interface MockReload {
  spec: LoadedSpec;
  fixtures: readonly Pet[];
  /** Whether a pet created at run time still fits the new spec (in memory; Redis keeps every pet). */
  keep(pet: Pet): boolean;
}

export interface Mock {
  /** The contract served now (a reload may change it). */
  readonly spec: LoadedSpec;
  /** The state served now (in memory a reload swaps in another, carrying everything over). */
  readonly state: StateParts;
  /** The server log (silent when `logLevel` is false). */
  readonly log: MockLog;
  /** The largest request body it reads, in bytes (a profile's, else `bodyLimit`, else 1 MiB): a host reads a body to one byte past it. */
  readonly bodyLimit: number;
  /** Answers a WHATWG Request (the path and query of its URL, under the mock's root), as the HTTP server would. */
  handle(request: Request, options?: { client?: string }): Promise<Response>;
  /** Answers a request as plain data, without WHATWG objects: the hosts' fast path. */
  answer(request: CoreRequest): Promise<CoreAnswer>;
  /** As `answer`, but the answer itself when nothing had to wait (in memory, a read): the Node host writes it in the same tick. */
  answerNow(request: CoreRequest): Awaitable<CoreAnswer>;
  /** The 405 `method` gets on the URL's path (Allow from the spec); undefined when the path is no route of the API. */
  methodNotAllowed(method: string, url: string): ApiError;
  /** The mock's clock now: a host stamps each request with it when it is handed the request (`arrivedAt`), before any await. */
  arrival(): number;
  /** Serves a new spec and new fixtures, in the same tick as the state's swap; tells how many created pets were dropped. */
  reload(next: MockReload): Promise<{ dropped: number; specChanged: boolean }>;
  /** Loads Prism now, in the background. */
  warmPrism(): void;
  /** The pets and the next id as they stand (in memory: the state file); undefined in Redis or with a state given by the caller. */
  snapshot(): { pets: Pet[]; nextId: number } | undefined;
  /** Calls `listener` after every change of the pets, across reloads; returns its removal. */
  onPetsChanged(listener: () => void): () => void;
  /** Writes the access log's last lines, and closes what the mock opened (its state, its Prism). Once. */
  close(): Promise<void>;
}

/** The state the mock opens for itself when given none. */
async function openOwnState(options: OpenMockOptions, spec: LoadedSpec, logger: { info(message: string): void; warn(message: string): void }): Promise<OpenedState> {
  return openState({
    fixtures: options.pets ?? (await loadPetsFile(defaultPetsFile, compileExactSchema(componentSchema(spec, 'Pets')))),
    keys: options.keys ?? (await loadKeysFile(defaultKeysFile)),
    startState: options.startState,
    ids: options.ids,
    clock: options.clock,
    ban: options.ban,
    keylessLimits: options.keylessLimits,
    requestLogSize: options.requestLogSize,
    maxAnonymousBuckets: options.maxAnonymousBuckets,
    redis: options.redis,
    logger,
  });
}

function openLog(options: MockOptions): MockLog {
  if (options.logLevel === false || options.logLevel === undefined) return pino({ enabled: false });
  return pino({ level: options.logLevel }, options.logStream ?? pino.destination({ dest: 1, sync: false }));
}

/** Opens a mock: its state (its own unless given), its Prism, its logs, and the core that answers. */
export async function openMock(given: OpenMockOptions = {}): Promise<Mock> {
  const profile = given.profile === undefined ? undefined : checkProfileOnce(given.profile, 'profile');
  const options = profiledOptions(given, profile);
  // Before any state is opened: a token no client could send is refused with nothing to close.
  if (options.controlToken !== undefined) checkControlToken(options.controlToken, 'controlToken');
  if (options.corsOrigins) checkCorsOrigins(options.corsOrigins, 'corsOrigins');
  let spec = options.spec ?? (await loadSpec());
  const log = openLog(options);
  const coreLog = options.logLevel === false || options.logLevel === undefined ? undefined : log;
  const owned = options.state ? undefined : await openOwnState(options, spec, log);
  let state = options.state ?? owned!.current;
  const ownPrism = options.prism === undefined;
  let prism = options.prism ?? createPrismResponder(spec, options.logLevel);
  const accessLog = options.accessLog ? new AccessLog(options.accessLog, { replica: state.log.replica }) : undefined;
  const onAnswer = accessLog ? accessLog.record.bind(accessLog) : undefined;
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  const coreOf = (served: LoadedSpec, servedState: StateParts, examples: PrismResponder): MockCore => profiledCore(profile, servedState, createMockCore({
    spec: served,
    state: servedState,
    corsOrigins: options.corsOrigins,
    bodyLimit,
    defaultStatus: options.defaultStatus,
    strict: options.strict,
    keylessUnlisted: options.keylessUnlisted,
    preflight: options.preflight,
    ratelimitHeaders: options.ratelimitHeaders,
    latency: options.latency,
    control: options.control,
    controlToken: options.controlToken,
    examples,
    log: coreLog,
    onAnswer,
  }));
  let core = coreOf(spec, state, prism);
  let closing: Promise<void> | undefined;

  return {
    get spec() {
      return spec;
    },
    get state() {
      return state;
    },
    log,
    bodyLimit,
    handle: (request, init) => core.handle(request, init),
    answer: (request) => core.answer(request),
    answerNow: (request) => core.answerNow(request),
    methodNotAllowed: (method, url) => core.methodNotAllowed(method, url),
    arrival: () => core.arrival(),
    async reload({ spec: nextSpec, fixtures, keep }) {
      if (!owned) throw new Error('A mock serving a state given by its caller cannot reload it: reload that state, and open a new mock around it.');
      const next = owned.reload(fixtures, keep);
      const specChanged = !isDeepStrictEqual(nextSpec.document, spec.document);
      const nextPrism = specChanged && ownPrism ? createPrismResponder(nextSpec, options.logLevel) : prism;
      const nextCore = coreOf(nextSpec, next.state, nextPrism);
      // In the same tick as the swap: a pet created meanwhile is carried over.
      const dropped = next.commit();
      [core, state, spec] = [nextCore, next.state, nextSpec];
      if (nextPrism !== prism) {
        const old = prism;
        prism = nextPrism;
        prism.warm();
        await old.close();
      }
      return { dropped, specChanged };
    },
    warmPrism: () => prism.warm(),
    snapshot: () => owned?.snapshot(),
    onPetsChanged: (listener) => owned?.onPetsChanged(listener) ?? (() => {}),
    close() {
      closing ??= (async () => {
        // The requests answered last are made into entries first: their access-log lines are written.
        state.log.settle?.();
        accessLog?.flush();
        if (ownPrism) await prism.close();
        await owned?.close();
      })();
      return closing;
    },
  };
}
