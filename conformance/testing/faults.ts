// Deployments that each break one rule of the contract, and the check that must catch it.
import type { MockOptions } from '../../mock/app.ts';
import { isCreate, isGetPet, isList, json, path, query, withJson, withQuery, type Res, type Transform } from './deployment.ts';

export interface Fault {
  name: string;
  /** The check id that must fail. */
  caughtBy: string;
  transform: Transform;
  mockOptions?: MockOptions;
}

const mapPets = (res: Res, change: (pet: Record<string, unknown>) => Record<string, unknown>): Res => {
  const body = json(res);
  if (res.status >= 300) return res;
  return withJson(res, Array.isArray(body) ? body.map(change) : change(body as Record<string, unknown>));
};

const onPets = (change: (pet: Record<string, unknown>) => Record<string, unknown>): Transform => async (req, forward) => {
  const res = await forward(req);
  return isList(req) || isGetPet(req) || isCreate(req) ? mapPets(res, change) : res;
};

const onAnswers = (change: (res: Res) => Res): Transform => async (req, forward) => change(await forward(req));

/** Answers with its own rate-limit headers for a Pro-sized quota that it never enforces. */
function unenforcedLimit(): Transform {
  let remaining = 300;
  return async (req, forward) => {
    const authorized = /^Bearer demo-pro$/i.test(req.headers.authorization ?? '');
    const res = await forward(authorized ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } } : req);
    if (!authorized) return res;
    remaining = Math.max(0, remaining - 1);
    return { ...res, headers: { ...res.headers, 'x-ratelimit-limit': '300', 'x-ratelimit-remaining': String(remaining) } };
  };
}

export const faults: Fault[] = [
  // auth
  { name: 'accepts any bearer token', caughtBy: 'auth', transform: (req, forward) => forward(/^Bearer /i.test(req.headers.authorization ?? '') ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-pro' } } : req) },
  { name: 'accepts the key under any scheme', caughtBy: 'auth', transform: (req, forward) => forward({ ...req, headers: { ...req.headers, authorization: (req.headers.authorization ?? '').replace(/^\w+ /, 'Bearer ') } }) },
  { name: 'serves store orders without a key', caughtBy: 'auth', transform: (req, forward) => forward(path(req) === '/v1/store/orders' ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } } : req) },
  // pagination
  { name: 'returns 25 pets by default', caughtBy: 'pagination', transform: (req, forward) => forward(isList(req) && !query(req).has('limit') && !query(req).has('status') ? withQuery(req, (q) => q.set('limit', '25')) : req) },
  { name: 'accepts limit=101', caughtBy: 'pagination', transform: (req, forward) => forward(isList(req) && query(req).get('limit') === '101' ? withQuery(req, (q) => q.set('limit', '100')) : req) },
  { name: 'caps limit=100 at 50', caughtBy: 'pagination', transform: (req, forward) => forward(isList(req) && query(req).get('limit') === '100' && !query(req).has('status') ? withQuery(req, (q) => q.set('limit', '50')) : req) },
  { name: 'ignores limit=1', caughtBy: 'pagination', transform: (req, forward) => forward(isList(req) && query(req).get('limit') === '1' ? withQuery(req, (q) => q.delete('limit')) : req) },
  // status filter
  { name: 'ignores the status filter', caughtBy: 'status-filter', transform: (req, forward) => forward(isList(req) && ['available', 'pending', 'sold'].includes(query(req).get('status') ?? '') ? withQuery(req, (q) => q.delete('status')) : req) },
  { name: 'accepts an unknown status', caughtBy: 'status-filter', transform: (req, forward) => forward(isList(req) && query(req).get('status') === 'not-a-status' ? withQuery(req, (q) => q.delete('status')) : req) },
  // getPet
  { name: 'answers an unknown pet with 200', caughtBy: 'get-pet', transform: async (req, forward) => {
    const res = await forward(req);
    return isGetPet(req) && res.status === 404 ? { ...res, status: 200, body: JSON.stringify({ id: 1, name: 'Ghost', categoryId: 1 }) } : res;
  } },
  // createPet
  { name: 'drops the status it is sent', caughtBy: 'create-pet', transform: (req, forward) => {
    if (!isCreate(req)) return forward(req);
    try {
      const { status: _dropped, ...rest } = JSON.parse(req.body);
      return forward({ ...req, body: JSON.stringify(rest) });
    } catch {
      return forward(req);
    }
  } },
  { name: 'does not keep what it creates', caughtBy: 'create-pet', transform: async (req, forward) => {
    if (!isCreate(req)) return forward(req);
    const res = await forward(req);
    return res.status === 201 ? withJson(res, { ...(json(res) as object), id: 987654321 }) : res;
  } },
  { name: 'creates a pet without a name', caughtBy: 'create-pet', transform: (req, forward) => {
    if (!isCreate(req)) return forward(req);
    try {
      const body = JSON.parse(req.body);
      if (body && typeof body === 'object' && !('name' in body)) return forward({ ...req, body: JSON.stringify({ ...body, name: 'Nameless' }) });
    } catch { /* malformed JSON stays malformed */ }
    return forward(req);
  } },
  { name: 'answers a malformed body with 500', caughtBy: 'status-codes', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && (json(res) as { code?: string } | undefined)?.code === 'MALFORMED_JSON' ? { ...res, status: 500, body: JSON.stringify({ code: 'INTERNAL', message: 'boom', status: 500 }) } : res;
  } },
  { name: 'answers a create with 200', caughtBy: 'status-codes', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && res.status === 201 ? { ...res, status: 200 } : res;
  } },
  // content type
  { name: 'labels JSON as text/plain', caughtBy: 'content-type', transform: onAnswers((res) => (res.status === 200 ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } } : res)) },
  { name: 'answers 404 with an HTML page', caughtBy: 'content-type', transform: onAnswers((res) => (res.status === 404 ? { ...res, headers: { ...res.headers, 'content-type': 'text/html' }, body: '<h1>Not Found</h1>' } : res)) },
  // response schema
  { name: 'lists pets without categoryId', caughtBy: 'response-schema', transform: async (req, forward) => {
    const res = await forward(req);
    return isList(req) ? mapPets(res, ({ categoryId: _gone, ...pet }) => pet) : res;
  } },
  { name: 'sends ids as strings', caughtBy: 'response-schema', transform: onPets((pet) => ({ ...pet, id: String(pet.id) })) },
  { name: 'sends a status outside PetStatus', caughtBy: 'response-schema', transform: onPets((pet) => ({ ...pet, status: pet.status === 'sold' ? 'adopted' : pet.status })) },
  { name: 'gives Error a status unlike the HTTP status', caughtBy: 'response-schema', transform: onAnswers((res) => (res.status === 404 ? withJson(res, { ...(json(res) as object), status: 400 }) : res)) },
  { name: 'sends an Error without code', caughtBy: 'response-schema', transform: onAnswers((res) => {
    if (res.status !== 401) return res;
    const { code: _gone, ...rest } = json(res) as Record<string, unknown>;
    return withJson(res, rest);
  }) },
  // rate-limit headers
  { name: 'omits the rate-limit headers on 401', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => {
    if (res.status !== 401) return res;
    const { 'x-ratelimit-limit': _l, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _s, ...headers } = res.headers;
    return { ...res, headers };
  }) },
  { name: 'sends Reset as seconds until the reset', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-reset': String(Number(res.headers['x-ratelimit-reset']) - Math.floor(Date.now() / 1000)) } })) },
  { name: 'sends Reset in milliseconds', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-reset': `${res.headers['x-ratelimit-reset']}000` } })) },
  { name: 'says more remain than the limit', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': String(Number(res.headers['x-ratelimit-limit']) + 5) } })) },
  { name: 'never counts Remaining down', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': String(Number(res.headers['x-ratelimit-limit']) - 1) } })) },
  // rate-limit probe
  { name: 'never enforces the limit it announces', caughtBy: 'rate-limit-probe', transform: unenforcedLimit() },
  { name: 'sends 429 without Retry-After', caughtBy: 'rate-limit-probe', transform: onAnswers((res) => {
    const { 'retry-after': _gone, ...headers } = res.headers;
    return { ...res, headers };
  }) },
  { name: 'throttles while Remaining says 10 are left', caughtBy: 'rate-limit-probe', transform: onAnswers((res) => (res.status === 200 && Number(res.headers['x-ratelimit-remaining']) === 9 && Number(res.headers['x-ratelimit-limit']) === 300
    ? { status: 429, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': '30' }, body: JSON.stringify({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }) }
    : res)) },
];
