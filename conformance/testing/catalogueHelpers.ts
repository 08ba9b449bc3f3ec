// Helpers shared by the two independent catalogues of faulty and variant deployments
// (regressions.ts and regressions2.ts): reading and rewriting the requests a Transform is given
// and the answers it gives back, and the contract's constants both catalogues need.
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import { parseAuthorization } from '../../mock/pipeline/parseAuthorization.ts';
import type { MockRes, Req, Res, Transform } from './injectTransport.ts';

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export const urlOf = (req: Req) => new URL(req.url, 'http://x');
export const pathOf = (req: Req) => urlOf(req).pathname;
export const paramsOf = (req: Req) => urlOf(req).searchParams;
export function withParams(req: Req, change: (q: URLSearchParams) => void): Req {
  const url = urlOf(req);
  change(url.searchParams);
  return { ...req, url: `${url.pathname}${url.search}` };
}
export const isListReq = (req: Req) => req.method === 'GET' && pathOf(req) === '/v1/pets';
export const isCreateReq = (req: Req) => req.method === 'POST' && pathOf(req) === '/v1/pets';
export const petIdOf = (req: Req) => /^\/v1\/pets\/([^/]+)$/.exec(pathOf(req))?.[1];
export const isGetPetReq = (req: Req) => req.method === 'GET' && petIdOf(req) !== undefined;
/** A request whose 2xx answer holds pets: a list, a getPet or a create. */
export const isPetAnswer = (req: Req) => isListReq(req) || isGetPetReq(req) || isCreateReq(req);

export const demoKeys = new Set(['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise']);
export const withKey = (req: Req, key: string): Req => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${key}` } });
/** The request as the service serves it once it has (wrongly) decided the caller may pass. */
export const asTrusted = (req: Req) => withKey(req, 'demo-enterprise');

export function createBodyOf(req: Req): Record<string, unknown> | undefined {
  try {
    const body: unknown = parseJsonExact(req.body);
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

const decoder = new TextDecoder();
/** The body as text (bytes decoded as UTF-8). */
export const bodyText = (res: Res): string => (typeof res.body === 'string' ? res.body : decoder.decode(res.body));
export function parseBody(res: Res): unknown {
  try {
    const text = bodyText(res);
    return text === '' ? undefined : parseJsonExact(text);
  } catch {
    return undefined;
  }
}
export const withJson = (res: Res, value: unknown): Res => ({ ...res, body: stringifyExact(value) });
export const headerOf = (res: Res, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};
export function withHeaders(res: Res, change: Record<string, string | string[] | undefined>): Res {
  const headers = { ...res.headers };
  for (const [name, value] of Object.entries(change)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return { ...res, headers };
}
export const rateLimitNames = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** The three X-RateLimit headers of an answer (undefined where it has none). */
export const rateLimitHeadersOf = (res: Res) => Object.fromEntries(rateLimitNames.map((name) => [name, headerOf(res, name)]));
export const withoutRateLimitHeaders = (res: Res) => withHeaders(res, { 'x-ratelimit-limit': undefined, 'x-ratelimit-remaining': undefined, 'x-ratelimit-reset': undefined });
export const isJsonAnswer = (res: Res) => /^application\/json/i.test(headerOf(res, 'content-type') ?? '') && bodyText(res) !== '';

/** An Error answer in place of `res`, keeping its other headers (the rate-limit ones above all). */
export function asError(res: Res, status: number, code: string, message: string): Res {
  const { location: _l, allow: _a, ...headers } = res.headers;
  return { status, headers: { ...headers, 'content-type': 'application/json; charset=utf-8' }, body: stringifyExact({ code, message, status }) };
}
/** Answers a refusal of its own: the mock counts a harmless stand-in request, its headers kept. */
export const refuseWith = async (forward: (req: Req) => Promise<Res>, req: Req, status: number, code: string, message: string) =>
  asError(await forward({ method: 'GET', url: '/v1/pets?limit=1', headers: req.headers.authorization === undefined ? {} : { authorization: req.headers.authorization }, body: '' }), status, code, message);

export type Pet = Record<string, unknown>;
/** Applies `change` to every pet of a 2xx answer (a list, or one pet). */
export function mapPets(res: Res, change: (pet: Pet) => Pet): Res {
  if (res.status < 200 || res.status >= 300) return res;
  const body = parseBody(res);
  if (Array.isArray(body)) return withJson(res, body.map((pet) => (pet && typeof pet === 'object' ? change(pet as Pet) : pet)));
  if (body && typeof body === 'object') return withJson(res, change(body as Pet));
  return res;
}
/** Keeps the pets of a 200 list answer that `keep` accepts. */
export function mapListOut(res: Res, keep: (pet: Pet) => boolean): Res {
  const body = res.status === 200 ? parseBody(res) : undefined;
  return Array.isArray(body) ? withJson(res, (body as Pet[]).filter(keep)) : res;
}

// ---------------------------------------------------------------------------------------------
// The contract's values
// ---------------------------------------------------------------------------------------------

export const statuses = ['available', 'pending', 'sold'];
export const MINUTE = 60_000;
export const DAY = 86_400_000;
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';
export const planPerMinute: Record<string, number> = { 'demo-free': 60, 'demo-pro': 300 };
export const planPerDay: Record<string, number> = { 'demo-free': 1_000, 'demo-pro': 10_000 };

/** The demo key a request presents, read as the mock reads it (scheme in any case, spaces around). */
export function keyOf(req: Req): string | undefined {
  const credentials = parseAuthorization(req.headers.authorization);
  return credentials.kind === 'bearer' && demoKeys.has(credentials.token) ? credentials.token : undefined;
}
export const hasValidKey = (req: Req) => keyOf(req) !== undefined;
export const isRead = (req: Req) => req.method === 'GET' || req.method === 'HEAD';
/** An HTTP-date (IMF-fixdate) of an instant in ms. */
export const httpDate = (ms: number) => new Date(ms).toUTCString();
/** A deployment that changes each answer of the mock: `now` is the deployment's clock when it answered. */
export const onAnswers = (change: (res: MockRes, req: Req, now: number) => Res): Transform => async (req, forward, env) => change(await forward(req), req, env.now());

/** A header's value as a whole number, when it is one (digits only). */
export const numberHeader = (res: Res, name: string): number | undefined => {
  const value = headerOf(res, name);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
};
