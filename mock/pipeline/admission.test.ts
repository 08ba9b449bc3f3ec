import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';
import type { MockState } from '../state/mockState.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const operations = [
  { method: 'GET', url: '/v1/pets' },
  { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } },
  { method: 'GET', url: '/v1/pets/1' },
  { method: 'GET', url: '/v1/store/orders' },
] as const;

const rateHeaders = (headers: Record<string, unknown>) => ({
  limit: Number(headers['x-ratelimit-limit']),
  remaining: Number(headers['x-ratelimit-remaining']),
  reset: Number(headers['x-ratelimit-reset']),
});

describe('authentication', () => {
  it.each(operations)('answers 401 with WWW-Authenticate: Bearer on $method $url without a key', async (op) => {
    const res = await mock.call({ ...op, key: null });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="pets"/);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it.each([
    ['an unknown key', 'Bearer not-a-key', /not valid/],
    ['another scheme', 'Basic ZGVtbzpmcmVl', /"Basic" scheme/],
    ['a bare key', 'demo-free', /scheme/],
    ['an empty bearer', 'Bearer ', /malformed|Missing/],
    ['a quoted key', 'Bearer "demo-free"', /malformed/],
  ])('answers 401 for %s', async (_, authorization, message) => {
    const res = await mock.call({ url: '/v1/pets', key: null, headers: { authorization } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: expect.stringMatching(message) });
  });

  it('answers invalid_token for an unknown key (RFC 6750)', async () => {
    const res = await mock.call({ url: '/v1/pets', key: 'not-a-key' });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="pets", error="invalid_token"');
  });

  it('accepts the bearer scheme in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      const res = await mock.call({ url: '/v1/pets', key: null, headers: { authorization: `${scheme} demo-pro` } });
      expect(res.statusCode).toBe(200);
    }
  });

  it('answers an unknown route with 404 and a wrong method with 405 even without a key, and counts them', async () => {
    const unknown = await mock.call({ url: '/v1/nowhere', key: null });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['x-ratelimit-remaining']).toBe('59');
    const wrong = await mock.call({ method: 'DELETE', url: '/v1/pets', key: null });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers['x-ratelimit-remaining']).toBe('58');
  });

  it('checks the key before validating the request', async () => {
    const res = await mock.call({ url: '/v1/pets?limit=0', key: null });
    expect(res.statusCode).toBe(401);
  });

  it('accepts every demo key', async () => {
    for (const key of ['demo-free', 'demo-pro', 'demo-business', 'demo-enterprise']) {
      expect((await mock.call({ url: '/v1/pets', key })).statusCode).toBe(200);
    }
  });
});

describe('rate-limit headers', () => {
  it.each([
    ['200', { url: '/v1/pets' }],
    ['201', { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } }],
    ['400', { url: '/v1/pets?limit=0' }],
    ['401', { url: '/v1/pets', key: null }],
    ['404', { url: '/v1/pets/9999' }],
    ['404 route', { url: '/v1/nothing' }],
    ['405', { method: 'DELETE', url: '/v1/pets' }],
    ['415', { method: 'POST', url: '/v1/pets', payload: 'x', headers: { 'content-type': 'text/plain' } }],
  ] as const)('are on a %s answer', async (_, options) => {
    const res = await mock.call(options as never);
    const { limit, remaining, reset } = rateHeaders(res.headers);
    expect(Number.isInteger(limit) && Number.isInteger(remaining) && Number.isInteger(reset)).toBe(true);
    expect(remaining).toBeLessThanOrEqual(limit);
    expect(reset).toBeGreaterThan(mock.clock.now() / 1000);
  });

  it('reports each plan\'s minute limit and counts down', async () => {
    for (const [key, limit] of [['demo-free', 60], ['demo-pro', 300], ['demo-business', 1000], ['demo-enterprise', 1_000_000]] as const) {
      const first = rateHeaders((await mock.call({ url: '/v1/pets', key })).headers);
      const second = rateHeaders((await mock.call({ url: '/v1/pets', key })).headers);
      expect(first.limit).toBe(limit);
      expect(first.remaining).toBe(limit - 1);
      expect(second.remaining).toBe(limit - 2);
    }
  });

  it('reports the end of the current minute as a Unix time in seconds', async () => {
    const { reset } = rateHeaders((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers);
    expect(reset).toBe(Math.ceil((mock.clock.now() - (mock.clock.now() % 60_000) + 60_000) / 1000));
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After once the minute quota is spent', async () => {
    for (let i = 0; i < 60; i++) expect((await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' })).statusCode).toBe(200);
    mock.clock.advance(10_000);
    const res = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(res.headers['retry-after']).toBe('50');
    expect(rateHeaders(res.headers)).toMatchObject({ limit: 60, remaining: 0 });
  });

  it('lets the key back in when the minute window ends', async () => {
    for (let i = 0; i < 61; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    mock.clock.advance(60_000);
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).statusCode).toBe(200);
  });

  it('enforces the day quota across minutes', async () => {
    await mock.app.close();
    mock = await testMock({ keys: [{ key: 'tiny', plan: 'enterprise', perMinute: 3, perDay: 4 }] });
    for (let i = 0; i < 3; i++) await mock.call({ url: '/v1/pets', key: 'tiny' });
    mock.clock.advance(60_000);
    const last = await mock.call({ url: '/v1/pets', key: 'tiny' });
    expect(rateHeaders(last.headers)).toMatchObject({ limit: 4, remaining: 0 });
    mock.clock.advance(60_000);
    const refused = await mock.call({ url: '/v1/pets', key: 'tiny' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
  });

  it('keeps each key\'s count apart', async () => {
    for (let i = 0; i < 61; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    expect((await mock.call({ url: '/v1/pets', key: 'demo-pro' })).statusCode).toBe(200);
  });

  it('counts requests without a valid key per client address under the Free limits', async () => {
    for (let i = 0; i < 60; i++) {
      const res = await mock.call({ url: '/v1/pets', key: i % 2 ? null : 'wrong', remoteAddress: '10.0.0.1' });
      expect(res.statusCode).toBe(401);
    }
    const refused = await mock.call({ url: '/v1/pets', key: null, remoteAddress: '10.0.0.1' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('60');
    expect((await mock.call({ url: '/v1/pets', key: null, remoteAddress: '10.0.0.2' })).statusCode).toBe(401);
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
  });

  it('counts requests without a key by the proxy\'s address, unless told to trust the proxy\'s X-Forwarded-For', async () => {
    const viaProxy = (m: TestMock, client: string) => m.call({ url: '/v1/pets', key: null, remoteAddress: '10.9.9.9', headers: { 'x-forwarded-for': client } });
    for (const client of ['203.0.113.1', '203.0.113.2']) await viaProxy(mock, client);
    expect((await viaProxy(mock, '203.0.113.3')).headers['x-ratelimit-remaining']).toBe('57');

    for (const trustProxy of [1, ['10.0.0.0/8']]) {
      const trusting = await testMock({ trustProxy });
      try {
        for (const client of ['203.0.113.1', '203.0.113.2']) await viaProxy(trusting, client);
        expect((await viaProxy(trusting, '203.0.113.3')).headers['x-ratelimit-remaining']).toBe('59');
        expect((await viaProxy(trusting, '203.0.113.1')).headers['x-ratelimit-remaining']).toBe('58');
        if (Array.isArray(trustProxy)) {
          // Trusting addresses, a sender outside them cannot choose its bucket (hops trust whoever connects).
          const spoofed = await trusting.call({ url: '/v1/pets', key: null, remoteAddress: '198.51.100.7', headers: { 'x-forwarded-for': '203.0.113.1' } });
          expect(spoofed.headers['x-ratelimit-remaining']).toBe('59');
        }
      } finally {
        await trusting.app.close();
      }
    }
  });

  it('keeps anonymous counts for a bounded number of addresses, however many send', async () => {
    await mock.app.close();
    mock = await testMock({ maxAnonymousBuckets: 50 });
    for (let i = 0; i < 500; i++) await mock.call({ url: '/v1/pets', key: null, remoteAddress: `10.1.${i >> 8}.${i & 255}` });
    expect((mock.app.mock as MockState).anonymousLimiter.size).toBe(50);
    expect((mock.app.mock as MockState).limiter.size).toBe(0);
  });

  it('spends no quota on refused requests', async () => {
    await mock.app.close();
    mock = await testMock({ keys: [{ key: 'tiny', plan: 'enterprise', perMinute: 2, perDay: 4 }], ban: { threshold: 100 } });
    for (let i = 0; i < 2; i++) await mock.call({ url: '/v1/pets', key: 'tiny' });
    for (let i = 0; i < 10; i++) expect((await mock.call({ url: '/v1/pets', key: 'tiny' })).statusCode).toBe(429);
    mock.clock.advance(60_000);
    const res = await mock.call({ url: '/v1/pets', key: 'tiny' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('bans a key that keeps sending while throttled, with its own code and a Retry-After covering the ban', async () => {
    await mock.app.close();
    mock = await testMock({ ban: { threshold: 5, seconds: 600 } });
    for (let i = 0; i < 60; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    for (let i = 0; i < 4; i++) expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).json().code).toBe('RATE_LIMITED');
    const banned = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect(banned.statusCode).toBe(429);
    expect(banned.json()).toMatchObject({ code: 'API_KEY_BANNED', status: 429 });
    expect(banned.headers['retry-after']).toBe('600');
    mock.clock.advance(120_000);
    const still = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect(still.json().code).toBe('API_KEY_BANNED');
    expect(still.headers['retry-after']).toBe('480');
    mock.clock.advance(480_000);
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).statusCode).toBe(200);
  });

  it('tells an address without a key that the address, not an API key, is blocked', async () => {
    await mock.app.close();
    mock = await testMock({ ban: { threshold: 3, seconds: 600 } });
    for (let i = 0; i < 60; i++) await mock.call({ url: '/v1/pets', key: null });
    for (let i = 0; i < 2; i++) await mock.call({ url: '/v1/pets', key: null });
    const banned = await mock.call({ url: '/v1/pets', key: null });
    expect(banned.statusCode).toBe(429);
    expect(banned.json()).toMatchObject({ code: 'RATE_LIMITED', status: 429, message: expect.stringMatching(/address/) });
    expect(banned.json().message).not.toMatch(/API key is/);
    expect(banned.headers['retry-after']).toBe('600');
  });

  it('names the valid key of a throttled request in the request log', async () => {
    for (let i = 0; i < 61; i++) await mock.call({ url: '/v1/pets?limit=1', key: 'demo-free' });
    const log = (await mock.app.inject({ url: '/__mock/requests?status=429' })).json();
    expect(log.requests).toHaveLength(1);
    expect(log.requests[0].key).toBe('demo…(9)');
  });
});
