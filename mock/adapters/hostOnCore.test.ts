import { afterEach, describe, expect, it } from 'vitest';
import { openInProcessMock } from './inProcessMock.ts';
import type { PetsMockHost } from './petsMockHost.ts';

let host: PetsMockHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});
const open = async () => (host = await openInProcessMock());
const json = new TextEncoder().encode(JSON.stringify({ name: 'Rex', categoryId: 1 }));

describe('hostOnCore', () => {
  it('reads header names in any case, as a socket carries them', async () => {
    const mock = await open();
    const answer = await mock.respond({ method: 'GET', url: `${mock.address.baseUrl}/pets?limit=1`, headers: { AUTHORIZATION: 'Bearer demo-pro', 'X-Conformance-Run-Id': 'case' } });
    expect(answer.status).toBe(200);
    const [logged] = await mock.control.requests();
    expect(logged).toMatchObject({ status: 200, key: 'demo…(8)', runId: 'case' });
  });

  it('gives a body its length where the caller gave none, without touching the caller\'s headers', async () => {
    const mock = await open();
    const headers = { authorization: 'Bearer demo-pro', 'content-type': 'application/json' };
    const answer = await mock.respond({ method: 'POST', url: `${mock.address.baseUrl}/pets`, headers, body: json });
    expect(answer.status).toBe(201);
    expect(answer.headers.location).toMatch(/^\/v1\/pets\/\d+$/);
    expect(headers).toEqual({ authorization: 'Bearer demo-pro', 'content-type': 'application/json' });
  });

  it('logs each request with the headers it was sent with, whatever the caller does with its object after', async () => {
    const mock = await open();
    const headers = { authorization: 'Bearer demo-pro', 'x-conformance-run-id': 'first' };
    await mock.respond({ method: 'GET', url: `${mock.address.baseUrl}/pets?limit=1`, headers });
    headers['x-conformance-run-id'] = 'second';
    await mock.respond({ method: 'GET', url: `${mock.address.baseUrl}/pets?limit=1`, headers });
    headers['x-conformance-run-id'] = 'changed after';
    expect((await mock.control.requests()).map((logged) => logged.runId)).toEqual(['first', 'second']);
  });

  it('answers an in-memory read at once and a create at once when its body is at hand', async () => {
    const mock = await open();
    const read = mock.respond({ method: 'GET', url: `${mock.address.baseUrl}/pets/1`, headers: { authorization: 'Bearer demo-pro' } });
    expect(read).not.toBeInstanceOf(Promise);
    expect(read).toMatchObject({ status: 200 });
    const created = mock.respond({ method: 'POST', url: `${mock.address.baseUrl}/pets`, headers: { authorization: 'Bearer demo-pro', 'content-type': 'application/json' }, body: json });
    expect(created).toMatchObject({ status: 201 });
  });

  it('gives the mock\'s own path for a URL it answers, and nothing for another origin, another path at its origin or the control API turned off', async () => {
    const mock = await open();
    expect(mock.pathOf(`${mock.address.baseUrl}/pets?limit=1`)).toBe('/v1/pets?limit=1');
    expect(mock.pathOf(new URL(`${mock.address.baseUrl}/pets/7`))).toBe('/v1/pets/7');
    expect(mock.pathOf(`${mock.address.controlUrl}/reset`)).toBe('/__mock/reset');
    for (const elsewhere of ['http://elsewhere.example/v1/pets', `${mock.address.origin}/V1/pets`, `${mock.address.origin}/v1x/pets`, `${mock.address.origin}/`]) expect(mock.pathOf(elsewhere)).toBeUndefined();
    const withoutControl = await openInProcessMock({ control: false });
    try {
      expect(withoutControl.pathOf(`${withoutControl.address.controlUrl}/reset`)).toBeUndefined();
      expect(withoutControl.pathOf(`${withoutControl.address.baseUrl}/pets`)).toBe('/v1/pets');
    } finally {
      await withoutControl.close();
    }
  });

  it('throws, at once, for a URL not under the mock and once the mock is closed', async () => {
    const mock = await open();
    expect(() => mock.respond({ method: 'GET', url: 'http://elsewhere.example/v1/pets', headers: {} })).toThrow(/not under it/);
    await mock.close();
    host = undefined;
    expect(() => mock.respond({ method: 'GET', url: `${mock.address.baseUrl}/pets`, headers: {} })).toThrow(/was closed/);
  });
});
