// deployment-c.mjs - an independent implementation of the Pet Adoption contract
// (seeds/000_c08143d955460f48.txt), with named regressions (FAULT), legal variants (LEGAL) and arguable
// ones (GRAY). Node 20, built-ins only.
//
//   PORT=5400 node deployment-c.mjs            clean: keeps the contract
//   PORT=5400 FAULT=<name> node deployment-c.mjs
//   PORT=5400 LEGAL=<name> node deployment-c.mjs
//   PORT=5400 GRAY=<name>  node deployment-c.mjs
//
// Choices made where the contract is silent (clean server):
// - ids: a bijective scramble of a sequence number into [1e12, 1e12 + 2^40), below 2^53, not monotonic;
// - list order: newest first; pagination: opaque `cursor` query parameter, next page announced in a
//   `Link: <...>; rel="next"` header (RFC 8288); no pagination data in the body (it stays a bare array);
// - status omitted on creation: the pet has no status (the field is absent); unknown body fields are ignored;
// - categoryId: any integer within int64 (JSON Schema sense: 7.0 and 7e0 are integers), negative included;
// - name: any JSON string (empty included); request body at most 64 KiB (413 above);
// - request Content-Type must be application/json (parameters allowed), otherwise 415;
// - bad `limit`/`status`/`cursor` or a repeated one: 400 with an Error body; unknown query parameters ignored;
// - getPet with a petId that is no int64 (or no such pet): 404;
// - rate limits: per key, a 60 s window anchored at the key's first request after the previous window ended,
//   plus a UTC-calendar-day window; the headers describe whichever window has fewer requests left;
//   every request made with a valid key counts (401s count on a per-address anonymous meter at the Free
//   plan's figures that is reported but never enforced); rejected (429) requests do not count;
//   Enterprise ("custom"): 5,000 per minute, 2,000,000 per day;
// - error codes: dotted lower-case strings of our own (auth.missing_credentials, pet.not_found, ...);
// - ETags (strong, per content coding), If-None-Match -> 304, gzip above 600 bytes, CORS with `*`,
//   Deprecation (RFC 9745) and Sunset (RFC 8594) headers on getPet, Location on 201.
import http from 'node:http';
import crypto from 'node:crypto';
import zlib from 'node:zlib';

// ---------------------------------------------------------------------------------------------------------
// FAULTS: each a regression someone could ship; each breaks one contract sentence or one RFC MUST.
const FAULTS = {
  // -- operations' success shapes --
  // A product manager asked that "pending" only be set by the adoption workflow; a dev normalised it in
  // the create handler. Breaks "201 Pet (the created animal ...)": status pending comes back available.
  'pending-reset-on-create': 1,
  // The v2 envelope ({items}) was prototyped on the filtered query path and leaked into v1.
  // Breaks "Pets: a JSON array of Pet objects. It is the body returned by the list operation" (with ?status).
  'filtered-list-enveloped': 1,
  // The read model moved to Postgres int8; node-postgres returns int8 above 2^31-1 as strings and nobody
  // parsed them. Breaks Pet.categoryId "integer int64" on GET /pets and GET /pets/{id} for big categories.
  'int8-category-as-string': 1,
  // The list serializer was "simplified" to JSON.stringify over Number(categoryId).
  // Breaks Pet.categoryId int64: values above 2^53 come back rounded in the list only.
  'list-category-double': 1,
  // Ids for new pets switched to snowflakes (> 2^53) but the serializer still goes through Number.
  // Breaks "id: unique identifier assigned ... on creation": the id returned cannot be fetched back.
  'snowflake-ids-rounded': 1,
  // -- validation --
  // `BigInt(body.categoryId ?? 0)` after a presence check that only looked for undefined.
  // Breaks "400 ... invalid values" / categoryId integer: {"categoryId": null} is accepted as 0.
  'category-null-accepted': 1,
  // Validation written as `if (body.status && !STATUSES.includes(body.status))`: '' is falsy.
  // Breaks PetStatus enum: status "" is accepted and stored (and echoed).
  'status-empty-string-accepted': 1,
  // Name check written as `if (!body.name || !body.name.length)`; arrays have a length too.
  // Breaks NewPet.name "string": ["Rex"] is accepted.
  'name-array-accepted': 1,
  // The range check was written as Number.isSafeInteger(Number(v)) "to avoid bigint headaches".
  // Breaks categoryId "int64": 9223372036854775807 (a valid int64) is rejected with 400.
  'category-safe-int-only': 1,
  // The int64 range check only tests the upper bound.
  // Breaks "400 ... invalid values": categoryId -9223372036854775809 (below int64) is accepted.
  'category-no-lower-bound': 1,
  // `const limit = Number(q.limit) || 20`. Breaks limit "Minimum 1": limit=0 gives a 20-item page.
  'limit-zero-default': 1,
  // The filtered query got its own code path that validates status but forgot limit's range.
  // Breaks limit "maximum 100": ?status=available&limit=150 is served (more than 100 may come back).
  'limit-unchecked-with-status': 1,
  // A strict `content-type === 'application/json'` check. Breaks "the request body is application/json"
  // (RFC 9110 8.3 media type with parameters): `application/json; charset=utf-8` gets 415.
  'ct-with-charset-415': 1,
  // A streaming JSON parser that stops after the first complete value. Breaks "400 ... invalid values"
  // (a body that is not JSON): `{"name":"a","categoryId":1} trailing` is accepted.
  'json-trailing-garbage-accepted': 1,
  // A debug log line `${body.name.trim()} -> ${body.status}` inside the status branch.
  // Breaks "400 The body is missing required fields": {categoryId, status} without name gives 500.
  'missing-name-500-with-status': 1,
  // -- error bodies --
  // The 415 path reuses the 400 error factory. Breaks "status equal to the HTTP status code" on 415.
  'unsupported-media-status-mismatch': 1,
  // The rate limiter library writes its own body {message, status}.
  // Breaks "Error responses carry an Error body (code, message, status)" on 429.
  '429-body-no-code': 1,
  // A validation library's aggregate error is passed through when several fields are wrong.
  // Breaks the Error body shape on 400 when two or more fields are invalid.
  'multi-error-body-shape': 1,
  // The query validator puts the HTTP status in `code`. Breaks Error.code "string" on list 400s.
  'query-error-code-number': 1,
  // The query validator's 400 uses res.send(JSON.stringify(...)) with a text/plain default.
  // Breaks "All ... response bodies are JSON (application/json)" on list 400s.
  'query-400-text-plain': 1,
  // -- authentication --
  // `const [scheme, key] = header.toLowerCase().split(' ')` to make the scheme case-insensitive.
  // Breaks "invalid key -> 401": DEMO-PRO is accepted.
  'key-case-folded': 1,
  // `header.split(' ')[1].trim()` throws when there is no token. Breaks "missing key -> 401":
  // `Authorization: Bearer` gives 500.
  'bearer-without-token-500': 1,
  // The store-orders router was mounted before the auth middleware.
  // Breaks "All endpoints ... require authentication": GET /store/orders answers 200 without a key.
  'store-orders-unauthenticated': 1,
  // Legacy clients' X-API-Key header was kept as a fallback. Breaks Authentication 2/3: without an
  // Authorization header the key is missing, yet X-API-Key: demo-pro is served.
  'x-api-key-fallback': 1,
  // -- rate limiting --
  // The Reset header is computed from the key's first window (stored once), not the current one.
  // Breaks "X-RateLimit-Reset: Unix timestamp at which the limit resets": after the first minute it is past.
  'reset-stuck-in-past': 1,
  // The deprecated route was mounted before the limiter, which only decorates headers afterwards.
  // Breaks "X-RateLimit-Remaining: requests remaining" / rate limits on all operations: getPet not counted.
  'getpet-not-counted': 1,
  // `if (count >= limit - 1) reject` after a refactor from pre- to post-increment.
  // Breaks "Pro: 300 requests per minute": the 300th request is refused although Remaining said 1.
  'off-by-one-429-early': 1,
  // Limiter state was cached on the socket "to avoid map lookups". Breaks "Requests remaining in the
  // current window" (per key, per plan): every new connection starts with a full budget.
  'limit-state-per-connection': 1,
  // The 429 handler formats the reset time with toISOString().
  // Breaks "X-RateLimit-Reset: Unix timestamp" on 429 responses only.
  'reset-iso-on-429': 1,
  // The headers are set in the body-writing helper, which HEAD skips.
  // Breaks "Every API response carries these headers" on HEAD.
  'head-drops-ratelimit-headers': 1,
  // Retry-After = (ms left / 1000).toFixed(3). Breaks RFC 9110 10.2.3 (delay-seconds = 1*DIGIT) on 429.
  'retry-after-decimal': 1,
  // Someone introduced weighted costs (limit/20 units per list call).
  // Breaks "Requests per minute" / "Requests remaining": GET /pets?limit=100 consumes 5.
  'weighted-list-cost': 1,
  // Remaining is read before the counter is created for a fresh window.
  // Breaks "X-RateLimit-Remaining": the first request of each window reports the full limit.
  'fresh-window-remaining-full': 1,
  // -- pagination and filtering --
  // The cursor query uses `OFFSET idx + 1` on top of "after the cursor". Breaks "Returns a paginated list
  // of animals": the first animal of every following page is never returned.
  'next-page-skips-one': 1,
  // The cursor branch builds its own query object and forgets limit.
  // Breaks limit "Maximum number of animals returned": pages after the first hold 20.
  'limit-dropped-on-cursor': 1,
  // The status filter reads an index built at start-up and never updated.
  // Breaks "status: Returns only animals with this status" (persistence): created pets never match it.
  'status-index-stale': 1,
  // -- persistence --
  // The repository became async (copy, await audit log, write back): concurrent creates overwrite each
  // other. Breaks "201 Pet (the created animal)": some answered 201 are lost.
  'concurrent-create-lost': 1,
  // A sanitizer trims names in the repository layer; the response is built from the request.
  // Breaks "201 ... the created animal": " Rex " is answered but "Rex" is stored and read back.
  'name-trimmed-in-store': 1,
  // getPet moved to a read replica with ~3 s lag. Breaks "404 Requested animal not found" (the animal exists).
  'replica-lag-404': 1,
  // -- HTTP semantics --
  // HEAD is answered by a handler that sets Content-Length: 0. Breaks RFC 9110 8.6 (Content-Length in a
  // HEAD response MUST equal the GET content length).
  'head-content-length-zero': 1,
  // The item route was registered with router.get only. Breaks RFC 9110 9.1 (servers MUST support HEAD).
  'head-405-on-item': 1,
  // The Allow header is built from a shared list. Breaks RFC 9110 10.2.1/15.5.6 (Allow lists the methods the
  // resource supports): /pets/{id} announces POST, which then gets 405.
  'allow-lists-post-on-item': 1,
  // The collection's 405 helper forgot the header. Breaks RFC 9110 15.5.6 (405 MUST carry Allow).
  '405-no-allow': 1,
  // A hand-rolled writer sets Content-Length to the string length. Breaks RFC 9112 6.2/RFC 9110 8.6
  // (Content-Length = octets) when a body contains non-ASCII names.
  'content-length-chars': 1,
  // The list ETag is derived from the query string (a cache key). Breaks RFC 9110 13.1.2: 304 after a
  // create although the representation changed.
  'list-etag-ignores-creates': 1,
  // If-None-Match compared with ===. Breaks RFC 9110 13.1.2 (MUST use weak comparison): W/"x" misses.
  'inm-weak-not-matched': 1,
  // Accept-Encoding checked with /gzip/. Breaks RFC 9110 12.4.2/12.5.3 (q=0 means not acceptable).
  'gzip-ignores-qvalue': 1,
  // -- CORS (Fetch standard) --
  // The auth middleware runs before the CORS middleware. Breaks the CORS protocol (a preflight carries no
  // credentials; it MUST get an ok status): OPTIONS preflight gets 401.
  'preflight-requires-auth': 1,
  // Access-Control-Allow-Headers: * "allows everything". Breaks Fetch 3.2.3: `*` never covers
  // Authorization, so a browser cannot send the key.
  'preflight-wildcard-omits-authorization': 1,
  // -- versioning --
  // The Sunset header was filled from the OpenAPI x-sunset value. Breaks RFC 8594 (Sunset = HTTP-date).
  'sunset-iso-date': 1,
};
// LEGAL: each settles an open choice differently and keeps the contract.
const LEGALS = {
  'default-status-pending': 1,   // default status on creation is "not shown": pending
  'order-by-name': 1,            // list order is open: by name, then creation
  'int64-high-ids': 1,           // ids anywhere in int64: near 9.1e18 (beyond 2^53), serialized exactly
  'sequential-ids': 1,           // ids 1, 2, 3, ...
  'clock-minute-window': 1,      // window kind is open: fixed UTC clock minutes
  'sliding-log-window': 1,       // window kind is open: sliding 60 s log; Reset = when the oldest request leaves
  'retry-after-imf-date': 1,     // RFC 9110 10.2.3: Retry-After as an HTTP-date
  'name-max-100': 1,             // "maximum length of name: not shown": 100 code points, 400 above
  'ct-415-as-400': 1,            // a non-JSON body is "invalid": 400 instead of 415
  'no-gzip': 1,                  // content coding is optional
  'no-etag': 1,                  // validators are optional
  'weak-etags': 1,               // weak validators
  'no-cors': 1,                  // CORS not served at all
  'offset-pagination': 1,        // pagination beyond limit is "not shown": offset instead of cursor
  'store-orders-empty': 1,       // store orders' content is "not shown": an empty array
  'accept-406': 1,               // RFC 9110 12.5.1: 406 when Accept excludes application/json
  'ban-after-repeated-429': 1,   // Authentication 4: five requests refused in a window ban the key for 2 min
  'chunked-responses': 1,        // RFC 9112: chunked transfer coding instead of Content-Length
};
// GRAY: arguable either way.
const GRAYS = {
  'dup-auth-first-wins': 1,      // two Authorization fields: the first is used (clean: 401)
  'status-null-as-absent': 1,    // {"status": null} is taken as "no status" (clean: 400)
  'limit-float-truncated': 1,    // limit=2.5 is read as 2 (clean: 400)
  'unknown-status-empty-list': 1, // ?status=adopted gives 200 [] (clean: 400)
  'float-lexeme-rejected': 1,    // categoryId 7.0 is refused (clean: accepted as 7)
  'petid-non-numeric-400': 1,    // GET /pets/abc gives 400 (clean: 404)
  'unknown-fields-rejected': 1,  // NewPet with extra properties gives 400 (clean: ignored)
};
const pick = (env, table, kind) => {
  const v = process.env[env];
  if (v === undefined || v === '') return null;
  if (!table[v]) { console.error(`deployment-c: unknown ${kind} "${v}"`); process.exit(2); }
  return v;
};
const FAULT = pick('FAULT', FAULTS, 'FAULT'), LEGAL = pick('LEGAL', LEGALS, 'LEGAL'), GRAY = pick('GRAY', GRAYS, 'GRAY');
const F = (n) => FAULT === n, L = (n) => LEGAL === n, G = (n) => GRAY === n;

// ---------------------------------------------------------------------------------------------------------
// Plans and keys
const PLANS = {
  free: { min: 60, day: 1000 }, pro: { min: 300, day: 10000 },
  business: { min: 1000, day: 100000 }, enterprise: { min: 5000, day: 2000000 },
};
const KEYS = { 'demo-free': 'free', 'demo-pro': 'pro', 'demo-business': 'business', 'demo-enterprise': 'enterprise' };
const ANON = PLANS.free;
const STATUSES = ['available', 'pending', 'sold'];
const INT64_MIN = -(2n ** 63n), INT64_MAX = 2n ** 63n - 1n;
const BOOT = crypto.randomBytes(4).toString('hex');

// ---------------------------------------------------------------------------------------------------------
// Store
let seq = 0;
const SNOW_EPOCH = 1288834974657;
function newId(n) {
  if (L('sequential-ids')) return BigInt(n);
  const scrambled = (BigInt(n) * 2654435761n + 40503n) % (1n << 40n); // odd multiplier: a bijection mod 2^40
  return (L('int64-high-ids') ? 9_100_000_000_000_000_000n : 1_000_000_000_000n) + scrambled;
}
let pets = [];           // {seq, id: bigint, name, categoryId: bigint, status?, createdAt}
let byId = new Map();    // id string -> pet
function insert(p) { pets.push(p); byId.set(p.id.toString(), p); }
const SEED_NAMES = ['Biscuit', 'Luna', 'Pepper', 'Mochi', 'Señor Bigotes', 'Clementine', 'Otis', 'Juniper',
  'Waffles', 'Nala', 'Ziggy', 'Hazel', 'Tofu', 'Bramble', 'Saffron', 'Milo', 'Pickles', 'Odessa', 'Finch',
  'Dumpling', 'Maple', 'Kiwi', 'Gizmo', 'Thistle', 'Pretzel', 'Olive', 'Boots', 'Cinder', 'Noodle', 'Wren',
  'Basil', 'Marzipan', 'Sprocket', 'Fig', 'Tango', 'Lentil', 'Quincy', 'Sable', 'Poppy', 'Yuki'];
const SEED_STATUS = ['available', 'pending', 'available', 'sold', 'available', undefined, 'available', 'pending', 'available', 'available'];
const SEED_CATS = [1n, 2n, 3n, 5n, 8n, 13n];
const t0 = Date.now() - 86400000;
SEED_NAMES.forEach((name, i) => {
  const n = ++seq;
  const categoryId = i === 16 ? 3000000000n : i === 28 ? 4398046511104n : SEED_CATS[i % SEED_CATS.length];
  insert({ seq: n, id: newId(n), name, categoryId, status: SEED_STATUS[i % 10], createdAt: t0 + i * 1000 });
});
// FAULT status-index-stale: built once here, never updated.
const staleIndex = new Map(STATUSES.map((s) => [s, new Set(pets.filter((p) => p.status === s).map((p) => p.seq))]));
const ORDERS = [
  { id: 70001, petId: pets[3].id, quantity: 1, status: 'delivered', shipDate: '2025-03-14T10:00:00Z', complete: true },
  { id: 70002, petId: pets[13].id, quantity: 1, status: 'approved', shipDate: '2025-06-02T16:30:00Z', complete: false },
  { id: 70003, petId: pets[23].id, quantity: 1, status: 'placed', shipDate: '2025-09-21T08:15:00Z', complete: false },
];

// ---------------------------------------------------------------------------------------------------------
// JSON: our own parser keeps number lexemes (int64 needs more than doubles); our own serializer writes bigint.
class Num { constructor(raw) { this.raw = raw; } }
const RE_NUM = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const RE_STR = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
function parseJSON(s, allowTrailing = false) {
  let i = 0;
  const fail = () => { throw new SyntaxError(`unexpected input at offset ${i}`); };
  const ws = () => { while (i < s.length && (s[i] === ' ' || s[i] === '\t' || s[i] === '\n' || s[i] === '\r')) i++; };
  const str = () => { RE_STR.lastIndex = i; const m = RE_STR.exec(s); if (!m) fail(); i += m[0].length; return JSON.parse(m[0]); };
  const val = (depth) => {
    if (depth > 64) fail();
    ws();
    const c = s[i];
    if (c === '{') {
      i++; const o = Object.create(null); ws();
      if (s[i] === '}') { i++; return o; }
      for (;;) {
        ws(); if (s[i] !== '"') fail();
        const k = str(); ws(); if (s[i++] !== ':') fail();
        o[k] = val(depth + 1); ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === '}') { i++; return o; }
        fail();
      }
    }
    if (c === '[') {
      i++; const a = []; ws();
      if (s[i] === ']') { i++; return a; }
      for (;;) {
        a.push(val(depth + 1)); ws();
        if (s[i] === ',') { i++; continue; }
        if (s[i] === ']') { i++; return a; }
        fail();
      }
    }
    if (c === '"') return str();
    RE_NUM.lastIndex = i; const m = RE_NUM.exec(s);
    if (m) { i += m[0].length; return new Num(m[0]); }
    for (const [w, v] of [['true', true], ['false', false], ['null', null]]) if (s.startsWith(w, i)) { i += w.length; return v; }
    fail();
  };
  const v = val(0); ws();
  if (i !== s.length && !allowTrailing) fail();
  return v;
}
// The integer a number lexeme denotes, or null when it is not an integer.
function lexemeToInt(raw) {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  const frac = m[3] || '';
  let digits = (m[2] + frac).replace(/^0+(?=\d)/, ''), exp = (m[4] ? parseInt(m[4], 10) : 0) - frac.length;
  if (/^0+$/.test(digits)) return 0n;
  while (exp < 0 && digits.endsWith('0')) { digits = digits.slice(0, -1); exp++; }
  if (exp < 0) return null;
  const v = exp > 40 ? 10n ** 40n : BigInt(digits) * 10n ** BigInt(exp);
  return m[1] ? -v : v;
}
function ser(v) {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Num) return v.raw;
  if (Array.isArray(v)) return '[' + v.map(ser).join(',') + ']';
  if (v && typeof v === 'object') {
    return '{' + Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => JSON.stringify(k) + ':' + ser(x)).join(',') + '}';
  }
  return JSON.stringify(v);
}

// ---------------------------------------------------------------------------------------------------------
// Rate limiting
const meters = new Map();
function meter(id, plan, { enforce = true, cost = 1, count = true } = {}) {
  const now = Date.now();
  let b = meters.get(id);
  if (!b) meters.set(id, (b = { start: -Infinity, first: null, count: 0, log: [], day: '', dayCount: 0, refused: 0, banUntil: 0 }));
  let fresh = false;
  if (L('clock-minute-window')) {
    const s = now - (now % 60000);
    if (b.start !== s) { b.start = s; b.count = 0; b.refused = 0; fresh = true; }
  } else if (L('sliding-log-window')) {
    while (b.log.length && b.log[0] <= now - 60000) b.log.shift();
    b.count = b.log.length;
  } else if (now >= b.start + 60000) {
    b.start = now; b.count = 0; b.refused = 0; fresh = true; b.first ??= now;
  }
  const day = new Date(now).toISOString().slice(0, 10);
  if (b.day !== day) { b.day = day; b.dayCount = 0; }
  const midnight = Date.UTC(+day.slice(0, 4), +day.slice(5, 7) - 1, +day.slice(8, 10) + 1);
  if (L('ban-after-repeated-429') && now < b.banUntil) {
    return { ok: false, limit: plan.min, remaining: 0, reset: b.banUntil };
  }
  const cap = F('off-by-one-429-early') ? plan.min - 1 : plan.min;
  let ok = b.count + cost <= cap && b.dayCount + cost <= plan.day;
  if (!enforce) ok = true;
  if (ok && count) {
    b.count += cost; b.dayCount += cost;
    if (L('sliding-log-window')) for (let k = 0; k < cost; k++) b.log.push(now);
  }
  if (!ok) {
    b.refused++;
    if (L('ban-after-repeated-429') && b.refused >= 5) { b.banUntil = now + 120000; b.refused = 0; }
  }
  const minReset = L('sliding-log-window') ? (b.log[0] ?? now) + 60000 : b.start + 60000;
  const minRem = plan.min - b.count, dayRem = plan.day - b.dayCount;
  const useDay = dayRem < minRem;
  let remaining = Math.max(0, useDay ? dayRem : minRem);
  if (F('fresh-window-remaining-full') && fresh) remaining = plan.min;
  let reset = useDay ? midnight : minReset;
  if (!ok) reset = b.dayCount + cost > plan.day ? midnight : minReset;
  if (F('reset-stuck-in-past') && !useDay) reset = b.first + 60000;
  return { ok, limit: useDay ? plan.day : plan.min, remaining, reset };
}
function setRateHeaders(req, res, r) {
  if (F('head-drops-ratelimit-headers') && req.method === 'HEAD') return;
  res.setHeader('X-RateLimit-Limit', String(r.limit));
  res.setHeader('X-RateLimit-Remaining', String(r.remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil(r.reset / 1000)));
}

// ---------------------------------------------------------------------------------------------------------
// HTTP helpers
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Link, Location, ETag, Deprecation, Sunset';
function acceptsGzip(req) {
  const ae = req.headers['accept-encoding'];
  if (!ae) return false;
  if (F('gzip-ignores-qvalue')) return /gzip/i.test(ae);
  let q = null, star = null;
  for (const part of ae.split(',')) {
    const [coding, ...params] = part.trim().split(';').map((x) => x.trim());
    let qv = 1;
    for (const p of params) { const m = /^q=([0-9.]+)$/i.exec(p); if (m) qv = parseFloat(m[1]); }
    if (coding.toLowerCase() === 'gzip' || coding.toLowerCase() === 'x-gzip') q = Math.max(q ?? 0, qv);
    else if (coding === '*') star = qv;
  }
  return (q ?? star ?? 0) > 0;
}
function inmMatches(header, etag) {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (t) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => (F('inm-weak-not-matched') ? t.trim() === etag : opaque(t) === opaque(etag)));
}
function acceptsJson(req) {
  const a = req.headers.accept;
  if (!a) return true;
  return a.split(',').some((part) => {
    const [range, ...params] = part.trim().split(';').map((x) => x.trim().toLowerCase());
    const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)).find(Boolean);
    if (q && parseFloat(q[1]) === 0) return false;
    return range === '*/*' || range === 'application/*' || range === 'application/json';
  });
}
// Writes a JSON response (or an empty one when body === undefined).
function send(req, res, status, body, opt = {}) {
  const isRead = req.method === 'GET' || req.method === 'HEAD';
  res.statusCode = status;
  res.setHeader('Vary', 'Authorization, Accept-Encoding');
  res.setHeader('Cache-Control', status === 200 && isRead ? 'private, no-cache' : 'no-store');
  if (body === undefined) { res.end(); return; }
  const text = ser(body);
  res.setHeader('Content-Type', opt.textPlain ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8');
  let buf = Buffer.from(text, 'utf8'), gz = false;
  if (buf.length >= 600 && !L('no-gzip') && acceptsGzip(req)) {
    buf = zlib.gzipSync(buf); gz = true;
    res.setHeader('Content-Encoding', 'gzip');
  }
  if (status === 200 && isRead && !L('no-etag')) {
    const base = opt.etagBase ?? text;
    const h = crypto.createHash('sha256').update(base).digest('base64url').slice(0, 20);
    const etag = (L('weak-etags') ? 'W/' : '') + `"${h}${gz ? '-gz' : ''}"`;
    res.setHeader('ETag', etag);
    if (inmMatches(req.headers['if-none-match'], etag)) {
      res.statusCode = 304;
      res.removeHeader('Content-Type'); res.removeHeader('Content-Encoding');
      res.end();
      return;
    }
  }
  if (req.method === 'HEAD') {
    if (!L('chunked-responses')) res.setHeader('Content-Length', F('head-content-length-zero') ? 0 : buf.length);
    res.end();
    return;
  }
  if (L('chunked-responses')) { res.write(buf); res.end(); return; }
  res.setHeader('Content-Length', F('content-length-chars') && !gz ? text.length : buf.length);
  res.end(buf);
}
function fail(req, res, status, code, message, opt = {}) {
  const bodyStatus = F('unsupported-media-status-mismatch') && status === 415 ? 400 : status;
  send(req, res, status, { code, message, status: bodyStatus }, opt);
}

// ---------------------------------------------------------------------------------------------------------
// Routing
const ROUTES = [
  { name: 'pets', re: /^\/v1\/pets$/, methods: ['GET', 'HEAD', 'POST', 'OPTIONS'] },
  { name: 'pet', re: /^\/v1\/pets\/([^/]+)$/, methods: ['GET', 'HEAD', 'OPTIONS'] },
  { name: 'orders', re: /^\/v1\/store\/orders$/, methods: ['GET', 'HEAD', 'OPTIONS'] },
];
function allowOf(route) {
  if (F('allow-lists-post-on-item') && route.name === 'pet') return 'GET, HEAD, POST, OPTIONS';
  if (F('head-405-on-item') && route.name === 'pet') return 'GET, OPTIONS';
  return route.methods.join(', ');
}
// -> {key, plan} | {error: [code, message, wwwAuthenticateError]}
function authenticate(req) {
  const fields = [];
  for (let k = 0; k < req.rawHeaders.length; k += 2) if (req.rawHeaders[k].toLowerCase() === 'authorization') fields.push(req.rawHeaders[k + 1]);
  if (fields.length > 1 && !G('dup-auth-first-wins')) return { error: ['auth.ambiguous', 'Send exactly one Authorization header.', 'invalid_request'] };
  const h = (fields[0] ?? '').trim();
  if (!h) {
    const alt = req.headers['x-api-key'];
    if (F('x-api-key-fallback') && alt && KEYS[alt]) return { key: alt, plan: PLANS[KEYS[alt]] };
    return { error: ['auth.missing_credentials', 'An API key is required: Authorization: Bearer <API_KEY>.', null] };
  }
  if (F('bearer-without-token-500')) h.split(' ')[1].trim(); // the shipped line
  if (F('key-case-folded')) {
    const [scheme, key] = h.toLowerCase().split(/ +/);
    if (scheme === 'bearer' && KEYS[key]) return { key, plan: PLANS[KEYS[key]] };
  }
  const m = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/.exec(h);
  if (!m || m[1].toLowerCase() !== 'bearer') return { error: ['auth.unsupported_scheme', 'Use the Bearer authentication scheme.', null] };
  const token = m[2];
  if (!token) return { error: ['auth.missing_credentials', 'The Bearer credentials carry no API key.', 'invalid_request'] };
  if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token) || !KEYS[token]) return { error: ['auth.invalid_key', 'The API key is not valid.', 'invalid_token'] };
  return { key: token, plan: PLANS[KEYS[token]] };
}

const anonMeter = (req) => meter('anon:' + (req.socket.remoteAddress || ''), ANON, { enforce: false });
let socketSeq = 0;
const server = http.createServer((req, res) => {
  handle(req, res).catch((e) => {
    if (!res.headersSent) {
      if (!res.hasHeader('X-RateLimit-Limit')) setRateHeaders(req, res, anonMeter(req));
      try { fail(req, res, 500, 'server.internal', 'Internal server error.'); } catch { res.destroy(); }
    } else res.destroy();
  });
});
server.on('connection', (s) => { s.cid = ++socketSeq; });
// Unparseable requests get an Error body and the rate-limit headers too.
server.on('clientError', (err, socket) => {
  if (!socket.writable || err.code === 'ECONNRESET') { socket.destroy(); return; }
  const r = meter('anon:' + (socket.remoteAddress || ''), ANON, { enforce: false });
  const body = Buffer.from(ser({ code: 'http.bad_request', message: 'The request is not valid HTTP/1.1.', status: 400 }));
  socket.end(`HTTP/1.1 400 Bad Request\r\nDate: ${new Date().toUTCString()}\r\nContent-Type: application/json; charset=utf-8\r\n`
    + `Content-Length: ${body.length}\r\nX-RateLimit-Limit: ${r.limit}\r\nX-RateLimit-Remaining: ${r.remaining}\r\n`
    + `X-RateLimit-Reset: ${Math.ceil(r.reset / 1000)}\r\nConnection: close\r\n\r\n${body}`);
});

async function handle(req, res) {
  let url;
  try { url = new URL(req.url, 'http://localhost'); } catch { url = new URL('http://localhost/'); }
  const path = url.pathname;
  const origin = req.headers.origin;
  const cors = !L('no-cors'); // the CORS headers do not depend on Origin, so no Vary: Origin is needed
  if (cors) {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
  }
  let route = null, params = null;
  for (const r of ROUTES) { const m = r.re.exec(path); if (m) { route = r; params = m.slice(1); break; } }
  const anon = () => anonMeter(req);
  if (route?.name === 'pet') {
    res.setHeader('Deprecation', '@1704067200'); // deprecated since 2024-01-01 (RFC 9745)
    res.setHeader('Sunset', F('sunset-iso-date') ? '2030-12-05' : 'Thu, 05 Dec 2030 00:00:00 GMT');
    res.setHeader('Link', '</v1/pets>; rel="successor-version"');
  }
  if (!route) {
    if (!path.startsWith('/v1/') && path !== '/v1') {
      setRateHeaders(req, res, anon());
      return fail(req, res, 404, 'route.not_found', `No resource at ${path}.`);
    }
  }
  // OPTIONS (CORS preflight or not) needs no key: it is no operation of the interface.
  if (req.method === 'OPTIONS' && route && !F('preflight-requires-auth')) {
    setRateHeaders(req, res, anon());
    res.setHeader('Allow', allowOf(route));
    if (cors && origin !== undefined && req.headers['access-control-request-method']) {
      res.setHeader('Access-Control-Allow-Methods', allowOf(route));
      res.setHeader('Access-Control-Allow-Headers', F('preflight-wildcard-omits-authorization') ? '*' : 'Authorization, Content-Type, If-None-Match');
      res.setHeader('Access-Control-Max-Age', '600');
    }
    return send(req, res, 204);
  }
  const auth = authenticate(req);
  if (auth.error) {
    setRateHeaders(req, res, anon());
    if (F('store-orders-unauthenticated') && route?.name === 'orders' && req.method === 'GET') return send(req, res, 200, ORDERS);
    const [code, message, werr] = auth.error;
    res.setHeader('WWW-Authenticate', `Bearer realm="pet-adoption"${werr ? `, error="${werr}"` : ''}`);
    return fail(req, res, 401, code, message);
  }
  let list = null; // list query, validated before metering (weighted-list-cost needs the limit)
  if (route?.name === 'pets' && (req.method === 'GET' || req.method === 'HEAD')) list = parseListQuery(url);
  const bucket = F('limit-state-per-connection') ? `${auth.key}#${req.socket.cid}` : auth.key;
  const cost = F('weighted-list-cost') && list && !list.error ? Math.ceil(list.limit / 20) : 1;
  const r = meter(bucket, auth.plan, { cost, count: !(F('getpet-not-counted') && route?.name === 'pet') });
  setRateHeaders(req, res, r);
  if (!r.ok) {
    const secs = Math.max(1, Math.ceil((r.reset - Date.now()) / 1000));
    res.setHeader('Retry-After', F('retry-after-decimal') ? ((r.reset - Date.now()) / 1000).toFixed(3)
      : L('retry-after-imf-date') ? new Date(Math.ceil(r.reset / 1000) * 1000).toUTCString() : String(secs));
    if (F('reset-iso-on-429')) res.setHeader('X-RateLimit-Reset', new Date(r.reset).toISOString());
    const msg = `Rate limit exceeded (${r.limit} requests per window). Retry in ${secs} s.`;
    if (F('429-body-no-code')) return send(req, res, 429, { message: msg, status: 429 });
    return fail(req, res, 429, 'rate.exceeded', msg);
  }
  if (!route) return fail(req, res, 404, 'route.not_found', `No resource at ${path}.`);
  if (!route.methods.includes(req.method) || (F('head-405-on-item') && route.name === 'pet' && req.method === 'HEAD')) {
    if (!(F('405-no-allow') && route.name === 'pets')) res.setHeader('Allow', allowOf(route));
    return fail(req, res, 405, 'http.method_not_allowed', `${req.method} is not supported on ${path}.`);
  }
  if (req.method === 'OPTIONS') { res.setHeader('Allow', allowOf(route)); return send(req, res, 204); }
  if (L('accept-406') && !acceptsJson(req)) return fail(req, res, 406, 'http.not_acceptable', 'Responses are application/json.');
  if (route.name === 'pets' && req.method === 'POST') return createPet(req, res);
  if (route.name === 'pets') return listPets(req, res, list);
  if (route.name === 'pet') return getPet(req, res, params[0]);
  return send(req, res, 200, L('store-orders-empty') ? [] : ORDERS);
}

// ---------------------------------------------------------------------------------------------------------
// Operations
const bigOut = (v) => (F('int8-category-as-string') && v > 2147483647n ? v.toString() : v);
const idOut = (p) => (F('snowflake-ids-rounded') ? Number(p.id) : p.id);
const viewCreated = (p, name = p.name) => ({ id: idOut(p), name, categoryId: p.categoryId, status: p.status });
const viewRead = (p) => ({ id: idOut(p), name: p.name, categoryId: bigOut(p.categoryId), status: p.status });
const viewListed = (p) => ({ ...viewRead(p), categoryId: F('list-category-double') ? Number(p.categoryId) : bigOut(p.categoryId) });

function parseListQuery(url) {
  const q = url.searchParams;
  const bad = (code, message) => ({ error: [code, message] });
  for (const k of ['limit', 'status', L('offset-pagination') ? 'offset' : 'cursor']) if (q.getAll(k).length > 1) return bad('query.repeated', `Give ${k} at most once.`);
  let limit = 20;
  const status = q.get('status');
  if (status !== null && !STATUSES.includes(status) && !G('unknown-status-empty-list')) {
    return bad('query.status_invalid', 'status must be one of available, pending, sold.');
  }
  const rawLimit = q.get('limit');
  if (rawLimit !== null && !(F('limit-zero-default') && rawLimit === '0')) {
    if (G('limit-float-truncated') && /^\d+\.\d+$/.test(rawLimit)) limit = parseInt(rawLimit, 10);
    else if (!/^\d+$/.test(rawLimit)) return bad('query.limit_not_integer', 'limit must be an integer from 1 to 100.');
    else limit = parseInt(rawLimit, 10);
    if ((limit < 1 || limit > 100) && !(F('limit-unchecked-with-status') && status !== null)) {
      return bad('query.limit_out_of_range', 'limit must be an integer from 1 to 100.');
    }
  }
  let after = null, offset = 0;
  if (L('offset-pagination')) {
    const o = q.get('offset');
    if (o !== null) { if (!/^\d{1,9}$/.test(o)) return bad('query.offset_invalid', 'offset must be a non-negative integer.'); offset = +o; }
  } else if (q.get('cursor') !== null) {
    const m = /^c([0-9]+)$/.exec(Buffer.from(q.get('cursor'), 'base64url').toString('latin1'));
    if (!m) return bad('query.cursor_invalid', 'cursor is not one this service issued.');
    after = +m[1];
    if (F('limit-dropped-on-cursor')) limit = 20;
  }
  return { limit, status, after, offset };
}
function listPets(req, res, qry) {
  if (qry.error) {
    const [code, message] = qry.error;
    if (F('query-error-code-number')) return send(req, res, 400, { code: 400, message, status: 400 });
    return fail(req, res, 400, code, message, { textPlain: F('query-400-text-plain') });
  }
  const { limit, status } = qry;
  let items = pets.slice();
  if (L('order-by-name')) items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.seq - b.seq));
  else items.reverse(); // newest first
  if (status !== null) {
    items = F('status-index-stale') ? items.filter((p) => staleIndex.get(status)?.has(p.seq)) : items.filter((p) => p.status === status);
  }
  let start = qry.offset;
  if (qry.after !== null) {
    const idx = items.findIndex((p) => p.seq === qry.after);
    // the cursor's pet always exists (nothing is deleted); with another status it is not in `items`:
    // fall back to the position where it would be.
    start = idx >= 0 ? idx + 1 : items.findIndex((p) => (L('order-by-name') ? false : p.seq < qry.after));
    if (start < 0) start = items.length;
    if (F('next-page-skips-one') && idx >= 0) start += 1;
  }
  const page = items.slice(start, start + limit);
  if (start + limit < items.length && page.length) {
    const sp = new URLSearchParams();
    sp.set('limit', String(qry.limit));
    if (status !== null) sp.set('status', status);
    if (L('offset-pagination')) sp.set('offset', String(start + limit));
    else sp.set('cursor', Buffer.from('c' + page[page.length - 1].seq, 'latin1').toString('base64url'));
    res.setHeader('Link', `</v1/pets?${sp}>; rel="next"`);
  }
  const body = page.map(viewListed);
  const opt = F('list-etag-ignores-creates') ? { etagBase: BOOT + (new URL(req.url, 'http://x').search) } : {};
  return send(req, res, 200, F('filtered-list-enveloped') && status !== null ? { items: body } : body, opt);
}

function getPet(req, res, raw) {
  let id = null;
  try { id = decodeURIComponent(raw); } catch { /* keep null */ }
  if (G('petid-non-numeric-400') && !/^-?\d+$/.test(id ?? '')) return fail(req, res, 400, 'path.pet_id_invalid', 'petId must be an integer.');
  const notFound = () => fail(req, res, 404, 'pet.not_found', `No animal with id ${String(id).slice(0, 40)}.`);
  if (id === null || !/^-?\d{1,19}$/.test(id)) return notFound();
  const n = BigInt(id);
  if (n < INT64_MIN || n > INT64_MAX) return notFound();
  const p = byId.get(n.toString());
  if (!p) return notFound();
  if (F('replica-lag-404') && Date.now() - p.createdAt < 3000) return notFound();
  return send(req, res, 200, viewRead(p));
}

const debug = () => {}; // request logging is off
const MAX_BODY = 65536;
function readBody(req) {
  return new Promise((resolve) => {
    const chunks = []; let size = 0, over = false;
    req.on('data', (c) => { size += c.length; if (size > MAX_BODY) over = true; else chunks.push(c); });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', () => resolve(null));
  });
}
async function createPet(req, res) {
  const bad = (message, code = 'body.invalid') => fail(req, res, 400, code, message);
  if (+(req.headers['content-length'] ?? 0) > MAX_BODY) {
    res.setHeader('Connection', 'close');
    return fail(req, res, 413, 'body.too_large', `The body exceeds ${MAX_BODY} bytes.`);
  }
  const buf = await readBody(req);
  if (buf === null) return fail(req, res, 413, 'body.too_large', `The body exceeds ${MAX_BODY} bytes.`);
  if (buf.length === 0) return bad('A JSON body (NewPet) is required.', 'body.missing');
  const ct = req.headers['content-type'];
  const isJson = F('ct-with-charset-415') ? ct === 'application/json' : /^application\/json\s*(;|$)/i.test((ct ?? '').trim());
  if (!isJson) {
    if (L('ct-415-as-400')) return bad('The body must be application/json.', 'body.media_type');
    res.setHeader('Accept-Post', 'application/json');
    return fail(req, res, 415, 'body.unsupported_media_type', 'The body must be application/json.');
  }
  let body;
  try { body = parseJSON(new TextDecoder('utf-8', { fatal: true }).decode(buf), F('json-trailing-garbage-accepted')); } catch (e) {
    return bad(`The body is not valid JSON (${e.message}).`, 'body.malformed_json');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Num) return bad('The body must be a JSON object (NewPet).');
  const errors = [];
  // name
  const name = body.name;
  if (name === undefined) errors.push(['name', 'name is required.']);
  else if (typeof name !== 'string' && !(F('name-array-accepted') && Array.isArray(name) && name.length)) errors.push(['name', 'name must be a string.']);
  else if (L('name-max-100') && [...name].length > 100) errors.push(['name', 'name must be at most 100 characters.']);
  // categoryId
  let categoryId = null;
  const c = body.categoryId;
  if (c === undefined) errors.push(['categoryId', 'categoryId is required.']);
  else if (c === null && F('category-null-accepted')) categoryId = 0n;
  else if (!(c instanceof Num)) errors.push(['categoryId', 'categoryId must be an integer.']);
  else if (G('float-lexeme-rejected') && !/^-?\d+$/.test(c.raw)) errors.push(['categoryId', 'categoryId must be an integer.']);
  else {
    categoryId = lexemeToInt(c.raw);
    if (categoryId === null) errors.push(['categoryId', 'categoryId must be an integer.']);
    else if (F('category-safe-int-only') ? !Number.isSafeInteger(Number(categoryId))
      : categoryId > INT64_MAX || (categoryId < INT64_MIN && !F('category-no-lower-bound'))) {
      errors.push(['categoryId', 'categoryId must be within int64.']);
    }
  }
  // status
  let status = body.status;
  if (G('status-null-as-absent') && status === null) status = undefined;
  if (F('missing-name-500-with-status') && status !== undefined) debug(`${body.name.trim()} -> ${status}`);
  if (F('status-empty-string-accepted') ? status && !STATUSES.includes(status) : status !== undefined && !STATUSES.includes(status)) {
    errors.push(['status', 'status must be one of available, pending, sold.']);
  }
  if (G('unknown-fields-rejected')) {
    for (const k of Object.keys(body)) if (!['name', 'categoryId', 'status'].includes(k)) errors.push([k, `${k} is not a NewPet field.`]);
  }
  if (errors.length) {
    if (F('multi-error-body-shape') && errors.length > 1) {
      return send(req, res, 400, { status: 400, errors: errors.map(([field, message]) => ({ field, message })) });
    }
    return bad(errors.map((e) => e[1]).join(' '));
  }
  if (status === undefined && L('default-status-pending')) status = 'pending';
  if (F('pending-reset-on-create') && status === 'pending') status = 'available';
  const n = ++seq;
  const id = F('snowflake-ids-rounded') ? (BigInt(Date.now() - SNOW_EPOCH) << 22n) | BigInt(((n << 1) | 1) & 0x3fffff) : newId(n);
  const pet = { seq: n, id, name: F('name-trimmed-in-store') && typeof name === 'string' ? name.trim() : name, categoryId, status, createdAt: Date.now() };
  if (F('concurrent-create-lost')) {
    const snapshot = pets.slice();
    await new Promise((r) => setTimeout(r, 30)); // "audit log" write
    snapshot.push(pet);
    pets = snapshot;
    byId = new Map(pets.map((p) => [p.id.toString(), p]));
  } else insert(pet);
  res.setHeader('Location', `/v1/pets/${idOut(pet)}`);
  return send(req, res, 201, viewCreated(pet, name));
}

const PORT = Number(process.env.PORT) || 5400;
server.keepAliveTimeout = 5000;
server.listen(PORT, '127.0.0.1', () => {
  const mode = FAULT ? ` FAULT=${FAULT}` : LEGAL ? ` LEGAL=${LEGAL}` : GRAY ? ` GRAY=${GRAY}` : '';
  console.log(`deployment-c listening on http://127.0.0.1:${PORT}/v1${mode}`);
});
