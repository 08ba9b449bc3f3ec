import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
afterEach(() => mock.app.close());

const preflight = (origin: string, method = 'POST') => mock.call({
  method: 'OPTIONS',
  url: '/v1/pets',
  key: null,
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
});

describe('CORS', () => {
  it('answers a preflight from any origin by default, allowing Authorization and Content-Type', async () => {
    mock = await testMock();
    const res = await preflight('http://localhost:5173');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toEqual(expect.stringContaining('authorization'));
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toEqual(expect.stringContaining('content-type'));
    expect(res.headers['access-control-allow-methods']).toMatch(/POST/);
  });

  it('does not count preflights against the rate limit, but reports the limit on them', async () => {
    mock = await testMock();
    for (let i = 0; i < 70; i++) expect((await preflight('http://localhost:5173')).statusCode).toBe(204);
    const res = await preflight('http://localhost:5173');
    expect(res.headers['x-ratelimit-remaining']).toBe('60');
    expect((await mock.call({ url: '/v1/pets', key: null })).statusCode).toBe(401);
  });

  it('exposes the rate-limit, Retry-After, Location, Deprecation and Sunset headers to pages', async () => {
    mock = await testMock();
    const res = await mock.call({ url: '/v1/pets', headers: { origin: 'http://localhost:5173' } });
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Location', 'Deprecation', 'Sunset']));
  });

  it('puts the CORS headers on errors too, so a page can read a 401 or 429', async () => {
    mock = await testMock();
    const res = await mock.call({ url: '/v1/pets', key: null, headers: { origin: 'http://localhost:5173' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('allows only the configured origins', async () => {
    mock = await testMock({ corsOrigins: ['http://app.test'] });
    expect((await preflight('http://app.test')).headers['access-control-allow-origin']).toBe('http://app.test');
    expect((await preflight('http://evil.test')).headers['access-control-allow-origin']).toBeUndefined();
    const res = await mock.call({ url: '/v1/pets', headers: { origin: 'http://app.test' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(res.headers.vary).toMatch(/Origin/i);
  });

  it('sends no CORS headers when CORS is off', async () => {
    mock = await testMock({ corsOrigins: false });
    const res = await mock.call({ url: '/v1/pets', headers: { origin: 'http://app.test' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});
