import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { componentSchema } from '../../spec/loadSpec.ts';
import { compileSchema } from '../../spec/compileSchema.ts';
import { categories } from '../../fixtures/categories.ts';
import { errorCatalogue } from '../errors/errorCatalogue.ts';
import { testMock, testSpec, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const prefer = (url: string, value: string, extra: Parameters<TestMock['call']>[0] = {}) => mock.call({ url, ...extra, headers: { prefer: value, ...extra.headers } });

describe('Prefer: code=', () => {
  it('answers 404 from the spec, with an Error whose status is 404, and the rate-limit headers', async () => {
    const res = await prefer('/v1/pets/1', 'code=404', { key: 'demo-pro' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: expect.any(String), message: expect.any(String), status: 404 });
    expect(res.headers['x-ratelimit-limit']).toBe('300');
    expect(res.headers['x-ratelimit-remaining']).toBe('299');
    expect(res.headers['preference-applied']).toBe('code=404');
    expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('answers a forced error from the catalogue without asking Prism, so it never waits for Prism to load', async () => {
    const asked: string[] = [];
    const prism = {
      async respond(op: { operationId: string }): Promise<never> {
        asked.push(op.operationId);
        throw new Error('Prism is still loading');
      },
      warm() {},
      close: async () => {},
    };
    const own = await testMock({ prism });
    try {
      const res = await own.call({ url: '/v1/pets/7', key: 'demo-pro', headers: { prefer: 'code=404' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'PET_NOT_FOUND', status: 404, message: expect.stringContaining('7') });
      expect(asked).toEqual([]);
    } finally {
      await own.app.close();
    }
  });

  it('answers 429 with a Retry-After to the end of the window and the rate-limit headers', async () => {
    mock.clock.advance(20_000);
    const res = await prefer('/v1/pets', 'code=429', { key: 'demo-free' });
    expect(res.statusCode).toBe(429);
    expect(res.json().status).toBe(429);
    expect(res.headers['retry-after']).toBe('40');
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  it('says the window is spent on a forced 429, as a real one does: X-RateLimit-Remaining 0', async () => {
    const res = await prefer('/v1/pets', 'code=429', { key: 'demo-free' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    // Only the forced answer says so: the quota itself is untouched.
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('58');
  });

  it('answers any documented status, such as 400 on createPet, without touching the store', async () => {
    const res = await prefer('/v1/pets', 'code=400', { method: 'POST', payload: { name: 'Rex', categoryId: 1 } });
    expect(res.statusCode).toBe(400);
    expect(await mock.app.mock.store.count()).toBe(60);
  });

  it('names no field of the body in a forced 400, which the body may well have', async () => {
    const res = await prefer('/v1/pets', 'code=400', { method: 'POST', payload: { name: 'Rex', categoryId: 1 } });
    expect(res.json()).toMatchObject({ code: 'INVALID_BODY', status: 400, message: expect.stringMatching(/not a valid NewPet/) });
    expect(res.json().message).not.toMatch(/required property/);
  });

  it('names a delay it honoured in Preference-Applied, with the real answer', async () => {
    const res = await prefer('/v1/pets?limit=1', 'delay=0');
    expect(res.statusCode).toBe(200);
    expect(res.headers['preference-applied']).toBe('delay=0');
    expect((await prefer('/v1/pets?limit=1', 'respond-async')).headers['preference-applied']).toBeUndefined();
  });

  it('answers 200 with the spec\'s example shape on listPets', async () => {
    const res = await prefer('/v1/pets', 'code=200');
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
  });

  it('refuses an undocumented code with 400 naming the documented ones', async () => {
    const res = await prefer('/v1/pets', 'code=418');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_PREFER_HEADER', status: 400, message: expect.stringMatching(/code=418.*listPets.*200, 401, 429/) });
  });

  it('checks the key first', async () => {
    const res = await prefer('/v1/pets', 'code=200', { key: 'wrong' });
    expect(res.statusCode).toBe(401);
  });

  it('is not applied to the control API or unknown routes', async () => {
    expect((await prefer('/v1/nowhere', 'code=200')).statusCode).toBe(404);
  });
});

describe('Prefer: code= for server errors, beyond the contract', () => {
  it.each([
    [500, 'INTERNAL_ERROR'],
    [502, 'BAD_GATEWAY'],
    [503, 'SERVICE_UNAVAILABLE'],
    [504, 'GATEWAY_TIMEOUT'],
  ] as const)('answers code=%i on any operation with the catalogue\'s %s, the rate-limit headers and Preference-Applied', async (status, code) => {
    for (const [url, method] of [['/v1/pets', 'GET'], ['/v1/pets', 'POST'], ['/v1/pets/1', 'GET'], ['/v1/store/orders', 'GET']] as const) {
      const res = await prefer(url, `code=${status}`, { method, key: 'demo-pro', ...(method === 'POST' ? { payload: { name: 'Rex', categoryId: 1 } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ code, status, message: expect.stringContaining(`This ${status} was forced by Prefer: code=${status}: nothing was applied`) });
      expect(res.headers['preference-applied']).toBe(`code=${status}`);
      expect(res.headers['x-ratelimit-limit']).toBe('300');
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      expect(res.headers['retry-after']).toBe(status === 503 ? '30' : undefined);
    }
    // Nothing was applied: the POST created no pet.
    expect(await mock.app.mock.store.count()).toBe(60);
  });

  it('tells the developer what forced the 500, not that the mock has a bug', async () => {
    const res = await prefer('/v1/pets', 'code=500');
    expect(res.json().message).toMatch(/^The server failed unexpectedly\. .*Send the request without code=500 for the real answer\.$/);
    expect(res.json().message).not.toMatch(/bug/);
  });

  it('still refuses a server error it does not give, naming the four it does', async () => {
    const res = await prefer('/v1/pets', 'code=501');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_PREFER_HEADER', message: expect.stringMatching(/code=501 .*Use one of 200, 401, 429, or a server error beyond the contract: 500, 502, 503, 504\./) });
  });
});

describe('Prefer: dynamic, seed and example', () => {
  it('generates data with dynamic=true, the same for the same seed', async () => {
    const first = await prefer('/v1/pets/1', 'code=200, dynamic=true, seed=abc');
    const second = await prefer('/v1/pets/1', 'code=200, dynamic=true, seed=abc');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(second.json());
    expect(first.json()).toMatchObject({ id: expect.any(Number), name: expect.any(String), categoryId: expect.any(Number) });
    expect(first.headers['preference-applied']).toBe('code=200, dynamic=true, seed=abc');
  });

  it('refuses an example the spec does not name', async () => {
    const res = await prefer('/v1/pets', 'example=cats');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/example=cats.*names no examples/);
  });

  it('refuses dynamic values other than true and false', async () => {
    expect((await prefer('/v1/pets', 'dynamic=maybe')).statusCode).toBe(400);
  });

  it('leaves the store answering when Prefer asks for nothing it knows', async () => {
    const res = await prefer('/v1/pets?limit=2', 'return=minimal');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((p: { id: number }) => p.id)).toEqual([60, 59]);
  });
});

describe('forced answers look like real ones', () => {
  it.each([
    ['/v1/pets/7', 'GET', 404, 'PET_NOT_FOUND', /No pet has the id 7\./],
    ['/v1/pets', 'POST', 400, 'INVALID_BODY', /request body/],
    ['/v1/pets', 'GET', 401, 'UNAUTHORIZED', /API key/],
    ['/v1/pets', 'GET', 429, 'RATE_LIMITED', /Retry-After/],
  ] as const)('answers %s %s with Prefer: code=%i as the catalogue\'s %s', async (url, method, status, code, message) => {
    const res = await prefer(url, `code=${status}`, { method, ...(method === 'POST' ? { payload: { name: 'Rex', categoryId: 1 } } : {}) });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ code, message: expect.stringMatching(message), status });
    expect(Object.keys(errorCatalogue)).toContain(res.json().code);
    if (status === 401) expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="pets"/);
    if (status === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('answers the frontend guide\'s "Prefer: dynamic=true, seed=42" with believable pets, the same each time', async () => {
    const first = await prefer('/v1/pets', 'dynamic=true, seed=42');
    const second = await prefer('/v1/pets', 'dynamic=true, seed=42');
    expect(first.statusCode).toBe(200);
    const pets = first.json();
    expect(pets).toEqual(second.json());
    expect(pets.length).toBeGreaterThanOrEqual(3);
    expect(pets.length).toBeLessThanOrEqual(20);
    const validate = compileSchema(componentSchema(await testSpec(), 'Pets'));
    expect(validate(pets)).toBe(true);
    const categoryIds = new Set<number>(categories.map((c) => c.id));
    for (const pet of pets) {
      expect(pet.id).toBeGreaterThan(0);
      expect(categoryIds.has(pet.categoryId)).toBe(true);
      expect(pet.name).toMatch(/^[A-Z][A-Za-z' -]+$/);
      expect(pet.name).not.toMatch(/lorem|ipsum|string/i);
    }
  });

  it.each(['1', '2', 'abc', 'zz-top'])('gives valid, believable pets for seed=%s', async (seed) => {
    const res = await prefer('/v1/pets?limit=5&status=sold', `dynamic=true, seed=${seed}`);
    const pets = res.json();
    expect(pets.length).toBeGreaterThan(0);
    expect(pets.length).toBeLessThanOrEqual(5);
    for (const pet of pets) expect(pet).toMatchObject({ id: expect.any(Number), status: 'sold' });
    expect(pets.every((p: { id: number }) => p.id > 0 && Number.isSafeInteger(p.id))).toBe(true);
  });

  it('gives a different list for another seed', async () => {
    expect((await prefer('/v1/pets', 'dynamic=true, seed=1')).json()).not.toEqual((await prefer('/v1/pets', 'dynamic=true, seed=2')).json());
  });

  it('keeps the requested id in a forced getPet', async () => {
    const res = await prefer('/v1/pets/4242', 'code=200, dynamic=true, seed=x');
    expect(res.json()).toMatchObject({ id: 4242, name: expect.any(String) });
  });
});

describe('Prefer on an invalid request', () => {
  it.each([
    ['/v1/pets?limit=0', 'GET', 'code=200', 'INVALID_QUERY_PARAMETER'],
    ['/v1/pets?limit=0', 'GET', 'dynamic=true, seed=1', 'INVALID_QUERY_PARAMETER'],
    ['/v1/pets/abc', 'GET', 'code=404', 'INVALID_PATH_PARAMETER'],
    ['/v1/pets', 'POST', 'code=201', 'INVALID_BODY'],
  ] as const)('answers %s %s with its real 400 whatever it prefers (%s), as Prism does', async (url, method, preference, code) => {
    const res = await prefer(url, preference, { method, ...(method === 'POST' ? { payload: { name: 'Rex', categoryId: '1' } } : {}) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, status: 400 });
    if (method === 'POST') expect(res.json().message).toMatch(/categoryId/);
  });

  it('names in Preference-Applied only what it applied: a delay, not the code it did not give', async () => {
    const invalid = { method: 'POST', payload: { name: 5, categoryId: 1 } } as const;
    const refused = await prefer('/v1/pets', 'code=401', invalid);
    expect(refused.json()).toMatchObject({ code: 'INVALID_BODY', status: 400 });
    expect(refused.headers['preference-applied']).toBeUndefined();
    const delayed = await prefer('/v1/pets', 'code=401, delay=5', invalid);
    expect(delayed.statusCode).toBe(400);
    expect(delayed.headers['preference-applied']).toBe('delay=5');
  });

  it('names no preference on the 500 it answers when Prism fails', async () => {
    const prism = { respond: async (): Promise<never> => Promise.reject(new Error('Prism could not load')), warm() {}, close: async () => {} };
    const own = await testMock({ prism });
    try {
      const res = await own.call({ url: '/v1/pets', headers: { prefer: 'code=200, dynamic=true' } });
      expect(res.statusCode).toBe(500);
      expect(res.headers['preference-applied']).toBeUndefined();
    } finally {
      await own.app.close();
    }
  });

  it('still refuses a preference it cannot honour before reading the request', async () => {
    const res = await prefer('/v1/pets?limit=0', 'code=418');
    expect(res.json()).toMatchObject({ code: 'INVALID_PREFER_HEADER', status: 400 });
  });
});
