// A deployment that keeps the contract while choosing differently from the mock wherever the
// contract leaves the choice open. The suite must pass it, warnings allowed.
import { parseJsonExact } from '../../common/json/exactJson.ts';
import { stringifyExact } from '../../common/json/losslessJson.ts';
import type { MockOptions } from '../../mock/index.ts';
import { integerText, parseLossless, RAW_NUMBER, toJsonText, type LosslessValue } from '../../common/json/losslessJson.ts';
import { isCreate, isGetPet, isList, json, path, query, withQuery, type Req, type Res, type Transform } from './deployment.ts';

/**
 * Ids far past 2^53: JSON.parse reads them only approximately, so the suite must read them
 * losslessly to fetch a pet by the id it was given. Still int64.
 */
const OFFSET = 2n ** 60n;

/** Shifts every `"id": n` of a JSON text by OFFSET, on the digits. */
const shiftIds = (text: string) => text.replace(/"id":(\d+)/g, (_, digits: string) => `"id":${BigInt(digits) + OFFSET}`);

function fromClient(req: Req): Req {
  if (isList(req) && query(req).get('limit') === '') {
    // An empty limit is read as no limit: the contract does not say how one is read.
    return withQuery(req, (q) => q.delete('limit'));
  }
  if (!isGetPet(req)) return req;
  const digits = path(req).split('/').pop()!;
  if (!/^\d+$/.test(digits)) return req;
  // An id below the offset is none of ours: send the mock one it surely lacks.
  const id = BigInt(digits);
  return { ...req, url: `/v1/pets/${id >= OFFSET ? id - OFFSET : 999_999_999n}` };
}

function toClient(req: Req, res: Res, now: number): Res {
  const headers: Record<string, string> = { ...res.headers, 'content-type': 'application/json' };
  delete headers['www-authenticate'];
  // Retry-After as an HTTP-date (RFC 9110, 10.2.3), and a sliding window whose Reset moves with each request.
  if (headers['retry-after']) headers['retry-after'] = new Date(now + Number(headers['retry-after']) * 1000).toUTCString();
  if (headers['x-ratelimit-reset'] && Number(headers['x-ratelimit-remaining']) > 0) headers['x-ratelimit-reset'] = String(Math.ceil(now / 1000) + 60);
  if (headers.location) headers.location = `/v1/pets/${BigInt(headers.location.split('/').pop()!) + OFFSET}`;
  const body = json(res);
  if (res.status >= 400 && body !== undefined) {
    const error = body as { code: string; status: number };
    // Its own error codes and messages, and 422 for a bad query parameter: any 4xx is legal there.
    const status = error.code === 'INVALID_QUERY_PARAMETER' ? 422 : res.status;
    return { status, headers, body: stringifyExact({ code: `err.${error.code.toLowerCase()}`, message: 'The request failed.', status, traceId: 'abc123' }) };
  }
  if (isList(req) && Array.isArray(body)) {
    // Its own order (newest first within the page) and extra fields.
    const extra = body.map((pet: Record<string, unknown>) => stringifyExact({ ...pet, tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' })).reverse();
    return { ...res, headers, body: shiftIds(`[${extra.join(',')}]`) };
  }
  if ((isGetPet(req) || isCreate(req)) && body) return { ...res, headers, body: shiftIds(stringifyExact({ ...(body as object), tags: [] })) };
  return { ...res, headers };
}

export const legalChoices: { transform: Transform; mockOptions: MockOptions } = {
  // No default status: a pet created without one has none.
  mockOptions: { defaultStatus: null },
  transform: async (req, forward, env) => {
    // It does not serve the store orders the contract only mentions.
    if (path(req) === '/v1/store/orders') return toClient(req, await forward({ ...req, url: '/v1/no-such-route' }), env.now());
    return toClient(req, await forward(fromClient(req)), env.now());
  },
};

const planPerMinute: Record<string, number> = { 'demo-free': 60, 'demo-pro': 300 };

/**
 * A deployment that limits each key over a sliding minute instead of the mock's fixed one:
 * Remaining counts the requests of the last 60 s, Reset is when the oldest of them ages out, and a
 * 429 says when to retry in Retry-After. A legal way to keep "requests per minute".
 */
export function slidingWindow(): Transform {
  const sent = new Map<string, number[]>();
  return async (req, forward, env) => {
    const key = /^Bearer (demo-free|demo-pro)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!key) return forward(req);
    const now = env.now();
    const limit = planPerMinute[key]!;
    const log = (sent.get(key) ?? []).filter((t) => t > now - 60_000);
    sent.set(key, log);
    const resetAt = (times: number[]) => String(Math.ceil(((times[0] ?? now) + 60_000) / 1000));
    // Counted before the answer is awaited, as one atomic step: parallel requests each count.
    const over = log.length >= limit;
    if (!over) log.push(now);
    const counted = [...log];
    // The mock answers as an unlimited key would; the window is this deployment's own.
    const res = await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-enterprise' } });
    if (over) {
      const retryAfter = Math.max(1, Math.ceil((log[0]! + 60_000 - now) / 1000));
      return {
        status: 429,
        headers: { ...res.headers, 'content-type': 'application/json', 'retry-after': String(retryAfter), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAt(log) },
        body: stringifyExact({ code: 'RATE_LIMITED', message: 'Too many requests in the last minute.', status: 429 }),
      };
    }
    return { ...res, headers: { ...res.headers, 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - counted.length), 'x-ratelimit-reset': resetAt(counted) } };
  };
}

/**
 * A deployment whose categories are numbered from 2^60 (any int64 is a categoryId), which refuses
 * with 422 a categoryId that names none of them ("Fields of a category record: not shown"). The
 * suite must send back the categoryIds it read, exactly, and never crash on them.
 */
export function categoriesPast2To53(): Transform {
  const offset = 2n ** 60n;
  const shift = (text: string, by: bigint) => text.replace(/"categoryId":(-?\d+)/g, (_, digits: string) => `"categoryId":${BigInt(digits) + by}`);
  return async (req, forward) => {
    // The body read as JSON, whatever its text (spaces, escapes, member order), its integers exact.
    let body: LosslessValue | undefined;
    try {
      body = req.method === 'POST' ? parseLossless(req.body) : undefined;
    } catch {
      body = undefined;
    }
    const pet = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
    const sent = typeof pet?.categoryId === 'bigint' || Number.isInteger(pet?.categoryId) ? integerText(pet!.categoryId) : undefined;
    if (pet && sent !== undefined) {
      const id = BigInt(sent);
      if (id < offset || id > offset + 1_000_000n) {
        const res = await forward({ ...req, body: '{}' });
        if (res.status === 401) return res;
        return { status: 422, headers: { ...res.headers, 'content-type': 'application/json' }, body: stringifyExact({ code: 'UNKNOWN_CATEGORY', message: `No category ${sent}.`, status: 422 }) };
      }
      const res = await forward({ ...req, body: toJsonText({ ...pet, categoryId: `${RAW_NUMBER}${id - offset}` }) });
      return { ...res, body: shift(res.body, offset) };
    }
    const res = await forward(req);
    return { ...res, body: shift(res.body, offset) };
  };
}

/**
 * A deployment whose limits differ from the mock's where the contract leaves them open: a key is
 * banned after 5 refusals in a row for 120 s ("may lead to a temporary ban"), told by its own code;
 * requests without a valid key are counted at 30 a minute and 500 a day; a body over 64 KiB is
 * refused with 413 and its own code ("Maximum length of ... a request body: not shown").
 */
export const legalLimits: { transform: Transform; mockOptions: MockOptions } = {
  mockOptions: { ban: { threshold: 5, seconds: 120 }, keylessLimits: { perMinute: 30, perDay: 500 }, bodyLimit: 64 * 1024 },
  transform: async (req, forward) => {
    const res = await forward(req);
    const codes: Record<string, string> = { API_KEY_BANNED: 'KEY_SUSPENDED', PAYLOAD_TOO_LARGE: 'BODY_TOO_LARGE' };
    const body = res.status >= 400 ? json(res) : undefined;
    const code = (body as { code?: string } | undefined)?.code;
    if (code === undefined || codes[code] === undefined) return res;
    return { ...res, body: stringifyExact({ ...(body as object), code: codes[code] }) };
  },
};

/**
 * A deployment behind a gateway that asks for the key before routing: a request without a valid key
 * to a method or path it does not serve gets 401 (the contract pins 401 only for its operations),
 * OPTIONS is no preflight but a method it does not serve, a categoryId below 1 names no category
 * (400, "invalid values"), getPet carries no Sunset and a 201 no Location (neither shown by the
 * contract). Each a choice the contract leaves open.
 */
const fixtureKey = /^Bearer demo-(free|pro|business|enterprise)$/;

export const legalGateway: { transform: Transform; mockOptions: MockOptions } = {
  mockOptions: {},
  transform: async (req, forward) => {
    let sent = req;
    if (req.method === 'OPTIONS') sent = { ...req, method: 'PUT' };
    else if (isCreate(req)) {
      let categoryId: unknown;
      try {
        categoryId = (parseJsonExact(typeof req.body === 'string' ? req.body : '') as { categoryId?: unknown }).categoryId;
      } catch {
        categoryId = undefined;
      }
      // `{}` is refused as the mock refuses any bad body: after the key and the quota, creating nothing.
      if (typeof categoryId === 'number' && categoryId < 1) sent = { ...req, body: '{}' };
    }
    const res = await forward(sent);
    const headers: Record<string, string> = { ...res.headers };
    delete headers.sunset;
    if (res.status === 201) delete headers.location;
    if (headers.allow) headers.allow = headers.allow.split(', ').filter((m) => m !== 'OPTIONS').join(', ');
    // Without one of the fixture keys, the gateway asks for one before routing; the mock counted the request as the gateway's 401.
    if ((res.status === 404 || res.status === 405) && !fixtureKey.test(req.headers.authorization ?? '')) {
      delete headers.allow;
      return { status: 401, headers: { ...headers, 'content-type': 'application/json', 'www-authenticate': 'Bearer' }, body: stringifyExact({ code: 'UNAUTHORIZED', message: 'A valid API key is required.', status: 401 }) };
    }
    return { ...res, headers };
  },
};
