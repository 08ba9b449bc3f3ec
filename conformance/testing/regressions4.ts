// A fourth, independent catalogue, written from the contract and the RFCs alone (its author read
// neither the suite's checks nor the other catalogues' entries, only their names and helpers): faults
// of the kinds a backend team ships through its own components rather than through HTTP framing
// (plan tables and limiter arithmetic, window boundaries and clocks, page sizes and filters,
// int64 handling in serializers and decoders, middleware order, gateway plugins, locale and
// charset defaults, the store-orders service beside the pets one, a limiter shared between parallel
// requests), and legal variants that settle the contract's open choices in the same areas. Each
// entry is the project's mock wrapped by a Transform; `make()` gives a fresh one per deployment, so
// no state leaks between runs. Faults depend only on the requests and the deployment's clock
// (`env.now()`): no randomness, no timers. Each regression says who makes the mistake (`story`) and
// which contract sentence or RFC requirement it breaks (`breaks`). Witnesses:
// regressions4.witness.test.ts; the suite's first-run figures: conformance/regressions4.catalogue.test.ts.
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { parseAuthorization } from '../../mock/pipeline/parseAuthorization.ts';
import type { ApiKeyConfig } from '../../mock/state/stateParts.ts';
import { asError, asTrusted, createBodyOf, demoKeys, hasValidKey, headerOf, numberHeader, httpDate, isCreateReq, isGetPetReq, isListReq, isPetAnswer, isRead, keyOf, mapListOut, mapPets, onAnswers, paramsOf, parseBody, pathOf, petIdOf, planPerDay, refuseWith, statuses, withHeaders, withJson, withKey, withoutRateLimitHeaders, withParams, type Pet } from './catalogueHelpers.ts';
import type { Req, Res, Transform } from './injectTransport.ts';
import type { LegalVariant, Regression } from './regressions.ts';

/** The part of the service an entry belongs to. */
export type Area =
  | 'rate-plans'
  | 'rate-windows'
  | 'throttling'
  | 'pagination'
  | 'filtering'
  | 'int64'
  | 'bodies'
  | 'errors'
  | 'auth'
  | 'deprecation'
  | 'http'
  | 'time'
  | 'store-orders'
  | 'concurrency';

export interface Regression4 extends Regression {
  area: Area;
  /** the contract sentence or RFC requirement the regression breaks */
  breaks: string;
}
export interface LegalVariant4 extends LegalVariant {
  area: Area;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------
const isStoreOrders = (req: Req) => req.method === 'GET' && pathOf(req) === '/v1/store/orders';
const isListPath = (req: Req) => pathOf(req) === '/v1/pets';

/** Each demo key's requests per minute (the Enterprise one is the mock's custom figure). */
const perMinute: Record<string, number> = { 'demo-free': 60, 'demo-pro': 300, 'demo-business': 1_000, 'demo-enterprise': 1_000_000 };
/** The removal of getPet, 5 December 2030 00:00 UTC, in seconds. */
const SUNSET_SECONDS = Date.UTC(2030, 11, 5) / 1000;

/** A 304 in place of `res`: the content and its type dropped, the other headers kept. */
function notModified(res: Res): Res {
  const { 'content-type': _type, 'content-length': _length, ...headers } = res.headers;
  return { status: 304, headers, body: '' };
}

/** What a hand-written validator finds wrong with a request before any handler runs, if anything. */
function validationProblem(req: Req): { code: string; message: string } | undefined {
  if (isCreateReq(req)) {
    const body = createBodyOf(req);
    if (!body) return { code: 'INVALID_BODY', message: 'The body must be a JSON object.' };
    if (typeof body.name !== 'string') return { code: 'INVALID_BODY', message: 'name is required and must be a string.' };
    const c = body.categoryId;
    if (!(typeof c === 'bigint' || (typeof c === 'number' && Number.isInteger(c)))) return { code: 'INVALID_BODY', message: 'categoryId is required and must be an integer.' };
    if (body.status !== undefined && !statuses.includes(body.status as string)) return { code: 'INVALID_BODY', message: 'status must be one of available, pending, sold.' };
    return undefined;
  }
  if (isListReq(req)) {
    const limit = paramsOf(req).get('limit');
    if (limit !== null && (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > 100)) return { code: 'INVALID_QUERY_PARAMETER', message: 'limit must be an integer from 1 to 100.' };
    const status = paramsOf(req).get('status');
    if (status !== null && !statuses.includes(status)) return { code: 'INVALID_QUERY_PARAMETER', message: 'status must be one of available, pending, sold.' };
    return undefined;
  }
  if (isGetPetReq(req) && !/^-?\d+$/.test(petIdOf(req)!)) return { code: 'INVALID_PATH_PARAMETER', message: 'petId must be an integer.' };
  return undefined;
}

/** The elements of a comma-separated header with their q values (RFC 9110, 12.4.2); q defaults to 1. */
function weighted(header: string | undefined): { value: string; q: number }[] {
  return (header ?? '').split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [value, ...params] = part.split(';').map((p) => p.trim());
    const q = params.map((p) => /^q=([\d.]+)$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return { value: value!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
}
/** Accept admits application/json: no Accept, or the most specific range matching it has q above 0 (RFC 9110, 12.5.1). */
function acceptsJson(req: Req): boolean {
  const ranges = weighted(req.headers.accept);
  if (ranges.length === 0) return true;
  for (const range of ['application/json', 'application/*', '*/*']) {
    const hit = ranges.find((r) => r.value === range);
    if (hit) return hit.q > 0;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------------------------

/** Plan ids are 1-based in the key table (free = 1) and index a 0-based array: each key gets the next plan. */
const oneRowDown: Record<string, string> = { 'demo-free': 'demo-pro', 'demo-pro': 'demo-business', 'demo-business': 'demo-enterprise' };

/** The demo keys with the Business key's plan as the key table spells it ("Business"), which the plan lookup misses and maps to Free. */
const keysWithBusinessAsFree: ApiKeyConfig[] = [
  { key: 'demo-free', plan: 'free' },
  { key: 'demo-pro', plan: 'pro' },
  { key: 'demo-business', plan: 'free' },
  { key: 'demo-enterprise', plan: 'enterprise', perMinute: 1_000_000, perDay: 100_000_000 },
];

export const regressions4: Regression4[] = [
  // -------------------------------------------------------------------------------- rate-plans
  {
    name: 'plan ids index the plan table one row down',
    area: 'rate-plans',
    kind: 'rate-accounting',
    story: 'A migration made plan ids 1-based in the keys table (free = 1) while the limiter still indexes its 0-based plan array with them: every key is served the next plan\'s quota (Free gets Pro\'s 300 a minute, Pro gets Business\'s 1,000).',
    breaks: 'contract, Limits: "Free 60 requests per minute, Pro 300"; X-RateLimit-Limit is "The limit in force"',
    make: () => (req, forward) => {
      const key = keyOf(req);
      return forward(key !== undefined && oneRowDown[key] !== undefined ? withKey(req, oneRowDown[key]) : req);
    },
  },
  {
    name: 'X-RateLimit-Limit overwritten by the daily limiter',
    area: 'rate-plans',
    kind: 'rate-accounting',
    story: 'The minute and day limiters are two middlewares that each set X-RateLimit-Limit; the day one runs second and overwrites Limit with the daily quota, but only sets Remaining and Reset when it binds, so answers pair the day\'s Limit (Pro: 10000) with the minute\'s Remaining and Reset.',
    breaks: 'contract, Limits: X-RateLimit-Limit is "The limit in force" and X-RateLimit-Remaining the "Requests remaining in the current window": the limit of another window than Remaining\'s',
    make: () => onAnswers((res, req) => {
      const key = keyOf(req);
      const day = key === undefined ? undefined : planPerDay[key];
      return day !== undefined && headerOf(res, 'x-ratelimit-limit') === String(perMinute[key!]) ? withHeaders(res, { 'x-ratelimit-limit': String(day) }) : res;
    }),
  },
  {
    name: 'Enterprise keys answered X-RateLimit-Limit: -1',
    area: 'rate-plans',
    kind: 'rate-accounting',
    story: 'Enterprise quotas are "custom" and stored as NULL; the header writer maps a NULL limit to the sentinel -1 it uses internally for "unlimited", and Remaining to -1 with it, although the key is limited (1,000,000 a minute).',
    breaks: 'contract, Limits: "Every API response carries these headers": X-RateLimit-Limit, the limit in force, and Remaining, requests remaining; -1 is neither (the Enterprise plan has custom limits, not none)',
    make: () => onAnswers((res, req) => (keyOf(req) === 'demo-enterprise' ? withHeaders(res, { 'x-ratelimit-limit': '-1', 'x-ratelimit-remaining': '-1' }) : res)),
  },
  {
    name: 'Business keys fall back to the Free plan (plan name case mismatch)',
    area: 'rate-plans',
    kind: 'rate-accounting',
    story: 'The billing system writes plan names capitalised ("Business") and the limiter\'s plan lookup is case-sensitive, falling back to Free when it misses: Business keys are held to 60 a minute and 1,000 a day.',
    breaks: 'contract, Limits: "Business 1,000 requests per minute, 100,000 per day"',
    make: () => (req, forward) => forward(req),
    mockOptions: { keys: keysWithBusinessAsFree },
  },
  // -------------------------------------------------------------------------------- rate-windows
  {
    name: 'X-RateLimit-Reset names the start of the current window',
    area: 'rate-windows',
    kind: 'rate-accounting',
    story: 'A refactor replaced `(window + 1) * 60` by `window * 60` when the window index moved into a helper: X-RateLimit-Reset is the minute the window began, already in the past.',
    breaks: 'contract, Limits: X-RateLimit-Reset is the "Unix timestamp at which the limit resets", which is not a moment already past',
    make: () => onAnswers((res, _req, now) => {
      const reset = numberHeader(res, 'x-ratelimit-reset');
      if (reset === undefined) return res;
      return withHeaders(res, { 'x-ratelimit-reset': String(reset - (reset - now / 1000 <= 60 ? 60 : 86_400)) });
    }),
  },
  {
    name: 'X-RateLimit-Reset written in Unix milliseconds',
    area: 'rate-windows',
    kind: 'spelling',
    story: 'The limiter was ported to Java and writes `windowEnd.toEpochMilli()` where the old code wrote seconds: the reset lies 55,000 years ahead for a client reading a Unix timestamp.',
    breaks: 'contract, Limits: X-RateLimit-Reset is a "Unix timestamp" (seconds since the epoch)',
    make: () => onAnswers((res) => {
      const reset = numberHeader(res, 'x-ratelimit-reset');
      return reset === undefined ? res : withHeaders(res, { 'x-ratelimit-reset': String(reset * 1000) });
    }),
  },
  {
    name: 'sliding-window limiter behind fixed-window headers',
    area: 'rate-windows',
    kind: 'rate-accounting',
    story: 'The team swapped the fixed-window counter for a sliding log in Redis (a sorted set of request times) but kept the header code, which still announces the next minute boundary: a key that spent its quota is still refused at the announced reset, until its oldest request is a minute old.',
    breaks: 'contract, Errors: "The client should back off and retry after the time given in the Retry-After header", and Limits: X-RateLimit-Reset is the "Unix timestamp at which the limit resets"; a retry at that time is refused again',
    make: () => {
      const logs = new Map<string, number[]>();
      const lastHeaders = new Map<string, Record<string, string>>();
      return async (req, forward, env) => {
        const key = keyOf(req);
        const limit = key === undefined ? undefined : perMinute[key];
        if (key === undefined || limit === undefined) return forward(req);
        const now = env.now();
        const log = (logs.get(key) ?? []).filter((t) => t > now - 60_000);
        logs.set(key, log);
        if (log.length >= limit) {
          // Refused by the sliding log; the headers still say what the fixed-window code computes.
          const reset = Math.ceil((now + 1) / 60_000) * 60;
          const headers: Record<string, string> = { ...(lastHeaders.get(key) ?? {}), 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset), 'retry-after': String(Math.max(1, Math.ceil(reset - now / 1000))), date: httpDate(now) };
          for (const name of ['deprecation', 'sunset', 'link', 'location']) delete headers[name];
          return { status: 429, headers, body: stringifyExact({ code: 'RATE_LIMITED', message: 'Rate limit exceeded. Retry after the number of seconds in Retry-After.', status: 429 }) };
        }
        const res = await forward(req);
        if (res.status !== 429) log.push(now);
        lastHeaders.set(key, res.headers);
        const remaining = numberHeader(res, 'x-ratelimit-remaining');
        return remaining === undefined || res.status === 429 ? res : withHeaders(res, { 'x-ratelimit-remaining': String(Math.min(remaining, limit - log.length)) });
      };
    },
  },
  {
    name: 'window end inclusive: a request at the exact reset second counts in the old window',
    area: 'rate-windows',
    kind: 'rate-accounting',
    story: 'The window check is `now <= windowEnd` instead of `<`: a request that arrives exactly at the announced reset is counted in the window that is ending, so a client that waited for X-RateLimit-Reset to the millisecond is refused once more, with Retry-After: 0.',
    breaks: 'contract, Limits: X-RateLimit-Reset is the "Unix timestamp at which the limit resets", and Errors: retry "after the time given in the Retry-After header"; a request at that time is refused',
    make: () => {
      const last = new Map<string, { limit: number; remaining: number; reset: number }>();
      return async (req, forward, env) => {
        const key = keyOf(req);
        if (key === undefined) return forward(req);
        const now = env.now();
        const seen = last.get(key);
        if (seen !== undefined && now === seen.reset * 1000) {
          // Counted in the window that ends now.
          const served = seen.remaining <= 0 ? undefined : await forward(asTrusted(req));
          const base = served ?? (await refuseWith(forward, asTrusted(req), 429, 'RATE_LIMITED', 'Rate limit exceeded. Retry after the number of seconds in Retry-After.'));
          const remaining = Math.max(0, seen.remaining - 1);
          last.set(key, { ...seen, remaining });
          const headers = { 'x-ratelimit-limit': String(seen.limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(seen.reset) };
          return served === undefined ? withHeaders(base, { ...headers, 'retry-after': '0' }) : withHeaders(served, headers);
        }
        const res = await forward(req);
        const limit = numberHeader(res, 'x-ratelimit-limit');
        const remaining = numberHeader(res, 'x-ratelimit-remaining');
        const reset = numberHeader(res, 'x-ratelimit-reset');
        if (limit !== undefined && remaining !== undefined && reset !== undefined) last.set(key, { limit, remaining, reset });
        return res;
      };
    },
  },
  {
    name: 'Retry-After one second short',
    area: 'rate-windows',
    kind: 'rate-accounting',
    story: 'Retry-After is computed as `59 - now.getSeconds()` (the developer counted the seconds left in the minute from 1): a client that waits exactly that long arrives in the last second of the spent window and is refused again.',
    breaks: 'contract, Errors: "The client should back off and retry after the time given in the Retry-After header"; a retry after that time is refused (RFC 9110, 10.2.3)',
    make: () => onAnswers((res) => {
      const seconds = numberHeader(res, 'retry-after');
      return res.status === 429 && seconds !== undefined ? withHeaders(res, { 'retry-after': String(Math.max(0, seconds - 1)) }) : res;
    }),
  },
  // -------------------------------------------------------------------------------- throttling
  {
    name: 'last request of the quota refused (>= after the increment)',
    area: 'throttling',
    kind: 'rate-accounting',
    story: 'The limiter does `count = INCR(bucket); if (count >= limit) refuse` (the check was written for a read before the increment): each key gets one request fewer than its plan, the Free key 59 a minute, and the last one is answered 429.',
    breaks: 'contract, Limits: "Free 60 requests per minute"; only "Requests over the limit receive 429"',
    make: () => {
      const seen = new Map<string, { remaining: number; reset: number }>();
      return async (req, forward, env) => {
        const key = keyOf(req);
        const now = env.now();
        const last = key === undefined ? undefined : seen.get(key);
        let res: Res;
        if (last !== undefined && last.remaining === 1 && now < last.reset * 1000) {
          const refused = await refuseWith(forward, req, 429, 'RATE_LIMITED', 'Rate limit exceeded. Retry after the number of seconds in Retry-After.');
          res = withHeaders(refused, { 'retry-after': String(Math.max(1, Math.ceil(last.reset - now / 1000))) });
        } else {
          res = await forward(req);
        }
        const remaining = numberHeader(res, 'x-ratelimit-remaining');
        const reset = numberHeader(res, 'x-ratelimit-reset');
        if (key !== undefined && remaining !== undefined && reset !== undefined) seen.set(key, { remaining, reset });
        return res;
      };
    },
  },
  {
    name: 'rate limiter mounted on GET routes only',
    area: 'throttling',
    kind: 'rate-accounting',
    story: 'The limiter was registered on the router\'s read group when the API was read-only; createPet, added later to a new group, still gets the rate-limit headers from a response interceptor but is never refused: a key past its quota keeps creating pets.',
    breaks: 'contract, Errors: 429 "Rate limit exceeded" applies to "all operations", and Limits: "Requests over the limit receive 429 Too Many Requests"',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (!isCreateReq(req) || res.status !== 429) return res;
      const created = await forward(asTrusted(req));
      const { 'retry-after': _r, ...limits } = res.headers;
      return { ...created, headers: { ...created.headers, 'x-ratelimit-limit': limits['x-ratelimit-limit']!, 'x-ratelimit-remaining': limits['x-ratelimit-remaining']!, 'x-ratelimit-reset': limits['x-ratelimit-reset']! } };
    },
  },
  // -------------------------------------------------------------------------------- pagination
  {
    name: 'default page size taken from the admin app\'s config (50)',
    area: 'pagination',
    kind: 'data',
    story: 'The public API and the back-office app were merged into one Spring Boot service; `spring.data.web.pageable.default-page-size: 50` from the back office now applies when a client gives no limit.',
    breaks: 'contract, GET /pets: limit "default 20. Maximum number of animals returned"',
    make: () => (req, forward) => forward(isListReq(req) && !paramsOf(req).has('limit') ? withParams(req, (q) => q.set('limit', '50')) : req),
  },
  {
    name: 'limit rounded up to a cacheable page size',
    area: 'pagination',
    kind: 'data',
    story: 'To raise the CDN hit rate, the edge rewrites limit up to the next of 10, 20, 50 or 100 before the origin sees it, meaning to trim the page back, but the trimming step was left out of the edge worker.',
    breaks: 'contract, GET /pets: limit is the "Maximum number of animals returned"',
    make: () => (req, forward) => {
      const raw = isListReq(req) ? paramsOf(req).get('limit') : null;
      if (raw === null || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100) return forward(req);
      const bucket = [10, 20, 50, 100].find((size) => size >= Number(raw))!;
      return forward(withParams(req, (q) => q.set('limit', String(bucket))));
    },
  },
  {
    name: 'limit ignored when the status filter is given',
    area: 'pagination',
    kind: 'data',
    story: 'The filtered list is a separate repository method, `findByStatus(status, PageRequest.of(0, 20))`, written before limit existed; only the unfiltered path was updated to pass the client\'s limit.',
    breaks: 'contract, GET /pets: limit is the "Maximum number of animals returned", whether or not status is given',
    make: () => (req, forward) => forward(isListReq(req) && paramsOf(req).has('status') && paramsOf(req).has('limit') ? withParams(req, (q) => q.delete('limit')) : req),
  },
  // -------------------------------------------------------------------------------- filtering
  {
    name: 'status=available dropped as the filter\'s default value',
    area: 'filtering',
    kind: 'data',
    story: 'The query builder skips a filter equal to its column default (`if (value !== column.default) where(...)`), an optimisation meant for booleans; status defaults to available, so `status=available` lists every pet.',
    breaks: 'contract, GET /pets: status "Returns only animals with this status"',
    make: () => (req, forward) => forward(isListReq(req) && paramsOf(req).get('status') === 'available' ? withParams(req, (q) => q.delete('status')) : req),
  },
  {
    name: 'status filter upper-cased in the Turkish locale',
    area: 'filtering',
    kind: 'data',
    story: 'The filter is upper-cased to match the database enum with `toUpperCase()` under the host\'s default locale; the new region\'s hosts run tr_TR, where "i" upper-cases to "İ", so AVAİLABLE and PENDİNG match nothing and the list is empty (sold has no i).',
    breaks: 'contract, GET /pets: status "Returns only animals with this status", and the store has pets with status available and pending',
    make: () => onAnswers((res, req) => (isListReq(req) && /i/.test(paramsOf(req).get('status') ?? '') ? mapListOut(res, () => false) : res)),
  },
  {
    name: 'status=available also matches pets stored without a status',
    area: 'filtering',
    kind: 'data',
    story: 'Pets created without a status are stored with NULL and answered without one; the filter was written as `COALESCE(status, \'available\') = ?` so that legacy rows show on the adoption page, and lists them under status=available though they have no status.',
    breaks: 'contract, GET /pets: status "Returns only animals with this status"; the pets it adds have none',
    mockOptions: { defaultStatus: null },
    make: () => async (req, forward) => {
      if (!isListReq(req) || paramsOf(req).get('status') !== 'available') return forward(req);
      const raw = paramsOf(req).get('limit');
      const limit = raw !== null && /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 100 ? Number(raw) : raw === null ? 20 : undefined;
      if (limit === undefined) return forward(req);
      const res = await forward(withParams(req, (q) => {
        q.delete('status');
        q.set('limit', '100');
      }));
      const body = res.status === 200 ? parseBody(res) : undefined;
      if (!Array.isArray(body)) return res;
      return withJson(res, (body as Pet[]).filter((pet) => pet.status === undefined || pet.status === 'available').slice(0, limit));
    },
  },
  // -------------------------------------------------------------------------------- int64
  {
    name: 'categoryId parsed with JSON.parse into a double',
    area: 'int64',
    kind: 'ids',
    story: 'A Node rewrite of the create handler reads the body with `JSON.parse`: a categoryId past 2^53 is rounded to the nearest double before it is stored, and answered rounded ever after (9007199254740993 becomes 9007199254740992).',
    breaks: 'contract, NewPet and Pet: categoryId is an "integer, int64"; the created animal (201) and later reads must carry the categoryId sent',
    make: () => (req, forward) => {
      const body = isCreateReq(req) ? createBodyOf(req) : undefined;
      if (!body || typeof body.categoryId !== 'bigint') return forward(req);
      return forward({ ...req, body: stringifyExact({ ...body, categoryId: BigInt(Number(body.categoryId)) }) });
    },
  },
  {
    name: 'categoryId -2^63 crashes the shard router (Math.abs overflow)',
    area: 'int64',
    kind: 'ids',
    story: 'Pets are sharded by `Math.abs(categoryId) % 16`; in Java `Math.abs(Long.MIN_VALUE)` is still negative, the shard index is -8, and the create fails with an ArrayIndexOutOfBoundsException answered 500.',
    breaks: 'contract, NewPet: categoryId is an "integer, int64" and -9223372036854775808 is one; POST /pets answers 201 for a valid body (400 only for "missing required fields or invalid values")',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req) : undefined;
      if (body?.categoryId !== BigInt('-9223372036854775808')) return forward(req);
      return refuseWith(forward, req, 500, 'INTERNAL_ERROR', 'java.lang.ArrayIndexOutOfBoundsException: Index -8 out of bounds for length 16');
    },
  },
  {
    name: 'int64 fields written as JSON strings by the proto3 JSON mapping',
    area: 'int64',
    kind: 'spelling',
    story: 'The service moved behind grpc-gateway; the proto3 JSON mapping writes every int64 as a string, so id and categoryId arrive as "61" and "1" (Error.status is an int32 and stays a number).',
    breaks: 'contract, Pet: id and categoryId are "integer, int64" (JSON numbers, RFC 8259, 6), not strings',
    make: () => onAnswers((res, req) => {
      if (!isPetAnswer(req)) return res;
      const asText = (value: unknown) => (typeof value === 'number' || typeof value === 'bigint' ? String(value) : value);
      return mapPets(res, (pet) => ({ ...pet, id: asText(pet.id), categoryId: asText(pet.categoryId) }));
    }),
  },
  {
    name: 'categoryId spelled 1.0 or 1e3 refused by Go\'s int64 decoder',
    area: 'int64',
    kind: 'validation',
    story: 'encoding/json decodes categoryId into an int64 field and fails on any number literal with a fraction or exponent, even a whole one such as 1.0 or 1e3 that a client\'s serializer (Jackson with doubles, Python floats) writes.',
    breaks: 'contract, NewPet: categoryId is an integer; RFC 8259, 6: 1e3 and 1.0 are JSON numbers whose value is the integer 1000 and 1, not invalid values',
    make: () => (req, forward) => {
      const literal = isCreateReq(req) && hasValidKey(req) ? /"categoryId"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(req.body)?.[1] : undefined;
      if (literal === undefined || !/[.eE]/.test(literal)) return forward(req);
      return refuseWith(forward, req, 400, 'INVALID_BODY', `json: cannot unmarshal number ${literal} into Go struct field NewPet.categoryId of type int64`);
    },
  },
  // -------------------------------------------------------------------------------- bodies
  {
    name: 'client-sent id honoured by the ORM\'s save(), overwriting that pet',
    area: 'bodies',
    kind: 'data',
    story: 'The controller binds the request body straight to the entity; when the body carries an `id` that exists, JPA\'s `save()` merges instead of inserting, so a create overwrites that pet and answers it as created.',
    breaks: 'contract, Pet: id is "Unique identifier assigned by the service on creation"; POST /pets "Adds an animal" (201: "the created animal including its assigned id")',
    make: () => {
      const overwritten = new Map<string, Pet>();
      const overlay = (res: Res, req: Req) => {
        if (overwritten.size === 0 || !isPetAnswer(req)) return res;
        const mapped = mapPets(res, (pet) => overwritten.get(String(pet.id)) ?? pet);
        const status = isListReq(req) ? paramsOf(req).get('status') : null;
        return status === null ? mapped : mapListOut(mapped, (pet) => pet.status === status);
      };
      return async (req, forward) => {
        const body = isCreateReq(req) && hasValidKey(req) && validationProblem(req) === undefined ? createBodyOf(req) : undefined;
        if (body === undefined || typeof body.id !== 'number' || !Number.isSafeInteger(body.id) || body.id < 1) return overlay(await forward(req), req);
        // The ORM first looks the id up (counted as the request), then merges or inserts.
        const found = await forward({ method: 'GET', url: `/v1/pets/${body.id}`, headers: { authorization: req.headers.authorization! }, body: '' });
        const { deprecation: _d, sunset: _s, link: _l, ...headers } = found.headers;
        if (found.status === 429) return { ...found, headers };
        const limits = { 'x-ratelimit-limit': headers['x-ratelimit-limit']!, 'x-ratelimit-remaining': headers['x-ratelimit-remaining']!, 'x-ratelimit-reset': headers['x-ratelimit-reset']! };
        if (found.status !== 200) {
          const created = await forward(asTrusted(req));
          return { ...created, headers: { ...created.headers, ...limits } };
        }
        const pet: Pet = { id: body.id, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' };
        overwritten.set(String(body.id), pet);
        return { status: 201, headers: { ...headers, location: `/v1/pets/${body.id}` }, body: stringifyExact(pet) };
      };
    },
  },
  {
    name: 'bodies over 2 KiB end with a NUL from the buffer pool',
    area: 'bodies',
    kind: 'bytes',
    story: 'The C extension that writes JSON into pooled 2 KiB buffers counts the terminating NUL in the length when a body spans two buffers: large answers (lists of about 35 pets or more) end with a 0x00 byte after the closing bracket.',
    breaks: 'contract, "All request and response bodies are JSON"; RFC 8259, 2: only whitespace (space, tab, LF, CR) may follow the value, and U+0000 is none',
    make: () => onAnswers((res) => (Buffer.byteLength(res.body, 'utf8') > 2048 ? { ...res, body: `${res.body}\u0000` } : res)),
  },
  {
    name: 'request bodies without a charset decoded as ISO-8859-1',
    area: 'bodies',
    kind: 'bytes',
    story: 'The service moved to a servlet container that decodes a request body whose Content-Type has no charset parameter as ISO-8859-1 (the old Servlet default); a client sending plain `application/json` with "Zoë" stores "ZoÃ«".',
    breaks: 'contract, "All request and response bodies are JSON (application/json)"; RFC 8259, 8.1: JSON text exchanged between systems is UTF-8, and application/json has no charset parameter to say otherwise',
    make: () => (req, forward) => {
      if (!isCreateReq(req) || /charset=/i.test(req.headers['content-type'] ?? '')) return forward(req);
      return forward({ ...req, body: Buffer.from(req.body, 'utf8').toString('latin1') });
    },
  },
  {
    name: '201 built from the entity before the database default is applied',
    area: 'bodies',
    kind: 'data',
    story: 'The default status is a column DEFAULT in the database; the 201 is serialised from the entity the handler inserted, not re-read, so a pet created without status is answered without one and read back later as available.',
    breaks: 'contract, POST /pets: 201 "Pet (the created animal including its assigned id)": the animal as stored has a status its 201 leaves out',
    make: () => onAnswers((res, req) => {
      if (!isCreateReq(req) || res.status !== 201 || createBodyOf(req)?.status !== undefined) return res;
      return mapPets(res, ({ status: _status, ...pet }) => pet);
    }),
  },
  // -------------------------------------------------------------------------------- errors
  {
    name: 'getPet answers 200 null for an unknown id',
    area: 'errors',
    kind: 'data',
    story: 'The repository\'s `findById` was changed to return null instead of throwing, and the controller returns its result as is: an unknown id is answered 200 with the JSON body `null`.',
    breaks: 'contract, GET /pets/{petId}: 404 "The requested resource could not be found", with an Error body',
    make: () => onAnswers((res, req) => (isGetPetReq(req) && res.status === 404 ? { ...res, status: 200, body: 'null' } : res)),
  },
  {
    name: '401 for an unknown key carries status 403 in its body',
    area: 'errors',
    kind: 'spelling',
    story: 'The auth filter answers 401 but fills the Error body from the exception it caught, an InvalidKeyException whose own status is 403 (the code was shared with the admin API, where an unknown key is forbidden).',
    breaks: 'contract, Errors: "Error responses carry an Error body (code, message, status), with status equal to the HTTP status code"',
    make: () => onAnswers((res, req) => {
      if (res.status !== 401 || req.headers.authorization === undefined) return res;
      const body = parseBody(res) as Record<string, unknown> | undefined;
      return body && typeof body === 'object' ? withJson(res, { ...body, status: 403 }) : res;
    }),
  },
  {
    name: '429s written by the gateway\'s usage plan with its own body',
    area: 'errors',
    kind: 'spelling',
    story: 'Throttling moved from the service to the API gateway\'s usage plans; the gateway answers over-limit requests itself with its stock body `{"message":"Too Many Requests"}` (the headers are added by a response mapping).',
    breaks: 'contract, Errors: "Error responses carry an Error body (code, message, status)"; the 429 row applies to all operations',
    make: () => onAnswers((res) => (res.status === 429 ? { ...res, body: '{"message":"Too Many Requests"}' } : res)),
  },
  {
    name: '201 written with res.end(), no Content-Type',
    area: 'errors',
    kind: 'spelling',
    story: 'The create handler was changed to write the serialised pet with `res.status(201).end(JSON.stringify(pet))` to skip a double serialisation; `end()` sets no Content-Type, unlike the `json()` it replaced.',
    breaks: 'contract, "All request and response bodies are JSON (application/json)"; RFC 9110, 8.3: a sender that generates content SHOULD send Content-Type, and without it the recipient may sniff or treat it as application/octet-stream',
    make: () => onAnswers((res, req) => (isCreateReq(req) && res.status === 201 ? withHeaders(res, { 'content-type': undefined }) : res)),
  },
  // -------------------------------------------------------------------------------- auth
  {
    name: 'body and query validation run before authentication',
    area: 'auth',
    kind: 'auth',
    story: 'A request-validation middleware generated from the OpenAPI document was mounted globally, ahead of the auth guard registered per route: a request with no key or a bad key and an invalid body or query is answered 400, which also tells an anonymous caller what the API accepts.',
    breaks: 'contract, Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body"',
    make: () => async (req, forward) => {
      const problem = hasValidKey(req) ? undefined : validationProblem(req);
      const res = await forward(req);
      if (problem === undefined || res.status !== 401) return res;
      return asError(withHeaders(res, { 'www-authenticate': undefined }), 400, problem.code, problem.message);
    },
  },
  {
    name: 'API keys matched under a case-insensitive collation',
    area: 'auth',
    kind: 'auth',
    story: 'The keys table moved to MySQL with the default utf8mb4_0900_ai_ci collation: the lookup `WHERE api_key = ?` ignores case, so `DEMO-PRO` or `Demo-Pro` authenticates as demo-pro.',
    breaks: 'contract, Authentication 3: an invalid key is answered 401; a token that differs from every issued key is invalid (RFC 6750, 3.1: invalid_token)',
    make: () => (req, forward) => {
      const credentials = parseAuthorization(req.headers.authorization);
      if (credentials.kind !== 'bearer' || demoKeys.has(credentials.token) || !demoKeys.has(credentials.token.toLowerCase())) return forward(req);
      return forward(withKey(req, credentials.token.toLowerCase()));
    },
  },
  {
    name: '401s answered by the gateway\'s key-auth plugin, before rate limiting adds its headers',
    area: 'auth',
    kind: 'rate-accounting',
    story: 'Authentication moved into the gateway\'s key-auth plugin, which runs at a higher priority than its rate-limiting plugin: a refused key is answered before the limiter runs, so 401s carry no X-RateLimit headers.',
    breaks: 'contract, Limits: "Every API response carries these headers" (X-RateLimit-Limit, -Remaining, -Reset)',
    make: () => onAnswers((res) => (res.status === 401 ? withoutRateLimitHeaders(res) : res)),
  },
  // -------------------------------------------------------------------------------- deprecation
  {
    name: 'Sunset written in Deprecation\'s @-timestamp form',
    area: 'deprecation',
    kind: 'deprecation',
    story: 'When the Deprecation header was moved to the RFC 9745 structured date (`@1767225600`), the same helper was used for Sunset, which is an HTTP-date: getPet now answers `Sunset: @1922659200`.',
    breaks: 'RFC 8594, 3: Sunset = HTTP-date (RFC 9110, 5.6.7: IMF-fixdate); contract, Versioning 3: removal on 5 December 2030',
    make: () => onAnswers((res) => (headerOf(res, 'sunset') === undefined ? res : withHeaders(res, { sunset: `@${SUNSET_SECONDS}` }))),
  },
  {
    name: 'HEAD /pets/{petId} answered without Deprecation, Sunset and Link',
    area: 'deprecation',
    kind: 'deprecation',
    story: 'The deprecation headers are added by a gateway policy attached to the route "GET /pets/{petId}"; HEAD requests match the route\'s generated HEAD twin, which has no policy.',
    breaks: 'RFC 9110, 9.3.2: the server SHOULD send in a HEAD answer the same header fields as for GET; contract, Versioning 3: getPet is deprecated with removal on 5 December 2030',
    make: () => onAnswers((res, req) => (req.method === 'HEAD' && petIdOf(req) !== undefined ? withHeaders(res, { deprecation: undefined, sunset: undefined, link: undefined }) : res)),
  },
  {
    name: 'Deprecation: true from a pinned old middleware release',
    area: 'deprecation',
    kind: 'deprecation',
    story: 'A service template pins an old release of the deprecation middleware written against draft-ietf-httpapi-deprecation-header-01, which sends the boolean `Deprecation: true` rather than the date RFC 9745 defines.',
    breaks: 'RFC 9745, 2.1: Deprecation is an Item Structured Header whose value is a Date (`@` and seconds); `true` is not one. Contract, GET /pets/{petId}: deprecated',
    make: () => onAnswers((res) => (headerOf(res, 'deprecation') === undefined ? res : withHeaders(res, { deprecation: 'true' }))),
  },
  // -------------------------------------------------------------------------------- http
  {
    name: 'Last-Modified from the deployment time, so If-Modified-Since answers 304 after a change',
    area: 'http',
    kind: 'other',
    story: 'A static-file caching middleware was put in front of the whole app to serve the docs; it stamps every GET answer with the deployment time as Last-Modified and answers If-Modified-Since on or after it with 304, though lists change with each create.',
    breaks: 'RFC 9110, 8.8.2 and 13.1.3: Last-Modified is when the representation last changed, and 304 only when it has not changed since; contract, POST /pets "Adds an animal" that GET /pets then lists',
    make: () => {
      let deployedAt: number | undefined;
      return async (req, forward, env) => {
        deployedAt ??= Math.floor(env.now() / 1000) * 1000 - 60_000;
        const res = await forward(req);
        if (!isRead(req) || res.status !== 200 || pathOf(req).startsWith('/__mock')) return res;
        const stamped = withHeaders(res, { 'last-modified': httpDate(deployedAt) });
        const since = Date.parse(req.headers['if-modified-since'] ?? '');
        return Number.isFinite(since) && since >= deployedAt ? notModified(stamped) : stamped;
      };
    },
  },
  {
    name: 'Expect: 100-continue refused with 417 by the front server',
    area: 'http',
    kind: 'other',
    story: 'The front server (an old lighttpd build kept for its rewrite rules) answers 417 to any request carrying `Expect: 100-continue`, which curl and .NET\'s HttpClient send with larger POST bodies.',
    breaks: 'RFC 9110, 10.1.1: 100-continue is the one expectation defined, and a server that receives it either sends 100 (Continue) or a final status for the request itself; contract, POST /pets answers 201 for a valid body',
    make: () => (req, forward) => ((req.headers.expect ?? '').toLowerCase() === '100-continue' ? refuseWith(forward, req, 417, 'EXPECTATION_FAILED', 'Expectation Failed') : forward(req)),
  },
  // -------------------------------------------------------------------------------- time
  {
    name: 'Date from a container clock 7 minutes slow, reset from Redis time',
    area: 'time',
    kind: 'other',
    story: 'The containers\' NTP sidecar was dropped in a base-image change and their clocks drift; Date comes from the container (7 minutes slow) while X-RateLimit-Reset comes from Redis `TIME`, so the reset appears 7 minutes after Date.',
    breaks: 'RFC 9110, 6.6.1: an origin server with a clock sends Date as its best available approximation of the current UTC time; contract, Limits: X-RateLimit-Reset is the time the limit resets, a minute away at most for the minute window',
    make: () => onAnswers((res, _req, now) => withHeaders(res, { date: httpDate(now - 7 * 60_000) })),
  },
  {
    name: 'Date written from local time (New York, summer time) with a GMT suffix',
    area: 'time',
    kind: 'spelling',
    story: 'A hand-written date formatter uses `strftime("%a, %d %b %Y %H:%M:%S GMT", localtime(now))`; the hosts moved to the New York region with TZ set, so in summer time Date is four hours behind the real GMT time it claims.',
    breaks: 'RFC 9110, 5.6.7: an HTTP-date is in UTC ("GMT"), and 6.6.1: Date is the time the message was generated',
    make: () => onAnswers((res, _req, now) => withHeaders(res, { date: httpDate(now - 4 * 3_600_000) })),
  },
  // -------------------------------------------------------------------------------- store-orders
  {
    name: 'store orders served without authentication',
    area: 'store-orders',
    kind: 'auth',
    story: 'The Store area is served by another service behind the same gateway; its route was added with the gateway\'s default "no auth" policy, so `GET /v1/store/orders` answers without a key.',
    breaks: 'contract, What the service does: "All calls need an API key sent as a bearer token", and Authentication 1 and 3: "Every operation requires HTTP bearer authentication", 401 when the key is missing or invalid',
    make: () => async (req, forward) => {
      if (!isStoreOrders(req) || hasValidKey(req)) return forward(req);
      const refused = await forward(req);
      if (refused.status !== 401) return refused;
      const served = await forward(asTrusted(req));
      return { ...served, headers: { ...served.headers, 'x-ratelimit-limit': refused.headers['x-ratelimit-limit']!, 'x-ratelimit-remaining': refused.headers['x-ratelimit-remaining']!, 'x-ratelimit-reset': refused.headers['x-ratelimit-reset']! } };
    },
  },
  {
    name: 'store orders answered without the rate-limit headers',
    area: 'store-orders',
    kind: 'rate-accounting',
    story: 'The store service checks keys itself but has no limiter of its own, and the gateway\'s rate-limit plugin is attached to the pets routes only: store answers, 401s included, carry no X-RateLimit headers.',
    breaks: 'contract, Limits: "Every API response carries these headers"',
    make: () => onAnswers((res, req) => (pathOf(req).startsWith('/v1/store/') ? withoutRateLimitHeaders(res) : res)),
  },
  // -------------------------------------------------------------------------------- concurrency
  {
    name: 'limiter\'s plan set on a shared singleton',
    area: 'concurrency',
    kind: 'concurrency',
    story: 'The limiter is a singleton bean whose `plan` field is set per request before the handler runs and read when the headers are written; under parallel requests of two keys, an answer carries the limit of the plan that arrived last.',
    breaks: 'contract, Limits: X-RateLimit-Limit is "The limit in force" for the key that sent the request (Free 60, Pro 300)',
    make: () => {
      let current: number | undefined;
      return async (req, forward) => {
        const key = keyOf(req);
        const mine = key === undefined ? undefined : perMinute[key];
        if (mine !== undefined) current = mine;
        const res = await forward(req);
        return mine !== undefined && current !== undefined && headerOf(res, 'x-ratelimit-limit') === String(mine) ? withHeaders(res, { 'x-ratelimit-limit': String(current) }) : res;
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Legal variants
// ---------------------------------------------------------------------------------------------

/** An id as the multi-region sequence gives it: the store's n as 10n + 3. */
const regionId = (n: unknown) => (typeof n === 'number' ? n * 10 + 3 : typeof n === 'bigint' ? n * 10n + 3n : n);
const INT64_MAX = (1n << 63n) - 1n;
/** The store's id for a path's petId under the multi-region sequence; an id the sequence never gives maps to one no pet has. */
function storeIdOf(petId: string): string {
  if (!/^-?\d+$/.test(petId)) return petId;
  const id = BigInt(petId);
  if (id > INT64_MAX || id < -INT64_MAX - 1n) return petId;
  return (id - 3n) % 10n === 0n && id >= 3n ? String((id - 3n) / 10n) : String(INT64_MAX);
}

/** Fields of an order of the classic Petstore, filled in deterministically from its position. */
const orderAt = (i: number) => ({
  id: i + 1,
  petId: ((i * 7) % 60) + 1,
  quantity: 1 + (i % 3),
  shipDate: new Date(Date.UTC(2026, 4, 1 + i, 9)).toISOString(),
  status: ['placed', 'approved', 'delivered'][i % 3],
  complete: i % 3 === 2,
});

export const legalVariants4: LegalVariant4[] = [
  {
    name: 'sets Sunset at the last second of 5 December 2030',
    area: 'deprecation',
    choice: 'the contract pins the removal day ("to be removed on 5 December 2030", Versioning 3) but not the time of day: a Sunset of `Thu, 05 Dec 2030 23:59:59 GMT` keeps the day (RFC 8594, 3 takes any HTTP-date)',
    make: () => onAnswers((res) => (headerOf(res, 'sunset') === undefined ? res : withHeaders(res, { sunset: 'Thu, 05 Dec 2030 23:59:59 GMT' }))),
  },
  {
    name: 'dates the deprecation earlier and links a deprecation policy',
    area: 'deprecation',
    choice: 'the contract says getPet is deprecated, not since when: `Deprecation: @1735689600` (1 January 2025) and a second Link, `rel="deprecation"` to the policy page, are RFC 9745, 2 and 3\'s own',
    make: () => onAnswers((res) => {
      if (headerOf(res, 'deprecation') === undefined) return res;
      const policy = '<https://developer.example.com/deprecations/get-pet>; rel="deprecation"; type="text/html"';
      const link = headerOf(res, 'link');
      return withHeaders(res, { deprecation: '@1735689600', link: link === undefined ? policy : `${link}, ${policy}` });
    }),
  },
  {
    name: 'sends no CORS headers',
    area: 'http',
    choice: 'the contract says nothing of browsers or CORS: a server-to-server API may send no Access-Control-* headers and answer OPTIONS as a method it does not serve',
    make: () => (req, forward) => forward(req),
    mockOptions: { corsOrigins: false },
  },
  {
    name: 'assigns ids from a multi-region sequence (step 10, offset 3)',
    area: 'int64',
    choice: 'the contract says only that id is an int64 "Unique identifier assigned by the service on creation": ids 13, 23, 33 ... (a sequence with increment 10 and this region\'s offset 3) are unique and increasing; an id the sequence never gives is 404',
    make: () => async (req, forward) => {
      const petId = petIdOf(req);
      const res = await forward(petId === undefined ? req : { ...req, url: `/v1/pets/${storeIdOf(petId)}${new URL(req.url, 'http://x').search}` });
      let out: Res = isPetAnswer(req) ? mapPets(res, (pet) => ({ ...pet, id: regionId(pet.id) })) : res;
      const location = headerOf(out, 'location');
      const stored = location === undefined ? undefined : /^\/v1\/pets\/(\d+)$/.exec(location)?.[1];
      if (stored !== undefined) out = withHeaders(out, { location: `/v1/pets/${regionId(BigInt(stored))}` });
      if (petId !== undefined && res.status === 404) {
        const body = parseBody(res) as Record<string, unknown> | undefined;
        if (body && typeof body === 'object') out = withJson(out, { ...body, message: `No pet has the id ${petId}.` });
      }
      return out;
    },
  },
  {
    name: 'pages with a cursor and Link: rel="next"',
    area: 'pagination',
    choice: '"Pagination parameters beyond limit and any pagination data in the response: not shown": a full page carries `Link: </v1/pets?limit=N&cursor=ID>; rel="next"` (RFC 8288), and `cursor` lists the pets older than that id; without a cursor the list is what it was',
    make: () => async (req, forward) => {
      if (!isListReq(req)) return forward(req);
      const cursor = paramsOf(req).get('cursor');
      const res = await forward(cursor === null ? req : withParams(req, (q) => q.delete('cursor')));
      if (res.status !== 200) return res;
      if (cursor !== null && !/^\d+$/.test(cursor)) return asError(res, 400, 'INVALID_QUERY_PARAMETER', 'cursor must be the id given in a Link rel="next".');
      const limit = Number(paramsOf(req).get('limit') ?? '20');
      const status = paramsOf(req).get('status');
      let page = parseBody(res) as Pet[];
      if (cursor !== null) {
        const all = parseBody(await forward({ method: 'GET', url: '/__mock/pets', headers: {}, body: '' })) as Pet[];
        page = all.filter((pet) => Number(pet.id) < Number(cursor) && (status === null || pet.status === status)).sort((a, b) => Number(b.id) - Number(a.id)).slice(0, limit);
      }
      const answered = withJson(res, page);
      if (page.length < limit || page.length === 0) return answered;
      const next = new URLSearchParams({ limit: String(limit), ...(status === null ? {} : { status }), cursor: String(page.at(-1)!.id) });
      return withHeaders(answered, { link: `</v1/pets?${next}>; rel="next"` });
    },
  },
  {
    name: 'leaves status absent when a pet is created without one',
    area: 'bodies',
    choice: '"Default value of status when it is omitted on creation: not shown", and status is not required in Pet: the pet is stored and answered without a status',
    make: () => (req, forward) => forward(req),
    mockOptions: { defaultStatus: null },
  },
  {
    name: 'never bans a key',
    area: 'throttling',
    choice: 'Authentication 4: repeated requests after a 429 "may" lead to a temporary ban; a deployment that only ever answers 429 until the window resets keeps every other sentence',
    make: () => (req, forward) => forward(req),
    mockOptions: { ban: { threshold: Number.MAX_SAFE_INTEGER } },
  },
  {
    name: 'labels JSON without a charset parameter',
    area: 'http',
    choice: 'the contract says bodies are `application/json`; RFC 8259, 11 defines no charset parameter for it (JSON is UTF-8), so `Content-Type: application/json` alone is the exact media type',
    make: () => onAnswers((res) => (/^application\/json/i.test(headerOf(res, 'content-type') ?? '') ? withHeaders(res, { 'content-type': 'application/json' }) : res)),
  },
  {
    name: 'refuses query parameters it does not define',
    area: 'pagination',
    choice: '"Pagination parameters beyond limit ... not shown": a deployment may refuse `offset`, `page` or any parameter it does not define with 400 and an Error body rather than ignore it',
    make: () => (req, forward) => forward(req),
    mockOptions: { strict: true },
  },
  {
    name: 'answers store orders with the Petstore\'s order fields',
    area: 'store-orders',
    choice: '"Fields of a category record and of a store order record: not shown" and "Other endpoints (for example the store-orders listing): not shown": orders with id, petId, quantity, shipDate, status and complete',
    make: () => onAnswers((res, req) => {
      const body = isStoreOrders(req) && res.status === 200 ? parseBody(res) : undefined;
      return Array.isArray(body) ? withJson(res, body.map((_order, i) => orderAt(i))) : res;
    }),
  },
  {
    name: 'answers If-Modified-Since on lists from the store\'s last change',
    area: 'http',
    choice: 'caching and validators are not shown: list answers carry Last-Modified, the time of the store\'s last create (sent only once that second is over, RFC 9110, 8.8.2.2), and an If-Modified-Since not before it is answered 304 with the rate-limit headers (RFC 9110, 13.1.3 and 15.4.5)',
    make: () => {
      let lastChange: number | undefined;
      return async (req, forward, env) => {
        const now = env.now();
        lastChange ??= now - 60_000;
        const res = await forward(req);
        if (isCreateReq(req) && res.status === 201) lastChange = now;
        if (!isRead(req) || !isListPath(req) || res.status !== 200) return res;
        const second = Math.floor(lastChange / 1000) * 1000;
        if (second + 1000 > now) return res;
        const stamped = withHeaders(res, { 'last-modified': httpDate(second) });
        const since = Date.parse(req.headers['if-modified-since'] ?? '');
        return req.headers['if-none-match'] === undefined && Number.isFinite(since) && second <= since && since <= now ? notModified(stamped) : stamped;
      };
    },
  },
  {
    name: 'answers 406 when Accept admits no JSON',
    area: 'http',
    choice: 'content negotiation is not shown and the service speaks only JSON: a request whose Accept excludes application/json (`Accept: text/html`) is answered 406 with an Error body, after the key is checked (RFC 9110, 12.5.1 and 15.5.7 allow either 406 or ignoring Accept)',
    make: () => async (req, forward) => {
      if (acceptsJson(req)) return forward(req);
      const standIn = await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' });
      if (standIn.status !== 200) return standIn;
      return asError(standIn, 406, 'NOT_ACCEPTABLE', 'This API answers only application/json; send Accept: application/json or */*.');
    },
  },
];
