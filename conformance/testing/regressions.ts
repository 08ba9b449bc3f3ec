// An independent catalogue, written to measure the suite's power: realistic regressions a backend
// team could ship (each breaks the contract in one way a black-box client can see) and legal
// variants (each makes choices the contract leaves open differently from the mock, and must pass).
// Each entry is the project's mock wrapped by a Transform; `make()` gives a fresh one per
// deployment, so no state leaks between runs. Witnesses: regressions.witness.test.ts.
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import type { MockOptions } from '../../mock/index.ts';
import type { Req, Res, Transform } from './injectTransport.ts';
import { asError, asTrusted, bodyText, createBodyOf, DAY, demoKeys, headerOf, isCreateReq, isGetPetReq, isJsonAnswer, isListReq, isPetAnswer, mapListOut, mapPets, MINUTE, paramsOf, parseBody, pathOf, petIdOf, planPerDay, planPerMinute, rateLimitHeadersOf, refuseWith, statuses, SUNSET, withHeaders, withJson, withKey, withoutRateLimitHeaders, withParams, type Pet } from './catalogueHelpers.ts';

export { bodyText, headerOf } from './catalogueHelpers.ts';

export interface Regression {
  name: string;
  /** the backend bug, one sentence, as a postmortem would put it */
  story: string;
  /** which contract class it breaks */
  kind: 'data' | 'ids' | 'spelling' | 'rate-accounting' | 'bytes' | 'deprecation' | 'methods' | 'auth' | 'concurrency' | 'keys' | 'validation' | 'other';
  make(): Transform;
  mockOptions?: MockOptions;
}

export interface LegalVariant {
  name: string;
  /** the open choice it makes, citing the contract's "not shown" or silence */
  choice: string;
  make(): Transform;
  mockOptions?: MockOptions;
}

// ---------------------------------------------------------------------------------------------
// Helpers: requests and answers (the shared ones are in catalogueHelpers.ts)
// ---------------------------------------------------------------------------------------------

const tokenOf = (req: Req) => /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
const hasValidKey = (req: Req) => demoKeys.has(tokenOf(req) ?? '');

/** Rewrites the JSON object a create sends; anything else goes on unchanged. */
const onCreateBody = (change: (body: Record<string, unknown>) => Record<string, unknown>): Transform => (req, forward) => {
  const body = isCreateReq(req) ? createBodyOf(req) : undefined;
  return forward(body ? { ...req, body: stringifyExact(change(body)) } : req);
};
const onCreateName = (change: (name: string) => string): Transform => onCreateBody((body) => (typeof body.name === 'string' ? { ...body, name: change(body.name) } : body));

const encoder = new TextEncoder();
const htmlPage = (status: number, title: string): Res => ({
  status,
  headers: { 'content-type': 'text/html', server: 'nginx' },
  body: `<html>\r\n<head><title>${status} ${title}</title></head>\r\n<body>\r\n<center><h1>${status} ${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
});

const onPetAnswers = (where: { list?: boolean; get?: boolean; create?: boolean }, change: (pet: Pet) => Pet): Transform => async (req, forward) => {
  const res = await forward(req);
  const applies = (where.list && isListReq(req)) || (where.get && isGetPetReq(req)) || (where.create && isCreateReq(req));
  return applies ? mapPets(res, change) : res;
};
const onNames = (where: { list?: boolean; get?: boolean; create?: boolean }, change: (name: string) => string) => onPetAnswers(where, (pet) => (typeof pet.name === 'string' ? { ...pet, name: change(pet.name) } : pet));
const onAnswers = (change: (res: Res, req: Req) => Res): Transform => async (req, forward) => change(await forward(req), req);

/** Rewrites a 2xx list answer's array. */
const onListArray = (change: (pets: Pet[], req: Req) => unknown): Transform => async (req, forward) => {
  const res = await forward(req);
  const body = isListReq(req) && res.status === 200 ? parseBody(res) : undefined;
  return Array.isArray(body) ? withJson(res, change(body as Pet[], req)) : res;
};

/** The limit a list asks for, as the mock reads it (default 20). */
const askedLimit = (req: Req) => Number(paramsOf(req).get('limit') ?? 20);

/** A 30-second cache of 200 list answers under `keyOf(req)`, emptied by every successful create. */
function listCache(keyOf: (req: Req) => string): Transform {
  const cache = new Map<string, { at: number; body: Res['body'] }>();
  return async (req, forward, env) => {
    const res = await forward(req);
    if (isCreateReq(req) && res.status === 201) cache.clear();
    if (!isListReq(req) || res.status !== 200) return res;
    const key = keyOf(req);
    const hit = cache.get(key);
    if (hit && env.now() - hit.at < 30_000) return { ...res, body: hit.body };
    cache.set(key, { at: env.now(), body: res.body });
    return res;
  };
}

/** Forwards `req` as if the pets whose ids are in `hidden` were gone: getPet finds none of them, lists leave them out. */
async function forwardHiding(req: Req, forward: (req: Req) => Promise<Res>, hidden: ReadonlySet<string>): Promise<Res> {
  const id = petIdOf(req);
  if (isGetPetReq(req) && hidden.has(id!)) return forward({ ...req, url: '/v1/pets/999999999' });
  const res = await forward(req);
  return isListReq(req) ? mapListOut(res, (pet) => !hidden.has(String(pet.id))) : res;
}

// ---------------------------------------------------------------------------------------------
// A rate limiter of the deployment's own, for the regressions (and one variant) that count
// requests differently from the mock: the mock answers as an unlimited key would, the counting
// and the three headers are this limiter's. The Free and Pro plans' limits, per minute and per
// day, both enforced; the headers describe the window that binds, as the mock's do.
// ---------------------------------------------------------------------------------------------

interface LimiterOptions {
  /** Which counter a request spends: the key by default. */
  bucketOf?(req: Req, key: string): string;
  /** The per-minute limit it believes the key has: the plan's by default. */
  perMinuteOf?(key: string): number;
  /** Reads the count, serves the request, then writes count + 1 (a read-modify-write race). */
  racy?: boolean;
  /** The minute starts at the bucket's first request instead of on the clock minute. */
  anchored?: boolean;
}

function ownLimiter(options: LimiterOptions = {}): Transform {
  const buckets = new Map<string, { minuteStart: number; minute: number; dayStart: number; day: number }>();
  return async (req, forward, env) => {
    const key = tokenOf(req);
    if (!key || !(key in planPerMinute)) return forward(req);
    const now = env.now();
    const id = options.bucketOf?.(req, key) ?? key;
    const bucket = buckets.get(id) ?? { minuteStart: -Infinity, minute: 0, dayStart: -Infinity, day: 0 };
    buckets.set(id, bucket);
    if (now >= bucket.minuteStart + MINUTE) {
      bucket.minuteStart = options.anchored ? now : now - (now % MINUTE);
      bucket.minute = 0;
    }
    const dayStart = now - (now % DAY);
    if (bucket.dayStart !== dayStart) {
      bucket.dayStart = dayStart;
      bucket.day = 0;
    }
    const perMinute = options.perMinuteOf?.(key) ?? planPerMinute[key]!;
    const perDay = planPerDay[key]!;
    const headers = (minute: number, day: number) => {
      const dayBinds = perDay - day <= perMinute - minute;
      return {
        'x-ratelimit-limit': String(dayBinds ? perDay : perMinute),
        'x-ratelimit-remaining': String(Math.max(0, dayBinds ? perDay - day : perMinute - minute)),
        'x-ratelimit-reset': String(Math.ceil((dayBinds ? dayStart + DAY : bucket.minuteStart + MINUTE) / 1000)),
      };
    };
    if (bucket.minute >= perMinute || bucket.day >= perDay) {
      const until = bucket.day >= perDay ? dayStart + DAY : bucket.minuteStart + MINUTE;
      return {
        status: 429,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'x-ratelimit-limit': String(bucket.day >= perDay ? perDay : perMinute),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(until / 1000)),
          'retry-after': String(Math.max(1, Math.ceil((until - now) / 1000))),
        },
        body: stringifyExact({ code: 'RATE_LIMITED', message: 'Rate limit exceeded. Retry after the time in Retry-After.', status: 429 }),
      };
    }
    if (options.racy) {
      const seen = { minute: bucket.minute, day: bucket.day };
      const res = await forward(asTrusted(req));
      bucket.minute = seen.minute + 1;
      bucket.day = seen.day + 1;
      return withHeaders(res, headers(bucket.minute, bucket.day));
    }
    bucket.minute++;
    bucket.day++;
    const spent = headers(bucket.minute, bucket.day);
    return withHeaders(await forward(asTrusted(req)), spent);
  };
}

/** Two instances behind a round-robin balancer: every second request of a Free or Pro key goes to `second`, the rest to the mock's own counting. */
function secondInstance(second: Transform): Transform {
  let turn = 0;
  return (req, forward, env) => (turn++ % 2 === 1 && (tokenOf(req) ?? '') in planPerMinute ? second(req, forward, env) : forward(req));
}

// ---------------------------------------------------------------------------------------------
// Helpers: bytes
// ---------------------------------------------------------------------------------------------

function concatBytes(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
/** Latin-1: one byte per character, '?' for what Latin-1 lacks. */
const latin1 = (text: string) => Uint8Array.from([...text], (c) => (c.codePointAt(0)! <= 0xff ? c.codePointAt(0)! : 0x3f));
/** CESU-8 (Java's and MySQL utf8mb3's encoding): each UTF-16 code unit on its own, so a surrogate pair becomes six bytes. */
function cesu8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    if (u < 0x80) bytes.push(u);
    else if (u < 0x800) bytes.push(0xc0 | (u >> 6), 0x80 | (u & 0x3f));
    else bytes.push(0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f));
  }
  return Uint8Array.from(bytes);
}
const onJsonBytes = (change: (text: string) => Uint8Array): Transform => onAnswers((res) => (isJsonAnswer(res) ? { ...res, body: change(bodyText(res)) } : res));

// ---------------------------------------------------------------------------------------------
// Helpers: ids written on the digits (they may lie beyond 2^53)
// ---------------------------------------------------------------------------------------------

const mapIdDigits = (text: string, change: (id: bigint) => string) => text.replace(/"id":(\s*)(\d+)/g, (_, space: string, digits: string) => `"id":${space}${change(BigInt(digits))}`);
/** Serves the mock's pets under ids `out(id)`: a getPet for an id maps back through `back` (undefined: none of ours). */
function mappedIds(out: (id: bigint) => bigint, back: (id: bigint) => bigint | undefined, listOut: (id: bigint) => string = (id) => String(out(id))): Transform {
  return async (req, forward) => {
    const digits = isGetPetReq(req) ? petIdOf(req)! : undefined;
    let sent = req;
    if (digits !== undefined && /^\d+$/.test(digits)) {
      const mine = back(BigInt(digits));
      sent = { ...req, url: `/v1/pets/${mine ?? 999_999_999n}` };
    }
    const res = await forward(sent);
    const location = headerOf(res, 'location');
    const mapped = location ? withHeaders(res, { location: location.replace(/\d+$/, (d) => String(out(BigInt(d)))) }) : res;
    if (!isJsonAnswer(mapped) || mapped.status >= 300) return mapped;
    return { ...mapped, body: mapIdDigits(bodyText(mapped), isListReq(req) ? listOut : (id) => String(out(id))) };
  };
}

// ---------------------------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------------------------

const htmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const OFFSET = 2n ** 60n;

export const regressions: Regression[] = [
  // ----------------------------------------------------------------------------------- data
  {
    name: 'name column VARCHAR(64) truncates long names on read-back',
    story: 'The migration to the new pets table declared name as VARCHAR(64) in non-strict mode, so longer names were silently cut at 64 characters while the create answer still echoed the request.',
    kind: 'data',
    make: () => onNames({ list: true, get: true }, (name) => [...name].slice(0, 64).join('')),
  },
  {
    name: 'names HTML-escaped on output',
    story: 'A shared "sanitise output" serializer added for the admin UI HTML-escapes every string field, so a pet named <b>"Tom" & Jerry</b> comes back with entities.',
    kind: 'data',
    make: () => onNames({ list: true, get: true, create: true }, htmlEscape),
  },
  {
    name: 'names NFKC-normalised on store',
    story: 'A search-friendliness change runs name.normalize("NFKC") before insert, so ligatures, full-width letters and circled digits are stored (and returned) as other characters.',
    kind: 'data',
    make: () => onCreateName((name) => name.normalize('NFKC')),
  },
  {
    name: 'names lower-cased on the read path',
    story: 'Reads were moved to a search index whose analyzer lower-cases the name field, so getPet and listPets return "rex" for a pet created as "Rex".',
    kind: 'data',
    make: () => onNames({ list: true, get: true }, (name) => name.toLowerCase()),
  },
  {
    name: 'characters outside the BMP stored as ?',
    story: 'The new MySQL replica was created with the utf8mb3 charset in non-strict mode, so every 4-byte character (emoji, rare CJK) in a name is stored as "?".',
    kind: 'data',
    make: () => onCreateName((name) => name.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')),
  },
  {
    name: 'backslashes in names doubled on store',
    story: 'The insert was rewritten with a hand-escaped SQL literal while the database runs with NO_BACKSLASH_ESCAPES, so every backslash of a name is stored twice.',
    kind: 'data',
    make: () => onCreateName((name) => name.replace(/\\/g, '\\\\')),
  },
  {
    name: 'status filter also returns the statuses after it',
    story: 'The status filter was ported to an enum-ordinal index and written as status >= ?, so ?status=pending also returns sold pets (and ?status=available returns all).',
    kind: 'data',
    make: () => async (req, forward) => {
      const wanted = isListReq(req) ? paramsOf(req).get('status') : null;
      const limit = paramsOf(req).get('limit');
      if (!wanted || !statuses.includes(wanted) || (limit !== null && !(/^\d+$/.test(limit) && Number(limit) >= 1 && Number(limit) <= 100))) return forward(req);
      const res = await forward(withParams(req, (q) => { q.delete('status'); q.set('limit', '100'); }));
      const body = parseBody(res);
      if (res.status !== 200 || !Array.isArray(body)) return res;
      return withJson(res, (body as Pet[]).filter((pet) => statuses.indexOf(String(pet.status)) >= statuses.indexOf(wanted)).slice(0, askedLimit(req)));
    },
  },
  {
    name: 'list cache keyed on the path without the query',
    story: 'A 30-second result cache added to listPets uses the request path as its key, so ?limit=5 followed by ?limit=2 or ?status=sold returns the cached first answer.',
    kind: 'data',
    make: () => listCache(pathOf),
  },
  {
    name: 'list cache keyed on the first query parameter only',
    story: 'The listPets cache key was built from the first query parameter only, so ?limit=5&status=sold and ?limit=5&status=pending share one cached answer.',
    kind: 'data',
    make: () => listCache((req) => {
      const first = [...paramsOf(req)][0];
      return first ? `${first[0]}=${first[1]}` : '';
    }),
  },
  {
    name: 'limit honoured only as the first query parameter',
    story: 'A hand-rolled query parser for the new pagination code reads limit only when the query string starts with "limit=", so ?status=available&limit=2 returns the default page.',
    kind: 'data',
    make: () => (req, forward) => forward(isListReq(req) && paramsOf(req).has('limit') && [...paramsOf(req)][0]![0] !== 'limit' ? withParams(req, (q) => q.delete('limit')) : req),
  },
  {
    name: 'categoryId stored in a 32-bit column',
    story: 'categoryId was declared INT instead of BIGINT in the new schema and the driver wraps on overflow, so a categoryId above 2^31-1 is stored (and returned) as a negative number.',
    kind: 'data',
    make: () => onCreateBody((body) => (typeof body.categoryId === 'number' && Number.isSafeInteger(body.categoryId) ? { ...body, categoryId: Number(BigInt.asIntN(32, BigInt(body.categoryId))) } : body)),
  },
  // ------------------------------------------------------------------------------------ ids
  {
    name: 'per-instance id counters collide',
    story: 'Id generation moved from the database sequence to an in-memory counter per instance, and with two instances behind a round-robin balancer consecutive creates get the same id.',
    kind: 'ids',
    make: () => {
      const next = [61, 61];
      let turn = 0;
      return async (req, forward) => {
        const res = await forward(req);
        if (!isCreateReq(req) || res.status !== 201) return res;
        const id = next[turn]!++;
        turn ^= 1;
        return withHeaders(mapPets(res, (pet) => ({ ...pet, id })), { location: headerOf(res, 'location') === undefined ? undefined : `/v1/pets/${id}` });
      };
    },
  },
  {
    name: 'getPet parses the id with parseInt',
    story: 'The path parameter is read with parseInt instead of being validated, so /pets/12abc (or /pets/7.9) serves pet 12 (or 7).',
    kind: 'ids',
    make: () => (req, forward) => {
      const raw = isGetPetReq(req) ? petIdOf(req)! : '';
      const digits = /^(\d+)\D/.exec(raw)?.[1];
      return forward(digits ? { ...req, url: `/v1/pets/${digits}` } : req);
    },
  },
  {
    name: 'ids above 2^53 rounded in lists only',
    story: 'After ids moved to a 2^60-based snowflake range, the list endpoint (unlike getPet and createPet) serialises rows through a JSON library that reads ids as doubles, so listed ids are rounded and do not fetch their pet.',
    kind: 'ids',
    make: () => mappedIds((id) => id + OFFSET, (id) => (id >= OFFSET ? id - OFFSET : undefined), (id) => String(Number(id + OFFSET))),
  },
  {
    name: 'getPet answers 500 for ids past 2^31',
    story: 'The getPet query binds the id as a 32-bit integer, so any id above 2147483647 throws an overflow error surfaced as 500 instead of 404.',
    kind: 'ids',
    make: () => async (req, forward) => {
      const raw = isGetPetReq(req) ? petIdOf(req)! : '';
      const res = await forward(req);
      return /^\d+$/.test(raw) && BigInt(raw) > 2_147_483_647n && BigInt(raw) <= 9_223_372_036_854_775_807n && res.status === 404 ? asError(res, 500, 'INTERNAL_ERROR', 'Value out of range for type integer.') : res;
    },
  },
  {
    name: 'list repeats pets joined to two tags',
    story: 'listPets now joins pet_tags without DISTINCT, so every pet with two tags appears twice in the page.',
    kind: 'ids',
    make: () => onListArray((pets, req) => pets.flatMap((pet) => (Number(pet.id) % 5 === 0 ? [pet, pet] : [pet])).slice(0, askedLimit(req))),
  },
  // ------------------------------------------------------------------------------- spelling
  {
    name: 'createPet answers category_id',
    story: 'The create handler returns the raw database row instead of the Pet DTO, so its 201 body says category_id instead of categoryId.',
    kind: 'spelling',
    make: () => onPetAnswers({ create: true }, ({ categoryId, ...pet }) => ({ ...pet, category_id: categoryId })),
  },
  {
    name: 'POST answers carry RateLimit-* instead of X-RateLimit-*',
    story: 'The write routes were moved to the new rate-limit middleware, which sends the IETF draft RateLimit-Limit/-Remaining/-Reset (Reset as seconds to go) and none of the X-RateLimit headers.',
    kind: 'spelling',
    make: () => async (req, forward, env) => {
      const res = await forward(req);
      if (req.method !== 'POST') return res;
      const reset = Number(headerOf(res, 'x-ratelimit-reset'));
      return withHeaders(withoutRateLimitHeaders(res), {
        'ratelimit-limit': headerOf(res, 'x-ratelimit-limit'),
        'ratelimit-remaining': headerOf(res, 'x-ratelimit-remaining'),
        'ratelimit-reset': Number.isFinite(reset) ? String(Math.max(0, reset - Math.floor(env.now() / 1000))) : undefined,
      });
    },
  },
  {
    name: 'getPet answers capitalised statuses',
    story: 'getPet reads the status from the display-name column of the new status lookup table, so it answers "Available", "Pending", "Sold".',
    kind: 'spelling',
    make: () => onPetAnswers({ get: true }, (pet) => (typeof pet.status === 'string' ? { ...pet, status: pet.status[0]!.toUpperCase() + pet.status.slice(1) } : pet)),
  },
  {
    name: 'malformed JSON answered with the framework default error',
    story: 'The custom JSON parser error hook was dropped in the framework upgrade, so a body that does not parse gets the framework default {statusCode, error, message} instead of an Error.',
    kind: 'spelling',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (!isCreateReq(req) || res.status !== 400 || req.body === '') return res;
      try {
        parseJsonExact(req.body);
        return res;
      } catch {
        return withJson(res, { statusCode: 400, error: 'Bad Request', message: 'Body is not valid JSON' });
      }
    },
  },
  {
    name: 'X-RateLimit-Reset sent as an ISO date',
    story: 'The rate-limit headers were rebuilt on the new date library, whose default formatting turned X-RateLimit-Reset into an ISO 8601 string.',
    kind: 'spelling',
    make: () => onAnswers((res) => {
      const reset = Number(headerOf(res, 'x-ratelimit-reset'));
      return Number.isFinite(reset) ? withHeaders(res, { 'x-ratelimit-reset': new Date(reset * 1000).toISOString() }) : res;
    }),
  },
  {
    name: 'Error status sent as a string',
    story: 'The error mapper copies the status from the upstream gateway\'s string field, so Error bodies carry "status": "404" instead of the integer.',
    kind: 'spelling',
    make: () => onAnswers((res) => {
      const body = res.status >= 400 ? parseBody(res) : undefined;
      return body && typeof body === 'object' && 'status' in body ? withJson(res, { ...(body as object), status: String(res.status) }) : res;
    }),
  },
  // ------------------------------------------------------------------------ rate-accounting
  {
    name: 'POST spends two requests of the quota',
    story: 'Both the API gateway and the application count write requests against the key, so each createPet lowers X-RateLimit-Remaining by 2 and a Pro key gets 150 creates a minute.',
    kind: 'rate-accounting',
    make: () => async (req, forward) => {
      if (isCreateReq(req) && hasValidKey(req)) await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: { authorization: req.headers.authorization! }, body: '' });
      return forward(req);
    },
  },
  {
    name: 'quota counted per operation instead of per key',
    story: 'The limiter key was changed from api_key to api_key:operationId, so each operation has its own full quota and a key gets three times its plan.',
    kind: 'rate-accounting',
    make: () => ownLimiter({ bucketOf: (req, key) => `${key} ${req.method} ${isGetPetReq(req) ? 'pet' : pathOf(req)}` }),
  },
  {
    name: 'per-instance counters behind a round-robin balancer',
    story: 'The limiter kept its counters in process memory and the service was scaled to two instances, so each instance grants the key its full quota and Remaining goes 299, 299, 298, 298.',
    kind: 'rate-accounting',
    make: () => secondInstance(ownLimiter()),
  },
  {
    name: 'X-RateLimit-Reset an hour late',
    story: 'The reset time is computed from local wall-clock time on a host switched to daylight-saving time, so X-RateLimit-Reset is one hour after the real end of the window.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => {
      const reset = Number(headerOf(res, 'x-ratelimit-reset'));
      return Number.isFinite(reset) ? withHeaders(res, { 'x-ratelimit-reset': String(reset + 3600) }) : res;
    }),
  },
  {
    name: 'X-RateLimit-Reset frozen at the first window',
    story: 'The reset timestamp is memoised per key when its first window opens and never recomputed, so minutes later X-RateLimit-Reset lies in the past while counting goes on.',
    kind: 'rate-accounting',
    make: () => {
      const first = new Map<string, string>();
      return onAnswers((res, req) => {
        const reset = headerOf(res, 'x-ratelimit-reset');
        if (reset === undefined) return res;
        const key = req.headers.authorization ?? '';
        if (!first.has(key)) first.set(key, reset);
        return withHeaders(res, { 'x-ratelimit-reset': first.get(key)! });
      });
    },
  },
  {
    name: 'Retry-After always 1',
    story: 'A refactor replaced the computed Retry-After with the constant default of the retry library, so a 429 says "retry after 1 second" while the window has tens of seconds to run.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => (res.status === 429 ? withHeaders(res, { 'retry-after': '1' }) : res)),
  },
  {
    name: '429 answers without the X-RateLimit headers',
    story: 'Throttled requests are now refused by the edge rate limiter before the application adds the X-RateLimit headers, so 429 answers carry only Retry-After.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => (res.status === 429 ? withoutRateLimitHeaders(res) : res)),
  },
  {
    name: 'over-limit requests answered 503',
    story: 'The new load-shedding layer maps every limiter refusal to 503 Service Unavailable instead of 429.',
    kind: 'rate-accounting',
    make: () => onAnswers((res) => (res.status === 429 ? asError(withHeaders(res, {}), 503, 'SERVICE_UNAVAILABLE', 'Try again later.') : res)),
  },
  {
    name: 'Remaining counts only successful requests',
    story: 'X-RateLimit-Remaining is computed from the success metrics counter while the limiter counts every request, so after a run of 404s the headers promise requests that end in 429.',
    kind: 'rate-accounting',
    make: () => {
      const ok = new Map<string, { start: number; count: number }>();
      return async (req, forward, env) => {
        const res = await forward(req);
        const key = tokenOf(req);
        const limit = Number(headerOf(res, 'x-ratelimit-limit'));
        if (!key || !demoKeys.has(key) || res.status === 429 || !Number.isFinite(limit)) return res;
        const now = env.now();
        const start = now - (now % MINUTE);
        const counter = ok.get(key)?.start === start ? ok.get(key)! : { start, count: 0 };
        ok.set(key, counter);
        if (res.status < 300) counter.count++;
        return withHeaders(res, { 'x-ratelimit-remaining': String(Math.max(0, limit - counter.count)) });
      };
    },
  },
  {
    name: 'Remaining read from a lagging replica',
    story: 'The limiter writes counts to the Redis primary but one request in three reads the header value from a lagging replica, so X-RateLimit-Remaining goes back up within a window.',
    kind: 'rate-accounting',
    make: () => {
      const history = new Map<string, string[]>();
      let n = 0;
      return onAnswers((res, req) => {
        const remaining = headerOf(res, 'x-ratelimit-remaining');
        if (remaining === undefined) return res;
        const seen = history.get(req.headers.authorization ?? '') ?? [];
        history.set(req.headers.authorization ?? '', seen);
        seen.push(remaining);
        return ++n % 3 === 0 && seen.length >= 3 ? withHeaders(res, { 'x-ratelimit-remaining': seen[seen.length - 3]! }) : res;
      });
    },
  },
  {
    name: 'X-RateLimit-Remaining sent twice',
    story: 'The new edge proxy adds its own per-client X-RateLimit-Remaining line beside the application\'s instead of replacing it, so the header arrives twice with two different values.',
    kind: 'rate-accounting',
    make: () => {
      let edge = 5000;
      return onAnswers((res) => {
        const remaining = headerOf(res, 'x-ratelimit-remaining');
        return remaining === undefined ? res : withHeaders(res, { 'x-ratelimit-remaining': [remaining, String(--edge)] });
      });
    },
  },
  // ---------------------------------------------------------------------------------- bytes
  {
    name: 'JSON bodies start with a byte order mark',
    story: 'The response writer was switched to a .NET-style UTF-8 encoder that emits a BOM, so every JSON body starts with EF BB BF.',
    kind: 'bytes',
    make: () => onJsonBytes((text) => concatBytes(Uint8Array.of(0xef, 0xbb, 0xbf), encoder.encode(text))),
  },
  {
    name: 'UTF-8 bodies labelled charset=iso-8859-1',
    story: 'The servlet container\'s default response charset (ISO-8859-1) was restored by a config change while the serializer still writes UTF-8, so non-ASCII names decode as mojibake.',
    kind: 'bytes',
    make: () => onAnswers((res) => (isJsonAnswer(res) ? withHeaders(res, { 'content-type': 'application/json; charset=iso-8859-1' }) : res)),
  },
  {
    name: 'bodies encoded as Latin-1 under a UTF-8 label',
    story: 'The JSON writer was given the platform default encoding (Latin-1 on the new base image) while the header still says charset=utf-8, so é goes out as the single byte E9 and emoji as "?".',
    kind: 'bytes',
    make: () => onJsonBytes(latin1),
  },
  {
    name: 'characters outside the BMP sent as CESU-8',
    story: 'The new JDBC path returns names as "modified UTF-8", so each emoji goes out as two 3-byte surrogate encodings that are not UTF-8.',
    kind: 'bytes',
    make: () => onJsonBytes(cesu8),
  },
  {
    name: 'Content-Length counted in characters',
    story: 'The body length is taken from the string\'s length in UTF-16 units instead of its UTF-8 bytes, so any answer holding a non-ASCII name is cut short.',
    kind: 'bytes',
    make: () => onJsonBytes((text) => encoder.encode(text).slice(0, text.length)),
  },
  {
    name: 'createPet writes the pet twice',
    story: 'The create handler both writes the pet to the response stream and returns it, so the framework appends a second serialisation and the 201 body is two JSON values.',
    kind: 'bytes',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isCreateReq(req) && res.status === 201 ? { ...res, body: `${bodyText(res)}\n${bodyText(res)}` } : res;
    },
  },
  // ---------------------------------------------------------------------------- deprecation
  {
    name: 'every /pets route marked deprecated',
    story: 'The deprecation middleware matches the path prefix /v1/pets instead of the getPet route, so listPets (the replacement) and createPet also carry Deprecation and Sunset.',
    kind: 'deprecation',
    make: () => onAnswers((res, req) => (isListReq(req) || isCreateReq(req) ? withHeaders(res, { deprecation: '@1767225600', sunset: SUNSET }) : res)),
  },
  {
    name: 'getPet Sunset with day and month swapped',
    story: 'The removal date was entered as 05/12/2030 and parsed as US month/day, so getPet announces a Sunset of 12 May 2030.',
    kind: 'deprecation',
    make: () => onAnswers((res) => (headerOf(res, 'sunset') ? withHeaders(res, { sunset: 'Sun, 12 May 2030 00:00:00 GMT' }) : res)),
  },
  {
    name: 'getPet already removed',
    story: 'The kill switch for the deprecated getPet compares its removal date as a string against the wrong format and fires early, so getPet answers 410 Gone years before 5 December 2030.',
    kind: 'deprecation',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isGetPetReq(req) && (res.status === 200 || res.status === 404) ? asError(res, 410, 'GONE', 'GET /v1/pets/{petId} has been removed. Use GET /v1/pets.') : res;
    },
  },
  {
    name: 'getPet Deprecation dated at the removal',
    story: 'The Deprecation header was filled from the sunset setting, so it says getPet will become deprecated on 5 December 2030 instead of being deprecated now.',
    kind: 'deprecation',
    make: () => onAnswers((res) => (headerOf(res, 'deprecation') ? withHeaders(res, { deprecation: '@1922659200' }) : res)),
  },
  // -------------------------------------------------------------------------------- methods
  {
    name: 'HEAD served without a key',
    story: 'The auth hook is registered on GET routes only and the framework\'s automatic HEAD routes skip it, so HEAD /v1/pets answers 200 to anyone.',
    kind: 'methods',
    make: () => (req, forward) => forward(req.method === 'HEAD' && !hasValidKey(req) ? asTrusted(req) : req),
  },
  {
    name: 'HEAD answers without the rate-limit headers',
    story: 'The rate-limit headers are added in an onSend hook that the automatic HEAD routes bypass, so HEAD answers carry none of the three X-RateLimit headers.',
    kind: 'methods',
    make: () => onAnswers((res, req) => (req.method === 'HEAD' ? withoutRateLimitHeaders(res) : res)),
  },
  {
    name: 'DELETE removes pets without a key',
    story: 'An internal clean-up route DELETE /v1/pets/{petId} was mounted outside the auth plugin, so anyone can delete a pet without a key.',
    kind: 'methods',
    make: () => {
      const deleted = new Set<string>();
      return async (req, forward) => {
        const id = petIdOf(req);
        if (req.method === 'DELETE' && id !== undefined && /^\d+$/.test(id)) {
          const probe = await forward({ ...asTrusted(req), method: 'GET', url: deleted.has(id) ? '/v1/pets/999999999' : req.url });
          if (probe.status !== 200) return probe;
          deleted.add(id);
          return { status: 204, headers: Object.fromEntries(Object.entries(probe.headers).filter(([name]) => name.startsWith('x-ratelimit-'))), body: '' };
        }
        return forwardHiding(req, forward, deleted);
      };
    },
  },
  {
    name: 'unsupported methods answered by the proxy\'s HTML 405',
    story: 'The new nginx front answers methods it does not route (PUT, PATCH, DELETE) with its own HTML 405 page, without an Error body or the X-RateLimit headers.',
    kind: 'methods',
    make: () => async (req, forward) => (['GET', 'HEAD', 'POST', 'OPTIONS'].includes(req.method) ? forward(req) : htmlPage(405, 'Not Allowed')),
  },
  // ----------------------------------------------------------------------------------- auth
  {
    name: 'trailing slash skips authentication',
    story: 'The auth rule matches ^/v1/pets(/\\d+)?$ while the router also serves /v1/pets/, so a list with a trailing slash is served without a key.',
    kind: 'auth',
    make: () => (req, forward) => forward(pathOf(req).endsWith('/') && !hasValidKey(req) ? asTrusted(req) : req),
  },
  {
    name: 'percent-encoded path skips authentication',
    story: 'The auth rule is matched against the raw path but the router decodes it, so /v1/%70ets is served without a key.',
    kind: 'auth',
    make: () => (req, forward) => forward(pathOf(req).includes('%') && !hasValidKey(req) ? asTrusted(req) : req),
  },
  {
    name: 'unknown keys answered 403',
    story: 'The new API gateway answers a bearer token it does not know with 403 Forbidden instead of 401.',
    kind: 'auth',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return res.status === 401 && tokenOf(req) && !hasValidKey(req) ? asError(res, 403, 'FORBIDDEN', 'Unknown API key.') : res;
    },
  },
  {
    name: 'createPet without a key stores the pet before answering 401',
    story: 'The auth check was moved into an after-handler hook, so a keyless POST is refused with 401 only after the pet has been stored.',
    kind: 'auth',
    make: () => async (req, forward) => {
      if (isCreateReq(req) && !hasValidKey(req)) await forward(asTrusted(req));
      return forward(req);
    },
  },
  {
    name: 'authentication cached per client address',
    story: 'An auth cache meant to save key look-ups is keyed on the client address, so for a minute after a valid request the same client is served without any key.',
    kind: 'auth',
    make: () => {
      let last: { authorization: string; at: number } | undefined;
      return async (req, forward, env) => {
        if (hasValidKey(req)) {
          last = { authorization: req.headers.authorization!, at: env.now() };
          return forward(req);
        }
        if (req.headers.authorization === undefined && last && env.now() - last.at < MINUTE) return forward({ ...req, headers: { ...req.headers, authorization: last.authorization } });
        return forward(req);
      };
    },
  },
  {
    name: 'empty bearer token served as the anonymous tier',
    story: 'A new anonymous free tier is selected when the parsed token is empty, so "Authorization: Bearer " with no key is served as a Free key.',
    kind: 'auth',
    make: () => (req, forward) => forward(/^Bearer\s*$/i.test(req.headers.authorization ?? 'x') ? withKey(req, 'demo-free') : req),
  },
  // --------------------------------------------------------------------------- concurrency
  {
    name: 'rate limiter races under parallel requests',
    story: 'The limiter reads the count, serves the request, then writes count + 1 (no atomic INCR), so a parallel burst is counted as one request and the whole burst is served.',
    kind: 'concurrency',
    make: () => ownLimiter({ racy: true }),
  },
  {
    name: 'parallel creates get one id',
    story: 'Ids are assigned as SELECT MAX(id)+1 before the insert, without a lock or unique constraint, so creates that overlap get the same id.',
    kind: 'concurrency',
    make: () => {
      let maxId = 60;
      return async (req, forward) => {
        if (!isCreateReq(req)) return forward(req);
        const id = maxId + 1;
        const res = await forward(req);
        if (res.status !== 201) return res;
        maxId = Math.max(maxId, id);
        return withHeaders(mapPets(res, (pet) => ({ ...pet, id })), { location: headerOf(res, 'location') === undefined ? undefined : `/v1/pets/${id}` });
      };
    },
  },
  {
    name: 'parallel creates lose a pet',
    story: 'The store is rewritten as a whole document (read, append, write) without a version check, so of two creates that overlap the later write drops the earlier pet although both answered 201.',
    kind: 'concurrency',
    make: () => {
      const committed: string[] = [];
      const lost = new Set<string>();
      return async (req, forward) => {
        if (isCreateReq(req)) {
          const startedAt = committed.length;
          const res = await forward(req);
          if (res.status !== 201) return res;
          for (const id of committed.slice(startedAt)) lost.add(id);
          committed.push(String((parseBody(res) as Pet).id));
          return res;
        }
        return forwardHiding(req, forward, lost);
      };
    },
  },
  {
    name: 'concurrent answers swapped',
    story: 'A response buffer shared between requests on the same worker lets two overlapping requests receive each other\'s answers.',
    kind: 'concurrency',
    make: () => {
      let inFlight = 0;
      let waiting: { res: Res; resolve: (res: Res) => void } | undefined;
      return async (req, forward) => {
        inFlight++;
        const res = await forward(req);
        inFlight--;
        if (waiting) {
          const partner = waiting;
          waiting = undefined;
          partner.resolve(res);
          return partner.res;
        }
        if (inFlight > 0) return new Promise<Res>((resolve) => { waiting = { res, resolve }; });
        return res;
      };
    },
  },
  // ----------------------------------------------------------------------------------- keys
  {
    name: 'keys share one counter per client address',
    story: 'The limiter bucket was keyed on the client address instead of the API key, so requests made with a Pro key spend the quota of a Free key used from the same machine.',
    kind: 'keys',
    make: () => ownLimiter({ bucketOf: () => 'client 10.0.0.7' }),
  },
  {
    name: 'one instance runs a stale plan table',
    story: 'One of two instances behind the balancer kept a stale plan table that treats every key as Free and counts on its own, so a Pro key\'s X-RateLimit-Limit flips between 300 and 60 and Remaining jumps.',
    kind: 'keys',
    make: () => secondInstance(ownLimiter({ perMinuteOf: () => 60 })),
  },
  {
    name: 'rate-limit headers of the previous request',
    story: 'The limiter stores its decision in a module-level variable read by the header hook after an await, so each answer carries the X-RateLimit values of the request before it, whatever its key.',
    kind: 'keys',
    make: () => {
      let previous: Record<string, string | undefined> | undefined;
      return onAnswers((res) => {
        const own = rateLimitHeadersOf(res);
        const out = previous ? withHeaders(res, previous) : res;
        previous = own;
        return out;
      });
    },
  },
  {
    name: 'Free keys refused on createPet',
    story: 'A new plan-entitlements check makes createPet a paid feature and answers Free keys with 403.',
    kind: 'keys',
    make: () => async (req, forward) => {
      if (!isCreateReq(req) || tokenOf(req) !== 'demo-free') return forward(req);
      const res = await forward({ ...req, body: '{}' });
      return asError(res, 403, 'PLAN_FORBIDDEN', 'Your plan does not include creating pets.');
    },
  },
  {
    name: 'quota bucket keyed on the raw Authorization header',
    story: 'The limiter keys its counter on the raw Authorization header, so "Bearer demo-pro" and "bearer demo-pro" (the same key, the scheme being case-insensitive) get separate quotas.',
    kind: 'keys',
    make: () => ownLimiter({ bucketOf: (req) => req.headers.authorization ?? '' }),
  },
  // ---------------------------------------------------------------------------- validation
  {
    name: 'media type compared case-sensitively',
    story: 'The new content-type guard compares the header to "application/json" as a case-sensitive prefix, so a valid pet sent as Application/JSON is refused with 415.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const type = req.headers['content-type'] ?? '';
      if (!isCreateReq(req) || !hasValidKey(req) || !/^application\/json/i.test(type) || type.startsWith('application/json')) return forward(req);
      return asError(await forward({ ...req, body: '{}' }), 415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported Content-Type "${type}".`);
    },
  },
  {
    name: 'large bodies answered 500',
    story: 'The body-size guard throws an unhandled PayloadTooLarge inside the streaming parser, so a body above 256 KB gets 500 instead of a 4xx refusal.',
    kind: 'validation',
    make: () => async (req, forward) => (isCreateReq(req) && hasValidKey(req) && Buffer.byteLength(req.body) > 256 * 1024 ? asError(await forward({ ...req, body: '{}' }), 500, 'INTERNAL_ERROR', 'Internal server error.') : forward(req)),
  },
  {
    name: 'control characters in names answered 500',
    story: 'The new XML audit-log writer throws on C0 control characters, and the exception escapes as 500 for any name holding one.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const name = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req)?.name : undefined;
      return typeof name === 'string' && /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(name) ? asError(await forward({ ...req, body: '{}' }), 500, 'INTERNAL_ERROR', 'Internal server error.') : forward(req);
    },
  },
  {
    name: 'names with emoji answered 500',
    story: 'The pets table on the new cluster is utf8mb3 in strict mode, so inserting a name with a 4-byte character fails with "Incorrect string value" and answers 500.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const name = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req)?.name : undefined;
      return typeof name === 'string' && /[\u{10000}-\u{10FFFF}]/u.test(name) ? asError(await forward({ ...req, body: '{}' }), 500, 'INTERNAL_ERROR', 'Incorrect string value.') : forward(req);
    },
  },
  {
    name: 'createPet requires status',
    story: 'The regenerated request validator marks every NewPet field as required, so a pet sent without a status is refused with 400.',
    kind: 'validation',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req) : undefined;
      return body && typeof body.name === 'string' && Number.isSafeInteger(body.categoryId) && !('status' in body) ? asError(await forward({ ...req, body: '{}' }), 400, 'INVALID_BODY', 'status is required.') : forward(req);
    },
  },
  {
    name: 'limit=100 refused',
    story: 'The limit check was rewritten as limit < 100 instead of limit <= 100, so the documented maximum is refused with 400.',
    kind: 'validation',
    make: () => async (req, forward) => (isListReq(req) && hasValidKey(req) && paramsOf(req).get('limit') === '100' ? asError(await forward(withParams(req, (q) => q.set('limit', '0'))), 400, 'INVALID_QUERY_PARAMETER', 'limit must be below 100.') : forward(req)),
  },
  {
    name: 'status=pending refused by the list filter',
    story: 'The list filter\'s enum was copied from an older spec that lacked "pending", so ?status=pending is refused with 400.',
    kind: 'validation',
    make: () => async (req, forward) => (isListReq(req) && hasValidKey(req) && paramsOf(req).get('status') === 'pending' ? asError(await forward(withParams(req, (q) => q.set('status', 'not-a-status'))), 400, 'INVALID_QUERY_PARAMETER', 'status must be one of available, sold.') : forward(req)),
  },
  {
    name: 'createPet refuses status sold',
    story: 'A business rule "a new pet cannot already be sold" was added to createPet, refusing a valid PetStatus value with 400.',
    kind: 'validation',
    make: () => async (req, forward) => (isCreateReq(req) && hasValidKey(req) && createBodyOf(req)?.status === 'sold' ? asError(await forward({ ...req, body: '{}' }), 400, 'INVALID_BODY', 'A new pet cannot be sold.') : forward(req)),
  },
  {
    name: 'WAF blocks names that look like markup',
    story: 'A web-application-firewall rule for XSS blocks any request whose body or query contains "<script", answering its own 403 HTML page for a perfectly valid pet name.',
    kind: 'validation',
    make: () => async (req, forward) => (/<script/i.test(req.body) || /%3Cscript|<script/i.test(req.url) ? htmlPage(403, 'Forbidden') : forward(req)),
  },
  {
    name: 'numeric strings coerced to categoryId',
    story: 'The validator was switched to coerceTypes mode, so "categoryId": "3" (a string) is accepted and stored as 3 instead of refused.',
    kind: 'validation',
    make: () => onCreateBody((body) => (typeof body.categoryId === 'string' && /^-?\d+$/.test(body.categoryId) ? { ...body, categoryId: Number(body.categoryId) } : body)),
  },
  // ---------------------------------------------------------------------------------- other
  {
    name: 'Accept with parameters answered 406',
    story: 'The new content negotiation compares each Accept entry literally, so "application/json;q=0.9" or "application/json; charset=utf-8" does not match and the request gets 406.',
    kind: 'other',
    make: () => async (req, forward) => {
      const accept = req.headers.accept;
      if (accept === undefined || !hasValidKey(req)) return forward(req);
      const entries = accept.split(',').map((entry) => entry.trim());
      if (entries.some((entry) => entry === 'application/json' || entry === '*/*' || entry === 'application/*') || !/application\/json|\*\/\*/.test(accept)) return forward(req);
      return refuseWith(forward, req, 406, 'NOT_ACCEPTABLE', 'Only application/json is served.');
    },
  },
  {
    name: 'errors rendered as HTML for browsers and */*',
    story: 'The framework\'s default error page renderer was re-enabled, so error answers to a client whose Accept includes text/html or */* are HTML pages.',
    kind: 'other',
    make: () => onAnswers((res, req) => {
      if (res.status < 400 || !/text\/html|\*\/\*/.test(req.headers.accept ?? '')) return res;
      const body = parseBody(res) as { message?: string } | undefined;
      return { ...res, headers: { ...res.headers, 'content-type': 'text/html; charset=utf-8' }, body: `<!doctype html><title>Error ${res.status}</title><h1>${res.status}</h1><p>${htmlEscape(body?.message ?? '')}</p>` };
    }),
  },
  {
    name: 'errors labelled application/problem+json',
    story: 'The move to the framework\'s RFC 9457 support relabelled every error answer as application/problem+json, though the contract serves application/json.',
    kind: 'other',
    make: () => onAnswers((res) => (res.status >= 400 && isJsonAnswer(res) ? withHeaders(res, { 'content-type': 'application/problem+json' }) : res)),
  },
  {
    name: 'Error code sent as a number',
    story: 'The error mapper fills code from the numeric error enum instead of its name, so Error bodies carry "code": 404.',
    kind: 'other',
    make: () => onAnswers((res) => {
      const body = res.status >= 400 ? parseBody(res) : undefined;
      return body && typeof body === 'object' && 'code' in body ? withJson(res, { ...(body as object), code: res.status }) : res;
    }),
  },
  {
    name: 'list wrapped in an envelope when limit is given',
    story: 'The v2 pagination serializer leaked into v1: when limit is given, listPets answers {"items": [...], "limit": n} instead of an array.',
    kind: 'other',
    make: () => onListArray((pets, req) => (paramsOf(req).has('limit') ? { items: pets, limit: askedLimit(req) } : pets)),
  },
];

// ---------------------------------------------------------------------------------------------
// Legal variants
// ---------------------------------------------------------------------------------------------

/** A bijection of [0, 2^62): id * A + B. A is odd, so it has an inverse modulo 2^62. */
const SCRAMBLE_MOD = 2n ** 62n;
const SCRAMBLE_A = 0x2545f4914f6cdd1dn % SCRAMBLE_MOD;
const SCRAMBLE_B = 0x1234_5678_9abcn;
const SCRAMBLE_A_INV = (() => {
  let inv = SCRAMBLE_A;
  for (let i = 0; i < 7; i++) inv = (inv * (2n - SCRAMBLE_A * inv)) % SCRAMBLE_MOD;
  return ((inv % SCRAMBLE_MOD) + SCRAMBLE_MOD) % SCRAMBLE_MOD;
})();
const scramble = (id: bigint) => (id * SCRAMBLE_A + SCRAMBLE_B) % SCRAMBLE_MOD;
const unscramble = (id: bigint) => (id >= SCRAMBLE_MOD ? undefined : (((id - SCRAMBLE_B) % SCRAMBLE_MOD + SCRAMBLE_MOD) * SCRAMBLE_A_INV) % SCRAMBLE_MOD);

export const legalVariants: LegalVariant[] = [
  {
    name: 'parses a JSON body labelled text/plain',
    choice: 'The contract says request bodies are application/json; it does not say a server must refuse JSON under another label (issue 16: a warning).',
    make: () => (req, forward) => forward(req.method === 'POST' && (req.headers['content-type'] ?? '').startsWith('text/plain') ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
  },
  {
    name: 'refuses a categoryId of -(2^53 - 1) as naming no category',
    choice: '"Fields of a category record: not shown": a deployment may refuse a categoryId that names no category, with a 4xx Error.',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return req.method === 'POST' && req.body.includes('"categoryId":-9007199254740991')
        ? { status: 422, headers: { ...res.headers, 'content-type': 'application/json' }, body: stringifyExact({ code: 'UNKNOWN_CATEGORY', message: 'No category -9007199254740991.', status: 422 }) }
        : res;
    },
  },
  // The mock lists the newest pets, newest first: these two choose otherwise.
  {
    name: 'lists oldest first',
    choice: 'List order: the contract says only "Returns a paginated list of animals" and never gives an order.',
    make: () => onListArray((pets) => [...pets].reverse()),
  },
  {
    name: 'lists the oldest pets',
    choice: 'Which pets a page holds: "Pagination parameters beyond limit ...: not shown"; limit is only the "Maximum number of animals returned".',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const body = isListReq(req) && res.status === 200 ? parseBody(res) : undefined;
      if (!Array.isArray(body)) return res;
      // The lowest ids, from every pet the mock holds (its control API), with the answer's own headers.
      const all = parseBody(await forward({ method: 'GET', url: '/__mock/pets', headers: {}, body: '' })) as Pet[];
      const status = paramsOf(req).get('status');
      return withJson(res, all.filter((pet) => status === null || pet.status === status).slice(0, askedLimit(req)));
    },
  },
  {
    name: 'default status pending',
    choice: '"Default value of status when it is omitted on creation: not shown."',
    make: () => (req, forward) => forward(req),
    mockOptions: { defaultStatus: 'pending' },
  },
  {
    name: '422 for invalid input',
    // Only beyond the 400 rows: createPet's "400 | The body is missing required fields or has
    // invalid values" names the status for an invalid body, so a 422 there is a fault.
    choice: 'The status for invalid input beyond the 400 rows: any 4xx Error is a refusal; a 422 for an invalid query parameter or path is the variant.',
    make: () => onAnswers((res, req) => {
      if (res.status !== 400 || isCreateReq(req)) return res;
      const body = parseBody(res) as { code?: string; message?: string } | undefined;
      return asError(res, 422, body?.code ?? 'UNPROCESSABLE', body?.message ?? 'Unprocessable.');
    }),
  },
  {
    name: 'no Location header',
    choice: 'The contract never mentions Location on the 201 of createPet.',
    make: () => onAnswers((res) => withHeaders(res, { location: undefined })),
  },
  {
    name: 'extra fields on pets and errors',
    choice: 'The Pet and Error tables list required fields only; extra fields are not excluded ("Fields of a category record ...: not shown").',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (res.status >= 400) {
        const body = parseBody(res);
        return body && typeof body === 'object' ? withJson(res, { ...(body as object), traceId: 'f3a9c2', details: [] }) : res;
      }
      return isPetAnswer(req) ? mapPets(res, (pet) => ({ ...pet, createdAt: '2026-01-01T00:00:00Z', photoUrls: [], category: { id: pet.categoryId } })) : res;
    },
  },
  {
    name: 'own error codes and messages',
    choice: '"The set of values of code: not shown."; message is a free human-readable description.',
    make: () => onAnswers((res) => {
      if (res.status < 400) return res;
      const body = parseBody(res) as { code?: string } | undefined;
      return body && typeof body === 'object' ? withJson(res, { ...body, code: `pets.e${res.status}.${String(body.code ?? 'error').toLowerCase()}`, message: 'La requête a échoué. 请求失败。' }) : res;
    }),
  },
  {
    name: 'bans a key after three 429s',
    choice: '"Repeated requests after a 429 response may lead to a temporary ban of the API key."',
    make: () => (req, forward) => forward(req),
    mockOptions: { ban: { threshold: 3, seconds: 600 } },
  },
  {
    name: 'Retry-After longer than the window',
    choice: 'The client "should back off and retry after the time given in the Retry-After header"; asking for 30 s more than the window needs is conservative, not wrong.',
    make: () => onAnswers((res) => (res.status === 429 && headerOf(res, 'retry-after') ? withHeaders(res, { 'retry-after': String(Number(headerOf(res, 'retry-after')) + 30) }) : res)),
  },
  {
    name: 'window anchored at the first request',
    choice: '"Requests per minute" does not say which minute: this deployment\'s window opens with the key\'s first request, not on the clock minute.',
    make: () => ownLimiter({ anchored: true }),
  },
  {
    name: 'accepts JSON without a Content-Type',
    choice: 'A JSON body under another (or no) media type, accepted or refused: the contract lists only 400 for missing fields or invalid values.',
    make: () => (req, forward) => forward(isCreateReq(req) && req.headers['content-type'] === undefined && req.body !== '' ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } } : req),
  },
  {
    name: 'refuses HEAD, OPTIONS, PUT, DELETE and PATCH with a key',
    choice: 'Only GET and POST operations are documented ("Other endpoints ...: not shown"); other methods with a valid key are refused with a 405 Error.',
    make: () => async (req, forward) => {
      if (['GET', 'POST'].includes(req.method) || !hasValidKey(req)) return forward(req);
      const res = await refuseWith(forward, req, 405, 'METHOD_NOT_ALLOWED', `${req.method} is not supported.`);
      return withHeaders(req.method === 'HEAD' ? { ...res, body: '' } : res, { allow: 'GET, POST' });
    },
  },
  {
    name: 'OPTIONS needs a key too',
    choice: '"Every operation requires HTTP bearer authentication": answering a keyless OPTIONS with 401 is the strict reading (the mock answers it 204).',
    make: () => async (req, forward) => (req.method === 'OPTIONS' && !hasValidKey(req) ? forward({ ...req, method: 'GET', url: '/v1/pets' }) : forward(req)),
  },
  {
    name: '404 for unsupported methods',
    choice: '404 or 405 for a method no operation has: the contract lists neither for them.',
    make: () => onAnswers((res) => (res.status === 405 ? asError(res, 404, 'NOT_FOUND', 'No such resource.') : res)),
  },
  {
    name: 'trailing slash refused',
    choice: 'Paths are given without a trailing slash; /v1/pets/ is not an operation, so a 404 Error for it (with a valid key) is a choice.',
    make: () => async (req, forward) => (pathOf(req).endsWith('/') && hasValidKey(req) ? refuseWith(forward, req, 404, 'NOT_FOUND', 'No such resource.') : forward(req)),
  },
  {
    name: 'size and character limits',
    choice: '"Maximum length of name and of a request body: not shown": names over 100 characters or with control characters are refused with 400, bodies over 16 KB with 413.',
    make: () => async (req, forward) => {
      if (!isCreateReq(req) || !hasValidKey(req)) return forward(req);
      if (Buffer.byteLength(req.body) > 16 * 1024) return refuseWith(forward, req, 413, 'BODY_TOO_LARGE', 'The body may hold at most 16 KB.');
      const name = createBodyOf(req)?.name;
      if (typeof name === 'string' && ([...name].length > 100 || /[\u0000-\u001f\u007f]/.test(name))) return refuseWith(forward, req, 400, 'INVALID_NAME', 'name must be 1 to 100 printable characters.');
      return forward(req);
    },
  },
  {
    name: 'refuses unknown categories',
    choice: '"Fields of a category record ...: not shown": categoryIds that name no category (here: outside 1 to 1000) are refused with a 4xx Error.',
    make: () => async (req, forward) => {
      const categoryId = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req)?.categoryId : undefined;
      return Number.isInteger(categoryId) && ((categoryId as number) < 1 || (categoryId as number) > 1000) ? refuseWith(forward, req, 422, 'UNKNOWN_CATEGORY', 'No category has this id.') : forward(req);
    },
  },
  {
    name: 'opaque int64 ids',
    choice: 'id is only "Unique identifier assigned by the service" (int64): this deployment assigns scattered ids, most beyond 2^53.',
    make: () => mappedIds(scramble, unscramble),
  },
  {
    name: 'non-ASCII escaped in JSON',
    choice: 'JSON may escape any character (RFC 8259, section 7); the contract says only that bodies are JSON.',
    make: () => onAnswers((res) => (isJsonAnswer(res) ? { ...res, body: bodyText(res).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) } : res)),
  },
  {
    name: 'pretty-printed JSON labelled plain application/json',
    choice: 'Whitespace in JSON and the absence of a charset parameter (application/json has none) are the serializer\'s business.',
    make: () => onAnswers((res) => {
      if (!isJsonAnswer(res)) return res;
      const body = parseBody(res);
      return body === undefined ? res : { ...res, headers: { ...res.headers, 'content-type': 'application/json' }, body: `${stringifyExact(body, 2).replace(/\n/g, '\r\n')}\r\n` };
    }),
  },
  {
    name: 'extra headers',
    choice: 'The contract names the headers every answer carries; other headers (caching, tracing, policy) are not excluded.',
    make: () => {
      let n = 0;
      return onAnswers((res) => withHeaders(res, { 'cache-control': 'no-store', vary: 'Authorization, Accept', 'x-request-id': `req-${++n}`, 'ratelimit-policy': '"minute";q=300;w=60', 'x-powered-by': 'pets' }));
    },
  },
];
