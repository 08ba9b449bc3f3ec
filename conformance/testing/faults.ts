// Deployments that each break one rule of the contract, and the check that must catch it.
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import type { MockOptions } from '../../mock/index.ts';
import { isCreate, isGetPet, isList, json, path, query, withJson, withQuery, type Req, type Res, type Transform } from './deployment.ts';

export interface Fault {
  name: string;
  /** The check id that must fail. */
  caughtBy: string;
  /** The generated case whose finding names the fault, when one does. */
  caseName?: string;
  /** The fault shows only when the rate-limit probe runs. */
  needsProbe?: boolean;
  transform: Transform;
  mockOptions?: MockOptions;
}

/** The answer turned into an Error of another status, its other headers kept. */
const asError = (res: Res, status: number, code: string): Res => ({ ...res, status, headers: { ...res.headers, 'content-type': 'application/json' }, body: stringifyExact({ code, message: 'refused', status }) });

/** Rewrites a create's JSON body; a body that does not parse goes on unchanged. */
const onCreateBody = (change: (body: unknown, req: Req) => unknown): Transform => (req, forward) => {
  if (!isCreate(req)) return forward(req);
  let body: unknown;
  try {
    body = parseJsonExact(req.body);
  } catch {
    return forward(req);
  }
  return forward({ ...req, body: stringifyExact(change(body, req)) });
};

const validKey = (req: Req) => /^Bearer demo-(free|pro|business|enterprise)$/.test(req.headers.authorization ?? '');
/** Serves a request as if it carried a valid key. */
const asEnterprise = (req: Req): Req => ({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } });

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
    return isGetPet(req) && res.status === 404 ? { ...res, status: 200, body: stringifyExact({ id: 1, name: 'Ghost', categoryId: 1 }) } : res;
  } },
  // createPet
  { name: 'drops the status it is sent', caughtBy: 'create-pet', transform: (req, forward) => {
    if (!isCreate(req)) return forward(req);
    try {
      const { status: _dropped, ...rest } = parseJsonExact(req.body) as Record<string, unknown>;
      return forward({ ...req, body: stringifyExact(rest) });
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
      const body = parseJsonExact(req.body);
      if (body && typeof body === 'object' && !('name' in body)) return forward({ ...req, body: stringifyExact({ ...body, name: 'Nameless' }) });
    } catch { /* malformed JSON stays malformed */ }
    return forward(req);
  } },
  { name: 'answers a malformed body with 500', caughtBy: 'status-codes', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && (json(res) as { code?: string } | undefined)?.code === 'MALFORMED_JSON' ? { ...res, status: 500, body: stringifyExact({ code: 'INTERNAL', message: 'boom', status: 500 }) } : res;
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
    if (res.status !== 401 || res.body === '') return res;
    const { code: _gone, ...rest } = json(res) as Record<string, unknown>;
    return withJson(res, rest);
  }) },
  // rate-limit headers
  { name: 'omits the rate-limit headers on 401', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => {
    if (res.status !== 401) return res;
    const { 'x-ratelimit-limit': _l, 'x-ratelimit-remaining': _r, 'x-ratelimit-reset': _s, ...headers } = res.headers;
    return { ...res, headers };
  }) },
  { name: 'sends Reset as seconds until the reset', caughtBy: 'rate-limit-headers', transform: async (req, forward, env) => {
    const res = await forward(req);
    return { ...res, headers: { ...res.headers, 'x-ratelimit-reset': String(Number(res.headers['x-ratelimit-reset']) - Math.floor(env.now() / 1000)) } };
  } },
  { name: 'sends Reset in milliseconds', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-reset': `${res.headers['x-ratelimit-reset']}000` } })) },
  { name: 'says more remain than the limit', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': String(Number(res.headers['x-ratelimit-limit']) + 5) } })) },
  { name: 'never counts Remaining down', caughtBy: 'rate-limit-headers', transform: onAnswers((res) => ({ ...res, headers: { ...res.headers, 'x-ratelimit-remaining': String(Number(res.headers['x-ratelimit-limit']) - 1) } })) },
  { name: 'omits Retry-After on every 429 after the first', caughtBy: 'rate-limit-headers', needsProbe: true, transform: (() => {
    let seen = 0;
    return onAnswers((res) => {
      if (res.status !== 429 || seen++ === 0) return res;
      const { 'retry-after': _gone, ...headers } = res.headers;
      return { ...res, headers };
    });
  })() },
  // rate-limit probe
  { name: 'never enforces the limit it announces', caughtBy: 'rate-limit-probe', needsProbe: true, transform: unenforcedLimit() },
  { name: 'sends 429 without Retry-After', caughtBy: 'rate-limit-probe', needsProbe: true, transform: onAnswers((res) => {
    const { 'retry-after': _gone, ...headers } = res.headers;
    return { ...res, headers };
  }) },
  { name: 'throttles while Remaining says 10 are left', caughtBy: 'rate-limit-probe', needsProbe: true, transform: onAnswers((res) => (res.status === 200 && Number(res.headers['x-ratelimit-remaining']) === 9 && Number(res.headers['x-ratelimit-limit']) === 300
    ? { status: 429, headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': '30' }, body: stringifyExact({ code: 'RATE_LIMITED', message: 'slow down', status: 429 }) }
    : res)) },
  // Bodies at the edges of the schema
  { name: 'creates a pet from an empty body', caughtBy: 'create-pet', caseName: 'create-pet/body/empty', transform: (req, forward) => forward(isCreate(req) && req.body === '' ? { ...req, body: '{"name":"Empty","categoryId":1}' } : req) },
  { name: 'truncates a fractional categoryId', caughtBy: 'create-pet', caseName: 'create-pet/body/categoryId/float', transform: onCreateBody((body) => {
    const pet = body as Record<string, unknown>;
    return typeof pet?.categoryId === 'number' && !Number.isInteger(pet.categoryId) ? { ...pet, categoryId: Math.trunc(pet.categoryId) } : body;
  }) },
  { name: 'accepts a categoryId beyond int64', caughtBy: 'create-pet', caseName: 'create-pet/body/categoryId/beyond-int64', transform: (req, forward) => forward(isCreate(req) ? { ...req, body: req.body.replace(/"categoryId":9223372036854775808\b/, '"categoryId":7') } : req) },
  { name: 'reads the status in any case', caughtBy: 'create-pet', caseName: 'create-pet/body/status/case-variant', transform: onCreateBody((body) => {
    const pet = body as Record<string, unknown>;
    return typeof pet?.status === 'string' ? { ...pet, status: pet.status.toLowerCase() } : body;
  }) },
  // "400 | The body is missing required fields or has invalid values": the contract names the status.
  { name: 'refuses a body missing a required field with 422', caughtBy: 'create-pet', caseName: 'create-pet/body/name/missing', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && res.status === 400 ? asError(res, 422, 'UNPROCESSABLE_ENTITY') : res;
  } },
  { name: 'takes the first pet of a top-level array', caughtBy: 'create-pet', caseName: 'create-pet/body/array', transform: onCreateBody((body) => (Array.isArray(body) ? body[0] : body)) },
  { name: 'turns a numeric name into a string', caughtBy: 'create-pet', caseName: 'create-pet/body/name/number', transform: onCreateBody((body) => {
    const pet = body as Record<string, unknown>;
    return typeof pet?.name === 'number' ? { ...pet, name: String(pet.name) } : body;
  }) },
  { name: 'answers a categoryId past 2^53 rounded', caughtBy: 'create-pet', caseName: 'create-pet/body/categoryId/max-safe', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && res.status === 201 ? { ...res, body: res.body.replace(/"categoryId":9007199254740991\b/, '"categoryId":9007199254740992') } : res;
  } },
  // Ids at the int64 edges
  { name: 'serves a pet for an id past int64', caughtBy: 'get-pet', caseName: 'get-pet/path/petId/beyond-int64', transform: (req, forward) => forward(isGetPet(req) && path(req).endsWith('/9223372036854775808') ? { ...req, url: '/v1/pets/1' } : req) },
  { name: 'serves a pet for a negative id', caughtBy: 'get-pet', caseName: 'get-pet/path/petId/negative', transform: (req, forward) => forward(isGetPet(req) && path(req).endsWith('/-1') ? { ...req, url: '/v1/pets/1' } : req) },
  { name: 'answers int64\'s maximum with 500', caughtBy: 'get-pet', caseName: 'get-pet/path/petId/int64-max', transform: async (req, forward) => {
    const res = await forward(req);
    return isGetPet(req) && path(req).endsWith('/9223372036854775807') ? asError(res, 500, 'INTERNAL') : res;
  } },
  { name: 'refuses int64\'s maximum as an id with 400', caughtBy: 'get-pet', caseName: 'get-pet/path/petId/int64-max', transform: async (req, forward) => {
    const res = await forward(req);
    return isGetPet(req) && path(req).endsWith('/9223372036854775807') ? asError(res, 400, 'BAD_ID') : res;
  } },
  // Every read of an id a pet may have gets its neighbour, whichever pet the suite takes from the list (the order is open).
  { name: 'returns another pet than the one asked for', caughtBy: 'get-pet', caseName: 'get-pet/path/petId/known', transform: async (req, forward) => {
    const id = isGetPet(req) ? /^\/v1\/pets\/([1-9]\d{0,5})$/.exec(path(req))?.[1] : undefined;
    return forward(id === undefined ? req : { ...req, url: `/v1/pets/${Number(id) > 1 ? Number(id) - 1 : 2}` });
  } },
  // The key presented other ways
  { name: 'accepts the key with characters added', caughtBy: 'auth', caseName: 'auth/list-pets/near-miss/add-end', transform: (req, forward) => forward(/^bearer\s+demo-pro\S/i.test(req.headers.authorization ?? '') ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-pro' } } : req) },
  { name: 'compares keys without regard to case', caughtBy: 'auth', caseName: 'auth/get-pet/near-miss/case-middle', transform: (req, forward) => forward(/^bearer\s+demo-pro$/i.test(req.headers.authorization ?? '') ? { ...req, headers: { ...req.headers, authorization: 'Bearer demo-pro' } } : req) },
  { name: 'parses a form as a pet', caughtBy: 'create-pet', caseName: 'create-pet/body/form-urlencoded', transform: (req, forward) => {
    if (!isCreate(req) || req.headers['content-type'] !== 'application/x-www-form-urlencoded') return forward(req);
    const form = Object.fromEntries(new URLSearchParams(req.body));
    return forward({ ...req, headers: { ...req.headers, 'content-type': 'application/json' }, body: stringifyExact({ ...form, categoryId: Number(form.categoryId) }) });
  } },
  { name: 'refuses JSON labelled with a charset', caughtBy: 'create-pet', caseName: 'create-pet/body/charset', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && /charset/.test(req.headers['content-type'] ?? '') ? asError(res, 415, 'UNSUPPORTED_MEDIA_TYPE') : res;
  } },
  { name: 'accepts the key in an X-API-Key header', caughtBy: 'auth', caseName: 'auth/list-pets/key-in-other-header', transform: (req, forward) => forward(req.headers['x-api-key'] && !req.headers.authorization ? { ...req, headers: { ...req.headers, authorization: `Bearer ${req.headers['x-api-key']}` } } : req) },
  { name: 'takes the id a client sends', caughtBy: 'pet-lifecycle', caseName: 'pet-lifecycle/create-with-id', transform: async (req, forward) => {
    const res = await forward(req);
    const sent = isCreate(req) ? /"id":(\d+)/.exec(req.body)?.[1] : undefined;
    return sent && res.status === 201 ? withJson(res, { ...(json(res) as object), id: Number(sent) }) : res;
  } },
  { name: 'mangles names outside ASCII', caughtBy: 'create-pet', caseName: 'create-pet/body/name/unicode', transform: onCreateBody((body) => {
    const pet = body as Record<string, unknown>;
    return typeof pet?.name === 'string' ? { ...pet, name: pet.name.replace(/[^\x20-\x7e]/g, '?') } : body;
  }) },
  { name: 'accepts the key in the query string', caughtBy: 'auth', caseName: 'auth/list-pets/key-in-query', transform: (req, forward) => {
    const token = query(req).get('access_token');
    return forward(token && !req.headers.authorization ? { ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } } : req);
  } },
  { name: 'accepts the key under Basic', caughtBy: 'auth', caseName: 'auth/list-pets/basic-scheme', transform: (req, forward) => {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    return forward(basic ? { ...req, headers: { ...req.headers, authorization: `Bearer ${Buffer.from(basic[1]!, 'base64').toString().replace(/:$/, '')}` } } : req);
  } },
  { name: 'takes an empty Authorization header for a valid one', caughtBy: 'auth', caseName: 'auth/list-pets/empty-header', transform: (req, forward) => forward(req.headers.authorization === '' ? asEnterprise(req) : req) },
  { name: 'refuses the run\'s key on POST', caughtBy: 'auth', caseName: 'auth/create-pet/valid-key', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && validKey(req) ? asError(res, 401, 'UNAUTHORIZED') : res;
  } },
  // Authentication before validation
  { name: 'validates the body before the key', caughtBy: 'auth', caseName: 'auth/first/empty-object/second-credentials-key', transform: (req, forward) => {
    if (!isCreate(req) || validKey(req)) return forward(req);
    try {
      const body = parseJsonExact(req.body) as Record<string, unknown> | null;
      return forward(body && typeof body === 'object' && !('name' in body) ? asEnterprise(req) : req);
    } catch {
      return forward(req);
    }
  } },
  { name: 'looks a pet up before checking the key', caughtBy: 'auth', caseName: 'auth/first/unknown-id/unknown-key', transform: async (req, forward) => {
    if (!isGetPet(req) || validKey(req)) return forward(req);
    const res = await forward(asEnterprise(req));
    return res.status === 404 ? res : forward(req);
  } },
  { name: 'checks limit before the key', caughtBy: 'auth', caseName: 'auth/first/bad-limit/quoted-key', transform: (req, forward) => forward(isList(req) && query(req).get('limit') === '0' && !validKey(req) ? asEnterprise(req) : req) },
  // Stateful sequences
  { name: 'gives a new pet the id of a listed one', caughtBy: 'pet-lifecycle', caseName: 'pet-lifecycle/create-1', transform: async (req, forward) => {
    const res = await forward(req);
    return isCreate(req) && res.status === 201 ? withJson(res, { ...(json(res) as object), id: 3 }) : res;
  } },
  { name: 'gives two new pets one id', caughtBy: 'pet-lifecycle', caseName: 'pet-lifecycle/create-2', transform: (() => {
    let firstId: number | undefined;
    return async (req, forward) => {
      const res = await forward(req);
      if (!isCreate(req) || res.status !== 201 || !req.body.includes('lifecycle')) return res;
      firstId ??= (json(res) as { id: number }).id;
      return withJson(res, { ...(json(res) as object), id: firstId });
    };
  })() },
  { name: 'never lists the pets it creates', caughtBy: 'pet-lifecycle', caseName: 'pet-lifecycle/list-created', transform: async (req, forward) => {
    const res = await forward(req);
    const body = json(res);
    return isList(req) && res.status === 200 && Array.isArray(body) ? withJson(res, body.filter((p: { id: number }) => p.id <= 60)) : res;
  } },
  { name: 'ignores limit when status is also given', caughtBy: 'status-filter', caseName: 'list-pets/query/status/with-limit', transform: (req, forward) => forward(isList(req) && query(req).has('status') && query(req).has('limit') ? withQuery(req, (q) => q.delete('limit')) : req) },
  { name: 'reads the status filter in any case', caughtBy: 'status-filter', caseName: 'list-pets/query/status/case-variant', transform: (req, forward) => forward(isList(req) && query(req).has('status') ? withQuery(req, (q) => q.set('status', q.get('status')!.toLowerCase())) : req) },
  { name: 'reads limit=1.5 as 1', caughtBy: 'pagination', caseName: 'list-pets/query/limit/float', transform: (req, forward) => forward(isList(req) && query(req).get('limit') === '1.5' ? withQuery(req, (q) => q.set('limit', '1')) : req) },
  { name: 'caps a limit beyond int64 at 100', caughtBy: 'pagination', caseName: 'list-pets/query/limit/beyond-int64', transform: (req, forward) => forward(isList(req) && (query(req).get('limit')?.length ?? 0) > 15 ? withQuery(req, (q) => q.set('limit', '100')) : req) },
  // Passive rules on every answer
  { name: 'lists a categoryId beyond int64', caughtBy: 'response-schema', transform: async (req, forward) => {
    const res = await forward(req);
    return isList(req) && res.status === 200 ? { ...res, body: res.body.replace(/"categoryId":\d+/, '"categoryId":9223372036854775808') } : res;
  } },
  { name: 'answers a bad limit with 500', caughtBy: 'status-codes', transform: async (req, forward) => {
    const res = await forward(req);
    return isList(req) && res.status === 400 ? { ...res, status: 500, body: stringifyExact({ code: 'INTERNAL', message: 'boom', status: 500 }) } : res;
  } },
];
