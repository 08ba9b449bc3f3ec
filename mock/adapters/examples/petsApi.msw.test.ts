// The frontend guide's Vitest example (docs/frontend.md), run as it is printed (only the import of the adapter differs).
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPetsHandlers } from '../msw.ts';

const api = 'http://127.0.0.1:4010/v1'; // the default baseUrl: where `npx pets-mock` serves
const { handlers, mock } = await createPetsHandlers();
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset()); // fixtures, keys, counters, request log and clock back as they started
afterAll(() => server.close());

const as = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

it('lists pets with the plan headers', async () => {
  const res = await fetch(`${api}/pets?limit=5`, { headers: as('demo-free') });
  expect(res.status).toBe(200);
  expect(await res.json()).toHaveLength(5);
  expect(res.headers.get('x-ratelimit-limit')).toBe('60');
  expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
});

it('answers 401 with an Error body without a key', async () => {
  const res = await fetch(`${api}/pets`);
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
});

it('reads back what it creates, until the reset', async () => {
  const created = await fetch(`${api}/pets`, { method: 'POST', headers: as('demo-pro'), body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) });
  expect(created.status).toBe(201);
  const pet = await created.json();
  expect(created.headers.get('location')).toBe(`/v1/pets/${pet.id}`);
  expect(await (await fetch(`${api}/pets/${pet.id}`, { headers: as('demo-pro') })).json()).toEqual(pet);

  await mock.reset();
  expect((await fetch(`${api}/pets/${pet.id}`, { headers: as('demo-pro') })).status).toBe(404);
});

it('validates bodies against the spec', async () => {
  const res = await fetch(`${api}/pets`, { method: 'POST', headers: as('demo-pro'), body: JSON.stringify({ name: 'Biscuit', categoryId: '2' }) });
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ code: 'INVALID_BODY', status: 400 });
});

it('throttles the Free plan at 60 a minute until the clock moves on', async () => {
  await mock.freezeClock();
  for (let i = 0; i < 60; i++) expect((await fetch(`${api}/pets?limit=1`, { headers: as('demo-free') })).status).toBe(200);
  const throttled = await fetch(`${api}/pets?limit=1`, { headers: as('demo-free') });
  expect(throttled.status).toBe(429);
  expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);

  await mock.advanceClock(60);
  expect((await fetch(`${api}/pets?limit=1`, { headers: as('demo-free') })).status).toBe(200);
});

it('forces an error state with Prefer', async () => {
  const res = await fetch(`${api}/pets/1`, { headers: { ...as('demo-pro'), prefer: 'code=404' } });
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject({ status: 404 });
});

it('records the requests it answered', async () => {
  await fetch(`${api}/pets/1`, { headers: as('demo-pro') });
  await fetch(`${api}/pets/999999`, { headers: as('demo-pro') });
  expect(await mock.requests({ status: '4xx' })).toMatchObject([{ method: 'GET', path: '/v1/pets/999999', status: 404 }]);
});
