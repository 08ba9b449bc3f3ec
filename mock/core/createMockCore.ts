// The mock's answers as one framework-free function: a request in, an answer out, over the state
// it is given. openMock (Node) owns one around its state and Prism; MSW in the browser builds one
// over an in-memory state. Every host adapts it; parity tests hold the hosts to one behaviour.
import { rateLimitHeadersChoices, type RateLimitHeaders } from '../rateLimits/draftRateLimitFields.ts';
import { utf8Length } from './utf8Length.ts';
import type { LoadedSpec } from '../../spec/specModel.ts';
import type { PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import type { CorsOrigins } from '../pipeline/corsOptions.ts';
import { checkCorsOrigins } from '../pipeline/checkCorsOrigins.ts';
import type { Latency } from '../pipeline/latency.ts';
import { rateHeaders } from '../rateLimits/refusals.ts';
import { outageRateHeaders } from '../rateLimits/outageRateHeaders.ts';
import { StoreUnavailableError } from '../errors/storeUnavailableError.ts';
import { peekRate } from '../rateLimits/peekRate.ts';
import { checkControlToken } from '../control/controlTokenGuard.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import type { StateParts } from '../state/stateParts.ts';
import { apiPipeline } from '../pipeline/apiPipeline.ts';
import { controlPipeline } from '../control/controlPipeline.ts';
import { ClientGoneError, ConnectionResetError, type AnsweredRequest, type CoreAnswer, type CoreLog, type CoreRequest } from './coreTypes.ts';
import { specExamples } from './specExamples.ts';
import { API_PREFIX, CONTROL_PREFIX } from './prefixes.ts';
import { answerFetch } from './answerFetch.ts';
import { dateFieldOf } from './dateField.ts';
import { isPromise, type Awaitable } from '../state/awaitable.ts';

/** Largest request body in bytes, unless the mock is told otherwise: 1 MiB. */
export const defaultBodyLimit = 1024 * 1024;
const maxPreferDelayMs = 60_000;

export interface MockCoreOptions {
  spec: LoadedSpec;
  /** The state to serve (MockState in memory); the caller closes it. */
  state: StateParts;
  /** Allowed CORS origins (`*` for any), or false to turn CORS off. Default: any origin. */
  corsOrigins?: CorsOrigins | undefined;
  /** Largest request body in bytes. Default: 1 MiB. */
  bodyLimit?: number | undefined;
  /** The status given to a pet created without one; null leaves it absent. Default: available. */
  defaultStatus?: PetStatus | null | undefined;
  /** Refuse query parameters the spec does not define (400), instead of naming them in X-Mock-Ignored-Query. */
  strict?: boolean | undefined;
  /** A request without a valid key to an unserved method or path: 404/405 ('routed', default) or 401 first ('unauthorized'). */
  keylessUnlisted?: 'routed' | 'unauthorized' | undefined;
  /** OPTIONS answered as a CORS preflight on every path ('answered', default), or a method the API does not serve ('unlisted'). */
  preflight?: 'answered' | 'unlisted' | undefined;
  /** Latency added to every API answer. */
  latency?: Latency | undefined;
  /** Also send the IETF draft's RateLimit-Policy and RateLimit beside X-RateLimit-* ('draft'). Default: 'contract'. */
  ratelimitHeaders?: RateLimitHeaders | undefined;
  /** Serve the control API under /__mock. Default: true. */
  control?: boolean | undefined;
  /** Every control request must carry `Authorization: Bearer <controlToken>`. */
  controlToken?: string | undefined;
  /** Answers Prefer's 2xx and the operations the store does not hold. Default: the spec's examples and schemas (specExamples). */
  examples?: PrismResponder | undefined;
  /** The server log (pino's fits): ignored query parameters, refused preflights, server errors. None by default. */
  log?: CoreLog | undefined;
  /** Called once per API request as answered: the access log's line. */
  onAnswer?: ((answered: AnsweredRequest) => void) | undefined;
}

export interface MockCore {
  readonly spec: LoadedSpec;
  readonly state: StateParts;
  /** The largest request body it reads, in bytes (`bodyLimit`, else 1 MiB): a host reads a body to one byte past it. */
  readonly bodyLimit: number;
  /** Answers a request as plain data, as the HTTP server would. Throws ConnectionResetError when a fault rule drops it. */
  answer(request: CoreRequest): Promise<CoreAnswer>;
  /**
   * As `answer`, but the answer itself when nothing had to wait (in memory, a read and a create
   * whose body is at hand), a promise otherwise: a Node host writes it in the same tick, with no
   * promise made per request. Throws (or rejects) as `answer` rejects.
   */
  answerNow(request: CoreRequest): Awaitable<CoreAnswer>;
  /**
   * Answers a WHATWG Request (its URL's path and query under the mock's root) with a Response; a
   * fault rule's reset is a network error (`Response.error()`). `client` is the client's address.
   */
  handle(request: Request, options?: { client?: string }): Promise<Response>;
  /**
   * The 405 `method` gets on a request target, for a host whose parser refuses the method before
   * the core sees the request (Node's, for CONNECT and for a method it does not know): a control
   * path's Allow, an API path's from the spec, else every method the API serves.
   */
  methodNotAllowed(method: string, url: string): ApiError;
  /** The mock's clock now: a host stamps each request with it when it is handed the request (`arrivedAt`), before any await. */
  arrival(): number;
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export function createMockCore(options: MockCoreOptions): MockCore {
  const corsOrigins = options.corsOrigins ?? ['*'];
  if (corsOrigins) checkCorsOrigins(corsOrigins, 'corsOrigins');
  if (options.controlToken !== undefined) checkControlToken(options.controlToken, 'controlToken');
  if (options.ratelimitHeaders !== undefined && !rateLimitHeadersChoices.includes(options.ratelimitHeaders)) {
    throw new Error(`ratelimitHeaders: ${JSON.stringify(options.ratelimitHeaders)} is not one of ${rateLimitHeadersChoices.map((c) => `'${c}'`).join(', ')}. Give 'draft' to also send RateLimit-Policy and RateLimit, or leave it out.`);
  }
  const { spec, state } = options;
  const bodyLimit = options.bodyLimit ?? defaultBodyLimit;
  // One Date source for every answer: the API pipeline dates its answers with the instant it read
  // once for them, the rest are dated here as they leave.
  const dateField = dateFieldOf(state.clock);
  const { api, outside, methodNotAllowed } = apiPipeline({
    spec,
    state,
    prefix: API_PREFIX,
    corsOrigins,
    bodyLimit,
    defaultStatus: options.defaultStatus === undefined ? 'available' : options.defaultStatus,
    strict: options.strict ?? false,
    keylessUnlisted: options.keylessUnlisted,
    preflight: options.preflight,
    ratelimitHeaders: options.ratelimitHeaders ?? 'contract',
    latency: options.latency,
    maxPreferDelayMs,
    examples: options.examples ?? specExamples(spec),
    log: options.log,
    onAnswer: options.onAnswer,
    dateField,
  });
  const control = options.control === false ? undefined : controlPipeline({ spec, state, prefix: CONTROL_PREFIX, apiPrefix: API_PREFIX, corsOrigins, bodyLimit, controlToken: options.controlToken, log: options.log });

  const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

  return {
    spec,
    state,
    bodyLimit,
    arrival: () => state.clock.now(),
    methodNotAllowed: (method, url) => (control && under(url.split(/[?#]/)[0]!, CONTROL_PREFIX) ? control.methodNotAllowed(method.toUpperCase(), url.split(/[?#]/)[0]!) : undefined) ?? methodNotAllowed(method, url),
    // Stamped as handed over, before the body is awaited: when the client sent it, as near as the mock knows.
    handle: (request, init) => answerFetch(answer, request, { client: init?.client, arrivedAt: state.clock.now() }),
    answer,
    answerNow,
  };

  async function answer(request: CoreRequest): Promise<CoreAnswer> {
    return answerNow(request);
  }

  /** The answer, at once when nothing had to wait (in memory, every read): no promise made for it. */
  function answerNow(request: CoreRequest): Awaitable<CoreAnswer> {
    let routed: Awaitable<CoreAnswer>;
    try {
      routed = route(request);
    } catch (error) {
      return finish(request, failed(error));
    }
    return isPromise(routed) ? routed.then((answer) => finish(request, answer), (error: unknown) => finish(request, failed(error))) : finish(request, routed);
  }

  /** A fault of the mock still gets an Error body, never a hang or a dropped connection; a reset or a client gone is the host's to handle. */
  function failed(error: unknown): CoreAnswer {
    if (error instanceof ConnectionResetError || error instanceof ClientGoneError) throw error;
    options.log?.error({ err: error }, 'unexpected error');
    const body = JSON.stringify(new ApiError('INTERNAL_ERROR').toBody());
    return { status: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(utf8Length(body)) }, body };
  }

  function finish(request: CoreRequest, answer: CoreAnswer): CoreAnswer {
    // Date on the mock's clock (RFC 9110, 6.6.1), in every host: a host's own (Node's sendDate)
    // would read the machine's time, not the time the mock's other fields are given in.
    // Every pipeline makes each answer's headers afresh, so the field is set in place: no copy per answer.
    answer.headers.date ??= dateField();
    // A HEAD answer has the headers of its GET and no body (RFC 9110, 9.3.2): dropped here, for every pipeline and host.
    return request.method.toUpperCase() === 'HEAD' ? { ...answer, body: null } : answer;
  }

  function route(request: CoreRequest): Awaitable<CoreAnswer> {
    // A request target in absolute form (`GET http://host/v1/pets`) names the same resource as its
    // path does (RFC 9112, 3.2.2).
    if (request.url.charCodeAt(0) !== 47 /* / */ && /^[a-z][a-z0-9+.-]*:\/\//i.test(request.url)) {
      try {
        const target = new URL(request.url);
        request = { ...request, url: `${target.pathname}${target.search}` };
      } catch {
        // Not a URL after all: answered as the path it is.
      }
    }
    const cut = request.url.search(/[?#]/);
    const path = cut < 0 ? request.url : request.url.slice(0, cut);
    const hash = cut < 0 ? -1 : request.url.indexOf('#', cut);
    const search = cut < 0 || hash === cut ? '' : request.url.slice(cut + 1, hash < 0 ? undefined : hash);
    // A path that cannot be decoded names no resource: 400, whatever the path.
    if (path.includes('%') && !decodable(path)) return refuse(request, new ApiError('BAD_REQUEST', `The URL ${JSON.stringify(request.url)} cannot be decoded: each % must start an escape of UTF-8 (%20, %C3%A9). Percent-encode it correctly.`), 400);
    if (under(path, API_PREFIX)) return api(request, path, search);
    if (control && under(path, CONTROL_PREFIX)) return control.answer(request, path, search);
    return outside(request, path);
  }

  /** An Error answer given before any route, with the client's rate-limit headers (its request not counted). */
  async function refuse(request: CoreRequest, error: ApiError, status: number): Promise<CoreAnswer> {
    // Not counted: the answer only reports where the client's window stands, when the store can say.
    const client = { headers: request.headers, ip: request.client ?? '127.0.0.1' };
    let rate: Record<string, string>;
    try {
      rate = rateHeaders(await peekRate(client, state));
    } catch (failure) {
      if (!(failure instanceof StoreUnavailableError)) throw failure;
      rate = outageRateHeaders(client, state.keys, state.keylessLimits);
    }
    const body = JSON.stringify(error.toBody());
    return { status, headers: { ...rate, ...error.headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(utf8Length(body)) }, body };
  }
}
