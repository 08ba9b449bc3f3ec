#!/usr/bin/env node
// deployment-d.mjs: an independent implementation of the Pet Adoption Service contract
// (seeds/000_c08143d955460f48.txt), written as a small production service with two layers:
//
//   gateway  : CORS preflight, authentication (Bearer API keys), rate limiting (per minute and per
//              day, fixed clock windows), request-size limit, response finishing (rate-limit headers,
//              CORS headers, caching headers, conditional GET, gzip, framing).
//   app      : routing, query/body validation, a repository of pets (in memory, seeded).
//
// Usage: PORT=5400 node deployment-d.mjs  [FAULT=<name> | LEGAL=<name> | GRAY=<name>]
// No dependencies beyond Node 20 built-ins.
//
// Choices made where the contract is silent (clean server):
//   * ids: sequential int64 starting at 1 (seed ids 1..50 with gaps, new pets from 51); JSON numbers.
//   * default status on create: none (the field stays absent).
//   * list order: ascending id. Cursor pagination beyond `limit`: optional `after=<id>` parameter,
//     and a `Link: <...>; rel="next"` header when more items exist.
//   * invalid `limit`/`status`/`after` query values, or the same one repeated: 400 with an Error body.
//   * unknown query parameters and unknown body fields: ignored. A body `id` is ignored.
//   * `name` must be a non-blank string; `categoryId` any int64 (JSON integer); `status` one of the enum
//     (null is not a string, so it is an invalid value). No maximum name length; bodies above 64 KiB: 413.
//   * non-JSON request content type: 415; a missing Content-Type is read as JSON.
//   * GET /pets/{petId} with a non-integer or out-of-range petId: 404 (no such resource).
//   * rate limits: fixed clock-minute and UTC-day windows per key; Enterprise = 5,000/min, 1,000,000/day.
//     The headers report the minute window unless the day window has fewer requests left.
//     Every request admitted on a valid key counts (whatever its status); 401s and 429s do not count.
//     Answers without a valid key report an anonymous view (limit 60, nothing consumed).
//   * 429: Retry-After in delay-seconds, X-RateLimit-Remaining 0; no ban.
//   * caching: GET 200 answers carry a weak ETag and `Cache-Control: private, no-cache`, honour
//     If-None-Match (weak comparison) with 304; other answers `Cache-Control: no-store`.
//   * compression: gzip for GET/HEAD 200 bodies of 1 KiB or more when Accept-Encoding allows it.
//   * CORS: `Access-Control-Allow-Origin: *` (bearer tokens, no cookies), preflights answered 204
//     without authentication, rate-limit and other headers exposed.
//   * getPet answers carry `Deprecation` (RFC 9745) and `Sunset: Thu, 05 Dec 2030 00:00:00 GMT` (RFC 8594).
//   * GET /store/orders: 200 with a small JSON array of orders.
//   * 401 answers carry `WWW-Authenticate: Bearer realm="pets"` (RFC 9110 11.6.1).

import http from 'node:http';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

// ---------------------------------------------------------------------------------------------
// Variant registry. Each FAULT: a story (who shipped it and why) and the sentence it breaks.
// Each LEGAL: the freedom it uses. Each GRAY: why it is arguable. The code tests the name where
// the behaviour changes (search for F('name'), L('name'), G('name')).
// ---------------------------------------------------------------------------------------------
export const REGISTRY = {
  FAULT: {
    // -- gateway: authentication ---------------------------------------------------------------
    // Platform team moved the "no credentials" check into the edge proxy config (auth_request),
    // whose default deny page is plain text; invalid keys still reach the gateway code and get JSON.
    'missing-key-401-plain-text': 'Authentication 3 / Errors: a missing key gets 401 with a text/plain body, not an Error body',
    // The rate-limit header middleware was moved after key lookup "because it needs the plan"; the
    // invalid-key branch returns before it. Missing-key 401s still get the anonymous view.
    'invalid-key-401-no-ratelimit-headers': 'Limits: "Every API response carries these headers" (401 for an unknown key lacks X-RateLimit-*)',
    // A contractor "simplified" the Authorization parser to take the last space-separated word,
    // so any scheme (Token, Basic, ...) followed by a valid key is accepted.
    'auth-scheme-ignored': 'Authentication 1-3: non-Bearer credentials are accepted instead of 401',
    // Keys were lower-cased on lookup to match a case-insensitive DB collation.
    'key-case-insensitive': 'Authentication 3: an invalid key (DEMO-PRO) is accepted instead of 401',
    // The gateway only authenticates routes in its route table (exact regex); the app router
    // strips trailing slashes, so /v1/pets/ reaches the list handler unauthenticated.
    'trailing-slash-skips-auth': 'Authentication 1: GET /v1/pets/ answers 200 without a key',
    // The store-orders endpoint was migrated from the legacy monolith and mounted before the
    // gateway middleware "temporarily".
    'store-orders-outside-gateway': 'Endpoints: "All endpoints require authentication" (GET /store/orders answers 200 without a key)',
    // Someone moved authentication ahead of the CORS middleware; preflights carry no Authorization.
    'preflight-requires-auth': 'Fetch standard CORS-preflight: the preflight must get an ok (2xx) status; it gets 401 so no browser can call the API',
    // A config cleanup replaced the explicit Access-Control-Allow-Headers list with "*".
    'preflight-allow-headers-wildcard': 'Fetch standard: "*" in Access-Control-Allow-Headers does not cover Authorization, so the bearer token cannot be sent cross-origin',
    // -- gateway: rate limiting ----------------------------------------------------------------
    // The plan table was turned into an array indexed by a tier number; the pro keys carry tier 2
    // after a billing migration renumbered tiers from 0, so Pro gets the Business row.
    'pro-plan-business-limits': 'Limits: Pro is 300 requests per minute (the pro key is announced and enforced at 1,000)',
    // The app team added its own "write limiter" on POST that consumes from the same counter the
    // gateway already decremented.
    'post-counted-twice': 'Limits: Pro 300 requests per minute / X-RateLimit-Remaining: a POST consumes two requests',
    // Product asked not to "bill" customers for 404s; the refund hook runs after the response
    // status is known, so 404s never count and never run into 429.
    'not-found-not-counted': 'Limits: requests over the limit receive 429 / Remaining is requests remaining: requests answered 404 are not counted',
    // The app builds POST responses with a header snapshot captured before the gateway counted.
    'post-remaining-stale': 'Limits: X-RateLimit-Remaining on a 201 is the value before the request was counted (one too many)',
    // The app's error helper appends its own copy of the rate-limit headers (taken before the
    // request was counted) to the ones the gateway already set, on getPet 404s.
    'ratelimit-headers-repeated-on-404': 'Limits: X-RateLimit-Remaining is one integer; getPet 404 sends the field twice with different values',
    // The 304 short-circuit was added in a "fast path" that returns before the header finisher.
    'no-ratelimit-headers-on-304': 'Limits: "Every API response carries these headers" (304 lacks X-RateLimit-*)',
    // The router's fallback (no route / unparseable id) writes its 404 directly, bypassing the
    // response finisher.
    'no-ratelimit-headers-on-unrouted-404': 'Limits: "Every API response carries these headers" (404 for /v1/pets/abc or an unknown path lacks them)',
    // The 429 branch reads the state of the day window (the one it logs to metrics).
    '429-ratelimit-headers-from-day-window': 'Limits: on 429 X-RateLimit-Limit/Remaining come from the day window (Remaining > 0 while limited)',
    // The gateway's 429 reuses the generic "client error" template, whose status is 400.
    '429-error-status-400': 'Errors: Error.status equals the HTTP status code (429 body says 400)',
    // Retry-After is computed from the millisecond reset, without dividing by 1000.
    'retry-after-milliseconds': 'Errors 429 / RFC 9110 10.2.3: Retry-After is delay-seconds; it is sent in milliseconds',
    // A later release exempted POST from the gateway limiter "because the app has its own write
    // limiter" (see post-counted-twice); that limiter's 429 has no Retry-After.
    'post-429-no-retry-after': 'Errors: 429 must give the time to retry in Retry-After (a POST rejected at the limit lacks it)',
    // The 429 template formats the reset with toUTCString() "for readability".
    'reset-http-date-on-429': 'Limits: X-RateLimit-Reset is a Unix timestamp (429 sends an HTTP-date)',
    // The limiter was changed to a window anchored at the key's first request, but the header
    // still reports the next clock minute; the counter does not restart when Reset passes.
    'window-anchored-to-first-request': 'Limits: X-RateLimit-Reset is when the limit resets (after it passes, Remaining keeps counting down)',
    // -- errors produced by different layers ---------------------------------------------------
    // The body parser's error (framework default) escapes the app's error mapper.
    'malformed-json-framework-error': 'Errors: 400 carries an Error body {code,message,status} (malformed JSON gets {statusCode,error,message})',
    // The edge proxy enforces client_max_body_size and answers with its HTML error page.
    'payload-too-large-html': 'Errors: error responses carry an Error body (JSON); 413 is an HTML page',
    // Content-type check compares the whole header with "application/json".
    'json-charset-param-415': 'POST /pets: the body is application/json; "application/json; charset=utf-8" is refused with 415',
    // The 405 handler was rewritten and dropped the Allow header.
    '405-without-allow': 'RFC 9110 15.5.6: a 405 response MUST carry Allow',
    // The 404 message is looked up in an i18n table keyed by a typo, yielding null.
    '404-message-null': 'Errors: Error.message is a required string (getPet 404 sends null)',
    // Validation does `body.name` on the parsed value; JSON null throws a TypeError -> 500.
    'null-body-500': 'POST /pets: a body missing required fields is 400 (the JSON text null gives 500)',
    // Query validation moved to an OpenAPI validator middleware at the gateway, with its own
    // error format.
    'query-validation-error-shape': 'Errors: error responses carry {code,message,status} (invalid limit gets {errors:[...]})',
    // -- validation and persistence ------------------------------------------------------------
    // Validation checks `status !== undefined && !enum.includes(status)` but a later refactor
    // turned it into `if (status != null && ...)`, letting null through.
    'status-null-accepted': 'PetStatus / POST 400 for invalid values: status null is stored and returned',
    // The create handler re-parsed categoryId with Number() "to be safe".
    'category-precision-loss': 'categoryId int64: 9007199254740993 is stored as 9007199254740992',
    // Range check removed when moving to BigInt ("BigInt can't overflow").
    'category-int64-overflow-accepted': 'categoryId int64 / POST 400: 9223372036854775808 is accepted',
    // The repository column is BIGINT UNSIGNED; negatives wrap around.
    'negative-category-as-unsigned': 'categoryId int64: -3 is stored and returned as 18446744073709551613',
    // Status validation was moved into a post-insert hook; it returns 400 but the row stays.
    'invalid-status-persisted-on-400': 'PetStatus enum: a pet with status "bogus" is listed after its create got 400',
    // The repository insert lists columns explicitly and `status` was forgotten when added.
    'status-not-persisted': 'GET /pets/{petId} / status filter: a pet created with a status is read back without it',
    // New ids were computed as row count + 1 in a "stateless" refactor; the seed has gaps.
    'id-from-row-count': 'Pet.id unique: a created pet gets the id of an existing pet and replaces it',
    // The body reader decodes with 'latin1' (copied from a binary upload handler).
    'body-decoded-latin1': 'RFC 8259 8.1 (JSON is UTF-8): a non-ASCII name is stored mangled',
    // -- pagination and filtering --------------------------------------------------------------
    // The status -> index map was generated from an old enum missing "pending"; the lookup
    // falls back to "no filter".
    'pending-filter-ignored': 'GET /pets status: returns only animals with this status (status=pending returns all)',
    // The default limit is applied in the "no filter" branch only.
    'status-filter-skips-default-limit': 'GET /pets limit default 20 (with a status filter and no limit, all matches are returned)',
    // limit is checked as a string against "1" and "100".
    'limit-compared-as-string': 'GET /pets limit 1..100: limit=5 (or 20, 50) is refused with 400',
    // The next-page link is built from the cursor and the limit only.
    'next-link-drops-status': 'GET /pets status filter: the second page (rel=next) contains animals of other statuses',
    // -- framing, caching, charset, deprecation -------------------------------------------------
    // HEAD answered by a generic handler that sets Content-Length: 0.
    'head-content-length-zero': 'RFC 9110 8.6: Content-Length in a HEAD response MUST equal the GET body length',
    // Content-Length computed before compression.
    'gzip-content-length-uncompressed': 'RFC 9110 8.6 / RFC 9112 6.3: Content-Length differs from the octets sent (gzip answers)',
    // Content-Length set from the string length, not the byte length.
    'content-length-counts-chars': 'RFC 9110 8.6: Content-Length is the number of octets (non-ASCII bodies are truncated)',
    // The list ETag is derived from the cache key (query) and the seed version.
    'list-etag-ignores-content': 'RFC 9110 8.8.3 / 13.1.2: after a create the list changes but If-None-Match still gets 304',
    // The 304 fast path forgets ETag.
    '304-without-etag': 'RFC 9110 15.4.5: a 304 MUST carry the ETag the 200 would have carried',
    // If-None-Match compared as a whole string.
    'if-none-match-list-unparsed': 'RFC 9110 13.1.2: If-None-Match with a list of tags containing the current one must give 304',
    // Body buffer built with 'binary' encoding "to avoid double encoding".
    'response-latin1-encoded': 'RFC 8259 8.1: JSON must be UTF-8; non-ASCII names are sent as Latin-1 bytes',
    // Sunset computed from a local (Europe/Paris) midnight.
    'sunset-date-shifted': 'Versioning 3: removal on 5 December 2030; Sunset says 4 December 23:00 GMT',
    // The repository treats a falsy id as a programming error and throws.
    'pet-zero-500': 'GET /pets/{petId}: an unknown animal is 404 (petId 0 gives 500)',
  },
  LEGAL: {
    'order-newest-first': 'list order is not shown: newest (highest id) first, cursor pages go down',
    'sliding-window': 'window kind is not shown: a sliding 60-second window; Reset is when the oldest counted request leaves it',
    'default-status-available': 'default status on create is not shown: "available"',
    'retry-after-http-date': 'RFC 9110 10.2.3 allows Retry-After as an HTTP-date',
    'no-compression': 'content coding is the server\'s choice: never gzip',
    'big-ids': 'ids are int64: ids above 2^53 (exact in the JSON text)',
    'no-etags': 'validators are optional: no ETag, no conditional GET',
    'upper-case-error-codes': 'the set of Error codes is not shown: upper-case codes',
    'ban-after-429': 'Authentication 4: requests repeated after a 429 lead to a temporary ban (429 for two minutes, with Retry-After)',
    'wrong-content-type-400': 'a non-JSON Content-Type on POST is a 400 (invalid body) rather than 415',
    'empty-name-accepted': 'name constraints are not shown: an empty name is accepted',
    'cors-echo-origin': 'CORS: echo the Origin (with Vary: Origin) instead of "*"',
    'store-orders-empty': 'store orders are not shown: the listing is an empty array',
    'no-link-pagination': 'pagination beyond limit is not shown: no cursor and no Link header',
    'extra-pet-fields': 'extra fields are allowed in a Pet: createdAt',
    'limit-repeated-last-wins': 'a repeated query parameter: the last value is used instead of 400',
    'no-deprecation-headers': 'Deprecation/Sunset headers are optional: none sent',
  },
  GRAY: {
    'no-www-authenticate': 'RFC 9110 11.6.1 says a 401 MUST carry WWW-Authenticate; the contract only asks for an Error body',
    'no-vary-accept-encoding': 'gzip answers without Vary: Accept-Encoding (RFC 9110 12.5.5 SHOULD; private, no-cache limits the harm)',
    'cache-control-public': 'authenticated answers marked public, max-age=30: shared caches may serve them to clients without the key',
    'petid-parseint': 'GET /pets/12abc answers pet 12 (parseInt): is /pets/12abc a non-existent resource?',
    'limit-clamped': 'limit above 100 is clamped to 100 instead of refused',
    'unknown-fields-rejected': 'unknown body fields are refused with 400 (are they "invalid values"?)',
  },
};

const mode = { FAULT: process.env.FAULT || '', LEGAL: process.env.LEGAL || '', GRAY: process.env.GRAY || '' };
for (const kind of ['FAULT', 'LEGAL', 'GRAY']) {
  if (mode[kind] && !Object.hasOwn(REGISTRY[kind], mode[kind])) {
    console.error(`deployment-d: unknown ${kind} "${mode[kind]}". Known: ${Object.keys(REGISTRY[kind]).join(', ')}`);
    process.exit(2);
  }
}
const F = (n) => mode.FAULT === n;
const L = (n) => mode.LEGAL === n;
const G = (n) => mode.GRAY === n;

// ---------------------------------------------------------------------------------------------
// JSON: a parser that keeps integer literals exact (int64 needs more than a double), and a writer.
// ---------------------------------------------------------------------------------------------
class JNum { constructor(raw) { this.raw = raw; } }
const RE_STR = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const RE_NUM = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function parseJson(text) {
  let i = 0;
  const n = text.length;
  const fail = (m) => { const e = new SyntaxError(`${m} at position ${i}`); e.jsonSyntax = true; throw e; };
  const ws = () => { while (i < n) { const c = text.charCodeAt(i); if (c === 32 || c === 9 || c === 10 || c === 13) i++; else break; } };
  const str = () => {
    RE_STR.lastIndex = i;
    const m = RE_STR.exec(text);
    if (!m) fail('invalid string');
    i += m[0].length;
    return JSON.parse(m[0]);
  };
  const value = (depth) => {
    if (depth > 64) fail('nesting too deep');
    ws();
    if (i >= n) fail('unexpected end of JSON input');
    const c = text[i];
    if (c === '{') {
      i++;
      const o = Object.create(null);
      ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a property name');
        const k = str();
        ws();
        if (text[i] !== ':') fail('expected ":"');
        i++;
        o[k] = value(depth + 1);
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return o; }
        fail('expected "," or "}"');
      }
    }
    if (c === '[') {
      i++;
      const a = [];
      ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(value(depth + 1));
        ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return a; }
        fail('expected "," or "]"');
      }
    }
    if (c === '"') return str();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    RE_NUM.lastIndex = i;
    const m = RE_NUM.exec(text);
    if (!m) fail(`unexpected character ${JSON.stringify(c)}`);
    i += m[0].length;
    return new JNum(m[0]);
  };
  const v = value(0);
  ws();
  if (i !== n) fail('unexpected data after the JSON value');
  return v;
}

function toJson(v) {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'bigint': return v.toString();
    case 'number': return Number.isFinite(v) ? String(v) : 'null';
    case 'string': return JSON.stringify(v);
    case 'boolean': return v ? 'true' : 'false';
    default:
      if (Array.isArray(v)) return '[' + v.map(toJson).join(',') + ']';
      return '{' + Object.keys(v).filter((k) => v[k] !== undefined).map((k) => JSON.stringify(k) + ':' + toJson(v[k])).join(',') + '}';
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// JSON number token -> BigInt if it denotes an integer, else null.
function jnumToBigInt(j) {
  if (!(j instanceof JNum)) return null;
  if (/^-?(0|[1-9][0-9]*)$/.test(j.raw)) return BigInt(j.raw);
  const x = Number(j.raw);
  if (Number.isInteger(x) && Number.isSafeInteger(x)) return BigInt(x);
  return null;
}

// ---------------------------------------------------------------------------------------------
// Repository
// ---------------------------------------------------------------------------------------------
const STATUSES = ['available', 'pending', 'sold'];

class PetRepository {
  constructor() {
    this.rows = new Map(); // id (string) -> row
    this.nextId = 1n;
    this.version = 0;
  }
  insert(p, forcedId) {
    let id;
    if (forcedId !== undefined) id = forcedId;
    else if (F('id-from-row-count')) id = (L('big-ids') ? ID_BASE : 0n) + BigInt(this.rows.size + 1);
    else id = this.nextId;
    if (id >= this.nextId) this.nextId = id + 1n;
    const row = { id, name: p.name, categoryId: p.categoryId };
    if (p.status !== undefined && !F('status-not-persisted')) row.status = p.status;
    if (L('extra-pet-fields')) row.createdAt = p.createdAt;
    this.rows.set(id.toString(), row);
    this.version++;
    return row;
  }
  get(id) {
    if (F('pet-zero-500') && id === 0n) throw new TypeError('PetRepository.get: id is required');
    return this.rows.get(id.toString()) || null;
  }
  list({ status, after, limit, desc }) {
    let all = [...this.rows.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (desc) all.reverse();
    if (status !== undefined) all = all.filter((r) => r.status === status);
    if (after !== undefined) all = all.filter((r) => (desc ? r.id < after : r.id > after));
    const page = limit === Infinity ? all : all.slice(0, limit);
    return { page, more: all.length > page.length };
  }
}

const ID_BASE = L('big-ids') ? 9007199254741000n : 0n;
const SEED_NAMES = ['Bella', 'Max', 'Luna', 'Charlie', 'Lucy', 'Cooper', 'Daisy', 'Milo', 'Bailey', 'Rocky',
  'Sadie', 'Buddy', 'Molly', 'Bear', 'Maggie', 'Tucker', 'Sophie', 'Jack', 'Chloe', 'Duke',
  'Penny', 'Oliver', 'Lola', 'Toby', 'Ruby', 'Zeus', 'Rosie', 'Winston', 'Stella', 'Murphy',
  'Nala', 'Leo', 'Zoë', 'Finn', 'Willow', 'Gus', 'Pepper', 'Louie', 'Coco', 'Otis',
  'Hazel', 'Bruno', 'Ginger', 'Loki', 'Piper', 'Oscar', 'Maple', 'Ziggy', 'Olive', 'Koda'];
const SEED_STATUS = ['available', 'available', 'pending', 'available', 'sold', 'available', 'pending', 'sold'];
const SEED_TIME = Date.UTC(2024, 0, 15, 9, 0, 0);

const repo = new PetRepository();
for (let k = 1; k <= 50; k++) {
  if (k === 7 || k === 23) continue; // adopted and purged from the shelter's old system
  const p = { name: SEED_NAMES[k - 1], categoryId: BigInt(1 + ((k * 7) % 5)) };
  if (k !== 13 && k !== 41) p.status = SEED_STATUS[k % 8]; // two legacy records have no status
  p.createdAt = new Date(SEED_TIME + k * 3600_000).toISOString();
  repo.insert(p, ID_BASE + BigInt(k));
}
const SEED_VERSION = repo.version;

const STORE_ORDERS = [
  { id: 1, petId: 3, quantity: 1, status: 'placed', complete: false },
  { id: 2, petId: 5, quantity: 1, status: 'approved', complete: false },
  { id: 3, petId: 8, quantity: 1, status: 'delivered', complete: true },
].map((o) => ({ ...o, petId: ID_BASE + BigInt(o.petId) }));

// ---------------------------------------------------------------------------------------------
// Gateway: plans, keys, rate limiter
// ---------------------------------------------------------------------------------------------
const PLAN_ROWS = [
  { plan: 'free', perMinute: 60, perDay: 1000 },
  { plan: 'pro', perMinute: 300, perDay: 10000 },
  { plan: 'business', perMinute: 1000, perDay: 100000 },
  { plan: 'enterprise', perMinute: 5000, perDay: 1000000 },
];
const KEYS = {
  'demo-free': { tier: 0 },
  'demo-pro': { tier: F('pro-plan-business-limits') ? 2 : 1 },
  'demo-business': { tier: 2 },
  'demo-enterprise': { tier: 3 },
};
const ANON = { plan: 'anonymous', perMinute: 60, perDay: 1000 };

const MIN = 60_000;
const DAY = 86_400_000;
const floorTo = (t, w) => Math.floor(t / w) * w;

class RateLimiter {
  constructor() { this.state = new Map(); }
  st(key, now) {
    let s = this.state.get(key);
    if (!s) {
      s = { minStart: floorTo(now, MIN), minCount: 0, dayStart: floorTo(now, DAY), dayCount: 0, log: [], anchor: now, after429: 0, bannedUntil: 0 };
      this.state.set(key, s);
    }
    if (F('window-anchored-to-first-request')) {
      if (now >= s.anchor + MIN) { s.anchor = now; s.minCount = 0; s.after429 = 0; }
      s.minStart = floorTo(now, MIN); // only used for the header
    } else if (floorTo(now, MIN) !== s.minStart) {
      s.minStart = floorTo(now, MIN); s.minCount = 0; s.after429 = 0;
    }
    if (floorTo(now, DAY) !== s.dayStart) { s.dayStart = floorTo(now, DAY); s.dayCount = 0; }
    if (L('sliding-window')) {
      while (s.log.length && s.log[0] <= now - MIN) s.log.shift();
    }
    return s;
  }
  minuteUsed(s) { return L('sliding-window') ? s.log.length : s.minCount; }
  minuteReset(s, now) {
    if (L('sliding-window')) return Math.ceil(((s.log.length ? s.log[0] : now) + MIN) / 1000);
    return (s.minStart + MIN) / 1000;
  }
  windows(key, plan, now) {
    const s = this.st(key, now);
    const m = { window: 'minute', limit: plan.perMinute, remaining: Math.max(0, plan.perMinute - this.minuteUsed(s)), reset: this.minuteReset(s, now) };
    const d = { window: 'day', limit: plan.perDay, remaining: Math.max(0, plan.perDay - s.dayCount), reset: (s.dayStart + DAY) / 1000 };
    return { s, m, d };
  }
  // The view reported in X-RateLimit-*: the minute window unless the day window has fewer left.
  view(key, plan, now) {
    const { m, d } = this.windows(key, plan, now);
    return d.remaining < m.remaining || d.remaining === 0 ? d : m;
  }
  // Counts one request if the key is within its limits; otherwise returns the blocking window.
  consume(key, plan, now) {
    const { s, m, d } = this.windows(key, plan, now);
    if (L('ban-after-429') && s.bannedUntil > now) {
      return { ok: false, limit: m.limit, reset: Math.ceil(s.bannedUntil / 1000), banned: true };
    }
    const block = d.remaining === 0 ? d : m.remaining === 0 ? m : null;
    if (block) {
      if (L('ban-after-429') && ++s.after429 > 10) {
        s.bannedUntil = now + 2 * MIN;
        return { ok: false, limit: m.limit, reset: Math.ceil(s.bannedUntil / 1000), banned: true };
      }
      return { ok: false, limit: block.limit, reset: block.reset, window: block.window };
    }
    s.minCount++; s.dayCount++;
    if (L('sliding-window')) s.log.push(now);
    return { ok: true };
  }
  refund(key, now) {
    const s = this.state.get(key);
    if (!s) return;
    if (s.minCount > 0) s.minCount--;
    if (s.dayCount > 0) s.dayCount--;
    if (L('sliding-window')) s.log.pop();
  }
}
const limiter = new RateLimiter();

// ---------------------------------------------------------------------------------------------
// Response finishing (shared by gateway and app)
// ---------------------------------------------------------------------------------------------
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag, Link, Location, Deprecation, Sunset';
const SUNSET = F('sunset-date-shifted')
  ? new Date(Date.UTC(2030, 11, 4, 23, 0, 0)).toUTCString() // "midnight in Paris"
  : new Date(Date.UTC(2030, 11, 5, 0, 0, 0)).toUTCString(); // Thu, 05 Dec 2030 00:00:00 GMT
const DEPRECATION = '@' + Date.UTC(2024, 0, 1) / 1000; // RFC 9745: deprecated since 2024-01-01

function rateView(ctx) {
  const now = Date.now();
  if (ctx.plan) return limiter.view(ctx.key, ctx.plan, now);
  return { limit: ANON.perMinute, remaining: ANON.perMinute, reset: (floorTo(now, MIN) + MIN) / 1000 };
}

function setRateHeaders(ctx, res, view) {
  const v = view || rateView(ctx);
  res.setHeader('X-RateLimit-Limit', String(v.limit));
  res.setHeader('X-RateLimit-Remaining', String(v.remaining));
  res.setHeader('X-RateLimit-Reset', String(v.reset));
}

function setCors(ctx, res) {
  const origin = ctx.req.headers.origin;
  if (!origin) return;
  if (L('cors-echo-origin')) { res.setHeader('Access-Control-Allow-Origin', origin); appendVary(res, 'Origin'); }
  else res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED);
}

function appendVary(res, v) {
  const cur = res.getHeader('Vary');
  res.setHeader('Vary', cur ? `${cur}, ${v}` : v);
}

function acceptsGzip(header) {
  if (!header) return false;
  let gzip = null, star = null;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().split(';').map((x) => x.trim());
    let q = 1;
    for (const p of params) { const m = /^q=([0-9.]+)$/i.exec(p); if (m) q = Number(m[1]); }
    const c = coding.toLowerCase();
    if (c === 'gzip' || c === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (c === '*') star = q;
  }
  if (gzip !== null) return gzip > 0;
  return star !== null && star > 0;
}

// Parses If-None-Match into a list of opaque tags ('*' -> ['*']).
function parseInm(v) {
  if (v.trim() === '*') return ['*'];
  const out = [];
  const re = /\s*(?:W\/)?"([^"]*)"\s*(?:,|$)/gy;
  let m;
  while ((m = re.exec(v)) && m[0] !== '') out.push(m[1]);
  return out;
}

// send(): the single response finisher. body: a JS value (serialised as JSON) or undefined.
function send(ctx, status, body, opts = {}) {
  const { req, res } = ctx;
  if (res.headersSent) return;
  const isHead = req.method === 'HEAD';
  const headers = opts.headers || {};
  // Product wanted 404s "free": the finisher refunds the request before computing the headers.
  if (F('not-found-not-counted') && status === 404 && ctx.counted && !ctx.refunded) { ctx.refunded = true; limiter.refund(ctx.key, Date.now()); }
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) res.setHeader(k, v);
  if (!opts.noRateHeaders) setRateHeaders(ctx, res, opts.rateView);
  setCors(ctx, res);
  const cacheable = status === 200 && (req.method === 'GET' || isHead) && opts.cacheable;
  if (G('cache-control-public') && cacheable) res.setHeader('Cache-Control', 'public, max-age=30');
  else res.setHeader('Cache-Control', cacheable ? 'private, no-cache' : 'no-store');
  if (cacheable && !L('no-compression') && !G('no-vary-accept-encoding')) appendVary(res, 'Accept-Encoding');
  if (cacheable) appendVary(res, 'Authorization');

  let text = body === undefined ? '' : toJson(body);
  if (body !== undefined && !res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');

  // Conditional GET (RFC 9110 13.1.2, 13.2.2): weak comparison for If-None-Match.
  if (cacheable && !L('no-etags')) {
    const tag = opts.etagSeed !== undefined ? opts.etagSeed : text;
    const etag = 'W/"' + crypto.createHash('sha256').update(tag).digest('base64url').slice(0, 22) + '"';
    res.setHeader('ETag', etag);
    const inm = req.headers['if-none-match'];
    if (inm !== undefined) {
      const opaque = etag.slice(2);
      let match;
      if (F('if-none-match-list-unparsed')) match = inm.trim() === etag || inm.trim() === opaque || inm.trim() === '*';
      else {
        const tags = parseInm(inm);
        match = tags.includes('*') || tags.includes(opaque.slice(1, -1));
      }
      if (match) {
        res.removeHeader('Content-Type');
        if (F('304-without-etag')) res.removeHeader('ETag');
        if (F('no-ratelimit-headers-on-304')) { res.removeHeader('X-RateLimit-Limit'); res.removeHeader('X-RateLimit-Remaining'); res.removeHeader('X-RateLimit-Reset'); }
        res.writeHead(304);
        res.end();
        return;
      }
    }
  }

  let buf = F('response-latin1-encoded') ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
  let contentLength = buf.length;
  if (F('content-length-counts-chars')) contentLength = text.length;
  if (cacheable && !L('no-compression') && buf.length >= 1024 && acceptsGzip(req.headers['accept-encoding'])) {
    const gz = zlib.gzipSync(buf);
    res.setHeader('Content-Encoding', 'gzip');
    contentLength = F('gzip-content-length-uncompressed') ? buf.length : gz.length;
    buf = gz;
  }
  if (isHead && F('head-content-length-zero')) contentLength = 0;
  if (status !== 204) res.setHeader('Content-Length', String(contentLength)); // RFC 9110 8.6: none on 204
  res.writeHead(status);
  if (isHead) res.end();
  else res.end(buf);
}

function errorBody(status, code, message) {
  return { code: L('upper-case-error-codes') ? code.toUpperCase() : code, message, status };
}
function sendError(ctx, status, code, message, opts = {}) {
  send(ctx, status, errorBody(status, code, message), opts);
}

// ---------------------------------------------------------------------------------------------
// Gateway
// ---------------------------------------------------------------------------------------------
const MAX_BODY = 64 * 1024;
const AUTH_ROUTES = /^\/v1\/(pets|pets\/[^/]+|store\/orders)$/; // used by trailing-slash-skips-auth

function parseAuthorization(h) {
  if (h === undefined) return { missing: true };
  if (F('auth-scheme-ignored')) {
    const parts = h.trim().split(/\s+/);
    return { token: parts[parts.length - 1] };
  }
  const m = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +([A-Za-z0-9\-._~+/]+=*) *$/.exec(h);
  if (!m || m[1].toLowerCase() !== 'bearer') return { token: null };
  return { token: m[2] };
}

function lookupKey(token) {
  if (token == null) return null;
  const t = F('key-case-insensitive') ? token.toLowerCase() : token;
  return Object.hasOwn(KEYS, t) ? t : null;
}

function send401(ctx, missing) {
  const headers = {};
  if (!G('no-www-authenticate')) headers['WWW-Authenticate'] = missing ? 'Bearer realm="pets"' : 'Bearer realm="pets", error="invalid_token"';
  if (missing && F('missing-key-401-plain-text')) {
    const { res } = ctx;
    setRateHeaders(ctx, res);
    setCors(ctx, res);
    const b = Buffer.from('401 Authorization Required\n');
    res.writeHead(401, { ...headers, 'Content-Type': 'text/plain', 'Content-Length': b.length, 'Cache-Control': 'no-store' });
    res.end(b);
    return;
  }
  sendError(ctx, 401, missing ? 'missing_api_key' : 'invalid_api_key',
    missing ? 'An API key is required: send it as "Authorization: Bearer <API_KEY>".' : 'The API key is missing or invalid.',
    { headers, noRateHeaders: !missing && F('invalid-key-401-no-ratelimit-headers') });
}

function preflight(ctx) {
  const { req, res } = ctx;
  const allow = ctx.path === '/v1/pets' ? 'GET, HEAD, POST, OPTIONS' : 'GET, HEAD, OPTIONS';
  res.setHeader('Allow', allow);
  if (req.headers.origin) {
    res.setHeader('Access-Control-Allow-Methods', allow);
    res.setHeader('Access-Control-Allow-Headers', F('preflight-allow-headers-wildcard') ? '*' : 'Authorization, Content-Type, If-None-Match');
    res.setHeader('Access-Control-Max-Age', '600');
  }
  send(ctx, 204, undefined);
}

function readBody(req, limit) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0, over = false;
    req.on('data', (c) => { size += c.length; if (size > limit) over = true; else if (!over) chunks.push(c); });
    req.on('end', () => resolve(over ? { tooLarge: true } : { buf: Buffer.concat(chunks) }));
    req.on('error', () => resolve({ aborted: true }));
  });
}

function sendTooLarge(ctx) {
  ctx.res.setHeader('Connection', 'close');
  if (F('payload-too-large-html')) {
    const { res } = ctx;
    setRateHeaders(ctx, res);
    setCors(ctx, res);
    const b = Buffer.from('<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n');
    res.writeHead(413, { 'Content-Type': 'text/html', 'Content-Length': b.length, 'Cache-Control': 'no-store' });
    res.end(b);
    return;
  }
  sendError(ctx, 413, 'payload_too_large', `The request body exceeds ${MAX_BODY} bytes.`);
}

async function gateway(req, res) {
  const now = Date.now();
  let url;
  try { url = new URL(req.url, 'http://localhost'); } catch { url = new URL('http://localhost/'); }
  const ctx = { req, res, url, path: url.pathname, key: null, plan: null };

  if (req.method === 'OPTIONS' && !F('preflight-requires-auth')) return preflight(ctx);

  if (!(ctx.path === '/v1' || ctx.path.startsWith('/v1/'))) {
    return sendError(ctx, 404, 'not_found', `No resource at ${ctx.path}. The API is served under /v1.`);
  }

  // Legacy router mounted ahead of the gateway (fault store-orders-outside-gateway).
  if (F('store-orders-outside-gateway') && ctx.path === '/v1/store/orders') return app(ctx);

  const needsAuth = F('trailing-slash-skips-auth') ? AUTH_ROUTES.test(ctx.path) : true;
  if (needsAuth) {
    const auth = parseAuthorization(req.headers.authorization);
    if (auth.missing) return send401(ctx, true);
    const key = lookupKey(auth.token);
    if (!key) return send401(ctx, false);
    ctx.key = key;
    ctx.plan = PLAN_ROWS[KEYS[key].tier];
  }
  if (req.method === 'OPTIONS') return preflight(ctx); // only reached with preflight-requires-auth

  // (fault post-429-no-retry-after: POSTs are left to the app's own write limiter)
  if (ctx.plan && !(F('post-429-no-retry-after') && req.method === 'POST')) {
    const r = limiter.consume(ctx.key, ctx.plan, now);
    if (!r.ok) return send429(ctx, r, now);
    ctx.counted = true;
    const v = limiter.view(ctx.key, ctx.plan, now);
    ctx.rateBefore = { limit: v.limit, remaining: v.remaining + 1, reset: v.reset };
  }

  if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
    const cl = Number(req.headers['content-length']);
    if (Number.isFinite(cl) && cl > MAX_BODY) return sendTooLarge(ctx);
    const b = await readBody(req, MAX_BODY);
    if (b.aborted) return;
    if (b.tooLarge) return sendTooLarge(ctx);
    ctx.body = b.buf;
  }
  return app(ctx);
}

function send429(ctx, r, now) {
  let retry = Math.max(1, Math.ceil((r.reset * 1000 - now) / 1000));
  let retryAfter = L('retry-after-http-date') ? new Date(now + retry * 1000).toUTCString() : String(retry);
  if (F('retry-after-milliseconds')) retryAfter = String(Math.max(1, r.reset * 1000 - now));
  let view = { limit: r.limit, remaining: 0, reset: r.reset };
  if (F('429-ratelimit-headers-from-day-window')) {
    const { d } = limiter.windows(ctx.key, ctx.plan, now);
    view = { limit: d.limit, remaining: d.remaining, reset: d.reset };
  }
  if (F('reset-http-date-on-429')) view = { ...view, reset: new Date(r.reset * 1000).toUTCString() };
  const status = F('429-error-status-400') ? 400 : 429;
  const code = r.banned ? 'api_key_temporarily_banned' : 'rate_limited';
  const msg = r.banned
    ? 'Too many requests after a 429: this API key is temporarily banned. Retry after the time given in Retry-After.'
    : `Rate limit exceeded (${r.limit} requests per ${r.window === 'day' ? 'day' : 'minute'}). Retry after the time given in Retry-After.`;
  send(ctx, 429, { code: L('upper-case-error-codes') ? code.toUpperCase() : code, message: msg, status }, { headers: { 'Retry-After': retryAfter }, rateView: view });
}

// ---------------------------------------------------------------------------------------------
// App: routing, validation, handlers
// ---------------------------------------------------------------------------------------------
function app(ctx) {
  try {
    return route(ctx);
  } catch (e) {
    console.error(e);
    if (!ctx.res.headersSent) sendError(ctx, 500, 'internal_error', 'An unexpected error occurred.');
  }
}

function unrouted404(ctx, message) {
  if (F('no-ratelimit-headers-on-unrouted-404')) {
    const { res } = ctx;
    setCors(ctx, res);
    const b = Buffer.from(toJson(errorBody(404, 'not_found', message)));
    res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': b.length, 'Cache-Control': 'no-store' });
    res.end(b);
    return;
  }
  sendError(ctx, 404, 'not_found', message);
}

function methodNotAllowed(ctx, allow) {
  sendError(ctx, 405, 'method_not_allowed', `Method ${ctx.req.method} is not allowed here; allowed: ${allow}.`,
    { headers: F('405-without-allow') ? {} : { Allow: allow } });
}

function route(ctx) {
  let p = ctx.path;
  if (F('trailing-slash-skips-auth') && p.length > 1 && p.endsWith('/')) p = p.replace(/\/+$/, '');
  const m = ctx.req.method;
  const isGet = m === 'GET' || m === 'HEAD';
  if (p === '/v1/pets') {
    if (isGet) return listPets(ctx);
    if (m === 'POST') return createPet(ctx);
    return methodNotAllowed(ctx, 'GET, HEAD, POST, OPTIONS');
  }
  if (p === '/v1/store/orders') {
    if (isGet) return send(ctx, 200, L('store-orders-empty') ? [] : STORE_ORDERS, { cacheable: true });
    return methodNotAllowed(ctx, 'GET, HEAD, OPTIONS');
  }
  const pm = /^\/v1\/pets\/([^/]+)$/.exec(p);
  if (pm) {
    if (!isGet) return methodNotAllowed(ctx, 'GET, HEAD, OPTIONS');
    return getPet(ctx, pm[1]);
  }
  return unrouted404(ctx, `No resource at ${ctx.path}.`);
}

function badQuery(ctx, name, message) {
  if (F('query-validation-error-shape')) {
    return send(ctx, 400, { errors: [{ in: 'query', name, message }] });
  }
  return sendError(ctx, 400, 'invalid_query_parameter', message);
}

function single(ctx, params, name) {
  const all = params.getAll(name);
  if (all.length === 0) return { value: undefined };
  if (all.length > 1 && !L('limit-repeated-last-wins')) return { error: `Query parameter "${name}" must be given at most once.` };
  return { value: all[all.length - 1] };
}

function listPets(ctx) {
  const q = ctx.url.searchParams;
  let limit = 20;
  const lq = single(ctx, q, 'limit');
  if (lq.error) return badQuery(ctx, 'limit', lq.error);
  if (lq.value !== undefined) {
    const s = lq.value;
    const msg = `Query parameter "limit" must be an integer from 1 to 100 (got ${JSON.stringify(s)}).`;
    if (F('limit-compared-as-string')) {
      if (!/^[0-9]+$/.test(s) || s < '1' || s > '100') return badQuery(ctx, 'limit', msg);
      limit = Number(s);
    } else {
      if (!/^[0-9]{1,10}$/.test(s)) return badQuery(ctx, 'limit', msg);
      limit = Number(s);
      if (G('limit-clamped') && limit > 100) limit = 100;
      if (limit < 1 || limit > 100) return badQuery(ctx, 'limit', msg);
    }
  }
  const sq = single(ctx, q, 'status');
  if (sq.error) return badQuery(ctx, 'status', sq.error);
  let status = sq.value;
  if (status !== undefined && !STATUSES.includes(status)) {
    return badQuery(ctx, 'status', `Query parameter "status" must be one of ${STATUSES.join(', ')} (got ${JSON.stringify(status)}).`);
  }
  let after;
  if (!L('no-link-pagination')) {
    const aq = single(ctx, q, 'after');
    if (aq.error) return badQuery(ctx, 'after', aq.error);
    if (aq.value !== undefined) {
      if (!/^-?[0-9]{1,19}$/.test(aq.value) || BigInt(aq.value) > INT64_MAX || BigInt(aq.value) < INT64_MIN) {
        return badQuery(ctx, 'after', 'Query parameter "after" must be a pet id (the cursor given in the Link header).');
      }
      after = BigInt(aq.value);
    }
  }
  const filterStatus = F('pending-filter-ignored') && status === 'pending' ? undefined : status;
  const effLimit = F('status-filter-skips-default-limit') && status !== undefined && lq.value === undefined ? Infinity : limit;
  const { page, more } = repo.list({ status: filterStatus, after, limit: effLimit, desc: L('order-newest-first') });
  const headers = {};
  if (more && !L('no-link-pagination') && page.length) {
    const np = new URLSearchParams();
    np.set('limit', String(limit));
    if (status !== undefined && !F('next-link-drops-status')) np.set('status', status);
    np.set('after', page[page.length - 1].id.toString());
    headers.Link = `</v1/pets?${np}>; rel="next"`;
  }
  const opts = { headers, cacheable: true };
  if (F('list-etag-ignores-content')) opts.etagSeed = `${ctx.url.search}|v${SEED_VERSION}`;
  return send(ctx, 200, page.map(present), opts);
}

function present(row) {
  const o = { id: row.id, name: row.name, categoryId: row.categoryId };
  if (row.status !== undefined) o.status = row.status;
  if (L('extra-pet-fields')) o.createdAt = row.createdAt;
  return o;
}

function getPet(ctx, raw) {
  const headers = L('no-deprecation-headers') ? {} : { Deprecation: DEPRECATION, Sunset: SUNSET, Link: '</v1/pets>; rel="successor-version"' };
  let id = null;
  if (G('petid-parseint')) {
    const n = parseInt(raw, 10);
    if (Number.isSafeInteger(n)) id = BigInt(n);
  } else if (/^[0-9]{1,19}$/.test(raw) && BigInt(raw) <= INT64_MAX) id = BigInt(raw);
  else if (/^-[0-9]{1,19}$/.test(raw) && BigInt(raw) >= INT64_MIN) id = BigInt(raw);
  if (id === null) {
    for (const [k, v] of Object.entries(headers)) ctx.res.setHeader(k, v);
    return unrouted404(ctx, `No animal with id ${JSON.stringify(raw)}: petId must be an int64.`);
  }
  const row = repo.get(id);
  if (!row) {
    if (F('ratelimit-headers-repeated-on-404') && ctx.rateBefore) {
      setRateHeaders(ctx, ctx.res);
      for (const h of ['Limit', 'Remaining', 'Reset']) {
        const name = 'X-RateLimit-' + h;
        headers[name] = [String(ctx.res.getHeader(name)), String(ctx.rateBefore[h.toLowerCase()])];
      }
      return send(ctx, 404, errorBody(404, 'pet_not_found', `No animal with id ${id}.`), { headers, noRateHeaders: true });
    }
    return sendError(ctx, 404, 'pet_not_found', F('404-message-null') ? null : `No animal with id ${id}.`, { headers });
  }
  return send(ctx, 200, present(row), { headers, cacheable: true });
}

function bad(ctx, code, message) { return sendError(ctx, 400, code, message); }

function createPet(ctx) {
  // Rate limiting of writes inside the app (faults post-counted-twice / post-429-no-retry-after).
  if ((F('post-counted-twice') || F('post-429-no-retry-after')) && ctx.plan) {
    const now = Date.now();
    if (F('post-counted-twice')) {
      const r = limiter.consume(ctx.key, ctx.plan, now);
      if (!r.ok) return send429(ctx, r, now);
    } else {
      const r = limiter.consume(ctx.key, ctx.plan, now);
      if (!r.ok) return sendError(ctx, 429, 'rate_limited', 'Write rate limit exceeded.', { rateView: { limit: r.limit, remaining: 0, reset: r.reset } });
    }
  }
  const ctHeader = ctx.req.headers['content-type'];
  if (ctHeader !== undefined) {
    let ok;
    if (F('json-charset-param-415')) ok = ctHeader.trim().toLowerCase() === 'application/json';
    else {
      const [type, ...params] = ctHeader.split(';').map((s) => s.trim());
      const t = type.toLowerCase();
      ok = t === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(t);
      for (const prm of params) {
        const mm = /^charset\s*=\s*"?([^"]*)"?$/i.exec(prm);
        if (mm && !/^utf-?8$/i.test(mm[1])) ok = false;
      }
    }
    if (!ok) {
      if (L('wrong-content-type-400')) return bad(ctx, 'invalid_body', 'The request body must be application/json.');
      return sendError(ctx, 415, 'unsupported_media_type', 'The request body must be application/json.');
    }
  }
  const buf = ctx.body || Buffer.alloc(0);
  if (buf.length === 0) return bad(ctx, 'missing_body', 'A JSON body with "name" and "categoryId" is required.');
  let text;
  if (F('body-decoded-latin1')) text = buf.toString('latin1');
  else {
    try { text = new TextDecoder('utf-8', { fatal: true }).decode(buf); } catch {
      return bad(ctx, 'invalid_json', 'The request body is not valid UTF-8.');
    }
  }
  let body;
  try { body = parseJson(text); } catch (e) {
    if (F('malformed-json-framework-error')) {
      return send(ctx, 400, { statusCode: 400, error: 'Bad Request', message: `Unexpected token in JSON: ${e.message}` });
    }
    return bad(ctx, 'invalid_json', `The request body is not valid JSON: ${e.message}.`);
  }
  if (F('null-body-500') && body === null) {
    body.name; // eslint-disable-line no-unused-expressions -- TypeError: Cannot read properties of null
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof JNum) {
    return bad(ctx, 'invalid_body', 'The request body must be a JSON object (NewPet).');
  }
  if (G('unknown-fields-rejected')) {
    const extra = Object.keys(body).filter((k) => !['name', 'categoryId', 'status'].includes(k));
    if (extra.length) return bad(ctx, 'unknown_field', `Unknown field(s): ${extra.join(', ')}.`);
  }
  const errors = [];
  const { name } = body;
  if (name === undefined) errors.push('"name" is required');
  else if (typeof name !== 'string') errors.push('"name" must be a string');
  else if (name.trim() === '' && !L('empty-name-accepted')) errors.push('"name" must not be blank');

  let categoryId;
  if (body.categoryId === undefined) errors.push('"categoryId" is required');
  else {
    categoryId = jnumToBigInt(body.categoryId);
    if (categoryId === null) errors.push('"categoryId" must be an integer');
    else if (F('category-precision-loss')) categoryId = BigInt(Number(body.categoryId.raw));
    else if ((categoryId > INT64_MAX || categoryId < INT64_MIN) && !F('category-int64-overflow-accepted')) errors.push('"categoryId" must be an int64');
  }
  let status = body.status;
  let deferredStatusError = null;
  if (status !== undefined) {
    if (F('status-null-accepted') && status === null) { /* let it through */ }
    else if (typeof status !== 'string' || !STATUSES.includes(status)) {
      const msg = `"status" must be one of ${STATUSES.join(', ')}`;
      if (F('invalid-status-persisted-on-400') && errors.length === 0) deferredStatusError = msg;
      else errors.push(msg);
    }
  }
  if (errors.length) return bad(ctx, 'validation_failed', `Invalid pet: ${errors.join('; ')}.`);
  if (status === undefined && L('default-status-available')) status = 'available';
  if (F('negative-category-as-unsigned') && categoryId < 0n) categoryId = BigInt.asUintN(64, categoryId);
  const row = repo.insert({ name, categoryId, status, createdAt: new Date().toISOString() });
  if (deferredStatusError) return bad(ctx, 'validation_failed', `Invalid pet: ${deferredStatusError}.`);
  const echo = present(row);
  if (F('status-not-persisted') && status !== undefined) echo.status = status;
  if (F('status-null-accepted') && status === null) echo.status = null;
  const opts = { headers: { Location: `/v1/pets/${row.id}` } };
  if (F('post-remaining-stale') && ctx.rateBefore) opts.rateView = ctx.rateBefore;
  return send(ctx, 201, echo, opts);
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------
const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
const server = isMain && http.createServer((req, res) => {
  gateway(req, res).catch((e) => {
    console.error(e);
    if (!res.headersSent) sendError({ req, res, key: null, plan: null }, 500, 'internal_error', 'An unexpected error occurred.');
  });
});
// Malformed HTTP: answer 400 with an Error body and the (anonymous) rate-limit headers.
if (isMain) server.on('clientError', (err, socket) => {
  if (!socket.writable || err.code === 'ECONNRESET') { socket.destroy(); return; }
  const b = Buffer.from(toJson(errorBody(400, 'bad_request', 'Malformed HTTP request.')));
  const reset = (floorTo(Date.now(), MIN) + MIN) / 1000;
  socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${b.length}\r\n` +
    `X-RateLimit-Limit: ${ANON.perMinute}\r\nX-RateLimit-Remaining: ${ANON.perMinute}\r\nX-RateLimit-Reset: ${reset}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n` + b);
});
const PORT = Number(process.env.PORT || 5400);
if (isMain) server.listen(PORT, '127.0.0.1', () => {
  const variant = mode.FAULT ? ` FAULT=${mode.FAULT}` : mode.LEGAL ? ` LEGAL=${mode.LEGAL}` : mode.GRAY ? ` GRAY=${mode.GRAY}` : '';
  console.log(`deployment-d listening on http://127.0.0.1:${PORT}/v1${variant}`);
});
