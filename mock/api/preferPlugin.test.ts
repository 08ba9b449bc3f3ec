import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

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

  it('answers 429 with a Retry-After to the end of the window and the rate-limit headers', async () => {
    mock.clock.advance(20_000);
    const res = await prefer('/v1/pets', 'code=429', { key: 'demo-free' });
    expect(res.statusCode).toBe(429);
    expect(res.json().status).toBe(429);
    expect(res.headers['retry-after']).toBe('40');
    expect(res.headers['x-ratelimit-limit']).toBe('60');
  });

  it('answers any documented status, such as 400 on createPet, without touching the store', async () => {
    const res = await prefer('/v1/pets', 'code=400', { method: 'POST', payload: { name: 'Rex', categoryId: 1 } });
    expect(res.statusCode).toBe(400);
    expect(mock.app.mock.store.size).toBe(60);
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
    expect(res.json().map((p: { id: number }) => p.id)).toEqual([1, 2]);
  });
});
