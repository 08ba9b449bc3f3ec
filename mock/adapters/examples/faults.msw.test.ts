// The frontend guide's "Faults on demand" example (docs/frontend.md), run as it is printed there.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createPetsHandlers } from '../msw.ts';

const api = 'http://127.0.0.1:4010/v1';
const { handlers, mock } = await createPetsHandlers();
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset()); // removes the fault rules too
afterAll(() => server.close());

const headers = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };
const create = () => fetch(`${api}/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) });

it('answers the next 3 creates 503, then creates again', async () => {
  await mock.addFault({ operationId: 'createPet', status: 503, times: 3 });
  for (let i = 0; i < 3; i++) {
    const res = await create();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    expect(await res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  }
  expect((await create()).status).toBe(201);
  expect(await mock.faults()).toMatchObject([{ id: 'fault-1', fired: 3, left: 0 }]);
});

it('fails about one read in ten, the same reads in every run', async () => {
  await mock.addFault({ method: 'GET', status: 500, probability: 0.1, seed: 42 });
  const statuses: number[] = [];
  for (let i = 0; i < 30; i++) statuses.push((await fetch(`${api}/pets?limit=1`, { headers })).status);
  expect(statuses).toContain(500);
  expect(statuses).toContain(200);
});

it('drops the connection: fetch rejects, as it does offline', async () => {
  const rule = await mock.addFault({ operationId: 'listPets', action: 'reset', times: 1 });
  await expect(fetch(`${api}/pets`, { headers })).rejects.toThrow(TypeError);
  expect(await mock.requests()).toMatchObject([{ path: '/v1/pets', status: 0, fault: rule.id }]);
});

it('holds an answer for 30 seconds of the mock\'s clock, then times out', async () => {
  await mock.addFault({ operationId: 'getPet', action: 'stall', stallMs: 30_000, status: 504 });
  const answer = fetch(`${api}/pets/1`, { headers });
  // Once the mock holds it (your UI shows its spinner), move the mock's clock: no real waiting.
  while ((await mock.faults())[0]?.holding !== 1);
  await mock.advanceClock(30);
  expect((await answer).status).toBe(504);
});
