import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
afterEach(() => mock?.app.close());

describe('a method a path of the API does not serve', () => {
  it.each(['DELETE', 'PUT', 'PATCH', 'PROPFIND', 'MKCOL', 'SEARCH'])('is one 405, with the Allow the spec gives the path, whether or not routers know %s', async (method) => {
    mock = await testMock();
    const res = await mock.call({ method: method as 'GET', url: '/v1/pets/1', key: null });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(res.json()).toEqual({ code: 'METHOD_NOT_ALLOWED', status: 405, message: `${method} is not allowed on /v1/pets/{petId}. Use GET, HEAD, OPTIONS.` });
    // Counted against the address's quota, as every API request is, but not refused for want of a key.
    expect(res.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('lists POST beside GET for the collection, and no OPTIONS when CORS is off', async () => {
    mock = await testMock({ corsOrigins: false });
    const res = await mock.call({ method: 'DELETE', url: '/v1/pets' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
  });
});
