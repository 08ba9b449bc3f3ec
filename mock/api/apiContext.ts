import type { FastifyError, FastifyPluginAsync } from 'fastify';
import cors from '@fastify/cors';
import type { LoadedSpec } from '../../spec/loadSpec.ts';
import type { PetStatus } from '../../spec/types.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { logAnswerError } from '../errors/logAnswerError.ts';
import { sendApiError } from '../errors/sendApiError.ts';
import { toApiError } from '../errors/toApiError.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import type { StateParts } from '../state/stateParts.ts';
import { PetSetError } from '../state/petStore.ts';
import type { AccessLog } from './accessLog.ts';
import { recordAnswer } from './recordAnswer.ts';
import { deprecationPlugin } from './deprecationPlugin.ts';
import { guardPlugin } from './guardPlugin.ts';
import { unknownQueryPlugin } from './unknownQueryPlugin.ts';
import { faultPlugin } from './faultPlugin.ts';
import { latencyPlugin, type Latency } from './latencyPlugin.ts';
import { allowedMethods, methodNotAllowedRoutes } from './methodNotAllowedRoutes.ts';
import { petsOperationIds, petsRoutes } from './petsRoutes.ts';
import { preferPlugin } from './preferPlugin.ts';
import { prismRoutes } from './prismRoutes.ts';
import { corsOptions, type CorsOrigins } from './corsOptions.ts';
import { logRefusedPreflight } from './refusedPreflight.ts';
import { namedContext } from '../namedContext.ts';

export interface ApiContextOptions {
  spec: LoadedSpec;
  state: StateParts;
  prism: PrismResponder;
  bodyLimit: number;
  corsOrigins: CorsOrigins;
  defaultStatus: PetStatus | null;
  latency?: Latency | undefined;
  /** One line per request, or none. */
  accessLog?: AccessLog | undefined;
  /** The longest `Prefer: delay` honoured. */
  maxPreferDelayMs: number;
  /** Refuse query parameters the spec does not define for the operation (400), instead of naming them in a header. */
  strict?: boolean | undefined;
}

/**
 * The API under /v1, one fastify context: CORS, then the guard (rate limits, then the key),
 * the fault rules, `Prefer`, latency and deprecation marks, the routes of every operation in the spec, its own
 * error and not-found handling, and the request log. Nothing outside /v1 runs these hooks, and
 * nothing inside opts out of them.
 */
export const apiContext: FastifyPluginAsync<ApiContextOptions> = namedContext('api', async (api, options) => {
  const { spec, state, prism, bodyLimit } = options;
  // Numbers the answers of this replica, and stamps each request with how many were given when it
  // arrived: the client report tells requests in flight together from ones sent after an answer.
  // An in-process host stamps a request when the client hands it over (dispatchInProcess), since it
  // may reach this hook only after an earlier one of the same burst was answered.
  const order = api.answerOrder;
  api.decorateRequest('arrivedAfter', null);
  api.decorateRequest('answerNumber', null);
  api.addHook('onRequest', (request, _reply, done) => {
    request.arrivedAfter = (request.raw as { arrivedAfter?: number }).arrivedAfter ?? order.answered;
    done();
  });
  if (options.corsOrigins !== false) await api.register(cors, corsOptions(options.corsOrigins));
  if (options.corsOrigins !== false && !options.corsOrigins.includes('*')) api.addHook('onResponse', logRefusedPreflight(options.corsOrigins));
  // Before the guard, so that a 401 or 429 names the parameters it would have ignored too.
  await api.register(unknownQueryPlugin, { spec, strict: options.strict ?? false });
  await api.register(guardPlugin, { keys: state.keys, limiter: state.limiter, anonymousLimiter: state.anonymousLimiter });
  // After the guard (an admitted request meets the rules, its quota spent), before Prefer.
  await api.register(faultPlugin, {
    spec,
    faults: state.faults,
    clock: state.clock,
    recordUnanswered: (request, reply) => {
      request.answerNumber = ++order.answered;
      recordAnswer(state, options.accessLog, request, reply, request.apiKey?.label ?? null, 0);
    },
  });
  await api.register(preferPlugin, { spec, prism, clock: state.clock, maxDelayMs: options.maxPreferDelayMs });
  await api.register(latencyPlugin, { ...(options.latency ? { latency: options.latency } : {}) });
  await api.register(deprecationPlugin, { spec });

  api.addHook('onResponse', (request, reply, done) => {
    request.answerNumber = ++order.answered;
    recordAnswer(state, options.accessLog, request, reply, request.apiKey?.label ?? null);
    done();
  });

  api.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = error instanceof PetSetError ? new ApiError('IDS_EXHAUSTED') : toApiError(error, request, { bodyLimit, context: 'api' });
    logAnswerError(request, error, apiError);
    return sendApiError(reply, apiError);
  });
  const served = spec.operations.map((op) => `${op.method.toUpperCase()} ${api.prefix}${op.path}`).join(', ');
  const reserved = options.corsOrigins === false ? [] : ['OPTIONS'];
  const allowFor = allowedMethods(spec, api.prefix, reserved);
  api.setNotFoundHandler((request, reply) => {
    const path = request.url.split(/[?#]/)[0] ?? '/';
    // A method the router knows no route for at all (PROPFIND, TRACE) on a path the API serves.
    const allow = allowFor(path);
    if (allow) return sendApiError(reply, new ApiError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${path}. Use ${allow}.`, { allow }));
    return sendApiError(reply, new ApiError('ROUTE_NOT_FOUND', `No route ${request.method} ${path}. The API serves ${served}.`));
  });

  await api.register(petsRoutes, { spec, store: state.store, defaultStatus: options.defaultStatus });
  await api.register(prismRoutes, { spec, skip: petsOperationIds, prism });
  await api.register(methodNotAllowedRoutes, { spec, reserved });
});
