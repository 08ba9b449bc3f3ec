import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  mock.call({ method: 'POST', url: '/v1/pets', payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } });

describe('GET /v1/pets', () => {
  it('returns the newest 20 pets, highest id first, by default', async () => {
    const res = await mock.call({ url: '/v1/pets' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json().map((p: { id: number }) => p.id)).toEqual(Array.from({ length: 20 }, (_, i) => 60 - i));
  });

  it('lists a pet created on top of the fixtures first, with and without its status filter', async () => {
    const created = (await post({ name: 'Newcomer', categoryId: 2, status: 'pending' })).json();
    expect((await mock.call({ url: '/v1/pets?limit=1' })).json()).toEqual([created]);
    expect((await mock.call({ url: '/v1/pets?limit=1&status=pending' })).json()).toEqual([created]);
  });

  it.each([1, 7, 100])('honours limit=%i', async (limit) => {
    const res = await mock.call({ url: `/v1/pets?limit=${limit}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(Math.min(limit, 60));
  });

  it('returns only pets with the requested status', async () => {
    for (const status of ['available', 'pending', 'sold']) {
      const pets = (await mock.call({ url: `/v1/pets?status=${status}&limit=100` })).json();
      expect(pets.length).toBeGreaterThan(0);
      expect(pets.every((p: { status: string }) => p.status === status)).toBe(true);
    }
  });

  it.each(['0', '101', '-1', 'abc', '1.5', '', '1e3', '1e1', '0x10', '%205', '20&limit=30'])('answers 400 for limit=%s', async (limit) => {
    const res = await mock.call({ url: `/v1/pets?limit=${limit}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_QUERY_PARAMETER', status: 400 });
    expect(res.json().message).toMatch(/limit/);
  });

  it.each(['unknown', 'AVAILABLE', ''])('answers 400 for status=%s', async (status) => {
    const res = await mock.call({ url: `/v1/pets?status=${status}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_QUERY_PARAMETER', status: 400 });
  });

  it('ignores query parameters the contract does not define', async () => {
    expect((await mock.call({ url: '/v1/pets?offset=5' })).statusCode).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await mock.call({ method: 'HEAD', url: '/v1/pets' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
  });
});

describe('POST /v1/pets', () => {
  it('answers 201 with the created pet, its new id and a Location, and it can be read back', async () => {
    const res = await post({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect(res.statusCode).toBe(201);
    const pet = res.json();
    expect(pet).toEqual({ id: 61, name: 'Rex', categoryId: 3, status: 'pending' });
    expect(res.headers.location).toBe('/v1/pets/61');
    expect((await mock.call({ url: '/v1/pets/61' })).json()).toEqual(pet);
    expect((await mock.call({ url: '/v1/pets?limit=100' })).json()).toContainEqual(pet);
  });

  it('gives a pet created without a status the status available', async () => {
    expect((await post({ name: 'Rex', categoryId: 3 })).json().status).toBe('available');
  });

  it('leaves the status absent when the default status is turned off', async () => {
    await mock.app.close();
    mock = await testMock({ defaultStatus: null });
    expect((await post({ name: 'Rex', categoryId: 3 })).json()).toEqual({ id: 61, name: 'Rex', categoryId: 3 });
  });

  it('ignores an id sent by the client and drops unknown fields', async () => {
    const res = await post({ id: 5, name: 'Rex', categoryId: 3, colour: 'brown' });
    expect(res.json()).toEqual({ id: 61, name: 'Rex', categoryId: 3, status: 'available' });
    expect((await mock.call({ url: '/v1/pets/5' })).json().name).not.toBe('Rex');
  });

  it('assigns unique increasing ids', async () => {
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await post({ name: `P${i}`, categoryId: 1 })).json().id);
    expect(ids).toEqual([61, 62, 63, 64, 65]);
  });

  it('accepts JSON with a charset parameter', async () => {
    expect((await post({ name: 'Rex', categoryId: 1 }, { 'content-type': 'application/json; charset=utf-8' })).statusCode).toBe(201);
  });

  it.each([
    ['name missing', { categoryId: 1 }, /name is required/],
    ['categoryId missing', { name: 'Rex' }, /categoryId is required/],
    ['categoryId as a string', { name: 'Rex', categoryId: '5' }, /categoryId must be a whole number, not "5" \(a string\)\. Send a whole number as a JSON number, without quotes: strings are not converted to numbers\./],
    ['categoryId a fraction', { name: 'Rex', categoryId: 1.5 }, /categoryId must be a whole number, not 1\.5 \(a fraction\)\. Send a whole number\./],
    ['categoryId beyond int64', { name: 'Rex', categoryId: 1e20 }, /categoryId/],
    ['categoryId null', { name: 'Rex', categoryId: null }, /categoryId/],
    ['name a number', { name: 5, categoryId: 1 }, /name must be a string, not 5 \(a whole number\)\. Send it as a JSON string, in quotes: other types are not converted to strings\./],
    ['name null', { name: null, categoryId: 1 }, /name must be a string/],
    ['status outside the enum', { name: 'Rex', categoryId: 1, status: 'adopted' }, /status must be one of available, pending, sold, not "adopted" \(a string\)/],
    ['status null', { name: 'Rex', categoryId: 1, status: null }, /status/],
    ['an empty object', {}, /is required/],
    ['null', 'null', /request body must be a JSON object/],
    ['an array', '[{"name":"Rex","categoryId":1}]', /request body must be a JSON object/],
    ['a string', '"Rex"', /request body must be a JSON object/],
  ])('answers 400 INVALID_BODY for %s', async (_, body, message) => {
    const res = await post(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_BODY', status: 400, message: expect.stringMatching(message) });
  });

  it('answers 400 for a categoryId just past the int64 range, read exactly from the JSON text', async () => {
    for (const digits of ['9223372036854775808', '-9223372036854775809']) {
      const res = await post(`{"name":"Rex","categoryId":${digits}}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_BODY', message: `Invalid request body: categoryId must be a whole number from -9223372036854775808 to 9223372036854775807 (int64), not ${digits} (a whole number). Send a value in range.` });
    }
  });

  it.each(['9007199254740993', '9223372036854775807', '-9223372036854775808', '-9007199254740993'])('keeps the categoryId %s exactly: in the 201, read back, and listed', async (digits) => {
    const res = await post(`{"name":"Big","categoryId":${digits},"status":"sold"}`);
    expect(res.statusCode).toBe(201);
    const pet = `{"id":61,"name":"Big","categoryId":${digits},"status":"sold"}`;
    expect(res.body).toBe(pet);
    expect((await mock.call({ url: '/v1/pets/61' })).body).toBe(pet);
    expect((await mock.call({ url: '/v1/pets?limit=2' })).body).toMatch(new RegExp(`^\\[${pet.replace(/[[\]{}]/g, '\\$&')},\\{"id":60,`));
    expect((await mock.call({ url: '/v1/pets?status=sold&limit=1' })).body).toBe(`[${pet}]`);
  });

  it('takes a whole number however it is spelled (exponent, .0), with the digits of its value, and refuses a fraction a double would round to one', async () => {
    expect((await post('{"name":"A","categoryId":9.007199254740993e15}')).json()).toMatchObject({ id: 61 });
    expect((await post('{"name":"B","categoryId":9007199254740993.0}')).body).toContain('"categoryId":9007199254740993,');
    expect((await post('{"name":"C","categoryId":1e3}')).body).toContain('"categoryId":1000,');
    expect((await mock.call({ url: '/v1/pets/61' })).body).toContain('"categoryId":9007199254740993,');
    const fraction = await post('{"name":"D","categoryId":9007199254740993.5}');
    expect(fraction.json()).toMatchObject({ code: 'INVALID_BODY', message: 'Invalid request body: categoryId must be a whole number, not 9007199254740993.5 (a fraction). Send a whole number.' });
    expect((await post('{"name":"E","categoryId":"9007199254740993"}')).json()).toMatchObject({ code: 'INVALID_BODY', message: expect.stringMatching(/not "9007199254740993" \(a string\)/) });
  });

  it('answers 400 MALFORMED_JSON for malformed JSON', async () => {
    const res = await post('{"name": "Rex",');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'MALFORMED_JSON', status: 400 });
  });

  it('answers 400 for an empty JSON body and for no body at all', async () => {
    expect((await post('')).json()).toMatchObject({ code: 'INVALID_BODY', status: 400 });
    const none = await mock.call({ method: 'POST', url: '/v1/pets' });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 'INVALID_BODY', message: expect.stringMatching(/body is required/) });
  });

  it('answers 400 for a __proto__ key', async () => {
    const res = await post('{"name":"Rex","categoryId":1,"__proto__":{"x":1}}');
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toBe(400);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])('answers 415 for Content-Type %s', async (type) => {
    const res = await post('name=Rex&categoryId=1', { 'content-type': type });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });

  it('answers 413 for a body over the limit and stores nothing', async () => {
    const res = await post({ name: 'x'.repeat(1024 * 1024), categoryId: 1 });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    expect(await mock.app.mock.store.count()).toBe(60);
  });

  it('honours a configured body limit', async () => {
    await mock.app.close();
    mock = await testMock({ bodyLimit: 64 });
    expect((await post({ name: 'x'.repeat(100), categoryId: 1 })).statusCode).toBe(413);
    expect((await post({ name: 'Rex', categoryId: 1 })).statusCode).toBe(201);
  });

  it('stores nothing for a rejected body', async () => {
    await post({ name: 'Rex' });
    expect(await mock.app.mock.store.count()).toBe(60);
  });
});

describe('GET /v1/pets/{petId}', () => {
  it('returns the pet', async () => {
    const res = await mock.call({ url: '/v1/pets/3' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 3, name: expect.any(String), categoryId: expect.any(Number) });
  });

  it('answers 404 PET_NOT_FOUND for an unknown id', async () => {
    const res = await mock.call({ url: '/v1/pets/9999' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'PET_NOT_FOUND', status: 404 });
  });

  it.each(['abc', '1.5', '1e3x', '0x10', '1e1', '99999999999999999999', '9223372036854775808', '-9223372036854775809', '1'.repeat(300)])('answers 400 INVALID_PATH_PARAMETER for petId %s', async (id) => {
    const res = await mock.call({ url: `/v1/pets/${id}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'INVALID_PATH_PARAMETER', status: 400 });
  });

  it('answers 404 for an int64 id beyond what it stores, naming the id as sent', async () => {
    const res = await mock.call({ url: '/v1/pets/9223372036854775807' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('9223372036854775807');
    expect((await mock.call({ url: '/v1/pets/-9223372036854775808' })).statusCode).toBe(404);
  });

  it('says the int64 range when a petId is beyond it', async () => {
    expect((await mock.call({ url: '/v1/pets/9223372036854775808' })).json().message).toMatch(/from -9223372036854775808 to 9223372036854775807/);
  });

  it('marks every answer deprecated, with the contract\'s sunset date', async () => {
    for (const url of ['/v1/pets/1', '/v1/pets/9999', '/v1/pets/abc']) {
      const res = await mock.call({ url });
      expect(res.headers.deprecation).toMatch(/^@\d+$/);
      expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    }
    const unauthorized = await mock.call({ url: '/v1/pets/1', key: null });
    expect(unauthorized.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('does not mark the other operations deprecated', async () => {
    const res = await mock.call({ url: '/v1/pets' });
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
  });
});

describe('GET /v1/store/orders', () => {
  it('is answered from the spec through Prism, with the rate-limit headers', async () => {
    const res = await mock.call({ url: '/v1/store/orders' });
    expect(res.statusCode).toBe(200);
    expect(Array.isArray(res.json())).toBe(true);
    expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  });

  it('lists store orders as objects with no fields, since the contract shows none, the same each time', async () => {
    const first = (await mock.call({ url: '/v1/store/orders' })).json();
    expect(first.length).toBeGreaterThanOrEqual(3);
    expect(first.every((order: unknown) => typeof order === 'object' && order !== null && Object.keys(order).length === 0)).toBe(true);
    expect((await mock.call({ url: '/v1/store/orders' })).json()).toEqual(first);
    const dynamic = (await mock.call({ url: '/v1/store/orders', headers: { prefer: 'dynamic=true, seed=3' } })).json();
    expect(dynamic.length).toBeGreaterThanOrEqual(3);
    expect(dynamic.every((order: object) => Object.keys(order).length === 0)).toBe(true);
  });

  it('answers with a trailing slash and whatever the client accepts', async () => {
    expect((await mock.call({ url: '/v1/store/orders/' })).statusCode).toBe(200);
    expect((await mock.call({ url: '/v1/store/orders', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });

  it('requires a valid key like every operation', async () => {
    const res = await mock.call({ url: '/v1/store/orders', key: 'nope' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});

it('names the id in a 404 also when the path ends with a slash', async () => {
  const mock = await testMock();
  const res = await mock.call({ url: '/v1/pets/9999/' });
  expect(res.json().message).toContain('No pet has the id 9999.');
  await mock.app.close();
});
