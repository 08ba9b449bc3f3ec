// A second, independent catalogue, written to test whether the suite generalises beyond the first
// (regressions.ts): realistic regressions of other kinds and mechanisms (ORM and serializer
// defaults, caches and CDNs, connection pools, feature flags, clocks and locales, retries,
// middleware order) and legal variants that settle other open choices of the contract. Each entry
// is the project's mock wrapped by a Transform; `make()` gives a fresh one per deployment, so no
// state leaks between runs. Witnesses: regressions2.witness.test.ts.
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { parseAuthorization } from '../../mock/pipeline/parseAuthorization.ts';
import { asError, asTrusted, bodyText, createBodyOf, DAY, demoKeys, hasValidKey, headerOf, isCreateReq, isGetPetReq, isJsonAnswer, isListReq, isPetAnswer, keyOf, mapListOut, mapPets, MINUTE, onAnswers, paramsOf, parseBody, pathOf, petIdOf, planPerDay, planPerMinute, rateLimitHeadersOf, refuseWith, statuses, SUNSET, urlOf, withHeaders, withJson, withoutRateLimitHeaders, withParams, type Pet } from './catalogueHelpers.ts';
import type { Req, Res, Transform } from './injectTransport.ts';
import { legalGateway } from './legalChoices.ts';
import type { LegalVariant, Regression } from './regressions.ts';

export type { LegalVariant, Regression } from './regressions.ts';

// ---------------------------------------------------------------------------------------------
// Helpers: requests and answers (the shared ones are in catalogueHelpers.ts)
// ---------------------------------------------------------------------------------------------

/** A create body the mock would take: a string name, an integer categoryId, a PetStatus or none. */
function validNewPet(req: Req): Record<string, unknown> | undefined {
  const body = isCreateReq(req) ? createBodyOf(req) : undefined;
  if (!body || typeof body.name !== 'string' || !Number.isSafeInteger(body.categoryId)) return undefined;
  return body.status === undefined || statuses.includes(body.status as string) ? body : undefined;
}
/** A valid limit as the mock reads it, or undefined (absent or invalid). */
function validLimit(req: Req): number | undefined {
  const raw = paramsOf(req).get('limit');
  return raw !== null && /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 100 ? Number(raw) : undefined;
}
/** The list's query is one the mock answers 200 (limit and status absent or valid, each once). */
function plainListQuery(req: Req): boolean {
  const q = paramsOf(req);
  if (q.getAll('limit').length > 1 || q.getAll('status').length > 1) return false;
  if (q.has('limit') && validLimit(req) === undefined) return false;
  return !q.has('status') || statuses.includes(q.get('status')!);
}

const onPetAnswers = (change: (pet: Pet) => Pet): Transform => async (req, forward) => {
  const res = await forward(req);
  return isPetAnswer(req) ? mapPets(res, change) : res;
};

/** A shared cache of GET answers keyed on the URL alone: holds what `store` makes of an answer (undefined: not stored) for `ttlMs`, and serves a hit as `replay` makes it. */
function urlCache(options: { ttlMs: number; store(res: Res): Res | undefined; replay(res: Res, ageMs: number): Res }): Transform {
  const cache = new Map<string, { at: number; res: Res }>();
  return async (req, forward, env) => {
    if (req.method !== 'GET') return forward(req);
    const hit = cache.get(req.url);
    if (hit && env.now() - hit.at < options.ttlMs) return options.replay(hit.res, env.now() - hit.at);
    const res = await forward(req);
    const stored = options.store(res);
    if (stored) cache.set(req.url, { at: env.now(), res: stored });
    return stored ?? res;
  };
}

/** A 429 of the deployment's own. */
function tooMany(limit: number, remaining: number, resetMs: number, now: number): Res {
  return {
    status: 429,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(Math.ceil(resetMs / 1000)),
      'retry-after': String(Math.max(1, Math.ceil((resetMs - now) / 1000))),
    },
    body: stringifyExact({ code: 'RATE_LIMITED', message: 'Rate limit exceeded. Retry after the time in Retry-After.', status: 429 }),
  };
}

// ---------------------------------------------------------------------------------------------
// A fixed-window limiter of the deployment's own (per minute, per key, Free and Pro), for the
// regressions whose counting differs from the mock's: the mock answers as an unlimited key would.
// Other keys (and requests without one) go to the mock as they are.
// ---------------------------------------------------------------------------------------------

interface WindowOptions {
  /** How long a window lasts. Default: a minute. */
  windowMs?: number;
  /** Whether a served request stays counted, once its answer is known. Default: always. */
  counts?(req: Req, res: Res): boolean;
  /** The header is computed from the count published when the last request completed. */
  staleHeader?: boolean;
}

function fixedWindow(options: WindowOptions = {}): Transform {
  const windowMs = options.windowMs ?? MINUTE;
  const buckets = new Map<string, { start: number; count: number; published: number }>();
  return async (req, forward, env) => {
    const key = keyOf(req);
    if (!key || !(key in planPerMinute)) return forward(req);
    const now = env.now();
    const start = now - (now % windowMs);
    const bucket = buckets.get(key) ?? { start, count: 0, published: 0 };
    buckets.set(key, bucket);
    if (bucket.start !== start) Object.assign(bucket, { start, count: 0, published: 0 });
    const limit = planPerMinute[key]!;
    if (bucket.count >= limit) return tooMany(limit, 0, start + windowMs, now);
    const seen = bucket.published;
    // Counted at once, atomically: parallel requests each count.
    let spent = ++bucket.count;
    const res = await forward(asTrusted(req));
    if (options.counts && !options.counts(req, res) && bucket.start === start) {
      bucket.count--;
      spent--;
    }
    if (bucket.start === start) bucket.published = bucket.count;
    const remaining = options.staleHeader ? limit - (seen + 1) : limit - spent;
    return withHeaders(res, { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, remaining)), 'x-ratelimit-reset': String(Math.ceil((start + windowMs) / 1000)) });
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers: JSON text written on the digits (ids and categoryIds may lie beyond 2^53)
// ---------------------------------------------------------------------------------------------

type JsonNode = { kind: 'raw'; text: string } | { kind: 'array'; items: JsonNode[] } | { kind: 'object'; entries: [string, JsonNode][] };

/** Parses JSON keeping numbers (and every scalar) as the text they were written as. */
function parseLossless(text: string): JsonNode {
  let at = 0;
  const space = () => {
    while (at < text.length && ' \t\r\n'.includes(text[at]!)) at++;
  };
  const value = (): JsonNode => {
    space();
    const c = text[at];
    if (c === '{') {
      at++;
      const entries: [string, JsonNode][] = [];
      space();
      if (text[at] === '}') return at++, { kind: 'object', entries };
      for (;;) {
        space();
        const key = scalar();
        space();
        at++; // ':'
        entries.push([JSON.parse(key.text) as string, value()]);
        space();
        if (text[at++] === '}') return { kind: 'object', entries };
      }
    }
    if (c === '[') {
      at++;
      const items: JsonNode[] = [];
      space();
      if (text[at] === ']') return at++, { kind: 'array', items };
      for (;;) {
        items.push(value());
        space();
        if (text[at++] === ']') return { kind: 'array', items };
      }
    }
    return scalar();
  };
  const scalar = (): { kind: 'raw'; text: string } => {
    const from = at;
    if (text[at] === '"') {
      at++;
      while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      at++;
    } else {
      while (at < text.length && !',]} \t\r\n:'.includes(text[at]!)) at++;
    }
    return { kind: 'raw', text: text.slice(from, at) };
  };
  const out = value();
  space();
  if (at !== text.length) throw new SyntaxError('trailing text');
  return out;
}

function writeLossless(node: JsonNode, style: { colon: string; comma: string; order?(entries: [string, JsonNode][]): [string, JsonNode][] }): string {
  if (node.kind === 'raw') return node.text;
  if (node.kind === 'array') return `[${node.items.map((item) => writeLossless(item, style)).join(style.comma)}]`;
  const entries = style.order ? style.order(node.entries) : node.entries;
  return `{${entries.map(([key, value]) => `${stringifyExact(key)}${style.colon}${writeLossless(value, style)}`).join(style.comma)}}`;
}

// ---------------------------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------------------------

/** Folds a name as a case- and accent-insensitive collation compares it. */
const foldName = (name: string) => name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

export const regressions2: Regression[] = [
  // ----------------------------------------------------------------------------------- data
  {
    name: 'names trimmed on store',
    story: 'A shared "clean input" DTO setter added for the admin forms trims every string, so a pet named "  Rex " is stored (and answered) as "Rex".',
    kind: 'data',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) ? createBodyOf(req) : undefined;
      return forward(body && typeof body.name === 'string' ? { ...req, body: stringifyExact({ ...body, name: body.name.trim() }) } : req);
    },
  },
  {
    name: 'categoryId lost by the entity mapper',
    story: 'The ORM entity\'s field was renamed category_id and the mapper ignores unknown JSON properties, so categoryId never binds and every new pet is stored with the column default 0 (the 201 echoes the request DTO).',
    kind: 'data',
    make: () => async (req, forward) => {
      const body = validNewPet(req);
      if (!body) return forward(req);
      const res = await forward({ ...req, body: stringifyExact({ ...body, categoryId: 0 }) });
      return res.status === 201 ? mapPets(res, (pet) => ({ ...pet, categoryId: body.categoryId })) : res;
    },
  },
  {
    name: 'sold pets hidden by the website\'s feature flag',
    story: 'The "hide adopted pets" flag meant for the public website was switched on for the API too, so sold pets vanish from listPets and getPet, even one just created as sold.',
    kind: 'data',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (isListReq(req)) return mapListOut(res, (pet) => pet.status !== 'sold');
      if (isGetPetReq(req) && res.status === 200 && (parseBody(res) as Pet | undefined)?.status === 'sold') return asError(res, 404, 'PET_NOT_FOUND', 'No such pet.');
      return res;
    },
  },
  {
    name: 'gateway retries creates, storing each pet twice',
    story: 'The API gateway was given retry-on-timeout for every method; creates take longer than its 200 ms upstream timeout, so each POST is written twice and the client sees the second copy.',
    kind: 'data',
    make: () => async (req, forward) => {
      const first = await forward(req);
      if (!isCreateReq(req) || first.status !== 201) return first;
      // The retry goes upstream from the gateway, past the rate limiter.
      const second = await forward(asTrusted(req));
      return withHeaders(second, rateLimitHeadersOf(first));
    },
  },
  {
    name: 'status filter applied after the limit',
    story: 'The list query was moved to a repository that pages first (LIMIT n) and filters by status in memory after, so ?status=sold&limit=5 holds only the sold pets among the first five.',
    kind: 'data',
    make: () => async (req, forward) => {
      const wanted = isListReq(req) ? paramsOf(req).get('status') : null;
      if (!wanted || !plainListQuery(req)) return forward(req);
      const res = await forward(withParams(req, (q) => q.delete('status')));
      const body = parseBody(res);
      return res.status === 200 && Array.isArray(body) ? withJson(res, (body as Pet[]).filter((pet) => pet.status === wanted)) : res;
    },
  },
  {
    name: 'peek-ahead row left in each page',
    story: 'The new keyset pagination fetches limit + 1 rows to learn whether a next page exists and forgets to drop the extra row, so every page holds one pet more than the limit.',
    kind: 'data',
    make: () => async (req, forward) => {
      if (!isListReq(req) || !plainListQuery(req)) return forward(req);
      const limit = validLimit(req) ?? 20;
      return forward(withParams(req, (q) => q.set('limit', String(Math.min(100, limit + 1)))));
    },
  },
  {
    name: 'reads served by a replica two seconds behind',
    story: 'getPet and listPets were moved to a read replica that lags the primary by about two seconds, so a pet is 404 and missing from lists right after its 201.',
    kind: 'data',
    make: () => {
      const createdAt = new Map<string, number>();
      return async (req, forward, env) => {
        const fresh = (id: unknown) => {
          const at = createdAt.get(String(id));
          return at !== undefined && env.now() - at < 2_000;
        };
        if (isGetPetReq(req) && fresh(petIdOf(req))) {
          const res = await forward(req);
          return res.status === 200 ? asError(res, 404, 'PET_NOT_FOUND', 'No such pet.') : res;
        }
        const res = await forward(req);
        if (isCreateReq(req) && res.status === 201) createdAt.set(String((parseBody(res) as Pet).id), env.now());
        return isListReq(req) ? mapListOut(res, (pet) => !fresh(pet.id)) : res;
      };
    },
  },
  // ------------------------------------------------------------------------------- spelling
  {
    name: 'absent status serialised as null',
    story: 'The JSON mapper\'s inclusion rule was reset from NON_NULL to ALWAYS in a framework upgrade, so a pet stored without a status is written with "status": null.',
    kind: 'spelling',
    make: () => onPetAnswers((pet) => ('status' in pet ? pet : { ...pet, status: null })),
    mockOptions: { defaultStatus: null },
  },
  {
    name: 'proto3 JSON printer omits default values',
    story: 'Pets are now read from a gRPC backend through a JSON transcoder whose printer omits proto3 defaults, so status AVAILABLE (enum value 0) and a categoryId of 0 are left out of every pet.',
    kind: 'spelling',
    make: () => onPetAnswers((pet) => {
      const out = { ...pet };
      if (out.status === 'available') delete out.status;
      if (out.categoryId === 0) delete out.categoryId;
      return out;
    }),
  },
  {
    name: 'X-RateLimit-Limit written as a float',
    story: 'The plan table moved to a JSON config read into doubles, and the header writer uses the float\'s default formatting, so X-RateLimit-Limit reads 300.0.',
    kind: 'spelling',
    make: () => onAnswers((res) => {
      const limit = headerOf(res, 'x-ratelimit-limit');
      return limit !== undefined && /^\d+$/.test(limit) ? withHeaders(res, { 'x-ratelimit-limit': `${limit}.0` }) : res;
    }),
  },
  {
    name: 'X-RateLimit-Reset with thousands separators',
    story: 'The header helper was switched to the admin UI\'s shared number formatter (toLocaleString), so X-RateLimit-Reset goes out as 1,780,317,060.',
    kind: 'spelling',
    make: () => onAnswers((res) => {
      const reset = headerOf(res, 'x-ratelimit-reset');
      return reset !== undefined && /^\d+$/.test(reset) ? withHeaders(res, { 'x-ratelimit-reset': Number(reset).toLocaleString('en-US') }) : res;
    }),
  },
  {
    name: 'v2 error envelope rolled out to some accounts',
    story: 'The "errors-v2" feature flag, rolled out to half the accounts by key hash (the Pro demo key among them), wraps every Error as {"error": {...}}.',
    kind: 'spelling',
    make: () => onAnswers((res, req) => {
      if (keyOf(req) !== 'demo-pro' || res.status < 400) return res;
      const body = parseBody(res);
      return body && typeof body === 'object' ? withJson(res, { error: body }) : res;
    }),
  },
  // ------------------------------------------------------------------------------------ ids
  {
    name: 'creates deduplicated by a hash of the body',
    story: 'The idempotency layer meant to absorb double submissions derives a key from a hash of the body when no Idempotency-Key is sent, so a second pet with the same fields gets the first pet back (201, same id) and is never stored.',
    kind: 'ids',
    make: () => {
      const seen = new Map<string, Res>();
      return async (req, forward) => {
        const body = hasValidKey(req) ? validNewPet(req) : undefined;
        if (!body) return forward(req);
        const hash = createHash('sha256').update(stringifyExact(body)).digest('hex');
        const earlier = seen.get(hash);
        if (earlier) return withHeaders(earlier, rateLimitHeadersOf(await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: { authorization: req.headers.authorization! }, body: '' })));
        const res = await forward(req);
        if (res.status === 201) seen.set(hash, res);
        return res;
      };
    },
  },
  {
    name: 'getPet reads the id with Number()',
    story: 'The id is converted with Number(raw) and checked with Number.isInteger, so /pets/0x10, /pets/1e1 and /pets/+3 serve pets 16, 10 and 3 instead of refusing the id.',
    kind: 'ids',
    make: () => (req, forward) => {
      const raw = isGetPetReq(req) ? decodeURIComponent(petIdOf(req)!) : '';
      const id = raw === '' || /^\d+$/.test(raw) ? NaN : Number(raw);
      return forward(Number.isSafeInteger(id) && id >= 0 ? { ...req, url: `/v1/pets/${id}` } : req);
    },
  },
  // ------------------------------------------------------------------------ rate-accounting
  {
    name: 'X-RateLimit-Remaining goes negative',
    story: 'The limiter INCRs before comparing and writes limit - count, so every refused request pushes X-RateLimit-Remaining further below zero: -1, -2, -3.',
    kind: 'rate-accounting',
    make: () => {
      const over = new Map<string, number>();
      return onAnswers((res, req) => {
        const who = req.headers.authorization ?? '';
        if (res.status !== 429) {
          over.set(who, 0);
          return res;
        }
        const n = (over.get(who) ?? 0) + 1;
        over.set(who, n);
        return withHeaders(res, { 'x-ratelimit-remaining': String(-n) });
      });
    },
  },
  {
    name: 'Retry-After sent in milliseconds',
    story: 'Retry-After is now filled from the key\'s PTTL instead of its TTL, so a 429 asks the client to wait 30000 seconds (eight hours) for a window that ends in 30.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => {
      const after = headerOf(res, 'retry-after');
      return res.status === 429 && after !== undefined && /^\d+$/.test(after) ? withHeaders(res, { 'retry-after': String(Number(after) * 1000) }) : res;
    }),
  },
  {
    name: 'limiter clock 90 s behind',
    story: 'The limiter computes its windows from the Redis host\'s clock, which a broken NTP setup left 90 seconds behind, so X-RateLimit-Reset names a moment already past.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => {
      const reset = headerOf(res, 'x-ratelimit-reset');
      return reset !== undefined && /^\d+$/.test(reset) ? withHeaders(res, { 'x-ratelimit-reset': String(Number(reset) - 90) }) : res;
    }),
  },
  {
    name: 'window length read as milliseconds',
    story: 'The limiter\'s window setting of 60 (seconds) is passed to a library that reads milliseconds, so each window lasts 60 ms and a key gets its whole quota again every time it waits a second.',
    kind: 'rate-accounting',
    make: () => fixedWindow({ windowMs: 60 }),
  },
  {
    name: 'refused creates not counted',
    story: 'On createPet the body validator was registered before the rate limiter, so a create refused with 400 never reaches the limiter and costs nothing from X-RateLimit-Remaining.',
    kind: 'rate-accounting',
    make: () => fixedWindow({ counts: (req, res) => !(isCreateReq(req) && res.status === 400) }),
  },
  {
    name: '404 answers without the rate-limit headers',
    story: 'NotFound exceptions are mapped by a global exception filter that runs before the rate-limit interceptor adds its headers, so every 404 (unknown pet or route) goes out without X-RateLimit-*.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => (res.status === 404 ? withoutRateLimitHeaders(res) : res)),
  },
  {
    name: 'Retry-After HTTP-date written in local time',
    story: 'Retry-After was switched to an HTTP-date built with strftime on localtime() (the hosts run in America/New_York) and a hard-coded "GMT", so the date it names is five hours ago.',
    kind: 'rate-accounting',
    make: () => onAnswers((res, _req, now) => {
      const after = headerOf(res, 'retry-after');
      return res.status === 429 && after !== undefined && /^\d+$/.test(after) ? withHeaders(res, { 'retry-after': new Date(now + Number(after) * 1000 - 5 * 3_600_000).toUTCString() }) : res;
    }),
  },
  {
    name: 'throttle shield replays a stored 429 for five minutes',
    story: 'The edge "throttle shield" remembers a throttled key for five minutes and replays the stored 429 to every request of that key, long after its Retry-After and X-RateLimit-Reset have passed.',
    kind: 'rate-accounting',
    make: () => {
      const shielded = new Map<string, { at: number; res: Res }>();
      return async (req, forward, env) => {
        const who = req.headers.authorization;
        const held = who === undefined ? undefined : shielded.get(who);
        if (held && env.now() - held.at < 5 * MINUTE) return held.res;
        const res = await forward(req);
        if (res.status === 429 && who !== undefined && hasValidKey(req)) shielded.set(who, { at: env.now(), res });
        return res;
      };
    },
  },
  {
    name: '429 answers report the daily window',
    story: 'The refusal handler builds its headers from the daily counter, the only one in its scope, so a key throttled by its per-minute limit is told X-RateLimit-Remaining 940 of 1000 on the 429 itself.',
    kind: 'rate-accounting',
    make: () => {
      const served = new Map<string, number>();
      return onAnswers((res, req, now) => {
        const key = keyOf(req);
        if (!key || !(key in planPerDay)) return res;
        if (res.status !== 429) {
          served.set(key, (served.get(key) ?? 0) + 1);
          return res;
        }
        const perDay = planPerDay[key]!;
        return withHeaders(res, { 'x-ratelimit-limit': String(perDay), 'x-ratelimit-remaining': String(perDay - (served.get(key) ?? 0)), 'x-ratelimit-reset': String(Math.ceil((now - (now % DAY) + DAY) / 1000)) });
      });
    },
  },
  {
    name: 'X-RateLimit-Remaining dropped when it is 0',
    story: 'The header middleware writes each value with `if (value) res.setHeader(...)`, so a Remaining of 0 (the last allowed request and every 429) is never sent.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => (headerOf(res, 'x-ratelimit-remaining') === '0' ? withHeaders(res, { 'x-ratelimit-remaining': undefined }) : res)),
  },
  // ----------------------------------------------------------------------------------- auth
  {
    name: 'shared cache ignores Authorization',
    story: 'GET answers were marked Cache-Control: public, max-age=30 for the CDN without Vary: Authorization, so for 30 s the CDN serves a stored 200 to anyone asking the same URL, with or without a key.',
    kind: 'auth',
    make: () => urlCache({
      ttlMs: 30_000,
      store: (res) => (res.status === 200 ? withHeaders(res, { 'cache-control': 'public, max-age=30' }) : undefined),
      replay: (res, ageMs) => withHeaders(res, { age: String(Math.floor(ageMs / 1000)) }),
    }),
  },
  {
    name: 'CDN caches 401 answers',
    story: 'The CDN\'s negative caching (4xx kept for 10 s, keyed on the URL alone) stores the 401 a keyless request got, and serves it to valid keys asking the same URL.',
    kind: 'auth',
    make: () => urlCache({ ttlMs: 10_000, store: (res) => (res.status === 401 ? res : undefined), replay: (res) => res }),
  },
  {
    name: 'case-insensitive router, case-sensitive auth rule',
    story: 'The router was switched to case-insensitive matching while the auth rule still matches ^/v1/pets case-sensitively, so /v1/PETS is served without a key.',
    kind: 'auth',
    make: () => (req, forward) => {
      const path = pathOf(req);
      const lower = path.toLowerCase();
      if (lower === path || !/^\/v1\/pets(\/[^/]+)?\/?$/.test(lower)) return forward(req);
      const url = `${lower}${urlOf(req).search}`;
      return forward(hasValidKey(req) ? { ...req, url } : { ...asTrusted(req), url });
    },
  },
  {
    name: 'unknown keys answered with a bare 401',
    story: 'The key-lookup middleware answers a key it does not know with Express\'s res.sendStatus(401), so the body is the text "Unauthorized" instead of an Error (a missing key still gets the Error).',
    kind: 'auth',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const credentials = parseAuthorization(req.headers.authorization);
      if (res.status !== 401 || credentials.kind !== 'bearer') return res;
      return { status: 401, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' }, body: 'Unauthorized' };
    },
  },
  // --------------------------------------------------------------------------- concurrency
  {
    name: 'connection pool of four exhausted by parallel requests',
    story: 'The database pool was cut to four connections with an acquire timeout of 0, so the fifth request in flight at once fails with "pool exhausted" as a 500.',
    kind: 'concurrency',
    make: () => {
      let inFlight = 0;
      return async (req, forward) => {
        if (!hasValidKey(req)) return forward(req);
        if (inFlight >= 4) return refuseWith(forward, req, 500, 'INTERNAL_ERROR', 'Connection pool exhausted.');
        inFlight++;
        try {
          return await forward(req);
        } finally {
          inFlight--;
        }
      };
    },
  },
  {
    name: 'query parameters leak from the previous list request',
    story: 'The parsed-query object is pooled per kept-alive connection and reset with Object.assign, so a list request without limit or status inherits the values of the previous list request.',
    kind: 'concurrency',
    make: () => {
      let last = new URLSearchParams();
      return async (req, forward) => {
        if (!isListReq(req)) return forward(req);
        const merged = withParams(req, (q) => {
          for (const name of ['limit', 'status']) if (!q.has(name) && last.has(name)) q.set(name, last.get(name)!);
        });
        const res = await forward(merged);
        if (res.status === 200) last = new URLSearchParams(urlOf(merged).search);
        return res;
      };
    },
  },
  {
    name: 'parallel requests report the same Remaining',
    story: 'The limiter INCRs atomically in Redis but the header is computed from a per-instance copy of the count refreshed when a request completes, so every request of a parallel burst reports the same X-RateLimit-Remaining.',
    kind: 'concurrency',
    make: () => fixedWindow({ staleHeader: true }),
  },
  // ----------------------------------------------------------------------------------- keys
  {
    name: 'throttling spills over to every key of the client',
    story: 'The edge WAF records a throttled client by address, so once the Free key is throttled every request from that machine, whatever its key, gets the Free key\'s 429 until the block expires.',
    kind: 'keys',
    make: () => {
      let block: { key: string; until: number; res: Res } | undefined;
      return async (req, forward, env) => {
        const key = keyOf(req);
        const now = env.now();
        if (key && block && block.key !== key && now < block.until) return withHeaders(block.res, { 'retry-after': String(Math.max(1, Math.ceil((block.until - now) / 1000))) });
        const res = await forward(req);
        const after = Number(headerOf(res, 'retry-after'));
        if (key && res.status === 429 && Number.isFinite(after)) block = { key, until: now + after * 1000, res };
        return res;
      };
    },
  },
  // ---------------------------------------------------------------------------- validation
  {
    name: 'limit compared as a string',
    story: 'The maximum is read from an environment variable and compared with the raw query value, both strings, so limit > "100" holds for "5" or "20" and only 1, 10 and 100 are accepted.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const raw = isListReq(req) && hasValidKey(req) && validLimit(req) !== undefined ? paramsOf(req).get('limit')! : undefined;
      return raw !== undefined && raw > '100' ? refuseWith(forward, req, 400, 'INVALID_QUERY_PARAMETER', 'limit must be at most 100.') : forward(req);
    },
  },
  {
    name: 'unique index on name under a case- and accent-insensitive collation',
    story: 'A migration meant for the categories table added a unique index on pets.name under utf8mb4_0900_ai_ci, so a pet named like an existing one, "rex" for "Rex" or "Zoe" for "Zoë", is refused with 409.',
    kind: 'validation',
    make: () => {
      let names: Set<string> | undefined;
      return async (req, forward) => {
        const body = hasValidKey(req) ? validNewPet(req) : undefined;
        if (!body) return forward(req);
        if (!names) {
          const existing = parseBody(await forward({ method: 'GET', url: '/v1/pets?limit=100', headers: { authorization: 'Bearer demo-enterprise' }, body: '' }));
          names = new Set((Array.isArray(existing) ? (existing as Pet[]) : []).map((pet) => foldName(String(pet.name))));
        }
        const folded = foldName(body.name as string);
        if (names.has(folded)) return refuseWith(forward, req, 409, 'DUPLICATE_NAME', `A pet named ${stringifyExact(body.name)} already exists.`);
        const res = await forward(req);
        if (res.status === 201) names.add(folded);
        return res;
      };
    },
  },
  {
    name: 'repeated query parameters answered 500',
    story: 'The query parser returns an array for a repeated parameter and the handler calls .trim() on it, so ?limit=5&limit=10 or ?status=sold&status=pending fails with a 500 instead of a 400.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const names = [...paramsOf(req).keys()];
      return hasValidKey(req) && names.length !== new Set(names).size ? refuseWith(forward, req, 500, 'INTERNAL_ERROR', 'q.trim is not a function') : forward(req);
    },
  },
  // ---------------------------------------------------------------------------------- bytes
  {
    name: 'streamed list writer leaves a trailing comma',
    story: 'The list endpoint was moved to a streaming writer that emits a comma after every pet, so each non-empty list ends ",]" and is not JSON.',
    kind: 'bytes',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const body = isListReq(req) && res.status === 200 ? parseBody(res) : undefined;
      return Array.isArray(body) && body.length > 0 ? { ...res, body: `[${body.map((pet) => `${stringifyExact(pet)},`).join('')}]` } : res;
    },
  },
  {
    name: 'numbers of 1000 or more written with thousands separators',
    story: 'Pet answers are now rendered by the HTML site\'s template engine, whose number filter formats integers for en-US, so a categoryId or id of 1000 or more is written 1,234 inside the JSON.',
    kind: 'bytes',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (!isPetAnswer(req) || res.status >= 300 || !isJsonAnswer(res)) return res;
      return { ...res, body: bodyText(res).replace(/"(id|categoryId)":(-?)(\d{4,})/g, (_, field: string, sign: string, digits: string) => `"${field}":${sign}${BigInt(digits).toLocaleString('en-US')}`) };
    },
  },
  {
    name: 'bodies gzip-compressed twice',
    story: 'The app started compressing bodies over 1 KB and the CDN, seeing no Vary and trusting its own rule, compresses them again under the single Content-Encoding: gzip it keeps, so a client that undoes the gzip still holds gzip.',
    kind: 'bytes',
    make: () => onAnswers((res) => {
      const bytes = new TextEncoder().encode(bodyText(res));
      return bytes.length >= 1024 ? withHeaders({ ...res, body: new Uint8Array(gzipSync(gzipSync(bytes))) }, { 'content-encoding': 'gzip' }) : res;
    }),
  },
  {
    name: 'Content-Encoding: gzip on small bodies left uncompressed',
    story: 'The compression middleware sets Content-Encoding as soon as the client accepts gzip, before deciding that bodies under 1 KB are not worth compressing, so small answers go out plain under a gzip label.',
    kind: 'bytes',
    make: () => onAnswers((res, req) => {
      if (!/\bgzip\b/i.test(req.headers['accept-encoding'] ?? '') || bodyText(res) === '') return res;
      const bytes = new TextEncoder().encode(bodyText(res));
      return withHeaders(bytes.length >= 1024 ? { ...res, body: new Uint8Array(gzipSync(bytes)) } : res, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    }),
  },
  // ---------------------------------------------------------------------------- deprecation
  {
    name: 'getPet Sunset at local midnight in Berlin',
    story: 'The Sunset date is built with new Date(2030, 11, 5) on hosts set to Europe/Berlin, so the header says Wed, 04 Dec 2030 23:00:00 GMT, a day early.',
    kind: 'deprecation',
    make: () => onAnswers((res) => (headerOf(res, 'sunset') === SUNSET ? withHeaders(res, { sunset: 'Wed, 04 Dec 2030 23:00:00 GMT' }) : res)),
  },
  {
    name: 'Deprecation headers on every error answer',
    story: 'The deprecation hook was attached to the shared error handler along with getPet\'s route, so every error answer of any operation (a 401 of listPets, a 400 of createPet) carries Deprecation and Sunset.',
    kind: 'deprecation',
    make: () => onAnswers((res) => (res.status >= 400 && headerOf(res, 'deprecation') === undefined ? withHeaders(res, { deprecation: '@1767225600', sunset: SUNSET }) : res)),
  },
  // ---------------------------------------------------------------------------------- other
  {
    name: 'If-None-Match answered 304 whatever the tag',
    story: 'The rewritten conditional-GET middleware strips the W/ prefix with a regex that empties both tags, so any If-None-Match, however stale or made up, is answered 304 with no body.',
    kind: 'other',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (req.method !== 'GET' || req.headers['if-none-match'] === undefined || res.status !== 200) return res;
      const { 'content-type': _type, ...headers } = res.headers;
      return { status: 304, headers: { ...headers, etag: 'W/""' }, body: '' };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Legal variants
// ---------------------------------------------------------------------------------------------

const weakTag = (text: string) => `W/"${createHash('sha1').update(text).digest('base64url').slice(0, 20)}"`;
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

const translations: Record<string, { lang: string; messages: Record<number, string> }> = {
  fr: { lang: 'fr', messages: { 400: 'Requête invalide.', 401: 'Clé d\'API absente ou invalide.', 404: 'Ressource introuvable.', 405: 'Méthode non autorisée.', 429: 'Trop de requêtes : réessayez plus tard.' } },
  de: { lang: 'de', messages: { 400: 'Ungültige Anfrage.', 401: 'API-Schlüssel fehlt oder ist ungültig.', 404: 'Ressource nicht gefunden.', 405: 'Methode nicht erlaubt.', 429: 'Zu viele Anfragen – bitte später erneut versuchen.' } },
};

export const legalVariants2: LegalVariant[] = [
  {
    name: 'ETags and conditional GET',
    choice: 'Caching is not mentioned by the contract: answers carry a weak ETag and Cache-Control: private, no-cache, and a GET whose If-None-Match matches is answered 304 (counted, with the X-RateLimit headers), as RFC 9110 13.1.2 allows.',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (req.method !== 'GET' || res.status !== 200) return res;
      const tag = weakTag(bodyText(res));
      const tagged = withHeaders(res, { etag: tag, 'cache-control': 'private, no-cache', vary: 'Authorization' });
      const match = req.headers['if-none-match'];
      if (match === undefined || !match.split(',').some((t) => opaque(t) === '*' || opaque(t) === opaque(tag))) return tagged;
      const { 'content-type': _type, ...headers } = tagged.headers;
      return { status: 304, headers, body: '' };
    },
  },
  {
    name: 'gzip when the client asks for it',
    choice: 'Content codings are HTTP\'s business, not the contract\'s: a client sending Accept-Encoding: gzip gets gzip bodies labelled Content-Encoding: gzip, with Vary: Accept-Encoding.',
    make: () => onAnswers((res, req) => {
      const accepts = (req.headers['accept-encoding'] ?? '').split(',').some((part) => {
        const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
        const q = params.find((p) => p.startsWith('q='));
        return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
      });
      if (!accepts || bodyText(res) === '') return withHeaders(res, { vary: 'Accept-Encoding' });
      return withHeaders({ ...res, body: new Uint8Array(gzipSync(new TextEncoder().encode(bodyText(res)))) }, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    }),
  },
  {
    name: 'IETF RateLimit headers beside the X-RateLimit ones',
    choice: 'The contract names three headers every answer carries; more rate-limit headers (the IETF draft\'s RateLimit-* with Reset in seconds to go, a policy, a used count) are not excluded.',
    make: () => onAnswers((res, _req, now) => {
      const limit = Number(headerOf(res, 'x-ratelimit-limit'));
      const remaining = Number(headerOf(res, 'x-ratelimit-remaining'));
      const reset = Number(headerOf(res, 'x-ratelimit-reset'));
      if (![limit, remaining, reset].every(Number.isFinite)) return res;
      const toGo = Math.max(0, reset - Math.floor(now / 1000));
      return withHeaders(res, {
        'ratelimit-limit': String(limit),
        'ratelimit-remaining': String(remaining),
        'ratelimit-reset': String(toGo),
        ratelimit: `"default";r=${remaining};t=${toGo}`,
        'ratelimit-policy': `"default";q=${limit};w=${toGo > 60 ? 86_400 : 60}`,
        'x-ratelimit-used': String(limit - remaining),
        'x-ratelimit-resource': 'pets',
      });
    }),
  },
  {
    name: 'Retry-After as an HTTP-date',
    choice: 'Retry-After may be delay-seconds or an HTTP-date (RFC 9110 10.2.3); the contract only says to retry "after the time given in the Retry-After header".',
    make: () => onAnswers((res, _req, now) => {
      const after = headerOf(res, 'retry-after');
      if (res.status !== 429 || after === undefined || !/^\d+$/.test(after)) return res;
      return withHeaders(res, { 'retry-after': new Date(Math.ceil((now + Number(after) * 1000) / 1000) * 1000).toUTCString() });
    }),
  },
  {
    name: 'CORS for one origin only',
    choice: 'Browser access is not in the contract: this deployment allows CORS only from its own web front, https://shelter.example.',
    make: () => (req, forward) => forward(req),
    mockOptions: { corsOrigins: ['https://shelter.example'] },
  },
  {
    name: 'lists sorted by name',
    choice: 'List order and which pets a page holds: "Returns a paginated list of animals"; "Pagination parameters beyond limit ...: not shown". This deployment pages through the pets in name order.',
    make: () => async (req, forward) => {
      if (!isListReq(req) || !plainListQuery(req)) return forward(req);
      const res = await forward(withParams(req, (q) => q.set('limit', '100')));
      const body = parseBody(res);
      if (res.status !== 200 || !Array.isArray(body)) return res;
      const sorted = [...(body as Pet[])].sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : Number(a.id) - Number(b.id)));
      return withJson(res, sorted.slice(0, validLimit(req) ?? 20));
    },
  },
  {
    name: 'keyless requests answered 401 on every path and method',
    choice: '"Every operation requires HTTP bearer authentication": this deployment checks the key before routing, so a request without a valid key gets 401 even on a path or method it does not serve (the mock answers those 404 or 405).',
    make: () => async (req, forward) => {
      if (hasValidKey(req)) return forward(req);
      const res = await forward({ method: 'GET', url: '/v1/pets', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' });
      return req.method === 'HEAD' ? { ...res, body: '' } : res;
    },
  },
  {
    name: 'requests without a key are not rate-limited',
    choice: 'The plans limit API keys; how requests without a valid key are limited is not shown. This deployment never throttles them: their 401 says the Free window is untouched (60 of 60).',
    make: () => async (req, forward, env) => {
      if (hasValidKey(req)) return forward(req);
      let res: Res = await forward(req);
      if (res.status === 429) res = withHeaders(asError(res, 401, 'UNAUTHORIZED', 'Missing or invalid API key.'), { 'retry-after': undefined });
      const now = env.now();
      return withHeaders(res, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '60', 'x-ratelimit-reset': String(Math.ceil((now - (now % MINUTE) + MINUTE) / 1000)) });
    },
  },
  {
    name: 'error messages in the client\'s language',
    choice: 'message is a free "human-readable description": it follows Accept-Language (French, German, else English), with Content-Language and Vary: Accept-Language.',
    make: () => onAnswers((res, req) => {
      const wanted = (req.headers['accept-language'] ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase()).find((lang) => translations[lang]);
      const translation = wanted ? translations[wanted] : undefined;
      const headers = { 'content-language': translation?.lang ?? 'en', vary: 'Accept-Language' };
      if (res.status < 400 || !translation) return withHeaders(res, headers);
      const body = parseBody(res);
      if (!body || typeof body !== 'object') return withHeaders(res, headers);
      return withHeaders(withJson(res, { ...(body as object), message: translation.messages[res.status] ?? (body as { message?: string }).message }), headers);
    }),
  },
  {
    name: 'fields in reverse order, spaced out',
    choice: 'Member order and insignificant whitespace in JSON are the serializer\'s (RFC 8259, 2 and 4): "id" comes last, with spaces around every colon and comma.',
    make: () => onAnswers((res) => {
      if (!isJsonAnswer(res)) return res;
      try {
        return { ...res, body: writeLossless(parseLossless(bodyText(res)), { colon: ' : ', comma: ' , ', order: (entries) => [...entries].reverse() }) };
      } catch {
        return res;
      }
    }),
  },
  {
    name: 'absolute Location and Content-Location on 201',
    choice: 'The contract never mentions Location; this deployment sends it, and Content-Location, as absolute URLs.',
    make: () => onAnswers((res, req) => {
      const location = headerOf(res, 'location');
      if (res.status !== 201 || location === undefined) return res;
      const absolute = `http://${req.headers.host ?? 'deployment.test'}${location}`;
      return withHeaders(res, { location: absolute, 'content-location': absolute });
    }),
  },
  {
    name: 'refuses unknown fields in a new pet',
    choice: 'A NewPet "has the shape NewPet"; whether fields beyond name, categoryId and status are ignored or refused is not shown. This deployment validates strictly and refuses them with a 400 Error.',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req) : undefined;
      const extra = body ? Object.keys(body).filter((key) => !['name', 'categoryId', 'status'].includes(key)) : [];
      return extra.length > 0 ? refuseWith(forward, req, 400, 'UNKNOWN_FIELD', `Unknown field ${extra[0]} in the pet.`) : forward(req);
    },
  },
  {
    name: 'getPet deprecated without Sunset, with a successor link',
    choice: 'Sunset is optional ("Sunset (if sent)"): getPet carries Deprecation and a Link to its replacement (rel="successor-version"), and no Sunset.',
    make: () => onAnswers((res, req) => (isGetPetReq(req) && headerOf(res, 'deprecation') !== undefined ? withHeaders(res, { sunset: undefined, link: '</v1/pets>; rel="successor-version"' }) : res)),
  },
  {
    name: 'a gateway that asks for the key before routing',
    choice: 'The contract pins 401 for its operations only: a request without a valid key to a method or path not served gets 401 (not 404/405), OPTIONS is no preflight but a method not served, a categoryId below 1 names no category (400, "invalid values"), getPet carries no Sunset ("if sent") and a 201 no Location (never mentioned). The deployment drift tests calibrate a profile from (legalChoices.ts legalGateway).',
    make: () => legalGateway.transform,
    mockOptions: legalGateway.mockOptions,
  },
];
