import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createPetsHandlers } from './msw.ts';

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

/** Handlers for one test: installed in front of any others, dropped by the next call. */
async function use(options: Parameters<typeof createPetsHandlers>[0] = {}) {
  const made = await createPetsHandlers(options);
  server.resetHandlers(...made.handlers);
  return made;
}
const key = (k = 'demo-pro') => ({ authorization: `Bearer ${k}` });
const post = (url: string, body: unknown, k = 'demo-pro') => fetch(url, { method: 'POST', headers: { ...key(k), 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('createPetsHandlers', () => {
  it('has a handler per operation of the spec, then the rest of the API and the control API', async () => {
    const { handlers } = await use();
    expect(handlers.map((h) => h.info.header)).toEqual([
      'GET http://127.0.0.1:4010/v1/pets',
      'POST http://127.0.0.1:4010/v1/pets',
      'GET http://127.0.0.1:4010/v1/pets/:petId',
      'GET http://127.0.0.1:4010/v1/store/orders',
      '/.+/ http://127.0.0.1:4010/v1',
      '/.+/ http://127.0.0.1:4010/v1/*',
      '/.+/ http://127.0.0.1:4010/__mock',
      '/.+/ http://127.0.0.1:4010/__mock/*',
    ]);
  });

  it('takes exactly the requests the mock answers, each by its operation\'s handler, and lets any other go on to the page\'s own handlers', async () => {
    const { handlers, mock } = await createPetsHandlers({ control: false });
    onTestFinished(() => mock.close());
    const pagesOwn = http.all('http://127.0.0.1:4010/*', () => new Response('the page\'s own'));
    server.resetHandlers(...handlers, pagesOwn);
    // Another case, another path at the mock's origin, the control API turned off: not the mock's.
    for (const url of ['http://127.0.0.1:4010/V1/pets', 'http://127.0.0.1:4010/v1x/pets', 'http://127.0.0.1:4010/__mock/reset']) {
      const answer = await fetch(url, { headers: key() });
      expect([url, answer.status, await answer.text()]).toEqual([url, 200, 'the page\'s own']);
    }
    expect(handlers.some((handler) => handler.isUsed)).toBe(false);
    const taken = async (url: string, init: RequestInit = {}) => {
      const answer = await fetch(url, { ...init, headers: key() });
      await answer.arrayBuffer();
      const used = handlers.flatMap((handler) => (handler.isUsed ? [handler.info.header] : []));
      for (const handler of handlers) handler.isUsed = false;
      return [answer.status, used];
    };
    expect(await taken('http://127.0.0.1:4010/v1/pets/1')).toEqual([200, ['GET http://127.0.0.1:4010/v1/pets/:petId']]);
    // The mock routes `/pets/` as `/pets` and `/%70ets` as `/pets`: so does its handler.
    expect(await taken('http://127.0.0.1:4010/v1/pets/?limit=1')).toEqual([200, ['GET http://127.0.0.1:4010/v1/pets']]);
    expect(await taken('http://127.0.0.1:4010/v1/%70ets/1')).toEqual([200, ['GET http://127.0.0.1:4010/v1/pets/:petId']]);
    expect(await taken('http://127.0.0.1:4010/v1/owners')).toEqual([404, ['/.+/ http://127.0.0.1:4010/v1/*']]);
    expect(await taken('http://127.0.0.1:4010/v1')).toEqual([404, ['/.+/ http://127.0.0.1:4010/v1']]);
    expect(await taken('http://127.0.0.1:4010/v1/pets/1', { method: 'DELETE' })).toEqual([405, ['/.+/ http://127.0.0.1:4010/v1/*']]);
  });

  it('returns an in-memory read\'s Response from its resolver at once, and a create\'s once its body is read', async () => {
    const { handlers, mock } = await use();
    const [list, create] = handlers as unknown as { resolver: (info: { request: Request }) => Response | Promise<Response> }[];
    const read = list!.resolver({ request: new Request(`${mock.baseUrl}/pets?limit=2`, { headers: key() }) });
    expect(read).toBeInstanceOf(Response);
    expect(((await (read as Response).json()) as unknown[]).length).toBe(2);
    const made = create!.resolver({ request: new Request(`${mock.baseUrl}/pets`, { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) }) });
    expect(made).toBeInstanceOf(Promise);
    const answer = await made;
    expect(answer.status).toBe(201);
    expect(answer.headers.get('location')).toMatch(/^\/v1\/pets\/\d+$/);
  });

  it('answers unknown routes 404 and wrong methods 405 with Allow, as the server does', async () => {
    await use();
    const unknown = await fetch('http://127.0.0.1:4010/v1/owners', { headers: key() });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND', status: 404 });
    expect(unknown.headers.get('x-ratelimit-remaining')).toBe('299');
    const wrong = await fetch('http://127.0.0.1:4010/v1/pets/1', { method: 'DELETE', headers: key() });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toMatch(/GET/);
    expect(await wrong.json()).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });

  it('serves any origin and path, and gives Location under it', async () => {
    const { mock } = await use({ baseUrl: 'https://api.example.com/adoption/v1' });
    const created = await post('https://api.example.com/adoption/v1/pets', { name: 'Pip', categoryId: 3 });
    const pet = await created.json();
    expect(created.headers.get('location')).toBe(`/adoption/v1/pets/${pet.id}`);
    const read = await fetch(new URL(created.headers.get('location')!, 'https://api.example.com'), { headers: key() });
    expect(await read.json()).toEqual(pet);
    expect(read.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(read.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect(mock.baseUrl).toBe('https://api.example.com/adoption/v1');
  });

  it('answers the control API beside the base, unless control is false', async () => {
    await use();
    const reset = await fetch('http://127.0.0.1:4010/__mock/reset', { method: 'POST' });
    expect(reset.status).toBe(200);
    const { handlers } = await use({ control: false });
    expect(handlers.some((h) => h.info.header.includes('__mock'))).toBe(false);
    await expect(fetch('http://127.0.0.1:4010/__mock/reset', { method: 'POST' })).rejects.toThrow();
  });

  it('takes a controlToken: the page\'s control requests need it, and the handle sends it itself', async () => {
    const { mock } = await use({ controlToken: 'team-sandbox-token' });
    const refused = await fetch('http://127.0.0.1:4010/__mock/reset', { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED' });
    expect((await fetch('http://127.0.0.1:4010/__mock/reset', { method: 'POST', headers: key('team-sandbox-token') })).status).toBe(200);
    await mock.setKey('team-key', { plan: 'pro' });
    expect((await fetch('http://127.0.0.1:4010/v1/pets', { headers: key('team-key') })).status).toBe(200);
    expect(await mock.requests({ path: '/v1/pets' })).toHaveLength(1);
  });

  it('takes what buildMock takes: pets, keys, default status', async () => {
    const { mock } = await use({ pets: [{ id: 1, name: 'Solo', categoryId: 1 }], keys: [{ key: 'only-key', plan: 'business' }], defaultStatus: null });
    expect(await (await fetch('http://127.0.0.1:4010/v1/pets', { headers: key('only-key') })).json()).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }]);
    expect((await fetch('http://127.0.0.1:4010/v1/pets', { headers: key('demo-pro') })).status).toBe(401);
    expect(await (await post('http://127.0.0.1:4010/v1/pets', { name: 'No status', categoryId: 2 }, 'only-key')).json()).toEqual({ id: 2, name: 'No status', categoryId: 2 });
    expect(await mock.pets()).toHaveLength(2);
  });

  it('generates its pets from a seed and a count, the same for the same seed', async () => {
    const first = await (await use({ seed: 7, count: 30 })).mock.pets();
    const again = await (await use({ seed: 7, count: 30 })).mock.pets();
    const other = await (await use({ seed: 8, count: 30 })).mock.pets();
    expect(first).toHaveLength(30);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('bans a key per the ban policy given', async () => {
    const { mock } = await use({ ban: { threshold: 2, seconds: 600 } });
    await mock.freezeClock();
    await mock.setKey('tiny', { plan: 'free', perMinute: 1 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await fetch('http://127.0.0.1:4010/v1/pets', { headers: key('tiny') })).status);
    expect(statuses).toEqual([200, 429, 429, 429]);
    await mock.advanceClock(60);
    const banned = await fetch('http://127.0.0.1:4010/v1/pets', { headers: key('tiny') });
    expect(await banned.json()).toMatchObject({ code: 'API_KEY_BANNED', status: 429 });
    expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it('answers HEAD with the headers and no body', async () => {
    await use();
    const res = await fetch('http://127.0.0.1:4010/v1/pets', { method: 'HEAD', headers: key() });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect(await res.text()).toBe('');
  });

  it('answers a malformed body 400 MALFORMED_JSON and a text body 415', async () => {
    await use();
    const malformed = await fetch('http://127.0.0.1:4010/v1/pets', { method: 'POST', headers: { ...key(), 'content-type': 'application/json' }, body: '{"name":' });
    expect(await malformed.json()).toMatchObject({ code: 'MALFORMED_JSON', status: 400 });
    const text = await fetch('http://127.0.0.1:4010/v1/pets', { method: 'POST', headers: { ...key(), 'content-type': 'text/plain' }, body: 'Rex' });
    expect(text.status).toBe(415);
  });

  it('answers 500 requests, every one counted against the plan', async () => {
    const { mock } = await use();
    await mock.freezeClock();
    const statuses = await Promise.all(Array.from({ length: 500 }, () => fetch('http://127.0.0.1:4010/v1/pets?limit=1', { headers: key('demo-business') }).then((r) => r.status)));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const last = await fetch('http://127.0.0.1:4010/v1/pets?limit=1', { headers: key('demo-business') });
    expect(last.headers.get('x-ratelimit-remaining')).toBe('499');
  });

  it('says so when a closed mock is still called through its handlers', async () => {
    const { mock } = await use();
    await mock.close();
    const res = await fetch('http://127.0.0.1:4010/v1/pets', { headers: key() });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain('was closed');
  });

  // What Jest does after a file's tests (it waits for the event loop to empty) and what a plain
  // script does: an open mock, whose Prism worker has answered, must not keep either running; and
  // while Prism is answering, the script must not end before the answer (exit code 13).
  it('gives each call its own state', async () => {
    const a = await createPetsHandlers();
    const b = await createPetsHandlers();
    server.resetHandlers(...a.handlers);
    const pet = await (await post('http://127.0.0.1:4010/v1/pets', { name: 'In A', categoryId: 1 })).json();
    server.resetHandlers(...b.handlers);
    expect((await fetch(`http://127.0.0.1:4010/v1/pets/${pet.id}`, { headers: key() })).status).toBe(404);
    expect((await a.mock.pets()).some((p) => p.id === pet.id)).toBe(true);
  });
});

describe('fault rules through MSW', () => {
  it('answers a rule\'s 503 as the server does, and a reset connection as a network error', async () => {
    const { mock } = await use();
    await mock.addFault({ operationId: 'createPet', status: 503, times: 1 });
    await mock.addFault({ operationId: 'listPets', action: 'reset', times: 1 });
    const unavailable = await post('http://127.0.0.1:4010/v1/pets', { name: 'Pip', categoryId: 3 });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('30');
    expect(await unavailable.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    await expect(fetch('http://127.0.0.1:4010/v1/pets', { headers: key() })).rejects.toThrow(TypeError);
    expect((await fetch('http://127.0.0.1:4010/v1/pets', { headers: key() })).status).toBe(200);
    expect((await mock.requests()).map((r) => [r.status, r.fault])).toEqual([[503, 'fault-1'], [0, 'fault-2'], [200, undefined]]);
  });
});
