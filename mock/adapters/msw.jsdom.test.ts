// @vitest-environment jsdom
// Component tests run in jsdom: a global `window` and `location`, and XMLHttpRequest as well as fetch.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPetsHandlers } from './msw.ts';

// A relative base, as an app under test calls its API through the dev server's proxy.
const { handlers, mock } = await createPetsHandlers({ baseUrl: '/api/v1' });
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => mock.reset());
afterAll(() => server.close());

const headers = { authorization: 'Bearer demo-free', 'content-type': 'application/json' };

function xhr(method: string, url: string, body?: string): Promise<{ status: number; body: unknown; remaining: string | null }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.onload = () => resolve({ status: request.status, body: JSON.parse(request.responseText), remaining: request.getResponseHeader('x-ratelimit-remaining') });
    request.onerror = () => reject(new Error(`XHR ${method} ${url} failed`));
    request.send(body);
  });
}

describe('createPetsHandlers in jsdom', () => {
  it('runs where a global window exists, at a base relative to the page', () => {
    expect(typeof window).toBe('object');
    expect(mock.baseUrl).toBe(`${location.origin}/api/v1`);
  });

  it('creates with fetch and reads back with XMLHttpRequest', async () => {
    const created = await fetch('/api/v1/pets', { method: 'POST', headers, body: JSON.stringify({ name: 'Biscuit', categoryId: 2 }) });
    expect(created.status).toBe(201);
    const pet = await created.json();
    expect(created.headers.get('location')).toBe(`/api/v1/pets/${pet.id}`);
    expect(await xhr('GET', `/api/v1/pets/${pet.id}`)).toEqual({ status: 200, body: pet, remaining: '58' });
  });

  it('validates from the spec and throttles on the frozen clock', async () => {
    expect(await xhr('POST', '/api/v1/pets', JSON.stringify({ name: 'Biscuit' }))).toMatchObject({ status: 400, body: { code: 'INVALID_BODY', status: 400 } });
    await mock.freezeClock();
    for (let i = 0; i < 59; i++) await fetch('/api/v1/pets?limit=1', { headers });
    expect((await fetch('/api/v1/pets?limit=1', { headers })).status).toBe(429);
    await mock.advanceClock(60);
    expect((await fetch('/api/v1/pets?limit=1', { headers })).status).toBe(200);
  });
});
