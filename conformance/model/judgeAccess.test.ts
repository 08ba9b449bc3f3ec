import { beforeEach, describe, expect, it } from 'vitest';
import type { Exchange } from '../http/exchange.ts';
import { judgeAccess } from './judgeAccess.ts';
import { errorBody, ex, failuresOf, freshState, judgementsOf, ofRule, petJson, rate, resetSeq, viewOf, type ExParts } from './testing/modelExchanges.ts';

beforeEach(resetSeq);

const access = (exchange: Exchange) => judgeAccess(exchange, viewOf(exchange), freshState());
const outcomes = (exchange: Exchange, rule: Parameters<typeof ofRule>[1]) => ofRule(access(exchange), rule).map((j) => j.outcome);
/** An answer carrying the rate-limit headers, and an Error body for a status of 400 or more. */
const answer = (parts: Omit<ExParts, 'headers'> & { headers?: Record<string, string> }) =>
  ex({ ...parts, headers: { ...rate(9, { limit: 10 }), ...parts.headers }, ...(parts.body === undefined && parts.status >= 400 && parts.method !== 'HEAD' ? { body: errorBody(parts.status) } : {}) });

describe('auth.keyless-refused: without a valid key, every operation answers 401', () => {
  it.each([
    ['GET', '/pets'],
    ['POST', '/pets'],
    ['GET', '/pets/1'],
  ])('holds %s %s without a key answered 401', (method, path) => {
    const exchange = answer({ method, path, auth: 'none', status: 401, ...(method === 'POST' ? { requestBody: { name: 'A', categoryId: 1 } } : {}) });
    expect(outcomes(exchange, 'auth.keyless-refused')).toEqual(['held']);
    expect(failuresOf(access(exchange))).toEqual([]);
  });

  it('fails GET /pets without a key answered 200, saying no Authorization was sent', () => {
    const [failure] = failuresOf(access(answer({ auth: 'none', status: 200, body: '[]' })), 'auth.keyless-refused');
    expect(failure!.message).toContain('GET /pets (200): no Authorization header must be answered 401 with an Error body');
  });

  it('fails getPet with a stranger\'s key answered 404, naming the Authorization sent', () => {
    const [failure] = failuresOf(access(answer({ path: '/pets/1', auth: 'Bearer stranger', status: 404 })), 'auth.keyless-refused');
    expect(failure!.message).toContain('Authorization "Bearer stranger" must be answered 401');
  });

  it('fails an invalid key answered 403 (the contract says 401)', () => {
    expect(outcomes(answer({ auth: 'Bearer stranger', status: 403 }), 'auth.keyless-refused')).toEqual(['failure']);
  });

  it('fails a create without a key whose JSON body lacks fields, answered 400 (the key is judged first)', () => {
    expect(outcomes(answer({ method: 'POST', auth: 'none', requestBody: { name: 'A' }, status: 400 }), 'auth.keyless-refused')).toEqual(['failure']);
  });

  it('lets a create without a key whose body is not JSON be refused 400 (a server may parse before it authenticates)', () => {
    expect(ofRule(access(answer({ method: 'POST', auth: 'none', requestBody: '{"name":', status: 400 })), 'auth.keyless-refused')).toEqual([]);
  });

  it('lets a create without a key be refused 413 or 415', () => {
    expect(ofRule(access(answer({ method: 'POST', auth: 'none', requestBody: 'x'.repeat(10), status: 413 })), 'auth.keyless-refused')).toEqual([]);
    expect(ofRule(access(answer({ method: 'POST', auth: 'none', requestBody: 'name=A', requestHeaders: { 'content-type': 'text/plain' }, status: 415 })), 'auth.keyless-refused')).toEqual([]);
  });

  it('lets listStoreOrders without a key be refused any way, and fails it served', () => {
    expect(outcomes(answer({ path: '/store/orders', auth: 'none', status: 404 }), 'auth.keyless-refused')).toEqual(['held']);
    const [failure] = failuresOf(access(answer({ path: '/store/orders', auth: 'none', status: 200, body: '[]' })), 'auth.keyless-refused');
    expect(failure!.message).toContain('served without a valid key (no Authorization header)');
  });

  it('says nothing of 429, 502, 503 and 504 (a quota, or no word on the rule)', () => {
    for (const status of [429, 502, 503, 504]) expect(access(answer({ auth: 'none', status }))).toEqual([]);
  });

  it('does not hold a lower-case `bearer` with the key to 401: it carries the key', () => {
    expect(ofRule(access(answer({ auth: 'bearer $PETS_API_KEY', status: 200, body: '[]' })), 'auth.keyless-refused')).toEqual([]);
    expect(ofRule(access(answer({ auth: 'bearer $PETS_API_KEY', status: 401 })), 'auth.keyless-refused')).toEqual([]);
  });

  it('does not fail a deployment that serves `Bearer` with two spaces before the key', () => {
    expect(failuresOf(access(answer({ auth: 'Bearer  $PETS_API_KEY', status: 200, body: '[]' })))).toEqual([]);
  });
});

describe('unlisted.not-served-without-key: no method or path is served without the key', () => {
  it('holds HEAD /pets without a key refused 401', () => {
    expect(outcomes(answer({ method: 'HEAD', auth: 'none', status: 401 }), 'unlisted.not-served-without-key')).toEqual(['held']);
  });

  it('fails HEAD /pets without a key answered 200, naming the method and path', () => {
    const [failure] = failuresOf(access(answer({ method: 'HEAD', auth: 'none', status: 200 })), 'unlisted.not-served-without-key');
    expect(failure!.message).toContain('HEAD /pets was served without a valid key (no Authorization header)');
  });

  it('fails a trailing-slash path served without a key', () => {
    expect(outcomes(answer({ path: '/pets/', auth: 'none', status: 200, body: '[]' }), 'unlisted.not-served-without-key')).toEqual(['failure']);
  });

  it('fails a DELETE with a stranger\'s key answered 204', () => {
    const [failure] = failuresOf(access(answer({ method: 'DELETE', path: '/pets/1', auth: 'Bearer stranger', status: 204 })), 'unlisted.not-served-without-key');
    expect(failure!.message).toContain('DELETE /pets/1 was served without a valid key (Authorization "Bearer stranger")');
  });

  it('lets OPTIONS without a key be answered 204, a CORS preflight or not', () => {
    const plain = answer({ method: 'OPTIONS', auth: 'none', status: 204, headers: { allow: 'GET, POST' } });
    const preflight = answer({ method: 'OPTIONS', auth: 'none', status: 204, requestHeaders: { Origin: 'https://app.test', 'Access-Control-Request-Method': 'POST' }, headers: { 'access-control-allow-origin': '*' } });
    for (const exchange of [plain, preflight]) {
      expect(failuresOf(access(exchange))).toEqual([]);
      expect(outcomes(exchange, 'unlisted.not-served-without-key')).toEqual(['held']);
    }
  });

  it('lets undocumented methods with the key be served (what they do is the deployment\'s business)', () => {
    for (const exchange of [
      answer({ method: 'PUT', path: '/pets/1', requestBody: { name: 'B', categoryId: 1 }, status: 200, body: petJson({ id: 1, name: 'B', categoryId: 1 }) }),
      answer({ method: 'DELETE', path: '/pets/1', status: 204 }),
      answer({ method: 'HEAD', status: 200 }),
    ]) {
      expect(failuresOf(access(exchange))).toEqual([]);
      expect(ofRule(access(exchange), 'unlisted.not-served-without-key')).toEqual([]);
    }
  });
});

describe('status.no-5xx: an undocumented method or path is never answered 5xx', () => {
  it('holds an undocumented method refused 405', () => {
    expect(outcomes(answer({ method: 'PATCH', path: '/pets/1', status: 405 }), 'status.no-5xx')).toEqual(['held']);
  });

  it('holds 501 for a method the server does not know (RFC 9110, 15.6.2)', () => {
    const exchange = answer({ method: 'BREW', path: '/pets', status: 501 });
    expect(outcomes(exchange, 'status.no-5xx')).toEqual(['held']);
    expect(failuresOf(access(exchange))).toEqual([]);
  });

  it('fails an undocumented request answered 500, naming the status', () => {
    const [failure] = failuresOf(access(answer({ method: 'PUT', path: '/pets/1', status: 500 })), 'status.no-5xx');
    expect(failure!.message).toContain('PUT /pets/1 (500): a method or path the spec does not list was answered 500');
  });

  it('says nothing of 502, 503 and 504 (a gateway\'s answer)', () => {
    for (const status of [502, 503, 504]) expect(access(answer({ method: 'PUT', path: '/pets/1', status }))).toEqual([]);
  });

  it('judges nothing of documented operations under this rule', () => {
    expect(ofRule(access(answer({ status: 500 })), 'status.no-5xx')).toEqual([]);
  });
});

describe('unlisted.refusal-shape: a refusal of an undocumented request carries the rate-limit headers and an Error', () => {
  it('holds a 405 with the headers and an Error whose status is 405', () => {
    expect(outcomes(answer({ method: 'PUT', path: '/pets/1', status: 405 }), 'unlisted.refusal-shape')).toEqual(['held']);
  });

  it('holds a HEAD refused with the headers and no body', () => {
    expect(outcomes(answer({ method: 'HEAD', auth: 'none', status: 401 }), 'unlisted.refusal-shape')).toEqual(['held']);
  });

  it('fails a refusal without the rate-limit headers, naming them', () => {
    const exchange = ex({ method: 'PUT', path: '/pets/1', status: 405, body: errorBody(405) });
    const [failure] = failuresOf(access(exchange), 'unlisted.refusal-shape');
    expect(failure!.message).toContain('refused lacks x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, which every response carries');
  });

  it('fails a proxy\'s HTML 405, quoting the body', () => {
    const [failure] = failuresOf(access(answer({ method: 'DELETE', path: '/pets/1', status: 405, body: '<html><body>405 Not Allowed</body></html>', headers: { 'content-type': 'text/html' } })), 'unlisted.refusal-shape');
    expect(failure!.message).toContain('has the body "<html><body>405 Not Allowed</body></html>", not an Error {code, message, status: 405}');
  });

  it('fails an Error whose status is not the HTTP status', () => {
    expect(outcomes(answer({ path: '/owners', status: 404, body: errorBody(400) }), 'unlisted.refusal-shape')).toEqual(['failure']);
  });

  it('does not judge the shape of a 501 (not a 4xx refusal)', () => {
    expect(ofRule(access(answer({ method: 'BREW', status: 501, body: 'Not Implemented', headers: { 'content-type': 'text/plain' } })), 'unlisted.refusal-shape')).toEqual([]);
  });
});
