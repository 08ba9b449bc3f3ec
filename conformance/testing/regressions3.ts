// A third, independent catalogue, written from the contract and the RFCs alone (its author read
// neither the suite's checks nor the other catalogues' entries): regressions at the HTTP level and
// in request dimensions the first two do not name (message framing, conditional requests and
// caches, Allow and 405, authentication challenges and spellings, Location, date and delay
// formats, content coding, headers real clients send, JSON spellings, near misses of valid values,
// concurrent requests), and legal variants that settle open choices in the same areas. Each entry
// is the project's mock wrapped by a Transform; `make()` gives a fresh one per deployment, so no
// state leaks between runs. Each regression says who makes the mistake (`story`) and which
// contract sentence or RFC requirement it breaks (`breaks`). Witnesses:
// regressions3.witness.test.ts; the suite's first-run figures: conformance/regressions3.catalogue.test.ts.
//
// What the in-process transport cannot carry, and so is not here: pipelined requests on one
// connection, an HTTP/1.0 request line (a chunked answer to an HTTP/1.0 client), header names in
// their sent case, a body on a 304 or on a HEAD answer as bytes (the transport drops both, as a
// client does; the HEAD case is kept through its effect on the next request), and a Content-Length
// longer than the body (a client would wait for bytes that never come).
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { asError, asTrusted, createBodyOf, demoKeys, hasValidKey, headerOf, httpDate, isCreateReq, isGetPetReq, isListReq, isPetAnswer, isRead, keyOf, mapListOut, mapPets, MINUTE, onAnswers, paramsOf, parseBody, petIdOf, planPerMinute, rateLimitHeadersOf, refuseWith, statuses, withHeaders, withJson, withParams, type Pet } from './catalogueHelpers.ts';
import type { MockRes, Req, Res, Transform } from './injectTransport.ts';
import type { LegalVariant, Regression } from './regressions.ts';

/** The HTTP area an entry belongs to, for the figures by area in docs/suite-power.md. */
export type Area = 'framing' | 'caching' | 'methods' | 'auth' | 'location' | 'formats' | 'coding' | 'client-headers' | 'json-spelling' | 'near-miss' | 'concurrency';

export interface Regression3 extends Regression {
  area: Area;
  /** the contract sentence or RFC requirement the regression breaks */
  breaks: string;
}
export interface LegalVariant3 extends LegalVariant {
  area: Area;
}

// ---------------------------------------------------------------------------------------------
// Helpers: requests
// ---------------------------------------------------------------------------------------------
const withoutHeader = (req: Req, name: string): Req => {
  const { [name]: _gone, ...headers } = req.headers;
  return { ...req, headers };
};
const withAuthorization = (req: Req, value: string | undefined): Req => (value === undefined ? withoutHeader(req, 'authorization') : { ...req, headers: { ...req.headers, authorization: value } });

/** The elements of a comma-separated header with their q values (RFC 9110, 12.4.2); q defaults to 1. */
function weighted(header: string | undefined): { value: string; q: number }[] {
  return (header ?? '').split(',').map((part) => part.trim()).filter(Boolean).map((part) => {
    const [value, ...params] = part.split(';').map((p) => p.trim());
    const q = params.map((p) => /^q=([\d.]+)$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return { value: value!.toLowerCase(), q: q === undefined ? 1 : Number(q) };
  });
}
/** Accept-Encoding admits gzip (RFC 9110, 12.5.3): gzip, x-gzip or * with a q above 0, unless gzip itself has q=0. */
function acceptsGzip(req: Req): boolean {
  const codings = weighted(req.headers['accept-encoding']);
  const named = codings.find((c) => c.value === 'gzip' || c.value === 'x-gzip');
  if (named) return named.q > 0;
  return codings.some((c) => c.value === '*' && c.q > 0);
}

/** If-None-Match holds `etag` under the weak comparison GET and HEAD use (RFC 9110, 13.1.2), or is `*`. */
function noneMatchHas(req: Req, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

// ---------------------------------------------------------------------------------------------
// Helpers: answers
// ---------------------------------------------------------------------------------------------

const encoder = new TextEncoder();
const byteLength = (res: Res) => (typeof res.body === 'string' ? encoder.encode(res.body).length : res.body.length);
const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 22);
/** A 304 in place of `res`: the content and its Content-Type dropped, the headers named in `keep` kept (all when omitted). */
function notModified(res: Res, keep?: readonly string[]): Res {
  const { 'content-type': _type, 'content-length': _length, ...rest } = res.headers;
  const headers = keep ? Object.fromEntries(Object.entries(rest).filter(([name]) => keep.includes(name))) : rest;
  return { status: 304, headers, body: '' };
}
const gzipped = (res: Res): Res => ({ ...res, headers: { ...res.headers, 'content-encoding': 'gzip' }, body: gzipSync(typeof res.body === 'string' ? encoder.encode(res.body) : res.body) });
/** The Retry-After of a 429 in whole seconds, as the mock writes it. */
const retryAfterSeconds = (res: Res) => Number(headerOf(res, 'retry-after'));

/** An answer a proxy in front writes of its own: HTML, none of the API's headers. */
const proxyPage = (status: number, reason: string, server: string, now: number): Res => ({
  status,
  headers: { server, date: httpDate(now), 'content-type': 'text/html' },
  body: `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>${server}</center>\r\n</body>\r\n</html>\r\n`,
});

/** Serves a status filter the mock would refuse as the pets whose status `matches` accepts, `limit` of them at most. */
function filterWith(matches: (status: string, asked: string) => boolean, applies: (asked: string) => boolean): Transform {
  return async (req, forward) => {
    const asked = paramsOf(req).get('status');
    if (!isListReq(req) || asked === null || statuses.includes(asked) || !applies(asked) || !statuses.some((s) => matches(s, asked))) return forward(req);
    const raw = paramsOf(req).get('limit');
    const limit = raw !== null && /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 100 ? Number(raw) : 20;
    const res = await forward(withParams(req, (q) => {
      q.delete('status');
      q.set('limit', '100');
    }));
    const body = res.status === 200 ? parseBody(res) : undefined;
    if (!Array.isArray(body)) return res;
    return withJson(res, (body as Pet[]).filter((pet) => typeof pet.status === 'string' && matches(pet.status, asked)).slice(0, limit));
  };
}

/** SQL LIKE: `%` any run, `_` any one character, the rest literal. */
const like = (value: string, pattern: string) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.')}$`, 's').test(value);

/** A JSON value as an XML document, as a Jackson XML mapper writes it (a list as <List><item>, an object as <Name> with a child per field). */
function toXml(value: unknown, name: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (Array.isArray(value)) return `<${name}>${value.map((item) => toXml(item, 'item')).join('')}</${name}>`;
  if (value !== null && typeof value === 'object') return `<${name}>${Object.entries(value).map(([k, v]) => toXml(v, k)).join('')}</${name}>`;
  return `<${name}>${escape(String(value))}</${name}>`;
}

/** Translated PetStatus values, as an i18n layer that localises every enum renders them. */
const localisedStatus: Record<string, Record<string, string>> = {
  de: { available: 'verfügbar', pending: 'reserviert', sold: 'verkauft' },
  fr: { available: 'disponible', pending: 'en attente', sold: 'vendu' },
  es: { available: 'disponible', pending: 'pendiente', sold: 'vendido' },
};
const privateAddress = /^(10\.|127\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/;
const libraryAgent = /^(curl|wget|python-requests|python-urllib|python-httpx|aiohttp|go-http-client|okhttp|axios|node-fetch|undici|node|java|apache-httpclient|libwww-perl|ruby|faraday|guzzlehttp)\b/i;

// ---------------------------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------------------------

export const regressions3: Regression3[] = [
  // -------------------------------------------------------------------------------- framing
  {
    name: 'Content-Length counted in UTF-16 code units',
    area: 'framing',
    kind: 'bytes',
    story: 'a hand-written response writer sets Content-Length to the JSON string\'s .length (UTF-16 code units), so an answer holding a non-ASCII name claims fewer bytes than it has and the client reads it cut short',
    breaks: 'RFC 9110, 8.6: Content-Length is the number of octets of the content; contract: all response bodies are JSON',
    make: () => onAnswers((res) => {
      const bytes = encoder.encode(res.body);
      const claimed = res.body.length;
      // The client reads as many octets as Content-Length says; the rest is left on the connection.
      return { ...res, headers: { ...res.headers, 'content-length': String(claimed) }, body: bytes.length === claimed ? res.body : bytes.subarray(0, claimed) };
    }),
  },
  {
    name: 'HEAD answered with Content-Length: 0',
    area: 'framing',
    kind: 'bytes',
    story: 'the framework computes Content-Length from the empty body it writes for HEAD, instead of the length the GET answer would have',
    breaks: 'RFC 9110, 8.6: a server MUST NOT send Content-Length in a response to HEAD unless its value equals the octets the same GET would have sent',
    make: () => onAnswers((res, req) => (req.method === 'HEAD' && res.status !== 204 ? withHeaders(res, { 'content-length': '0' }) : res)),
  },
  {
    name: 'list streamed chunked with a Content-Length added',
    area: 'framing',
    kind: 'bytes',
    story: 'the app streams the list with Transfer-Encoding: chunked and a buffering sidecar adds the Content-Length it counted without removing Transfer-Encoding (a strict client such as Node refuses the answer; in-process the two headers are shown as sent)',
    breaks: 'RFC 9112, 6.2: a sender MUST NOT send Content-Length in a message that contains Transfer-Encoding',
    make: () => onAnswers((res, req) => (isListReq(req) && res.status === 200 ? withHeaders(res, { 'transfer-encoding': 'chunked', 'content-length': String(byteLength(res)) }) : res)),
  },
  {
    name: 'first request after 5 s idle answered 502 by the load balancer',
    area: 'framing',
    kind: 'other',
    story: 'the load balancer keeps upstream connections 60 s while Node closes idle ones after its default 5 s keepAliveTimeout: a request reusing a connection the backend just closed gets the balancer\'s own 502 (the race, lost every time here)',
    breaks: 'contract: every API response carries the X-RateLimit headers; all response bodies are JSON; a valid request gets the operation\'s documented answer',
    make: () => {
      let last: number | undefined;
      return async (req, forward, env) => {
        const now = env.now();
        const idle = last !== undefined && now - last > 5_000;
        last = now;
        return idle ? proxyPage(502, 'Bad Gateway', 'awselb/2.0', now) : forward(req);
      };
    },
  },
  {
    name: 'HEAD answered with a body poisons the next request',
    area: 'framing',
    kind: 'bytes',
    story: 'the origin writes the GET body on HEAD too; the reverse proxy, which frames a HEAD answer as bodiless, leaves those bytes on its pooled upstream connection, reads them as the answer to the next request it sends there, and answers that request 502 (the request itself reached the origin)',
    breaks: 'RFC 9110, 9.3.2: the server MUST NOT send content in the response to HEAD; contract: every response carries the X-RateLimit headers and a JSON body',
    make: () => {
      let poisoned = false;
      return async (req, forward, env) => {
        const res = await forward(req);
        const next = poisoned;
        poisoned = req.method === 'HEAD';
        return next ? proxyPage(502, 'Bad Gateway', 'nginx', env.now()) : res;
      };
    },
  },
  // -------------------------------------------------------------------------------- caching
  {
    name: 'ETag computed from the URL, not the content',
    area: 'caching',
    kind: 'data',
    story: 'a caching decorator sets the ETag from its cache key (the request URL), and the framework answers a matching If-None-Match with 304 after the list has changed',
    breaks: 'RFC 9110, 8.8.3 and 13.1.2: an entity tag differentiates representations, and 304 is for a request whose tag matches the current representation',
    make: () => onAnswers((res, req) => {
      if (!isRead(req) || res.status !== 200 || !(isListReq({ ...req, method: 'GET' }) || isGetPetReq({ ...req, method: 'GET' }))) return res;
      const etag = `"${digest(req.url)}"`;
      const tagged = withHeaders(res, { etag });
      return noneMatchHas(req, etag) ? notModified(tagged) : tagged;
    }),
  },
  {
    name: 'edge answers revalidations without the rate-limit headers',
    area: 'caching',
    kind: 'rate-accounting',
    story: 'the CDN adds a strong ETag to GET answers and, after checking with the origin, writes the 304 itself from the RFC\'s list of 304 fields (Date, ETag, Cache-Control), dropping the origin\'s X-RateLimit headers',
    breaks: 'contract: every API response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
    make: () => onAnswers((res, req) => {
      if (!isRead(req) || res.status !== 200) return res;
      const etag = `"${digest(res.body)}"`;
      const tagged = withHeaders(res, { etag, 'cache-control': 'private, max-age=0' });
      return noneMatchHas(req, etag) ? notModified(tagged, ['date', 'etag', 'cache-control']) : tagged;
    }),
  },
  {
    name: 'CDN caches 404s for a minute, ignoring Authorization',
    area: 'caching',
    kind: 'data',
    story: 'to shield the origin from id enumeration the CDN caches 404 answers of GET /pets/{petId} for 60 s keyed on the URL alone: a pet created after its id was asked for stays 404, and a request without a key gets the stored 404',
    breaks: 'RFC 9111, 3.5: a shared cache MUST NOT reuse a response to a request with Authorization unless the response allows it; contract: a missing key gets 401, and getPet returns the animal',
    make: () => {
      const cache = new Map<string, { at: number; res: MockRes }>();
      return async (req, forward, env) => {
        if (!isGetPetReq(req)) return forward(req);
        const hit = cache.get(req.url);
        if (hit && env.now() - hit.at < MINUTE) return withHeaders(hit.res, { age: String(Math.floor((env.now() - hit.at) / 1000)), date: httpDate(env.now()) });
        const res = await forward(req);
        if (res.status === 404) cache.set(req.url, { at: env.now(), res });
        return res;
      };
    },
  },
  {
    name: 'Cache-Control: public, max-age=300 honoured by the CDN per key',
    area: 'caching',
    kind: 'rate-accounting',
    story: 'the API marks every 200 `Cache-Control: public, max-age=300` and the CDN, keying on URL and Authorization, replays answers for five minutes without asking the origin: the replayed X-RateLimit headers are stale and repeated reads are never counted or refused',
    breaks: 'contract: X-RateLimit-Remaining is the requests remaining in the current window, and requests over the limit receive 429',
    make: () => {
      const cache = new Map<string, { at: number; res: Res }>();
      return async (req, forward, env) => {
        if (req.method !== 'GET') return forward(req);
        const key = `${req.headers.authorization ?? ''} ${req.url}`;
        const hit = cache.get(key);
        if (hit && env.now() - hit.at < 5 * MINUTE) return withHeaders(hit.res, { age: String(Math.floor((env.now() - hit.at) / 1000)) });
        const res = await forward(req);
        if (res.status !== 200) return res;
        const stored = withHeaders(res, { 'cache-control': 'public, max-age=300' });
        cache.set(key, { at: env.now(), res: stored });
        return stored;
      };
    },
  },
  // -------------------------------------------------------------------------------- methods
  {
    name: '405 without Allow',
    area: 'methods',
    kind: 'methods',
    story: 'a global error mapper turns the router\'s MethodNotAllowed exception into the Error body and drops the headers the router had set, Allow among them',
    breaks: 'RFC 9110, 15.5.6: the origin server MUST generate an Allow header field in a 405 response',
    make: () => onAnswers((res) => (res.status === 405 ? withHeaders(res, { allow: undefined }) : res)),
  },
  {
    name: 'Allow lists every method of the controller',
    area: 'methods',
    kind: 'methods',
    story: 'the framework builds Allow from every method the resource class declares on any path, so a 405 advertises PUT, PATCH and DELETE, including the method it has just refused',
    breaks: 'RFC 9110, 10.2.1 and 15.5.6: Allow lists the methods the target resource supports, and 405 means the method is not among them',
    make: () => onAnswers((res) => (res.status === 405 ? withHeaders(res, { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' }) : res)),
  },
  // ----------------------------------------------------------------------------------- auth
  {
    name: '401 without WWW-Authenticate',
    area: 'auth',
    kind: 'auth',
    story: 'a custom authentication middleware answers 401 with the Error body and sets no challenge',
    breaks: 'RFC 9110, 11.6.1 and 15.5.2: a server generating 401 MUST send a WWW-Authenticate header field; RFC 6750, 3',
    make: () => onAnswers((res) => (res.status === 401 ? withHeaders(res, { 'www-authenticate': undefined }) : res)),
  },
  {
    name: 'WWW-Authenticate: Basic from the default security config',
    area: 'auth',
    kind: 'auth',
    story: 'Spring Security\'s httpBasic() was left on beside the bearer filter, so its entry point writes `WWW-Authenticate: Basic realm="Realm"` on every 401 (and browsers show a password prompt)',
    breaks: 'RFC 6750, 3: the resource server MUST include a WWW-Authenticate challenge with the Bearer scheme; contract: every operation requires HTTP bearer authentication',
    make: () => onAnswers((res) => (res.status === 401 ? withHeaders(res, { 'www-authenticate': 'Basic realm="Realm"' }) : res)),
  },
  {
    name: 'Bearer scheme matched case-sensitively',
    area: 'auth',
    kind: 'auth',
    story: 'the token is read with `header.startsWith("Bearer ")`, so a client or SDK that writes `bearer <key>` is told its key is missing',
    breaks: 'RFC 9110, 11.1: the authentication scheme is a case-insensitive token; contract: a valid key sent as a bearer token is accepted',
    make: () => async (req, forward) => {
      const header = req.headers.authorization;
      return forward(header !== undefined && !header.startsWith('Bearer ') ? withAuthorization(req, undefined) : req);
    },
  },
  {
    name: 'token read as the second space-separated word',
    area: 'auth',
    kind: 'auth',
    story: 'the key is taken as `header.split(" ")[1]`: `Bearer  <key>` (two spaces, allowed by the grammar) reads an empty key and is refused, while `Bearer <key> extra` is accepted',
    breaks: 'RFC 9110, 11.4 and RFC 6750, 2.1: credentials are the scheme, 1*SP, then the token; contract: a missing or invalid key gets 401',
    make: () => async (req, forward) => {
      const header = req.headers.authorization;
      if (header === undefined) return forward(req);
      const [scheme, token] = header.split(' ');
      if (scheme?.toLowerCase() !== 'bearer') return forward(req);
      return forward(withAuthorization(req, token ? `Bearer ${token}` : undefined));
    },
  },
  {
    name: 'authorization scheme never checked',
    area: 'auth',
    kind: 'auth',
    story: 'the middleware keeps what follows the last space of Authorization as the key and never looks at the scheme: `Token <key>`, `Basic <key>` and a bare `<key>` are accepted',
    breaks: 'contract: every operation requires HTTP bearer authentication, the key sent as `Authorization: Bearer <API_KEY>`; other credentials get 401',
    make: () => async (req, forward) => {
      const header = req.headers.authorization;
      const token = header?.trim().split(/\s+/).pop();
      return forward(token ? withAuthorization(req, `Bearer ${token}`) : req);
    },
  },
  {
    name: 'key looked up with SQL LIKE',
    area: 'auth',
    kind: 'auth',
    story: 'the key lookup was written `WHERE api_key LIKE ?` instead of `=`, so `_` in a presented key matches any one character and `%` any run: a key with one character changed to `_`, or the key `%`, is accepted as the first key it matches',
    breaks: 'contract: when the key is missing or invalid, the response is 401 with an Error body',
    make: () => async (req, forward) => {
      const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token === undefined || demoKeys.has(token)) return forward(req);
      const found = [...demoKeys].find((key) => like(key, token));
      return forward(found ? withAuthorization(req, `Bearer ${found}`) : req);
    },
  },
  {
    name: 'DELETE left on by the CRUD scaffold, without authentication',
    area: 'auth',
    kind: 'auth',
    story: 'the generated CRUD controller\'s DELETE /pets/{petId} was never removed, and the auth filter is registered only on the documented routes: anyone can delete a pet, with no key and no rate limiting',
    breaks: 'contract: all calls need an API key; every operation requires HTTP bearer authentication',
    make: () => {
      const deleted = new Set<string>();
      const canonical = (id: string) => (/^\d+$/.test(id) ? BigInt(id).toString() : id);
      return async (req, forward) => {
        const id = petIdOf(req);
        if (req.method === 'DELETE' && id !== undefined) {
          const found = await forward(asTrusted({ ...req, method: 'GET', body: '' }));
          if (found.status !== 200 || deleted.has(canonical(id))) return { status: 404, headers: { 'content-type': 'application/json' }, body: stringifyExact({ error: 'Not Found' }) };
          deleted.add(canonical(id));
          return { status: 204, headers: {}, body: '' };
        }
        const res = await forward(req);
        if (isGetPetReq(req) && res.status === 200 && deleted.has(canonical(id!))) return asError(res, 404, 'PET_NOT_FOUND', `No pet has the id ${id}.`);
        return isListReq(req) ? mapListOut(res, (pet) => !deleted.has(String(pet.id))) : res;
      };
    },
  },
  {
    name: 'HEAD skips authentication',
    area: 'auth',
    kind: 'auth',
    story: 'the auth middleware lets "safe preflight methods" (OPTIONS and HEAD) through without a key, copied from the CORS guard: HEAD shows without a key whether a pet exists, on another plan\'s quota',
    breaks: 'contract: every operation requires HTTP bearer authentication, and a missing key gets 401; RFC 9110, 9.3.2: HEAD answers as GET would, less the content',
    make: () => async (req, forward) => forward(req.method === 'HEAD' && !hasValidKey(req) ? asTrusted(req) : req),
  },
  // ------------------------------------------------------------------------------- location
  {
    name: 'Location without the /v1 prefix',
    area: 'location',
    kind: 'other',
    story: 'the app builds Location from its own route (`/pets/{id}`) while the gateway that strips `/v1` does not rewrite it: the Location resolves to a path outside the base address',
    breaks: 'RFC 9110, 10.2.2 and 15.3.2: the Location of a 201 identifies the created resource; contract: paths are relative to the base address ending in /v1',
    make: () => onAnswers((res) => (res.status === 201 && res.headers.location ? withHeaders(res, { location: res.headers.location.replace(/^\/v1(?=\/)/, '') }) : res)),
  },
  {
    name: 'Location names the previous id',
    area: 'location',
    kind: 'ids',
    story: 'the controller reads the sequence\'s current value before the insert to build Location, one behind the id the insert then takes (the body\'s id is right)',
    breaks: 'RFC 9110, 10.2.2 and 15.3.2: the Location of a 201 identifies the created resource',
    make: () => onAnswers((res) => {
      if (res.status !== 201) return res;
      const id = (parseBody(res) as Pet | undefined)?.id;
      return typeof id === 'number' ? withHeaders(res, { location: `/v1/pets/${id - 1}` }) : res;
    }),
  },
  // -------------------------------------------------------------------------------- formats
  {
    name: 'Date written in ISO 8601',
    area: 'formats',
    kind: 'spelling',
    story: 'a custom response filter overwrites Date with `new Date().toISOString()` to "standardise timestamps"',
    breaks: 'RFC 9110, 5.6.7 and 6.6.1: a sender MUST generate HTTP-date as IMF-fixdate',
    make: () => onAnswers((res, _req, now) => withHeaders(res, { date: new Date(now).toISOString() })),
  },
  {
    name: 'Retry-After written as a Go duration',
    area: 'formats',
    kind: 'spelling',
    story: 'the Go limiter writes `w.Header().Set("Retry-After", wait.String())`, which prints `30s`',
    breaks: 'RFC 9110, 10.2.3: Retry-After is an HTTP-date or delay-seconds (digits); contract: the client retries after the time given in Retry-After',
    make: () => onAnswers((res) => (res.status === 429 ? withHeaders(res, { 'retry-after': `${retryAfterSeconds(res)}s` }) : res)),
  },
  {
    name: 'Retry-After counted in minutes',
    area: 'formats',
    kind: 'rate-accounting',
    story: 'the limiter\'s config speaks minutes (`retry_after_minutes = ceil(wait / 60)`) and the value is written into Retry-After as it is: a client told to wait 1 s is refused again, and risks a ban',
    breaks: 'contract: the client should retry after the time given in Retry-After (a request sent then must not be refused for the same window); RFC 9110, 10.2.3: delay-seconds are seconds',
    make: () => onAnswers((res) => (res.status === 429 ? withHeaders(res, { 'retry-after': String(Math.ceil(retryAfterSeconds(res) / 60)) }) : res)),
  },
  {
    name: 'X-RateLimit-Reset sent as seconds until the reset',
    area: 'formats',
    kind: 'spelling',
    story: 'the limiter was swapped for one that follows the IETF RateLimit draft, whose reset is a delay in seconds, and kept the X-RateLimit-Reset name',
    breaks: 'contract: X-RateLimit-Reset is the Unix timestamp at which the limit resets',
    make: () => onAnswers((res, _req, now) => {
      const reset = Number(res.headers['x-ratelimit-reset']);
      return Number.isFinite(reset) ? withHeaders(res, { 'x-ratelimit-reset': String(Math.max(0, reset - Math.floor(now / 1000))) }) : res;
    }),
  },
  // --------------------------------------------------------------------------------- coding
  {
    name: 'gzip sent to clients that refuse it',
    area: 'coding',
    kind: 'bytes',
    story: 'the compression middleware checks only that Accept-Encoding is present, not what it lists: `identity`, `br` or `gzip;q=0` get gzip',
    breaks: 'RFC 9110, 12.5.3 and 12.4.2: a coding the request excludes (q=0, or absent from a non-empty list without *) is not acceptable, and the server sends the content without it',
    make: () => onAnswers((res, req) => (req.headers['accept-encoding'] !== undefined && res.body !== '' ? gzipped(res) : res)),
  },
  {
    name: 'Content-Encoding: gzip kept after the gateway inflated the body',
    area: 'coding',
    kind: 'bytes',
    story: 'the origin always compresses; the API gateway inflates the body for clients that do not ask for gzip but passes the origin\'s Content-Encoding header through, so those clients are told the plain JSON is gzip',
    breaks: 'RFC 9110, 8.4: Content-Encoding names the codings applied to the content; contract: all response bodies are JSON',
    make: () => onAnswers((res, req) => (res.body === '' ? res : acceptsGzip(req) ? gzipped(res) : withHeaders(res, { 'content-encoding': 'gzip' }))),
  },
  // ------------------------------------------------------------------------- client headers
  {
    name: 'CORS filter refuses unlisted Origins with 403',
    area: 'client-headers',
    kind: 'other',
    story: 'Spring\'s CorsFilter, configured with the company website as the only allowed origin, answers any request carrying another Origin (a browser app, a sandboxed `null`) with 403 "Invalid CORS request"',
    breaks: 'contract: a valid call with a valid key gets the operation\'s answer (200 or 201); every response carries the X-RateLimit headers; all bodies are JSON',
    make: () => async (req, forward, env) => {
      const origin = req.headers.origin;
      if (origin === undefined || origin === 'https://www.petadoption.example') return forward(req);
      return { status: 403, headers: { vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers', date: httpDate(env.now()) }, body: 'Invalid CORS request' };
    },
  },
  {
    name: 'private X-Forwarded-For served on the internal plan',
    area: 'client-headers',
    kind: 'keys',
    story: 'the limiter exempts internal traffic by the leftmost X-Forwarded-For address, which clients behind a corporate proxy send with their private address: their key is served on the internal plan\'s limits',
    breaks: 'contract: rate limits are by plan (Pro 300 a minute), and X-RateLimit-Limit is the limit in force',
    make: () => async (req, forward) => {
      const first = req.headers['x-forwarded-for']?.split(',')[0]?.trim();
      return forward(first !== undefined && privateAddress.test(first) && hasValidKey(req) ? asTrusted(req) : req);
    },
  },
  {
    name: 'Accept-Language translates status values',
    area: 'client-headers',
    kind: 'spelling',
    story: 'the i18n layer added for error messages localises every enum it serialises, so a client whose Accept-Language is German, French or Spanish reads `verkauft` for sold',
    breaks: 'contract: status is a PetStatus, one of available, pending, sold',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const language = weighted(req.headers['accept-language'])[0]?.value.split('-')[0];
      const names = language === undefined ? undefined : localisedStatus[language];
      return names && isPetAnswer(req) ? mapPets(res, (pet) => (typeof pet.status === 'string' && names[pet.status] ? { ...pet, status: names[pet.status] } : pet)) : res;
    },
  },
  {
    name: 'sampled traceparent counted twice',
    area: 'client-headers',
    kind: 'rate-accounting',
    story: 'the mesh mirrors every request whose W3C traceparent is sampled to the shadow stack, which shares the production rate limiter: a client that traces its calls is counted twice for each',
    breaks: 'contract: X-RateLimit-Remaining is the requests remaining, each request counted once; rate limits by plan',
    make: () => async (req, forward) => {
      const flags = /^00-[0-9a-f]{32}-[0-9a-f]{16}-([0-9a-f]{2})$/.exec(req.headers.traceparent?.trim() ?? '')?.[1];
      if (flags !== undefined && (parseInt(flags, 16) & 1) === 1) {
        await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' });
      }
      return forward(req);
    },
  },
  {
    name: 'bot protection challenges HTTP-library User-Agents',
    area: 'client-headers',
    kind: 'other',
    story: 'the CDN\'s bot-fight mode was turned on for the whole zone, API included: requests whose User-Agent is an HTTP library (curl, python-requests, Go-http-client, okhttp, axios, Node) get the HTML challenge page',
    breaks: 'contract: a valid call with a valid key gets the operation\'s answer; every response carries the X-RateLimit headers; all bodies are JSON',
    make: () => async (req, forward, env) => {
      if (!libraryAgent.test(req.headers['user-agent'] ?? '')) return forward(req);
      return {
        status: 403,
        headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare', date: httpDate(env.now()) },
        body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body>Enable JavaScript and cookies to continue</body></html>',
      };
    },
  },
  {
    name: 'Accept: */* answered in XML',
    area: 'client-headers',
    kind: 'spelling',
    story: 'jackson-dataformat-xml arrived on the classpath with a dependency, and Spring registers its XML converter before JSON: a request whose Accept is `*/*` (curl, fetch) or a browser\'s gets XML',
    breaks: 'contract: all request and response bodies are JSON (application/json)',
    make: () => async (req, forward) => {
      const res = await forward(req);
      const accept = weighted(req.headers.accept).filter((t) => t.q > 0).map((t) => t.value);
      const json = accept.some((t) => t === 'application/json' || t.endsWith('+json'));
      const xml = accept.some((t) => t === '*/*' || t === 'application/*' || t === 'application/xml' || t === 'text/xml');
      const body = parseBody(res);
      if (json || !xml || body === undefined) return res;
      return { ...withHeaders(res, { 'content-type': 'application/xml;charset=UTF-8' }), body: toXml(body, Array.isArray(body) ? 'List' : res.status >= 400 ? 'ErrorBody' : 'Pet') };
    },
  },
  {
    name: 'charset parameter on the request refused with 415',
    area: 'client-headers',
    kind: 'validation',
    story: 'the create handler checks `req.headers["content-type"] === "application/json"`, so the many SDKs that send `application/json; charset=utf-8` are told the media type is unsupported',
    breaks: 'contract: the request body is application/json; RFC 9110, 8.3.1: media type parameters (charset) and case do not change the type',
    make: () => async (req, forward) => {
      const type = req.headers['content-type'];
      if (!isCreateReq(req) || !hasValidKey(req) || type === undefined || type === 'application/json') return forward(req);
      return refuseWith(forward, req, 415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, got ${type}.`);
    },
  },
  // -------------------------------------------------------------------------- json-spelling
  {
    name: 'body validator regex expects no whitespace',
    area: 'json-spelling',
    kind: 'validation',
    story: 'after authentication, the gateway validates creates with regexes written against the JS SDK\'s output (`"name":"`, `"categoryId":<digit>`), so Python\'s json.dumps (`"name": "Rex"`) and pretty-printed bodies are refused',
    breaks: 'RFC 8259, 2: insignificant whitespace is allowed around the structural characters; contract: 400 only for missing required fields or invalid values',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req) : undefined;
      if (!body || /"name":"/.test(req.body) && /"categoryId":-?\d/.test(req.body)) return forward(req);
      return refuseWith(forward, req, 400, 'INVALID_BODY', 'The body must have name and categoryId.');
    },
  },
  {
    name: 'body validator requires name as the first key',
    area: 'json-spelling',
    kind: 'validation',
    story: 'after authentication, a request filter written against the SDK\'s serialisation order checks that the body starts with `{"name":`; a client whose serializer sorts keys (categoryId first) is refused',
    breaks: 'RFC 8259, 4: an object is an unordered collection of members; contract: 400 only for missing required fields or invalid values',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) && hasValidKey(req) ? createBodyOf(req) : undefined;
      if (!body || /^\s*\{\s*"name"\s*:/.test(req.body)) return forward(req);
      return refuseWith(forward, req, 400, 'INVALID_BODY', 'The body must have name and categoryId.');
    },
  },
  {
    name: 'backslashes stripped before parsing',
    area: 'json-spelling',
    kind: 'spelling',
    story: 'a legacy input "sanitiser" (stripslashes, against injection) runs on the raw body before the JSON parser: `\\"` ends the string early, `\\u00e9` becomes `u00e9`, `\\/` becomes `/`',
    breaks: 'RFC 8259, 7: an escape sequence stands for the character it names; contract: the created Pet has the name sent',
    make: () => async (req, forward) => forward(isCreateReq(req) ? { ...req, body: req.body.replace(/\\(.)/gs, '$1') } : req),
  },
  {
    name: 'categoryId 1.5 truncated to 1',
    area: 'json-spelling',
    kind: 'validation',
    story: 'Jackson\'s ACCEPT_FLOAT_AS_INT is on by default: a categoryId of 1.5 binds to a long as 1 and the pet is created',
    breaks: 'contract: categoryId is an integer, and a body with invalid values gets 400',
    make: () => async (req, forward) => {
      const body = isCreateReq(req) ? createBodyOf(req) : undefined;
      if (!body || typeof body.categoryId !== 'number' || Number.isInteger(body.categoryId) || !Number.isFinite(body.categoryId)) return forward(req);
      return forward({ ...req, body: stringifyExact({ ...body, categoryId: Math.trunc(body.categoryId) }) });
    },
  },
  // ------------------------------------------------------------------------------ near-miss
  {
    name: 'status filter matched with LIKE prefix',
    area: 'near-miss',
    kind: 'validation',
    story: 'the list reuses the search endpoint\'s `status LIKE ? || \'%\'`, so `?status=p` lists pending pets and `?status=sol` sold ones',
    breaks: 'contract: the status filter returns only animals with this status (and status is a PetStatus)',
    make: () => filterWith((status, asked) => like(status, `${asked}%`), (asked) => asked !== ''),
  },
  {
    name: 'status filter split on commas',
    area: 'near-miss',
    kind: 'validation',
    story: 'the framework binds the parameter to a List<PetStatus>, splitting `available,sold` on the comma, and the query becomes `status IN (...)`',
    breaks: 'contract: status is one PetStatus, and the list returns only animals with this status',
    make: () => filterWith((status, asked) => asked.split(',').includes(status), (asked) => asked.includes(',') && asked.split(',').every((part) => statuses.includes(part))),
  },
  {
    name: 'status filter compared case-insensitively',
    area: 'near-miss',
    kind: 'validation',
    story: 'the status column has a case-insensitive collation (utf8mb4_general_ci) and the value is not validated first, so `?status=SOLD` lists the sold pets',
    breaks: 'contract: status is a PetStatus (`available`, `pending`, `sold`), and the list returns only animals with this status',
    make: () => filterWith((status, asked) => status === asked.toLowerCase(), (asked) => statuses.includes(asked.toLowerCase())),
  },
  {
    name: 'pet id truncated to 32 bits',
    area: 'near-miss',
    kind: 'ids',
    story: 'the read-through cache in front of getPet keys on `(int) petId`: an id past 2^31 that shares its low 32 bits with a real id answers that other pet',
    breaks: 'contract: petId is an int64 and getPet returns the animal with that identifier (404 when none has it)',
    make: () => async (req, forward) => {
      const id = petIdOf(req);
      if (!isGetPetReq(req) || id === undefined || !/^\d+$/.test(id) || BigInt(id) < 2n ** 31n) return forward(req);
      const truncated = BigInt.asIntN(32, BigInt(id));
      return forward(truncated > 0n ? { ...req, url: req.url.replace(/\/pets\/\d+/, `/pets/${truncated}`) } : req);
    },
  },
  // ---------------------------------------------------------------------------- concurrency
  {
    name: 'ids from MAX(id)+1 with an upsert',
    area: 'concurrency',
    kind: 'concurrency',
    story: 'the service computes a new id as MAX(id)+1 and writes with an upsert: two creates in flight together read the same maximum, both are answered 201 with one id, and the later overwrites the earlier',
    breaks: 'contract: id is a unique identifier assigned by the service on creation; getPet returns the created animal',
    make: () => {
      let inFlight = 0;
      let first: Promise<number | undefined> | undefined;
      const overwritten = new Map<number, Pet>();
      const lost = new Set<number>();
      return async (req, forward) => {
        if (!isCreateReq(req)) {
          const res = await forward(req);
          const id = Number(petIdOf(req));
          if (isGetPetReq(req) && res.status === 200 && lost.has(id)) return asError(res, 404, 'PET_NOT_FOUND', `No pet has the id ${id}.`);
          if (isGetPetReq(req) && overwritten.has(id)) return withJson(res, overwritten.get(id));
          if (!isListReq(req)) return res;
          return mapPets(mapListOut(res, (pet) => !lost.has(pet.id as number)), (pet) => overwritten.get(pet.id as number) ?? pet);
        }
        const earlier = inFlight > 0 ? first : undefined;
        let settle: (id: number | undefined) => void = () => {};
        if (!earlier) first = new Promise((resolve) => (settle = resolve));
        inFlight++;
        try {
          const res = await forward(req);
          const pet = res.status === 201 ? (parseBody(res) as Pet) : undefined;
          if (!earlier) {
            settle(pet?.id as number | undefined);
            return res;
          }
          const id = await earlier;
          if (!pet || id === undefined) return res;
          lost.add(pet.id as number);
          overwritten.set(id, { ...pet, id });
          return withHeaders(withJson(res, { ...pet, id }), { location: `/v1/pets/${id}` });
        } finally {
          settle(undefined);
          inFlight--;
        }
      };
    },
  },
  {
    name: 'rate counter read and written back without a lock',
    area: 'concurrency',
    kind: 'concurrency',
    story: 'the limiter does GET count, then SET count+1 in Redis instead of INCR: requests of one key in flight together read the same count, so all but one go uncounted and share its headers (and its 429)',
    breaks: 'contract: X-RateLimit-Remaining is the requests remaining; rate limits by plan; requests over the limit receive 429',
    make: () => {
      const running = new Map<string, Promise<MockRes>>();
      return async (req, forward) => {
        const key = keyOf(req);
        if (!key || !(key in planPerMinute)) return forward(req);
        const ahead = running.get(key);
        if (ahead) {
          const theirs = await ahead;
          if (theirs.status === 429) return theirs;
          return withHeaders(await forward(asTrusted(req)), rateLimitHeadersOf(theirs));
        }
        const answer = forward(req);
        running.set(key, answer);
        try {
          return await answer;
        } finally {
          if (running.get(key) === answer) running.delete(key);
        }
      };
    },
  },
  {
    name: 'concurrent requests answered in completion order',
    area: 'concurrency',
    kind: 'concurrency',
    story: 'the gateway pipelines requests that arrive together onto one upstream connection, and the origin\'s async handlers write answers as they finish: two requests in flight together each receive the other\'s answer',
    breaks: 'RFC 9112, 9.3.2: a server MUST send its responses to pipelined requests in the order the requests were received; contract: each operation\'s answer',
    make: () => {
      let open: { answer: Promise<MockRes>; partner?: Promise<MockRes> } | undefined;
      return async (req, forward) => {
        const answer = forward(req);
        if (open && !open.partner) {
          const mate = open;
          mate.partner = answer;
          return mate.answer;
        }
        const slot: { answer: Promise<MockRes>; partner?: Promise<MockRes> } = { answer };
        open = slot;
        try {
          await answer;
        } finally {
          if (open === slot) open = undefined;
        }
        return slot.partner ?? answer;
      };
    },
  },
];

// ---------------------------------------------------------------------------------------------
// Legal variants
// ---------------------------------------------------------------------------------------------

/** JSON with every object's keys in reverse order, non-ASCII as \uXXXX and `/` as `\/`: the same values (RFC 8259, 4 and 7). */
function escapedReordered(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(escapedReordered).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).reverse().map(([k, v]) => `${escapedReordered(k)}:${escapedReordered(v)}`).join(',')}}`;
  if (typeof value === 'string') return stringifyExact(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\//g, '\\/');
  return stringifyExact(value);
}

const germanMessages: Record<number, string> = {
  400: 'Die Anfrage ist ungültig. Bitte die Parameter und den Inhalt prüfen.',
  401: 'Der API-Schlüssel fehlt oder ist ungültig. Bitte als "Authorization: Bearer <API_KEY>" senden.',
  404: 'Die angefragte Ressource wurde nicht gefunden.',
  405: 'Diese Methode ist für diese Ressource nicht erlaubt.',
  429: 'Zu viele Anfragen. Bitte nach der in Retry-After genannten Zeit erneut versuchen.',
};

/** Tags GET and HEAD 200s with an ETag made by `tag` and answers a matching If-None-Match with 304, keeping every header but the content's. */
const conditional = (tag: (body: string) => string): Transform => onAnswers((res, req) => {
  if (!isRead(req) || res.status !== 200) return res;
  // HEAD's answer has no body to hash: the tag is the one GET would carry, so it is left untagged.
  if (req.method === 'HEAD') return res;
  const tagged = withHeaders(res, { etag: tag(res.body) });
  return noneMatchHas(req, tag(res.body)) ? notModified(tagged) : tagged;
});

export const legalVariants3: LegalVariant3[] = [
  {
    name: 'answers If-None-Match with 304 and strong ETags',
    area: 'caching',
    choice: 'the contract shows no caching headers: a deployment may tag GET answers with a strong ETag of the content and answer a matching If-None-Match with 304, keeping Date, ETag and the rate-limit headers (RFC 9110, 13.1.2 and 15.4.5)',
    make: () => conditional((body) => `"${digest(body)}"`),
  },
  {
    name: 'uses weak ETags',
    area: 'caching',
    choice: 'a weak ETag (`W/"..."`) is as valid a validator for If-None-Match, which compares weakly (RFC 9110, 8.8.3 and 13.1.2)',
    make: () => conditional((body) => `W/"${digest(body).slice(0, 12)}"`),
  },
  {
    name: 'marks every answer no-store and varies on Authorization',
    area: 'caching',
    choice: 'caching directives are not shown: `Cache-Control: no-store`, `Pragma: no-cache` and `Vary: Authorization, Accept-Encoding` on every answer keep caches out (RFC 9111, 5.2.2.5)',
    make: () => onAnswers((res) => withHeaders(res, { 'cache-control': 'no-store', pragma: 'no-cache', vary: 'Authorization, Accept-Encoding' })),
  },
  {
    name: 'gzips answers when the client asks',
    area: 'coding',
    choice: 'content coding is not shown: gzip when Accept-Encoding admits it, identity otherwise, with `Vary: Accept-Encoding` (RFC 9110, 12.5.3)',
    make: () => onAnswers((res, req) => {
      const varied = withHeaders(res, { vary: 'Accept-Encoding' });
      return acceptsGzip(req) && res.body !== '' ? gzipped(varied) : varied;
    }),
  },
  {
    name: 'closes the connection after every answer',
    area: 'framing',
    choice: 'connection reuse is not shown: a server may send `Connection: close` and close after each answer (RFC 9112, 9.6)',
    make: () => onAnswers((res) => withHeaders(res, { connection: 'close' })),
  },
  {
    name: 'answers 404 to methods a path does not serve',
    area: 'methods',
    choice: 'methods beyond the listed operations are not shown (docs/contract-choices.md: unknown routes and wrong methods): a deployment may answer them 404 with an Error body rather than 405',
    make: () => onAnswers((res, req) => (res.status === 405 ? asError(res, 404, 'NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}.`) : res)),
  },
  {
    name: 'answers HEAD with the Content-Length GET would have',
    area: 'framing',
    choice: 'HEAD is not shown; serving it as GET without the content, with the Content-Length GET\'s body would have, is what RFC 9110, 9.3.2 and 8.6 describe',
    make: () => async (req, forward) => {
      if (req.method !== 'HEAD') return forward(req);
      const res = await forward({ ...req, method: 'GET' });
      return { ...res, headers: { ...res.headers, 'content-length': String(byteLength(res)) }, body: '' };
    },
  },
  {
    name: 'pretty-prints JSON with CRLF line breaks',
    area: 'json-spelling',
    choice: 'the JSON spelling is not shown: two-space indentation, CRLF between lines and after the value are insignificant whitespace (RFC 8259, 2)',
    make: () => onAnswers((res) => {
      const body = parseBody(res);
      return body === undefined ? res : { ...res, body: `${stringifyExact(body, 2).replace(/\n/g, '\r\n')}\r\n` };
    }),
  },
  {
    name: 'writes keys in another order with escaped characters',
    area: 'json-spelling',
    choice: 'member order and escaping are not shown: keys reversed, every non-ASCII character as \\uXXXX and `/` as `\\/` spell the same values (RFC 8259, 4 and 7)',
    make: () => onAnswers((res) => {
      const body = parseBody(res);
      return body === undefined ? res : { ...res, body: escapedReordered(body) };
    }),
  },
  {
    name: 'sends a fuller Bearer challenge',
    area: 'auth',
    choice: 'the challenge\'s parameters are not shown: a realm, a scope, and for a bad key error="invalid_token" with an error_description are RFC 6750, 3\'s own',
    make: () => onAnswers((res, req) => {
      if (res.status !== 401) return res;
      const missing = req.headers.authorization === undefined;
      const challenge = missing ? 'Bearer realm="Pet Adoption API", scope="pets"' : 'Bearer realm="Pet Adoption API", scope="pets", error="invalid_token", error_description="The API key is missing, malformed or unknown"';
      return withHeaders(res, { 'www-authenticate': challenge });
    }),
  },
  {
    name: 'sends an absolute Location',
    area: 'location',
    choice: 'the 201\'s Location is not shown: an absolute URI on the public base address is as valid as a path (RFC 9110, 10.2.2)',
    make: () => onAnswers((res, req) => (res.status === 201 && res.headers.location ? withHeaders(res, { location: `http://${req.headers.host ?? 'deployment.test'}${res.headers.location}` }) : res)),
  },
  {
    name: 'names the created pet at a second address it serves',
    area: 'location',
    choice: 'the 201\'s Location is not shown: it may name the pet at another URL of the deployment (`/v1/animals/{id}`), one the deployment serves as that pet (RFC 9110, 15.3.2)',
    make: () => async (req, forward) => {
      const second = /^\/v1\/animals\/(\d+)$/.exec(req.url);
      if (req.method === 'GET' && second) return forward({ ...req, url: `/v1/pets/${second[1]}` });
      const res = await forward(req);
      return res.status === 201 && res.headers.location ? withHeaders(res, { location: res.headers.location.replace('/v1/pets/', '/v1/animals/') }) : res;
    },
  },
  {
    name: 'writes Retry-After as an HTTP-date',
    area: 'formats',
    choice: 'the Retry-After format is not shown: an HTTP-date no earlier than the delay is RFC 9110, 10.2.3\'s other form',
    make: () => onAnswers((res, _req, now) => {
      const seconds = retryAfterSeconds(res);
      if (res.status !== 429 || !Number.isFinite(seconds)) return res;
      return withHeaders(res, { 'retry-after': httpDate(Math.ceil((now + seconds * 1000) / 1000) * 1000) });
    }),
  },
  {
    name: 'writes error messages in German',
    area: 'client-headers',
    choice: 'an Error\'s message is a human-readable description whose wording and language are not shown; `Content-Language: de` says which',
    make: () => onAnswers((res) => {
      const body = parseBody(res) as { code?: unknown; message?: unknown } | undefined;
      const message = germanMessages[res.status] ?? 'Die Anfrage konnte nicht bearbeitet werden.';
      return res.status >= 400 && body && typeof body.message === 'string' ? withJson(withHeaders(res, { 'content-language': 'de' }), { ...body, message }) : res;
    }),
  },
];
