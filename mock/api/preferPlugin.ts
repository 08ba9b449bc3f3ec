import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { OpenAPIV3 } from 'openapi-types';
import type { LoadedSpec, SpecOperation } from '../../spec/loadSpec.ts';
import type { Clock } from '../state/clock.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { parsePrefer } from './parsePrefer.ts';
import type { PrismResponder } from '../prism/prismResponder.ts';
import { routeConfig } from './routeConfig.ts';
import { serverErrorStatuses } from '../prism/forcedError.ts';
import { forcedRequestError } from './forcedRequestError.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** `Prefer: delay=MS`, once read. */
    preferredDelay: number | null;
    /** The answer `Prefer` forces (code, example, dynamic data), once read; given after validation. */
    forcedAnswer: ForcedAnswer | null;
  }
}

interface ForcedAnswer {
  op: SpecOperation;
  /** The preferences the forced answer honours, for `Preference-Applied`. */
  applied: string;
  code: number | undefined;
  example: string | undefined;
  dynamic: boolean;
  seed: string | undefined;
}

export interface PreferOptions {
  spec: LoadedSpec;
  prism: PrismResponder;
  clock: Clock;
  /** The longest `Prefer: delay` honoured. */
  maxDelayMs: number;
}

const preferError = (message: string) => new ApiError('INVALID_PREFER_HEADER', message);

function examplesOf(op: SpecOperation, status: number | undefined): string[] {
  const statuses = status !== undefined ? [String(status)] : Object.keys(op.operation.responses).filter((s) => s.startsWith('2'));
  return statuses.flatMap((s) => Object.keys(((op.operation.responses[s] as OpenAPIV3.ResponseObject | undefined)?.content?.['application/json']?.examples) ?? {}));
}

/**
 * The `Prefer` request header as Prism users know it: `code=`, `example=`, `dynamic=true` and
 * `seed=` answer the operation from the spec instead of the store; `delay=` holds the answer back.
 * The header is read once the key and the rate limit are checked (a wrong key still gets 401, the
 * X-RateLimit headers are still set), and a preference the mock cannot honour is a 400 at once.
 * The forced answer is given after validation: as Prism does, an invalid request gets its real
 * 400, whatever it prefers. Applied preferences are named in `Preference-Applied` (RFC 7240, 3).
 */
const prefer: FastifyPluginAsync<PreferOptions> = async (app, { spec, prism, clock, maxDelayMs }) => {
  app.decorateRequest('preferredDelay', null);
  app.decorateRequest('forcedAnswer', null);
  const operations = new Map(spec.operations.map((op) => [op.operationId, op]));

  app.addHook('onRequest', (request, reply, done) => {
    // Most requests carry no Prefer: keep their path free of promises.
    if (request.headers.prefer === undefined) return done();
    try {
      readPreferences(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });

  app.addHook('preHandler', (request, reply, done) => {
    const forced = request.forcedAnswer;
    if (!forced) return done();
    answer(request, reply, forced).then(() => undefined, done);
  });

  /** Reads the request's preferences: its delay, and the answer it forces, if any. */
  function readPreferences(request: FastifyRequest, reply: FastifyReply): void {
    const preferences = parsePrefer(request.headers.prefer);
    const applied = [...preferences.keys()].filter((k) => ['code', 'example', 'dynamic', 'seed', 'delay'].includes(k)).map((k) => `${k}=${preferences.get(k)}`);

    const delay = preferences.get('delay');
    if (delay !== undefined) {
      if (!/^\d+$/.test(delay) || Number(delay) > maxDelayMs) throw preferError(`Prefer: delay=${delay} is not a whole number of milliseconds from 0 to ${maxDelayMs}. Send for example delay=500.`);
      request.preferredDelay = Number(delay);
    }

    const op = operations.get(routeConfig(request).operationId ?? '');
    const code = preferences.get('code');
    const example = preferences.get('example');
    const dynamic = preferences.get('dynamic');
    const seed = preferences.get('seed');
    // A delay holds back whatever answer comes (the real one, or a 400 for an invalid request),
    // which says so (RFC 7240, 3); a forced answer names the rest once it is given.
    if (delay !== undefined) reply.header('preference-applied', `delay=${delay}`);
    if (!op || (code === undefined && example === undefined && dynamic === undefined)) return;

    const documented = Object.keys(op.operation.responses).filter((s) => /^\d{3}$/.test(s));
    // The server errors are beyond the contract, which documents none, but every real server can
    // give them: a frontend needs them to build its error screens.
    if (code !== undefined && !documented.includes(code) && !(serverErrorStatuses as readonly number[]).includes(Number(code))) {
      throw preferError(`Prefer: code=${code} is not a status the spec documents for ${op.operationId}. Use one of ${documented.join(', ')}, or a server error beyond the contract: ${serverErrorStatuses.join(', ')}.`);
    }
    if (example !== undefined) {
      const known = examplesOf(op, code === undefined ? undefined : Number(code));
      if (!known.includes(example)) {
        throw preferError(`Prefer: example=${example} is not an example of ${op.operationId}${code ? ` ${code}` : ''}. ${known.length > 0 ? `Use one of ${known.join(', ')}.` : 'The spec names no examples there; use code= or dynamic=true.'}`);
      }
    }
    if (dynamic !== undefined && dynamic !== 'true' && dynamic !== 'false') throw preferError(`Prefer: dynamic=${dynamic} must be true or false.`);
    request.forcedAnswer = { op, applied: applied.join(', '), code: code === undefined ? undefined : Number(code), example, dynamic: dynamic === 'true', seed };
  }

  /** Gives the answer the request forces. */
  async function answer(request: FastifyRequest, reply: FastifyReply, { op, applied, code, example, dynamic, seed }: ForcedAnswer): Promise<void> {
    const params = request.params as Record<string, unknown>;
    if (code !== undefined && code >= 400) {
      reply.header('preference-applied', applied);
      // An error answers from the catalogue, as the mock really would (code, message, the headers
      // that go with it): no example of the spec is needed, so Prism is not asked.
      throw forcedRequestError(request, code, op, { clock, forcedBy: { cause: `Prefer: code=${code}`, undo: `Send the request without code=${code} for the real answer` } });
    }

    const answered = await prism.respond(op, {
      ...(code !== undefined ? { code } : {}),
      ...(example !== undefined ? { exampleKey: example } : {}),
      dynamic,
      ...(seed !== undefined ? { seed } : {}),
    });
    // Prism decides which example answers; the mock gives it realistic content, pets as the
    // fixtures generator makes them.
    let body = answered.body;
    if (example === undefined) {
      // Without dynamic=true the answer is the same every time, as a static example is. Loaded on
      // first use: it brings Faker, which a mock that is never asked for forced data need not load.
      const { realisticBody } = await import('../prism/realisticBody.ts');
      const realistic = realisticBody(spec, { op, status: answered.status, seed: seed ?? (dynamic ? undefined : 'static'), query: request.query as Record<string, unknown>, params });
      if (realistic !== undefined) body = realistic;
    }
    reply.code(answered.status).headers(answered.headers).header('preference-applied', applied).send(body);
  }
};

export const preferPlugin = fp(prefer, { name: 'prefer', dependencies: ['guard'] });
