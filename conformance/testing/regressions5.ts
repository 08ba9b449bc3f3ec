// A fifth, independent catalogue, written from the contract and the RFCs alone (its author read
// neither the suite's checks nor the other catalogues' entries, only their names and the shared
// helpers): faults in the areas the earlier catalogues cover least (caching and validators,
// content negotiation and media types, JSON text, the shape of errors on every path, query
// parsing, persistence as read back and filtered, CORS, versioning, connection handling), and
// legal variants that settle open choices in the same areas differently from the mock. Each entry
// is the project's mock wrapped by a Transform; `make()` gives a fresh one per deployment, so no
// state leaks between runs. Faults depend only on the requests and the deployment's clock
// (`env.now()`): no randomness, no timers. Each regression says who makes the mistake (`story`)
// and which contract sentence or RFC requirement it breaks (`breaks`). Witnesses:
// regressions5.witness.test.ts.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { ApiKeyConfig } from '../../mock/state/stateParts.ts';
import { asError, asTrusted, bodyText, createBodyOf, hasValidKey, headerOf, numberHeader, httpDate, isCreateReq, isGetPetReq, isListReq, isRead, keyOf, mapPets, onAnswers, paramsOf, parseBody, pathOf, petIdOf, withHeaders, withJson, withoutRateLimitHeaders, withParams, type Pet } from './catalogueHelpers.ts';
import { DropConnection, type MockRes, type Req, type Res, type Transform } from './injectTransport.ts';
import type { LegalVariant, Regression } from './regressions.ts';

/** The part of the service an entry belongs to. */
export type Area5 =
  | 'caching'
  | 'content'
  | 'json'
  | 'errors'
  | 'query'
  | 'persistence'
  | 'auth'
  | 'rate-limits'
  | 'cors'
  | 'versioning'
  | 'deprecation'
  | 'methods'
  | 'connection'
  | 'ordering';

export interface Regression5 extends Regression {
  area: Area5;
  /** the contract sentence or RFC requirement the regression breaks */
  breaks: string;
}
export interface LegalVariant5 extends LegalVariant {
  area: Area5;
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** The ids the seeded store holds (the test deployments start with 60 generated pets, ids 1..60). */
export const SEED_MAX_ID = 60;
/** The categories the seeded store draws from (fixtures/categories.ts). */
const seededCategories = new Set([1, 2, 3, 4, 5, 6, 7, 8]);
const isJsonLabelled = (res: Res) => /^application\/json/i.test(headerOf(res, 'content-type') ?? '');
const hasBody = (res: Res) => bodyText(res) !== '';

/**
 * A refusal the service makes after authentication: a stand-in list request with the caller's
 * Authorization is counted, its 401 or 429 goes back as it is, anything else becomes the Error.
 */
async function refuseAfterAuth(forward: (req: Req) => Promise<MockRes>, req: Req, status: number, code: string, message: string): Promise<Res> {
  const standIn = await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' });
  if (standIn.status !== 200) return standIn;
  return asError(standIn, status, code, message);
}

const safeDecode = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A strong entity tag of a body. */
const tagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
/** Whether an If-None-Match field matches `tag` (weak comparison, RFC 9110, 13.1.2). */
function noneMatchHits(field: string | undefined, tag: string): boolean {
  if (field === undefined) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return field.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(tag));
}
/** Whether Accept-Encoding admits gzip with a q above 0. */
const acceptsGzip = (req: Req) =>
  (req.headers['accept-encoding'] ?? '').split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const q = params.map((p) => /^q=([\d.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
    return (coding === 'gzip' || coding === 'x-gzip') && (q === undefined || Number(q) > 0);
  });

interface ValidatorOptions {
  /** Gzip 200s for clients that ask; `keepTag` keeps the identity tag on the gzipped body. */
  gzip?: { keepTag: boolean };
  /** 304s built without the ETag. */
  notModifiedWithoutTag?: boolean;
  /** Keyless requests with a matching If-None-Match are answered 304 from the edge's validator cache. */
  conditionalBeforeAuth?: boolean;
}

/**
 * The deployment's validators: a strong ETag on each 200 of a list or getPet (HEAD gets GET's), and
 * If-None-Match answered 304 with the rate-limit headers of the counted request; the options bend it.
 */
function withValidators(options: ValidatorOptions = {}): Transform {
  const edgeCache = new Map<string, { tag: string; headers: Record<string, string> }>();
  return async (req, forward) => {
    const url = pathOf(req) + (req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '');
    const readsPets = isRead(req) && (pathOf(req) === '/v1/pets' || petIdOf(req) !== undefined);
    if (!readsPets) return forward(req);
    if (options.conditionalBeforeAuth && req.headers.authorization === undefined) {
      const cached = edgeCache.get(url);
      if (cached && noneMatchHits(req.headers['if-none-match'], cached.tag)) {
        const { 'content-type': _t, ...headers } = cached.headers;
        return { status: 304, headers: { ...headers, etag: cached.tag }, body: '' };
      }
    }
    const res = await forward(req);
    if (res.status !== 200) return res;
    const body = req.method === 'HEAD' ? (await forward({ ...asTrusted(req), method: 'GET' })).body : res.body;
    const tag = tagOf(body);
    if (hasValidKey(req)) edgeCache.set(url, { tag, headers: res.headers });
    if (noneMatchHits(req.headers['if-none-match'], tag)) {
      const { 'content-type': _t, ...rest } = res.headers;
      // The 304 repeats what the 200 would carry (RFC 9110, 15.4.5): the tag (unless the fault drops it) and Vary.
      const headers = options.gzip ? { ...rest, vary: 'Accept-Encoding' } : rest;
      return { status: 304, headers: options.notModifiedWithoutTag ? headers : { ...headers, etag: tag }, body: '' };
    }
    if (options.gzip && req.method === 'GET' && acceptsGzip(req)) {
      const gzipTag = options.gzip.keepTag ? tag : `${tag.slice(0, -1)}-gzip"`;
      return { status: 200, headers: { ...res.headers, etag: gzipTag, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }, body: new Uint8Array(gzipSync(Buffer.from(res.body, 'utf8'))) };
    }
    return { ...res, headers: { ...res.headers, etag: tag, ...(options.gzip ? { vary: 'Accept-Encoding' } : {}) } };
  };
}

/** JSON text with the escapes of control characters (\n, \t, \u0001, ...) written as the raw characters. */
export function unescapeControls(json: string): string {
  const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
  return json.replace(/\\(?:u00([01][0-9a-fA-F])|([nrtbf]))|\\[\s\S]/g, (all, hex: string | undefined, letter: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : letter !== undefined ? named[letter]! : all,
  );
}

/** The member names of a JSON text's top-level object, in order, duplicates kept (undefined when it is no object). */
export function topLevelNames(text: string): string[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  const names: string[] = [];
  let depth = 0;
  let i = 0;
  let expectingName = false;
  while (i < trimmed.length) {
    const c = trimmed[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < trimmed.length && trimmed[j] !== '"') j += trimmed[j] === '\\' ? 2 : 1;
      if (depth === 1 && expectingName) {
        try {
          names.push(JSON.parse(trimmed.slice(i, j + 1)) as string);
        } catch {
          return undefined;
        }
        expectingName = false;
      }
      i = j + 1;
      continue;
    }
    if (c === '{' || c === '[') {
      depth++;
      if (depth === 1 && c === '{') expectingName = true;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) expectingName = true;
    i++;
  }
  return names;
}

/** Snowflake-style ids of created pets: 2^62 + n * 2^22 for the mock's id n (seeded pets keep theirs). */
const SNOWFLAKE_BASE = 2n ** 62n;
const SNOWFLAKE_STEP = 2n ** 22n;
export const snowflakeOf = (id: number | bigint): bigint | number => (Number(id) > SEED_MAX_ID ? SNOWFLAKE_BASE + BigInt(id) * SNOWFLAKE_STEP : Number(id));
/** The mock's id for a path id, or an id no pet has. */
function mockIdOf(text: string): string {
  if (!/^\d+$/.test(text)) return text;
  const value = BigInt(text);
  if (value <= BigInt(SEED_MAX_ID) || value > 2n ** 63n - 1n) return text;
  if (value > SNOWFLAKE_BASE && (value - SNOWFLAKE_BASE) % SNOWFLAKE_STEP === 0n) return String((value - SNOWFLAKE_BASE) / SNOWFLAKE_STEP);
  // A small id past the seed was never handed out by this service: name one the mock has not either.
  return '9007199254740991';
}

/** The keys with no daily quota in force: the day counter restarts every minute. */
const keysWithoutDailyQuota: ApiKeyConfig[] = [
  { key: 'demo-free', plan: 'free', perDay: 1_000_000_000 },
  { key: 'demo-pro', plan: 'pro', perDay: 1_000_000_000 },
  { key: 'demo-business', plan: 'business', perDay: 1_000_000_000 },
  { key: 'demo-enterprise', plan: 'enterprise', perMinute: 1_000_000, perDay: 1_000_000_000 },
];

/** Methods every HTTP/1.1 server knows the meaning of (RFC 9110, section 9, and PATCH). */
const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

// ---------------------------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------------------------

export const regressions5: Regression5[] = [
  // -------------------------------------------------------------------------------- caching
  {
    name: 'Last-Modified written in the host\'s local time (UTC+10) with a GMT suffix',
    area: 'caching',
    kind: 'spelling',
    story: 'Reads carry Last-Modified from the store\'s last write, formatted by a date helper that renders the host\'s local time (the containers run in Australia/Brisbane, UTC+10, no summer time) and appends "GMT": every Last-Modified lies hours after the Date of the same answer.',
    breaks: 'RFC 9110, 8.8.2.1: an origin server with a clock "MUST NOT generate a Last-Modified date that is later than the server\'s time of message origination (Date)"',
    make: () => {
      let lastWrite: number | undefined;
      return async (req, forward, env) => {
        const res = await forward(req);
        const now = env.now();
        // The seed was loaded an hour before the first request; each create is a write.
        lastWrite ??= now - 3_600_000;
        if (isCreateReq(req) && res.status === 201) lastWrite = now;
        const readsPets = isRead(req) && (pathOf(req) === '/v1/pets' || petIdOf(req) !== undefined);
        return readsPets && res.status === 200 ? withHeaders(res, { 'last-modified': httpDate(Math.floor(lastWrite / 1000) * 1000 + 10 * 3_600_000) }) : res;
      };
    },
  },
  {
    name: 'Expires: 0 added by the no-cache middleware',
    area: 'caching',
    kind: 'spelling',
    story: 'A security middleware copied into the gateway config (helmet\'s old noCache) adds "Cache-Control: no-store, no-cache, must-revalidate, proxy-revalidate", "Pragma: no-cache" and "Expires: 0" to every answer.',
    breaks: 'RFC 9111, 5.3: Expires = HTTP-date, and RFC 9110, 5.6.7: a sender "MUST generate those timestamps in the IMF-fixdate format"; "0" is no HTTP-date',
    make: () => onAnswers((res) => withHeaders(res, { 'cache-control': 'no-store, no-cache, must-revalidate, proxy-revalidate', pragma: 'no-cache', expires: '0' })),
  },
  {
    name: 'one strong ETag for the gzip and the identity representations',
    area: 'caching',
    kind: 'bytes',
    story: 'The service computes a strong ETag from the JSON it renders and answers If-None-Match; the gateway\'s compression filter gzips the body for clients that ask and keeps the ETag as it is (nginx would weaken it, this gateway does not).',
    breaks: 'RFC 9110, 8.8.3: "a strong entity tag for a content-encoded representation has to be distinct from the entity tag of an unencoded representation"; a strong validator changes whenever the representation data changes (8.8.1)',
    make: () => withValidators({ gzip: { keepTag: true } }),
  },
  {
    name: 'conditional GET answered 304 by the edge before authentication',
    area: 'caching',
    kind: 'auth',
    story: 'The CDN worker answers revalidations from its validator cache (keyed on the URL) before the auth worker runs; requests with an Authorization header are sent on to be counted, but a keyless request with a matching If-None-Match gets a 304 with the last caller\'s headers.',
    breaks: 'contract, Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body"',
    make: () => withValidators({ conditionalBeforeAuth: true }),
  },
  {
    name: '304 answers built without the ETag',
    area: 'caching',
    kind: 'other',
    story: 'The conditional-GET filter builds its 304 from scratch, copying Date and the rate-limit headers but not the ETag it compared, so a cache cannot refresh the stored answer\'s validator.',
    breaks: 'RFC 9110, 15.4.5: "The server generating a 304 response MUST generate any of the following header fields that would have been sent in a 200 (OK) response to the same request: Content-Location, Date, ETag, and Vary"',
    make: () => withValidators({ notModifiedWithoutTag: true }),
  },
  // -------------------------------------------------------------------------------- content
  {
    name: 'answers labelled application/vnd.pets.v1+json by the media-type versioning filter',
    area: 'content',
    kind: 'spelling',
    story: 'A media-type versioning filter, added so that v2 can later be negotiated through Accept, labels every JSON answer with the vendor type application/vnd.pets.v1+json.',
    breaks: 'contract, What the service does: "All request and response bodies are JSON (application/json)"',
    make: () => onAnswers((res) => (isJsonLabelled(res) ? withHeaders(res, { 'content-type': 'application/vnd.pets.v1+json; charset=utf-8' }) : res)),
  },
  {
    name: 'Content-Type sent twice (framework default and handler)',
    area: 'content',
    kind: 'bytes',
    story: 'After a framework upgrade the handler\'s `res.addHeader(\'Content-Type\', \'application/json; charset=utf-8\')` no longer replaces the default the framework already set, so answers carry two Content-Type field lines.',
    breaks: 'RFC 9110, 5.3: "A sender MUST NOT generate multiple field lines with the same name in a message ... unless ... that field\'s definition allows multiple field line values to be recombined as a comma-separated list"; Content-Type is a singleton',
    make: () => onAnswers((res) => (isJsonLabelled(res) ? withHeaders(res, { 'content-type': ['application/json', 'application/json; charset=utf-8'] }) : res)),
  },
  {
    name: 'Accept: application/* answered 406',
    area: 'content',
    kind: 'validation',
    story: 'The negotiation guard added for an XML pilot admits a request when `accept.includes(\'application/json\') || accept.includes(\'*/*\')`: a client that asks for application/* (which matches JSON) gets 406 after authentication.',
    breaks: 'RFC 9110, 12.5.1 and 15.5.7: application/* matches application/json, and 406 says the resource has no representation the client would accept; JSON is one',
    make: () => async (req, forward) => {
      const accept = req.headers.accept;
      if (accept !== undefined && accept.trim() !== '' && !/application\/json|\*\/\*/i.test(accept)) return refuseAfterAuth(forward, req, 406, 'NOT_ACCEPTABLE', 'This API answers application/json only.');
      return forward(req);
    },
  },
  {
    name: '415 answered with body-parser\'s HTML error page',
    area: 'errors',
    kind: 'spelling',
    story: 'express\'s body-parser refuses a body that is not labelled JSON through the framework\'s default error handler, which renders an HTML page ("UnsupportedMediaTypeError: unsupported content type") instead of the service\'s Error.',
    breaks: 'contract, Errors: "Error responses carry an Error body (code, message, status)"',
    make: () => onAnswers((res) => {
      if (res.status !== 415) return res;
      const page = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>UnsupportedMediaTypeError: unsupported content type</pre>\n</body>\n</html>\n';
      return { ...withHeaders(res, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': 'default-src \'none\'', 'x-content-type-options': 'nosniff' }), body: page };
    }),
  },
  // -------------------------------------------------------------------------------- json
  {
    name: 'list writer escapes quotes and backslashes only, writing control characters raw',
    area: 'json',
    kind: 'bytes',
    story: 'The list endpoint moved to a streaming writer with its own string escaper, which escapes `"` and `\\` and writes every other character as it is: a name holding a tab or a line feed puts a raw control character inside a JSON string.',
    breaks: 'RFC 8259, 7: the control characters U+0000 to U+001F "MUST be escaped" within strings; the list is then no JSON text (contract: bodies are JSON)',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isListReq(req) && res.status === 200 ? { ...res, body: unescapeControls(res.body) } : res;
    },
  },
  {
    name: 'anti-XSSI prefix )]}\' added to JSON reads',
    area: 'json',
    kind: 'bytes',
    story: 'After a security review flagged JSON hijacking, the framework\'s XSSI filter (the convention Angular\'s HTTP client strips) prefixes every successful JSON answer to a GET with `)]}\',` and a newline.',
    breaks: 'contract, What the service does: "All request and response bodies are JSON (application/json)"; the prefixed body is no JSON text (RFC 8259)',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return req.method === 'GET' && res.status === 200 && isJsonLabelled(res) && hasBody(res) ? { ...res, body: `)]}',\n${res.body}` } : res;
    },
  },
  {
    name: 'required fields checked by searching the raw body for "name" and "categoryId"',
    area: 'json',
    kind: 'validation',
    story: 'A pre-validator in the gateway (cheaper than parsing) looks for the literal text `"name":` and `"categoryId":` in the raw body and refuses the create with 400 when either is missing: a member name spelled with a JSON escape, or with a space before the colon, is refused though the body is a valid NewPet.',
    breaks: 'contract, POST /pets: 400 is for "The body is missing required fields or has invalid values"; RFC 8259, 7: "n\\u0061me" is the string "name", and whitespace is allowed around the name separator (RFC 8259, 2)',
    make: () => async (req, forward) => {
      if (isCreateReq(req) && createBodyOf(req) !== undefined && !(req.body.includes('"name":') && req.body.includes('"categoryId":'))) return refuseAfterAuth(forward, req, 400, 'INVALID_BODY', 'name and categoryId are required.');
      return forward(req);
    },
  },
  // -------------------------------------------------------------------------------- errors
  {
    name: 'unknown routes answered by fastify\'s default not-found handler',
    area: 'errors',
    kind: 'spelling',
    story: 'The catch-all route that rendered the service\'s Error was lost in a router upgrade: unknown paths fall through to fastify\'s default `{"message":"Route GET:/v1/x not found","error":"Not Found","statusCode":404}`.',
    breaks: 'contract, Errors: "Error responses carry an Error body (code, message, status)"',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const body = parseBody(res) as { code?: unknown } | undefined;
      return res.status === 404 && body?.code === 'ROUTE_NOT_FOUND' ? withJson(res, { message: `Route ${req.method}:${pathOf(req)} not found`, error: 'Not Found', statusCode: 404 }) : res;
    },
  },
  {
    name: '404s for unknown pets carry no message',
    area: 'errors',
    kind: 'spelling',
    story: 'The ORM\'s EntityNotFoundException is mapped by a generic handler that reads the message from `exception.detail`, which this exception does not set; the serializer drops the undefined member.',
    breaks: 'contract, Error: `message` is required ("Human-readable description")',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const body = parseBody(res) as { code?: unknown; status?: unknown } | undefined;
      return isGetPetReq(req) && res.status === 404 && body ? withJson(res, { code: body.code, status: body.status }) : res;
    },
  },
  {
    name: 'non-numeric petId answered 500 (BigInt SyntaxError)',
    area: 'errors',
    kind: 'validation',
    story: 'The int64 refactor replaced the route\'s integer schema by `BigInt(req.params.petId)` in the handler; an id such as "abc" or "1.5" throws a SyntaxError that reaches the generic 500 handler.',
    breaks: 'contract, GET /pets/{petId}: its statuses are 200, 401 and 404 (and 429); a 5xx answers a client\'s malformed id as a failure of the server (RFC 9110, 15.6)',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isGetPetReq(req) && res.status === 400 ? asError(res, 500, 'INTERNAL_ERROR', `SyntaxError: Cannot convert ${safeDecode(petIdOf(req)!)} to a BigInt`) : res;
    },
  },
  {
    name: '429 answered with express-rate-limit\'s default text',
    area: 'errors',
    kind: 'spelling',
    story: 'An upgrade of express-rate-limit renamed the option that held the custom 429 handler; the old option is ignored and the default handler sends "Too many requests, please try again later." as text/html (the headers it sets are kept).',
    breaks: 'contract, Errors: 429 is an error, and "Error responses carry an Error body (code, message, status)"',
    make: () => onAnswers((res) => (res.status === 429 ? { ...withHeaders(res, { 'content-type': 'text/html; charset=utf-8' }), body: 'Too many requests, please try again later.' } : res)),
  },
  // -------------------------------------------------------------------------------- query
  {
    name: 'query string split without percent-decoding',
    area: 'query',
    kind: 'validation',
    story: 'The edge worker\'s hand-rolled query parser splits on & and = and never percent-decodes: `limit=%31%30` or `status=%73old` is compared as written and refused with 400, and a percent-encoded name is not recognised at all.',
    breaks: 'RFC 3986, 2.3 and 6.2.2.2: URIs that differ only in percent-encoding of unreserved characters are equivalent, so `limit=%31%30` is limit=10, which the contract allows (1 to 100)',
    make: () => (req, forward) => {
      const raw = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
      if (!isListReq(req) || !raw.includes('%')) return forward(req);
      const query = new URLSearchParams();
      for (const pair of raw.split('&').filter(Boolean)) {
        const at = pair.indexOf('=');
        query.append(at < 0 ? pair : pair.slice(0, at), at < 0 ? '' : pair.slice(at + 1));
      }
      return forward({ ...req, url: `${pathOf(req)}?${query}` });
    },
  },
  {
    name: 'limit below 1 passed to SQLite (0 gives an empty page, -1 every pet)',
    area: 'query',
    kind: 'validation',
    story: 'The generated validator was replaced by a hand-written one that checks only `limit > 100`; the value goes to SQLite, where LIMIT 0 returns no row and a negative LIMIT means no limit at all.',
    breaks: 'contract, GET /pets: limit "Minimum 1, maximum 100"',
    make: () => async (req, forward) => {
      const limit = isListReq(req) ? paramsOf(req).get('limit') : null;
      if (limit === null || !/^-?\d+$/.test(limit) || Number(limit) >= 1) return forward(req);
      const res = await forward(withParams(req, (q) => q.set('limit', Number(limit) === 0 ? '1' : '100')));
      return Number(limit) === 0 && res.status === 200 ? withJson(res, []) : res;
    },
  },
  {
    name: 'default page size not applied when filtering by status',
    area: 'query',
    kind: 'data',
    story: 'The controller sets the default limit of 20 in the "list all" branch only; the status filter goes through a separate repository method that runs without LIMIT when the client sends none.',
    breaks: 'contract, GET /pets: limit "default 20"',
    make: () => (req, forward) => forward(isListReq(req) && paramsOf(req).has('status') && !paramsOf(req).has('limit') ? withParams(req, (q) => q.set('limit', '100')) : req),
  },
  {
    name: 'unknown query parameters passed to the ORM as column filters (500)',
    area: 'query',
    kind: 'validation',
    story: 'A generic filter builder turns every query parameter other than limit into a WHERE clause (`?color=brown` becomes `WHERE color = $1`); a parameter naming no column fails in the database and is answered 500.',
    breaks: 'contract, GET /pets: its statuses are 200 and 401 (and 429); a harmless extra parameter gets a server error (RFC 9110, 15.6: 5xx is the server failing)',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (!isListReq(req) || res.status !== 200) return res;
      const unknown = [...paramsOf(req).keys()].find((name) => name !== 'limit' && name !== 'status');
      if (unknown === undefined) return res;
      const { 'x-mock-ignored-query': _ignored, ...headers } = res.headers;
      return asError({ ...res, headers }, 500, 'INTERNAL_ERROR', `column "${unknown}" does not exist`);
    },
  },
  // -------------------------------------------------------------------------------- persistence
  {
    name: 'created pets invisible to the status filter (enum stored by constant name)',
    area: 'persistence',
    kind: 'data',
    story: 'New pets are written by a JPA entity with @Enumerated(EnumType.STRING), storing PENDING and SOLD, while the seeded rows and the filter query use lower case; the read mapper lower-cases, so getPet and the unfiltered list look right but `?status=pending` never finds a created pet.',
    breaks: 'contract, GET /pets: status "Returns only animals with this status" and the operation lists the animals with it; a created animal with that status is missing from every filtered page',
    make: () => {
      const created = new Set<string>();
      return async (req, forward) => {
        if (isCreateReq(req)) {
          const res = await forward(req);
          const pet = res.status === 201 ? (parseBody(res) as Pet | undefined) : undefined;
          if (pet?.id !== undefined) created.add(String(pet.id));
          return res;
        }
        const q = isListReq(req) ? paramsOf(req) : undefined;
        const limitText = q?.get('limit');
        if (!q?.has('status') || created.size === 0 || (limitText != null && !/^\d+$/.test(limitText)) || Number(limitText ?? 20) < 1 || Number(limitText ?? 20) > 100) return forward(req);
        const limit = Number(limitText ?? 20);
        const res = await forward(withParams(req, (p) => p.set('limit', String(Math.min(100, limit + created.size)))));
        const body = res.status === 200 ? parseBody(res) : undefined;
        return Array.isArray(body) ? withJson(res, (body as Pet[]).filter((pet) => !created.has(String(pet.id))).slice(0, limit)) : res;
      };
    },
  },
  {
    name: 'list joins the categories table and lists unknown categories as 0',
    area: 'persistence',
    kind: 'data',
    story: 'The list query was rewritten to join the categories table (for a planned category name) with `COALESCE(c.id, 0)`; a pet created with a categoryId the table does not hold (only 1 to 8 are seeded) is listed with categoryId 0, while its 201 and getPet read the pets table.',
    breaks: 'contract, Pet: categoryId is the "Identifier of the category the animal belongs to"; the list gives the animal another category than the one it was created with and is read back with',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isListReq(req) ? mapPets(res, (pet) => (typeof pet.categoryId === 'number' && seededCategories.has(pet.categoryId) ? pet : { ...pet, categoryId: 0 })) : res;
    },
  },
  {
    name: '201 body holds only the new id',
    area: 'persistence',
    kind: 'data',
    story: 'The create handler returns the repository\'s insert result (`{ id: result.insertId }`) instead of reloading the row it wrote.',
    breaks: 'contract, POST /pets: 201 "Pet (the created animal including its assigned id)", whose name and categoryId are required',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const pet = isCreateReq(req) && res.status === 201 ? (parseBody(res) as Pet | undefined) : undefined;
      return pet ? withJson(res, { id: pet.id }) : res;
    },
  },
  // -------------------------------------------------------------------------------- auth
  {
    name: 'quoted bearer tokens unquoted by the gateway',
    area: 'auth',
    kind: 'auth',
    story: 'The gateway\'s Authorization parser treats the credentials like an auth-param value and strips surrounding double quotes, so `Bearer "demo-pro"` is accepted as the key demo-pro.',
    breaks: 'contract, Authentication 3: "When the key is missing or invalid, the response is 401"; `"demo-pro"` with its quotes is no API key (RFC 6750, 2.1: b64token has no quotes)',
    make: () => (req, forward) => {
      const quoted = /^(bearer)\s+"([^"\s]+)"\s*$/i.exec(req.headers.authorization ?? '');
      return forward(quoted ? { ...req, headers: { ...req.headers, authorization: `Bearer ${quoted[2]}` } } : req);
    },
  },
  {
    name: 'malformed Authorization answered 400 by passport-http-bearer',
    area: 'auth',
    kind: 'auth',
    story: 'passport-http-bearer splits the Authorization header on single spaces and calls `this.fail(400)` when it does not get exactly two parts ("Bearer" alone, "Bearer a b", two spaces after the scheme); the app renders that failure as a 400 Error.',
    breaks: 'contract, Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body"',
    make: () => async (req, forward) => {
      const header = req.headers.authorization;
      if (!header || header.split(' ').length === 2) return forward(req);
      const standIn = await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: { authorization: header }, body: '' });
      const { 'www-authenticate': _challenge, ...headers } = standIn.headers;
      return asError({ ...standIn, headers }, 400, 'BAD_REQUEST', 'Bad Request');
    },
  },
  {
    name: 'Authorization read as the last of comma-joined credentials',
    area: 'auth',
    kind: 'auth',
    story: 'The gateway joins repeated Authorization lines with ", " and its auth plugin takes the token after the last "Bearer ", so `Bearer wrong, Bearer demo-pro` (or a client that sends the header twice) is served.',
    breaks: 'contract, Authentication 2 and 3: the key is sent as `Authorization: Bearer <API_KEY>`, and when it is invalid the response is 401; `wrong, Bearer demo-pro` is no key (RFC 9110, 11.6.2: Authorization holds one set of credentials)',
    make: () => (req, forward) => {
      const joined = /^bearer\s+\S+\s*,\s*bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      return forward(joined ? { ...req, headers: { ...req.headers, authorization: `Bearer ${joined[1]}` } } : req);
    },
  },
  // -------------------------------------------------------------------------------- rate-limits
  {
    name: 'Remaining written before the request is counted',
    area: 'rate-limits',
    kind: 'rate-accounting',
    story: 'The limiter reads the counter, writes the headers, then INCRs: every answer\'s X-RateLimit-Remaining is one more than what remains, so the last allowed request of a window still says 1 and the next one is refused.',
    breaks: 'contract, Limits: X-RateLimit-Remaining is the "Requests remaining in the current window"',
    make: () => onAnswers((res) => {
      const limit = numberHeader(res, 'x-ratelimit-limit');
      const remaining = numberHeader(res, 'x-ratelimit-remaining');
      return res.status === 429 || limit === undefined || remaining === undefined ? res : withHeaders(res, { 'x-ratelimit-remaining': String(Math.min(limit, remaining + 1)) });
    }),
  },
  {
    name: 'one request past the quota served (count compared before the increment)',
    area: 'rate-limits',
    kind: 'rate-accounting',
    story: 'The limiter checks `count > limit` before incrementing instead of after, so each window serves limit + 1 requests; the extra one is answered like the one before it, with Remaining 0.',
    breaks: 'contract, Limits: "Free 60 requests per minute" (Pro 300, ...), and "Requests over the limit receive 429 Too Many Requests"',
    make: () => {
      const granted = new Set<string>();
      return async (req, forward) => {
        const res = await forward(req);
        const key = keyOf(req);
        const body = res.status === 429 ? (parseBody(res) as { code?: unknown } | undefined) : undefined;
        const window = `${key}@${headerOf(res, 'x-ratelimit-reset')}`;
        if (key === undefined || res.status !== 429 || body?.code !== 'RATE_LIMITED' || granted.has(window)) return res;
        granted.add(window);
        const served = await forward(asTrusted(req));
        const { 'retry-after': _r, ...headers } = res.headers;
        return { ...served, headers: { ...served.headers, ...Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('x-ratelimit-'))) } };
      };
    },
  },
  {
    name: 'daily quota never enforced (the day counter expires after a minute)',
    area: 'rate-limits',
    kind: 'rate-accounting',
    story: 'The day counter\'s Redis key is created with `EXPIRE key 60`, copied from the minute counter: it restarts every minute, so the daily quota (Free 1,000, Pro 10,000) never binds.',
    breaks: 'contract, Limits: "Free 60 requests per minute, 1,000 per day" (Pro 10,000 per day)',
    make: () => (req, forward) => forward(req),
    mockOptions: { keys: keysWithoutDailyQuota },
  },
  {
    name: 'Retry-After written as a float (30.0)',
    area: 'rate-limits',
    kind: 'spelling',
    story: 'A Python rewrite of the limiter writes `str((reset - now).total_seconds())`: Retry-After comes out as "30.0" or "29.5".',
    breaks: 'RFC 9110, 10.2.3: Retry-After = HTTP-date / delay-seconds, and delay-seconds = 1*DIGIT',
    make: () => onAnswers((res, _req, now) => {
      const reset = numberHeader(res, 'x-ratelimit-reset');
      if (res.status !== 429 || headerOf(res, 'retry-after') === undefined || reset === undefined) return res;
      const seconds = Math.max(0, reset * 1000 - now) / 1000;
      return withHeaders(res, { 'retry-after': Number.isInteger(seconds) ? seconds.toFixed(1) : String(seconds) });
    }),
  },
  {
    name: '400s from the request validator carry no rate-limit headers',
    area: 'rate-limits',
    kind: 'rate-accounting',
    story: 'The OpenAPI request validator was registered ahead of the middleware that writes the X-RateLimit headers, so its 400 answers go out without them.',
    breaks: 'contract, Limits: "Every API response carries these headers" (X-RateLimit-Limit, -Remaining, -Reset)',
    make: () => onAnswers((res) => (res.status === 400 ? withoutRateLimitHeaders(res) : res)),
  },
  {
    name: 'X-RateLimit headers zeroed on 401s (no plan resolved)',
    area: 'rate-limits',
    kind: 'rate-accounting',
    story: 'The header middleware runs for unauthenticated requests too, with the empty plan object the auth step leaves behind: Limit 0, Remaining 0 and Reset 0, the Unix epoch.',
    breaks: 'contract, Limits: X-RateLimit-Reset is the "Unix timestamp at which the limit resets"; 0 (1 January 1970) is no reset to come',
    make: () => onAnswers((res) => (res.status === 401 ? withHeaders(res, { 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' }) : res)),
  },
  // -------------------------------------------------------------------------------- cors
  {
    name: 'OPTIONS answered by the CORS middleware before the rate limiter adds its headers',
    area: 'cors',
    kind: 'rate-accounting',
    story: 'The cors middleware, mounted first with its default `preflightContinue: false`, ends every OPTIONS request itself with 204, so those answers never pass the middleware that writes the X-RateLimit headers.',
    breaks: 'contract, Limits: "Every API response carries these headers"',
    make: () => onAnswers((res, req) => (req.method === 'OPTIONS' ? withoutRateLimitHeaders(res) : res)),
  },
  {
    name: 'Access-Control-Allow-Origin sent by both the gateway and the app',
    area: 'cors',
    kind: 'bytes',
    story: 'CORS was turned on in the API gateway (echoing the Origin) while the app\'s own cors middleware still sends `*`: answers to requests with an Origin carry two Access-Control-Allow-Origin lines, which browsers reject.',
    breaks: 'RFC 9110, 5.3: a sender "MUST NOT generate multiple field lines with the same name" unless the field is a list, and Access-Control-Allow-Origin is a single origin or * (Fetch, CORS protocol)',
    make: () => onAnswers((res, req) => {
      const origin = req.headers.origin;
      return origin !== undefined && headerOf(res, 'access-control-allow-origin') !== undefined ? withHeaders(res, { 'access-control-allow-origin': [origin, '*'] }) : res;
    }),
  },
  // -------------------------------------------------------------------------------- versioning
  {
    name: 'POST /v1/pets refused without an Api-Version header by the new gateway\'s version set',
    area: 'versioning',
    kind: 'other',
    story: 'The write routes moved first to the new API gateway, whose version set was configured for header versioning: after authentication a POST without `Api-Version: 1` is refused with 400, though the path already says /v1.',
    breaks: 'contract, Versioning 1: "The version is part of the base address: the path segment /v1"; POST /pets with a valid NewPet answers 201',
    make: () => (req, forward) => (isCreateReq(req) && req.headers['api-version'] === undefined ? refuseAfterAuth(forward, req, 400, 'MISSING_API_VERSION', 'Send the Api-Version header.') : forward(req)),
  },
  // -------------------------------------------------------------------------------- deprecation
  {
    name: 'Sunset written by the cookie Expires formatter',
    area: 'deprecation',
    kind: 'deprecation',
    story: 'The deprecation middleware reuses the session code\'s cookie-date formatter for Sunset, which writes the Netscape form with dashes: `Thu, 05-Dec-2030 00:00:00 GMT`.',
    breaks: 'RFC 8594, 3: Sunset = HTTP-date, and RFC 9110, 5.6.7: a sender "MUST generate those timestamps in the IMF-fixdate format"',
    make: () => onAnswers((res) => (headerOf(res, 'sunset') !== undefined ? withHeaders(res, { sunset: 'Thu, 05-Dec-2030 00:00:00 GMT' }) : res)),
  },
  {
    name: 'Link to the replacement written without angle brackets',
    area: 'deprecation',
    kind: 'deprecation',
    story: 'The deprecation middleware builds the Link header by string concatenation, `${url}; rel="alternate"; title=...`, without the angle brackets around the target.',
    breaks: 'RFC 8288, 3: link-value = "<" URI-Reference ">" *( OWS ";" OWS link-param )',
    make: () => onAnswers((res) => {
      const link = headerOf(res, 'link');
      return link !== undefined ? withHeaders(res, { link: link.replace(/<([^>]*)>/g, '$1') }) : res;
    }),
  },
  // -------------------------------------------------------------------------------- methods
  {
    name: 'HEAD /pets/{petId} answered 200 for any well-formed id',
    area: 'methods',
    kind: 'methods',
    story: 'A HEAD handler added for the uptime checker answers from the route pattern alone once the id parses, with GET\'s headers, never looking the pet up: HEAD of an unknown id is 200 where GET is 404.',
    breaks: 'RFC 9110, 9.3.2: "The HEAD method is identical to GET except that the server MUST NOT send content"; GET of an unknown id answers 404 (contract: "Requested animal not found")',
    make: () => onAnswers((res, req) => (req.method === 'HEAD' && petIdOf(req) !== undefined && res.status === 404 ? { ...res, status: 200, body: '' } : res)),
  },
  {
    name: 'Date header left off by the serverless adapter',
    area: 'methods',
    kind: 'other',
    story: 'The service moved to a serverless function whose HTTP adapter builds answers from the handler\'s headers only, and the platform\'s front does not add Date.',
    breaks: 'RFC 9110, 6.6.1: "An origin server with a clock ... MUST generate a Date header field in all 2xx (Successful), 3xx (Redirection), and 4xx (Client Error) responses"',
    make: () => onAnswers((res) => withHeaders(res, { date: undefined })),
  },
  // -------------------------------------------------------------------------------- connection
  {
    name: 'WAF drops requests without an Authorization header',
    area: 'connection',
    kind: 'auth',
    story: 'A WAF rule meant for scrapers ("no Authorization on /v1/*: drop") closes the connection instead of letting the service answer 401; preflights are exempted by an earlier rule.',
    breaks: 'contract, Authentication 3: "When the key is missing or invalid, the response is 401 with an Error body"',
    make: () => (req, forward) => {
      if (req.headers.authorization === undefined && req.method !== 'OPTIONS') throw new DropConnection();
      return forward(req);
    },
  },
  {
    name: 'nginx turns 429s into 444 (connection closed without an answer)',
    area: 'connection',
    kind: 'rate-accounting',
    story: 'During a scraping incident the front nginx was given `proxy_intercept_errors on; error_page 429 = @drop;` with `return 444` to save bandwidth, and the rule was never removed: every throttled request sees its connection closed.',
    breaks: 'contract, Limits: "Requests over the limit receive 429 Too Many Requests", and Errors: 429 with "the time given in the Retry-After header"',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (res.status === 429) throw new DropConnection();
      return res;
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Legal variants
// ---------------------------------------------------------------------------------------------

export const legalVariants5: LegalVariant5[] = [
  {
    name: 'answers a non-numeric petId with 404 (the route only matches digits)',
    area: 'errors',
    choice: 'The route is declared `/pets/:petId(\\d+)`, so `/pets/abc` matches no pet and is answered 404 with an Error (rate-limit and deprecation headers kept). The contract gives getPet 200, 401 and 404 and says nothing of 400: "404 ... The requested resource could not be found" fits an address that names no animal.',
    make: () => async (req, forward) => {
      const res = await forward(req);
      return isGetPetReq(req) && res.status === 400 ? asError(res, 404, 'NOT_FOUND', `No animal at ${pathOf(req)}.`) : res;
    },
  },
  {
    name: 'refuses a new pet with duplicate member names (I-JSON)',
    area: 'json',
    choice: 'RFC 8259, 4 says names "SHOULD be unique" and leaves the handling of duplicates to the implementation; RFC 7493 (I-JSON) says they MUST NOT occur. The service refuses such a body with 400 INVALID_BODY (after authentication), where the mock keeps the last value. The contract: 400 for "invalid values".',
    make: () => async (req, forward) => {
      const names = isCreateReq(req) ? topLevelNames(req.body) : undefined;
      if (names && new Set(names).size !== names.length) return refuseAfterAuth(forward, req, 400, 'INVALID_BODY', 'The body names a member twice.');
      return forward(req);
    },
  },
  {
    name: 'lists grouped by status (available, pending, sold), newest first within each',
    area: 'ordering',
    choice: 'The contract shows no order for GET /pets. The unfiltered list shows the available animals first, then pending, then sold, newest first within each group; a filtered list is newest first, as the mock\'s.',
    make: () => async (req, forward) => {
      const res = await forward(req);
      if (!isListReq(req) || res.status !== 200 || paramsOf(req).has('status')) return res;
      const count = (parseBody(res) as Pet[]).length;
      const groups: Pet[] = [];
      for (const status of ['available', 'pending', 'sold']) {
        if (groups.length >= count) break;
        const page = await forward(withParams(asTrusted(req), (q) => {
          q.set('status', status);
          q.set('limit', String(count));
        }));
        groups.push(...((parseBody(page) as Pet[] | undefined) ?? []));
      }
      return withJson(res, groups.slice(0, count));
    },
  },
  {
    name: 'reflects the Origin with credentials allowed and Vary: Origin',
    area: 'cors',
    choice: 'The contract says nothing of CORS. The service answers requests with an Origin with that origin, Access-Control-Allow-Credentials: true and Vary: Origin, exposing the rate-limit, Retry-After, Location, Deprecation, Sunset and Link headers; requests without an Origin get no CORS headers; preflights allow the methods the API serves and the headers asked for.',
    make: () => onAnswers((res, req) => {
      const { 'access-control-allow-origin': _o, 'access-control-expose-headers': _e, 'access-control-allow-methods': _m, 'access-control-allow-headers': _h, 'access-control-max-age': _a, ...plain } = res.headers;
      const origin = req.headers.origin;
      if (origin === undefined) return { ...res, headers: plain };
      const cors: Record<string, string> = {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        vary: 'Origin',
        'access-control-expose-headers': 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Location, Deprecation, Sunset, Link',
      };
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        cors['access-control-allow-methods'] = 'GET, HEAD, POST, OPTIONS';
        cors['access-control-allow-headers'] = req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type';
        cors['access-control-max-age'] = '7200';
        cors.vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
      }
      return { ...res, headers: { ...plain, ...cors } };
    }),
  },
  {
    name: 'lets clients cache reads privately for five seconds',
    area: 'caching',
    choice: 'The contract says nothing of caching. Successful reads of pets carry `Cache-Control: private, max-age=5` (a browser may reuse them for five seconds; no shared cache may store them); every other answer carries `Cache-Control: no-store`.',
    make: () => onAnswers((res, req) => {
      const readsPets = isRead(req) && (pathOf(req) === '/v1/pets' || petIdOf(req) !== undefined);
      return withHeaders(res, { 'cache-control': readsPets && res.status === 200 ? 'private, max-age=5' : 'no-store' });
    }),
  },
  {
    name: 'answers a plain OPTIONS with 200, Allow and an empty body',
    area: 'methods',
    choice: 'RFC 9110, 9.3.7: a server answering OPTIONS "SHOULD send any header that indicates optional features" and a 200 needs no content. An OPTIONS that is no CORS preflight is answered 200 with Allow (the methods the path serves) and no body, rate-limit headers kept; preflights are answered as by the mock.',
    make: () => onAnswers((res, req) => {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] !== undefined || res.status !== 204) return res;
      const allow = pathOf(req) === '/v1/pets' ? 'GET, HEAD, POST, OPTIONS' : petIdOf(req) !== undefined || pathOf(req) === '/v1/store/orders' ? 'GET, HEAD, OPTIONS' : undefined;
      return allow === undefined ? res : { status: 200, headers: { ...res.headers, allow }, body: '' };
    }),
  },
  {
    name: 'limits requests without a valid key to 10 a minute per client address',
    area: 'rate-limits',
    choice: 'The contract gives limits per plan and none for requests without a key. The service counts those per client address at 10 a minute (and 1,000 a day); past that they are answered 429 with Retry-After, before the key is looked at.',
    make: () => (req, forward) => forward(req),
    mockOptions: { keylessLimits: { perMinute: 10 } },
  },
  {
    name: 'marks getPet deprecated with Sunset and Link only (no Deprecation header)',
    area: 'deprecation',
    choice: 'The contract says getPet is deprecated and to be removed on 5 December 2030; it does not say how an answer signals it. The service sends Sunset (RFC 8594) and the Link to the replacement, and no Deprecation header (RFC 9745 is optional).',
    make: () => onAnswers((res) => withHeaders(res, { deprecation: undefined })),
  },
  {
    name: 'labels JSON application/json;charset=UTF-8',
    area: 'content',
    choice: 'Spring\'s old default: `application/json;charset=UTF-8`, no space before the parameter and the charset in upper case (RFC 9110, 8.3.1: parameter names are case-insensitive, whitespace around ";" is optional, charset values are case-insensitive).',
    make: () => onAnswers((res) => (isJsonLabelled(res) ? withHeaders(res, { 'content-type': 'application/json;charset=UTF-8' }) : res)),
  },
  {
    name: 'gives created pets Snowflake ids past 2^53',
    area: 'json',
    choice: 'The contract types ids int64 and says only that the service assigns them. After a migration to Snowflake-style ids, created pets get ids of 2^62 and more, written as JSON numbers with every digit; the seeded pets keep their small ids. Ids it never handed out answer 404.',
    make: () => async (req, forward) => {
      const id = petIdOf(req);
      const mapped = id === undefined ? undefined : mockIdOf(safeDecode(id));
      const forwarded = id !== undefined && mapped !== safeDecode(id) ? { ...req, url: `/v1/pets/${mapped}${req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : ''}` } : req;
      const res = await forward(forwarded);
      const location = headerOf(res, 'location');
      const relocated: Res = location !== undefined ? withHeaders(res, { location: location.replace(/\/(\d+)$/, (_all, n: string) => `/${snowflakeOf(Number(n))}`) }) : res;
      if (!(isListReq(req) || isGetPetReq(req) || isCreateReq(req)) || res.status < 200 || res.status >= 300) return relocated;
      return mapPets(relocated, (pet) => (typeof pet.id === 'number' ? { ...pet, id: snowflakeOf(pet.id) } : pet));
    },
  },
  {
    name: 'answers methods it does not know with 501',
    area: 'methods',
    choice: 'RFC 9110, 9.1: "An origin server that receives a request method that is unrecognized or not implemented SHOULD respond with the 501 (Not Implemented) status code". A method outside RFC 9110\'s and PATCH (PROPFIND, FOO) gets a 501 Error with the rate-limit headers, before authentication; the contract covers only GET and POST.',
    make: () => async (req, forward) => {
      if (knownMethods.has(req.method.toUpperCase())) return forward(req);
      const standIn = await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' });
      const { 'www-authenticate': _c, ...headers } = standIn.headers;
      return asError({ ...standIn, headers }, 501, 'NOT_IMPLEMENTED', `${req.method} is not implemented.`);
    },
  },
  {
    name: 'routes paths case-insensitively (/v1/PETS serves the list)',
    area: 'methods',
    choice: 'ASP.NET\'s router matches paths without regard to case, so /v1/PETS and /V1/Pets/1 are served as /v1/pets and /v1/pets/1, with the same authentication and rate limiting. The contract names the paths the API serves and says nothing of other spellings; serving them as well takes nothing from the named ones.',
    make: () => (req, forward) => {
      const path = pathOf(req);
      const lower = path.toLowerCase();
      const known = lower === '/v1/pets' || lower === '/v1/store/orders' || /^\/v1\/pets\/[^/]+$/.test(lower);
      return forward(path !== lower && known ? { ...req, url: lower + req.url.slice(path.length) } : req);
    },
  },
  {
    name: 'omits Content-Type on HEAD answers',
    area: 'methods',
    choice: 'RFC 9110, 9.3.2: the server SHOULD (not MUST) send in answer to HEAD the header fields it would send to GET. This service\'s HEAD answers carry the status, the rate-limit and deprecation headers of GET, and no Content-Type (there is no content to label).',
    make: () => onAnswers((res, req) => (req.method === 'HEAD' ? withHeaders(res, { 'content-type': undefined }) : res)),
  },
  {
    name: 'refuses a body not labelled JSON with 400 instead of 415',
    area: 'content',
    choice: 'The contract lists 400 for a createPet body it cannot take and says nothing of 415; RFC 9110 makes 400 the generic client error. A body labelled text/plain (or without Content-Type) is answered 400 INVALID_BODY where the mock answers 415.',
    make: () => onAnswers((res) => (res.status === 415 ? asError(res, 400, 'INVALID_BODY', 'Send the body as application/json.') : res)),
  },
];
