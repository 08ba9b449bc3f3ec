import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCatalogue } from '../errors/errorCatalogue.ts';
import { testMock, type TestMock } from '../testing.ts';

let mock: TestMock;
beforeEach(async () => {
  mock = await testMock();
});
afterEach(() => mock.app.close());

const control = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
  mock.app.inject({ method, url: `/__mock${url}`, ...(payload !== undefined ? { payload: payload as object } : {}) });
const addFault = async (rule: object) => {
  const res = await control('POST', '/faults', rule);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
};
const faults = async () => (await control('GET', '/faults')).json().faults as { id: string; fired: number; left: number | null; holding?: number }[];
/** The rules once `count` answers are held: a request sent without awaiting reaches its hold after a few turns of the event loop, as light-my-request delivers it. */
async function holding(count: number) {
  for (let turn = 0; turn < 100; turn++) {
    const listed = await faults();
    if (listed.reduce((sum, f) => sum + (f.holding ?? 0), 0) === count) return listed;
  }
  throw new Error(`The mock never held ${count} answers.`);
}
const create = (key = 'demo-enterprise') => mock.call({ method: 'POST', url: '/v1/pets', key, payload: { name: 'Rex', categoryId: 1 } });

describe('a fault rule with a status', () => {
  it('answers the next 3 createPet requests with 503 and a realistic Error body, then lets creates through again', async () => {
    const { id } = await addFault({ operationId: 'createPet', status: 503, times: 3 });
    for (let i = 0; i < 3; i++) {
      const res = await create();
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503, message: expect.stringContaining(`forced by the fault rule ${id}`) });
      expect(res.json().message).toMatch(/nothing was applied/);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.headers['preference-applied']).toBeUndefined();
    }
    expect(await mock.app.mock.store.count()).toBe(60);
    expect((await create()).statusCode).toBe(201);
    expect(await faults()).toEqual([expect.objectContaining({ id, operationId: 'createPet', status: 503, times: 3, fired: 3, left: 0 })]);
  });

  it.each([
    [500, 'INTERNAL_ERROR'],
    [502, 'BAD_GATEWAY'],
    [504, 'GATEWAY_TIMEOUT'],
    [401, 'UNAUTHORIZED'],
    [404, 'PET_NOT_FOUND'],
  ] as const)('answers %i with the catalogue\'s %s, as Prefer: code= forces it', async (status, code) => {
    await addFault({ path: '/v1/pets/*', status });
    const res = await mock.call({ url: '/v1/pets/7' });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ code, status });
    expect(Object.keys(errorCatalogue)).toContain(res.json().code);
    // The rest of a real answer is there: the rate-limit headers, the deprecation marks, no Retry-After.
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(res.headers['retry-after']).toBeUndefined();
  });

  it('gives the rule\'s Retry-After on a 503 and a 429, and reports the window spent on a 429', async () => {
    await addFault({ method: 'get', status: 503, retryAfter: 120, times: 1 });
    await addFault({ method: 'GET', status: 429, retryAfter: 7, times: 1 });
    const unavailable = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect([unavailable.statusCode, unavailable.headers['retry-after']]).toEqual([503, '120']);
    const throttled = await mock.call({ url: '/v1/pets', key: 'demo-free' });
    expect([throttled.statusCode, throttled.headers['retry-after'], throttled.headers['x-ratelimit-remaining']]).toEqual([429, '7', '0']);
    expect(throttled.json().code).toBe('RATE_LIMITED');
  });

  it('spends the quota of each request it answers, as a real server error would', async () => {
    await addFault({ status: 500, times: 2 });
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('59');
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('58');
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).headers['x-ratelimit-remaining']).toBe('57');
  });

  it('lets a wrong key get its 401 and a throttled key its 429 first: only admitted requests meet a rule', async () => {
    await addFault({ status: 503 });
    expect((await mock.call({ url: '/v1/pets', key: 'wrong' })).json().code).toBe('UNAUTHORIZED');
    await mock.app.inject({ method: 'PUT', url: '/__mock/keys/tiny', payload: { plan: 'free', perMinute: 1 } });
    expect((await mock.call({ url: '/v1/pets', key: 'tiny' })).statusCode).toBe(503);
    expect((await mock.call({ url: '/v1/pets', key: 'tiny' })).json().code).toBe('RATE_LIMITED');
    expect((await faults())[0]!.fired).toBe(1);
  });

  it('meets only requests for an operation: an unknown route, a wrong method and a preflight are answered as ever', async () => {
    await addFault({ status: 500 });
    expect((await mock.call({ url: '/v1/nowhere' })).json().code).toBe('ROUTE_NOT_FOUND');
    expect((await mock.call({ method: 'DELETE', url: '/v1/pets' })).json().code).toBe('METHOD_NOT_ALLOWED');
    const preflight = await mock.app.inject({ method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    expect(preflight.statusCode).toBe(204);
    expect((await faults())[0]!.fired).toBe(0);
  });

  it('answers before validation and Prefer: an invalid body or a forced 404 still gets the fault', async () => {
    await addFault({ status: 502 });
    expect((await mock.call({ method: 'POST', url: '/v1/pets', payload: { name: 5 } })).statusCode).toBe(502);
    expect((await mock.call({ url: '/v1/pets/1', headers: { prefer: 'code=404' } })).statusCode).toBe(502);
  });
});

describe('the scope of a fault rule', () => {
  it('takes only the requests of its operation, method, path and key, every one of them while it has no count', async () => {
    await addFault({ key: 'demo-pro', status: 500 });
    await addFault({ path: '/v1/pets/*', method: 'GET', status: 404 });
    await addFault({ operationId: 'listStoreOrders', status: 502 });
    expect((await mock.call({ url: '/v1/pets', key: 'demo-pro' })).statusCode).toBe(500);
    expect((await mock.call({ url: '/v1/pets', key: 'demo-free' })).statusCode).toBe(200);
    expect((await mock.call({ url: '/v1/pets/3', key: 'demo-free' })).statusCode).toBe(404);
    expect((await mock.call({ url: '/v1/store/orders', key: 'demo-free' })).statusCode).toBe(502);
    // The first rule that matches answers: demo-pro's 500 comes before the path's 404.
    expect((await mock.call({ url: '/v1/pets/3', key: 'demo-pro' })).statusCode).toBe(500);
    expect((await create('demo-free')).statusCode).toBe(201);
    expect((await faults()).map((f) => [f.fired, f.left])).toEqual([[2, null], [1, null], [1, null]]);
  });

  it('matches an exact path only when it has no *', async () => {
    await addFault({ path: '/v1/pets', status: 500 });
    expect((await mock.call({ url: '/v1/pets?limit=1' })).statusCode).toBe(500);
    expect((await mock.call({ url: '/v1/pets/1' })).statusCode).toBe(200);
  });
});

describe('a fault rule with a probability', () => {
  /** The statuses of 40 list requests to a fresh mock with this rule. */
  async function pattern(rule: object): Promise<number[]> {
    const own = await testMock();
    try {
      await own.app.inject({ method: 'POST', url: '/__mock/faults', payload: { status: 500, ...rule } });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await own.call({ url: '/v1/pets?limit=1' })).statusCode);
      return statuses;
    } finally {
      await own.app.close();
    }
  }

  it('fires on the same requests in every run for the same seed, on about its share of them', async () => {
    const first = await pattern({ probability: 0.25, seed: 7 });
    expect(await pattern({ probability: 0.25, seed: 7 })).toEqual(first);
    const fired = first.filter((s) => s === 500).length;
    expect(fired).toBeGreaterThan(2);
    expect(fired).toBeLessThan(20);
    expect(await pattern({ probability: 0.25, seed: 8 })).not.toEqual(first);
  });

  it('is seeded with 1 when no seed is given, and lists the seed it draws from', async () => {
    expect(await pattern({ probability: 0.25 })).toEqual(await pattern({ probability: 0.25, seed: 1 }));
    expect((await addFault({ status: 500, probability: 0.5 }))).toMatchObject({ probability: 0.5, seed: 1 });
  });

  it('counts only the requests it answered against its times', async () => {
    await addFault({ status: 500, probability: 0.5, times: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await mock.call({ url: '/v1/pets?limit=1' })).statusCode);
    expect(statuses.filter((s) => s === 500)).toHaveLength(2);
    expect((await faults())[0]).toMatchObject({ fired: 2, left: 0 });
  });
});

describe('the request log', () => {
  it('records each answer a rule gave, naming the rule, and a reset connection as status 0', async () => {
    const error = await addFault({ operationId: 'getPet', status: 503, times: 1 });
    const reset = await addFault({ operationId: 'getPet', action: 'reset', times: 1 });
    await mock.call({ url: '/v1/pets/1' });
    await expect(mock.call({ url: '/v1/pets/1' })).rejects.toThrow();
    await mock.call({ url: '/v1/pets/1' });
    const { requests } = (await control('GET', '/requests')).json();
    expect(requests).toEqual([
      expect.objectContaining({ path: '/v1/pets/1', status: 503, fault: error.id, key: 'demo…(15)' }),
      expect.objectContaining({ path: '/v1/pets/1', status: 0, fault: reset.id, key: 'demo…(15)' }),
      expect.not.objectContaining({ fault: expect.anything() }),
    ]);
    expect(requests[2].status).toBe(200);
    // The requests left unanswered are found by status 0.
    expect((await control('GET', '/requests?status=0')).json().requests).toEqual([expect.objectContaining({ status: 0, fault: reset.id })]);
  });

  it('writes the rule in the access log line', async () => {
    const lines: string[] = [];
    const own = await testMock({ accessLog: (text) => lines.push(text) });
    try {
      await own.app.inject({ method: 'POST', url: '/__mock/faults', payload: { status: 500 } });
      await own.call({ url: '/v1/pets' });
      await own.app.close();
      expect(lines.join('')).toMatch(/GET \/v1\/pets 500 .* fault=fault-1\n$/);
    } finally {
      await own.app.close();
    }
  });
});

describe('a reset connection', () => {
  it('closes the socket of a real HTTP request without an answer, and the next connection is served', async () => {
    await addFault({ operationId: 'listPets', action: 'reset', times: 1 });
    const address = new URL(await mock.app.listen({ host: '127.0.0.1', port: 0 }));
    const get = () => new Promise<{ status?: number; error?: NodeJS.ErrnoException }>((resolve) => {
      const req = httpRequest({ host: address.hostname, port: address.port, path: '/v1/pets?limit=1', headers: { authorization: 'Bearer demo-pro' }, agent: false });
      req.once('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode });
      });
      req.once('error', (error) => resolve({ error }));
      req.end();
    });
    const dropped = await get();
    expect(dropped.status).toBeUndefined();
    expect(dropped.error?.code).toBe('ECONNRESET');
    expect(await get()).toEqual({ status: 200 });
  });
});

describe('a stall', () => {
  it('holds the answer until the mock\'s clock passes its end, then gives the real answer', async () => {
    const { id } = await addFault({ operationId: 'getPet', action: 'stall', stallMs: 30_000 });
    let settled = false;
    const held = mock.call({ url: '/v1/pets/2' }).finally(() => (settled = true));
    expect(await holding(1)).toEqual([expect.objectContaining({ id, holding: 1, fired: 1 })]);
    await control('POST', '/clock', { advanceSeconds: 29 });
    expect((await faults())[0]!.holding).toBe(1);
    expect(settled).toBe(false);
    await control('POST', '/clock', { advanceSeconds: 1 });
    const res = await held;
    expect(res.statusCode).toBe(200);
    expect(res.json().id).toBe(2);
    expect((await faults())[0]!.holding).toBe(0);
  });

  it('gives the rule\'s status once the stall ends: a gateway timeout after 30 seconds', async () => {
    await addFault({ operationId: 'createPet', action: 'stall', stallMs: 30_000, status: 504, times: 1 });
    const held = create();
    await holding(1);
    await control('POST', '/clock', { advanceSeconds: 30 });
    const res = await held;
    expect(res.statusCode).toBe(504);
    expect(res.json().code).toBe('GATEWAY_TIMEOUT');
    expect(await mock.app.mock.store.count()).toBe(60);
  });

  it('holds an answer without an end until its rule is removed, cleared or reset away', async () => {
    const removed = await addFault({ operationId: 'getPet', action: 'stall' });
    const first = mock.call({ url: '/v1/pets/1' });
    await holding(1);
    await control('DELETE', `/faults/${removed.id}`);
    expect((await first).statusCode).toBe(200);

    await addFault({ operationId: 'getPet', action: 'stall' });
    const second = mock.call({ url: '/v1/pets/1' });
    await holding(1);
    await control('POST', '/reset');
    expect((await second).statusCode).toBe(200);
  });

  it('forgets an answer whose client gave up, recording the request as unanswered', async () => {
    const { id } = await addFault({ operationId: 'listPets', action: 'stall' });
    const address = new URL(await mock.app.listen({ host: '127.0.0.1', port: 0 }));
    const connected = once(mock.app.server, 'connection') as Promise<[Socket]>;
    const arrived = once(mock.app.server, 'request');
    const req = httpRequest({ host: address.hostname, port: address.port, path: '/v1/pets', headers: { authorization: 'Bearer demo-pro' }, agent: false });
    req.once('error', () => {});
    req.end();
    const [socket] = await connected;
    await arrived;
    await holding(1);
    req.destroy();
    await once(socket, 'close');
    await holding(0);
    expect((await control('GET', '/requests')).json().requests).toEqual([expect.objectContaining({ path: '/v1/pets', status: 0, fault: id })]);
  });

  it('lets go of what it holds when the mock closes', async () => {
    await addFault({ action: 'stall' });
    const held = mock.call({ url: '/v1/pets/1' });
    await holding(1);
    const closing = mock.app.close();
    expect((await held).statusCode).toBeGreaterThanOrEqual(200);
    await closing;
  });
});
