import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routeConfig } from './routeConfig.ts';
import { ApiError } from '../errors/errorCatalogue.ts';
import { isPromise, whenReady, type Awaitable } from '../state/awaitable.ts';
import type { ApiKeyEntry } from '../state/keyRing.ts';
import { planLimits } from '../state/plans.ts';
import type { RateDecision } from '../state/rateLimiter.ts';
import type { KeyDirectory, RateLimits } from '../state/stateParts.ts';
import { StoreUnavailableError } from '../state/storeUnavailableError.ts';
import { outageRateHeaders } from './outageRateHeaders.ts';
import { parseAuthorization, type Credentials } from './parseAuthorization.ts';
import { rateHeaders, refusal, unauthorized } from './refusals.ts';

export { unauthorized };

declare module 'fastify' {
  interface FastifyRequest {
    /** The accepted API key, once the guard has let the request through. */
    apiKey: ApiKeyEntry | null;
    /** The rate-limit decision this request's headers report. */
    rateDecision: RateDecision | null;
    /** The guard could not reach the shared store: the answer is a 503, with the rate-limit headers it can still give. */
    storeUnavailable: boolean;
  }
}

export interface GuardOptions {
  keys: KeyDirectory;
  /** Counts requests with a valid key, by key. */
  limiter: RateLimits;
  /** Counts requests without one, by client address; bounded in memory. */
  anonymousLimiter: RateLimits;
}

/** A CORS preflight (Fetch standard, 3.2.2): the browser's own OPTIONS, without credentials. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Authentication and rate limits for every API request, in that order of cost: a request is
 * first counted (by key when the key is valid, otherwise by client address under the Free plan's
 * limits) and refused with 429 over the limit, then refused with 401 without a valid key.
 * Every answer, whatever its status, reports the bucket's limit in X-RateLimit-* headers.
 * Registered inside the API's context: the control API never sees these hooks.
 */
const guard: FastifyPluginAsync<GuardOptions> = async (app, limiters) => {
  const { keys } = limiters;
  app.decorateRequest('apiKey', null);
  app.decorateRequest('rateDecision', null);
  app.decorateRequest('storeUnavailable', false);

  // Callback-style hooks: they run on every request, and a promise apiece shows in the benchmark.
  // The state's answers are used at once when they are values (memory), awaited when promises.

  app.addHook('onRequest', (request, _reply, done) => {
    if (isPreflight(request)) return done();
    const bucket = rateBucket(request, keys);
    if (isPromise(bucket)) return void bucket.then((b) => count(request, b, done), (error: Error) => failed(request, error, done));
    count(request, bucket, done);
  });

  /** Spends the request against its bucket, then lets it through or refuses it. */
  function count(request: FastifyRequest, bucket: Bucket, done: (error?: Error) => void): void {
    const decision = (bucket.key ? limiters.limiter : limiters.anonymousLimiter).consume(bucket.bucketId, bucket.limits);
    if (isPromise(decision)) return void decision.then((d) => admit(request, bucket, d, done), (error: Error) => failed(request, error, done));
    admit(request, bucket, decision, done);
  }

  /** The store could not decide: the error handler answers (503 when the store is away), and onSend asks the store no second time. */
  function failed(request: FastifyRequest, error: Error, done: (error?: Error) => void): void {
    if (error instanceof StoreUnavailableError) request.storeUnavailable = true;
    done(error);
  }

  function admit(request: FastifyRequest, { credentials, key }: Bucket, decision: RateDecision, done: (error?: Error) => void): void {
    request.rateDecision = decision;
    // A valid key is known from here on, refused or not: the request log names it on its 429s too.
    request.apiKey = key ?? null;
    if (!decision.allowed) return done(refusal(decision, key !== undefined));
    // A wrong method or an unknown route is told as such (405, 404) with or without a key: there is
    // nothing there to protect, and the client learns what to fix. It still counts against a quota.
    if (!key && !request.is404 && !routeConfig(request).keyless) return done(unauthorized(credentials));
    done();
  }

  app.addHook('onSend', (request, reply, payload, done) => {
    // Preflights are not counted (a browser sends them on its own), but still say where the bucket stands.
    if (request.rateDecision) {
      setRateHeaders(reply, request.rateDecision);
      return done(null, payload);
    }
    if (request.storeUnavailable) {
      reply.headers(outageRateHeaders(request, keys));
      return done(null, payload);
    }
    whenReady(peekRate(request, limiters), (decision) => {
      setRateHeaders(reply, decision);
      done(null, payload);
    }, (error) => {
      if (error instanceof StoreUnavailableError) reply.headers(outageRateHeaders(request, keys));
      done(null, payload);
    });
  });
};

/** Whose quota a request spends: its key's when the key is valid, else its address's, at Free limits. */
/** What identifies a client: its Authorization header and its address (a request, or what Node's parser read of one). */
export interface ClientIdentity {
  headers: { authorization?: string | undefined };
  ip: string;
}

interface Bucket {
  credentials: Credentials;
  key: ApiKeyEntry | undefined;
  bucketId: string;
  limits: { perMinute: number; perDay: number };
}

function rateBucket(request: ClientIdentity, keys: KeyDirectory): Awaitable<Bucket> {
  const credentials = parseAuthorization(request.headers.authorization);
  if (credentials.kind !== 'bearer') return bucketOf(request, credentials, undefined);
  const found = keys.find(credentials.token);
  return isPromise(found) ? found.then((key) => bucketOf(request, credentials, key)) : bucketOf(request, credentials, found);
}

function bucketOf(request: ClientIdentity, credentials: Credentials, key: ApiKeyEntry | undefined): Bucket {
  return key
    ? { credentials, key, bucketId: key.bucketId, limits: key.limits }
    : { credentials, key, bucketId: `ip:${request.ip}`, limits: planLimits.free };
}

/** Where the request's bucket stands, without counting the request. */
export function peekRate(request: ClientIdentity, { keys, limiter, anonymousLimiter }: GuardOptions): Awaitable<RateDecision> {
  const peek = ({ key, bucketId, limits }: Bucket) => (key ? limiter : anonymousLimiter).peek(bucketId, limits);
  const bucket = rateBucket(request, keys);
  return isPromise(bucket) ? bucket.then(peek) : peek(bucket);
}

export function setRateHeaders(reply: FastifyReply, decision: RateDecision): void {
  reply.header('x-ratelimit-limit', decision.limit);
  reply.header('x-ratelimit-remaining', decision.remaining);
  reply.header('x-ratelimit-reset', decision.reset);
}

export { rateHeaders };

export const guardPlugin = fp(guard, { name: 'guard' });
