import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { generatePets } from '../../fixtures/generatePets.ts';
import { testSpec } from '../testing.ts';
import { openMock, type Mock } from '../core/openMock.ts';
import { petsMockPlugin } from './fastify.ts';

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const key = { authorization: 'Bearer demo-pro' };

describe('petsMockPlugin, the mock in a user\'s own fastify app', () => {
  it('serves /v1 and /__mock beside the app\'s own routes, and leaves every other path to the app', async () => {
    const app = Fastify();
    closing.push(() => app.close());
    app.get('/health', async () => ({ ok: true }));
    await app.register(petsMockPlugin, { spec: await testSpec(), pets: generatePets({ count: 5 }) });
    expect((await app.inject({ url: '/health' })).json()).toEqual({ ok: true });
    const page = await app.inject({ url: '/v1/pets?limit=2', headers: key });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toHaveLength(2);
    expect(page.headers['x-ratelimit-limit']).toBe('300');
    expect((await app.inject({ method: 'POST', url: '/__mock/reset' })).statusCode).toBe(200);
    // The app's own 404 for its own paths, not the mock's Error body.
    expect((await app.inject({ url: '/elsewhere' })).json()).not.toHaveProperty('code', 'ROUTE_NOT_FOUND');
  });

  it('takes the app\'s JSON bodies as the mock reads them: a create, and a 415 for another type', async () => {
    const app = Fastify();
    closing.push(() => app.close());
    app.post('/echo', async (request) => request.body);
    await app.register(petsMockPlugin, { spec: await testSpec(), pets: [] });
    expect((await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })).json()).toEqual({ a: 1 });
    const created = await app.inject({ method: 'POST', url: '/v1/pets', headers: key, payload: { name: 'Rex', categoryId: 1 } });
    expect(created.statusCode).toBe(201);
    const refused = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...key, 'content-type': 'text/plain' }, payload: 'Rex' });
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });

  it('serves a mock opened by the caller, who keeps it open after the app closes', async () => {
    const mock: Mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 3 }) });
    closing.push(() => mock.close());
    const app = Fastify();
    await app.register(petsMockPlugin, { mock });
    await app.inject({ method: 'POST', url: '/v1/pets', headers: key, payload: { name: 'Kept', categoryId: 2 } });
    await app.close();
    expect(await mock.state.store.count()).toBe(4);
  });
});
