// The Vite plugin on a real Vite dev server (and preview server), over HTTP, as a frontend's page calls it.
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, createServer, preview, type InlineConfig, type PreviewServer, type ViteDevServer } from 'vite';
import { describe, expect, it, onTestFinished } from 'vitest';
import petsMock, { type PetsMockPluginOptions } from 'pet-adoption-toolkit/vite';
import { ManualClock, startMockServer } from 'pet-adoption-toolkit/mock';

const page = '<!doctype html><title>The frontend</title><p>served by Vite</p>';

/** A folder with the page Vite serves, removed when the test ends. */
async function siteRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pets-vite-'));
  onTestFinished(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'index.html'), page);
  return root;
}

/** Where a listening server answers, e.g. `http://127.0.0.1:41234`. */
const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A Vite dev server with the plugin, listening on a free port of 127.0.0.1; closed when the test ends unless the test closes it. */
async function devServer(options: PetsMockPluginOptions = { prefix: '/api' }, config: InlineConfig = {}): Promise<{ server: ViteDevServer; origin: string }> {
  const server = await createServer({
    configFile: false,
    root: await siteRoot(),
    logLevel: 'silent',
    server: { port: 0, host: '127.0.0.1', watch: null },
    plugins: [petsMock(options)],
    ...config,
  });
  onTestFinished(() => server.close());
  await server.listen();
  return { server, origin: originOf(server.httpServer as Server) };
}

const key = (k = 'demo-pro') => ({ authorization: `Bearer ${k}` });
const json = { 'content-type': 'application/json' };
const newPet = JSON.stringify({ name: 'Vite', categoryId: 3, status: 'pending' });

describe('petsMock, the Vite plugin', () => {
  it('serves the API under the prefix: a listing with a key, with the plan\'s rate-limit headers', async () => {
    const { origin } = await devServer();
    const res = await fetch(`${origin}/api/v1/pets?limit=5`, { headers: key() });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('300');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('299');
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(await res.json()).toHaveLength(5);
  });

  it('reads the client\'s address from the socket, as the pets-mock server does: a request from 127.0.0.2 is that client\'s', async () => {
    const { origin } = await devServer();
    const { port } = new URL(origin);
    await new Promise<void>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/api/v1/pets', localAddress: '127.0.0.2' }, (res) => res.resume().once('end', resolve)).once('error', reject).end();
    });
    const log = (await (await fetch(`${origin}/api/__mock/requests?status=401`)).json()) as { requests: { client: string }[] };
    expect(log.requests.map((r) => r.client)).toEqual(['127.0.0.2']);
  });

  it('answers a request without a key 401 with the contract\'s Error body', async () => {
    const { origin } = await devServer();
    const res = await fetch(`${origin}/api/v1/pets`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('creates a pet, gives its Location under the prefix, and reads it back there', async () => {
    const { origin } = await devServer();
    const created = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...key(), ...json }, body: newPet });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(created.headers.get('location')).toBe(`/api/v1/pets/${pet.id}`);
    const read = await fetch(`${origin}${created.headers.get('location')}`, { headers: key() });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(pet);
  });

  it('answers the control API beside the API: a reset forgets the pets created', async () => {
    const { origin } = await devServer();
    const created = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...key(), ...json }, body: newPet });
    const { id } = (await created.json()) as { id: number };
    const reset = await fetch(`${origin}/api/__mock/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    const gone = await fetch(`${origin}/api/v1/pets/${id}`, { headers: key() });
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'PET_NOT_FOUND' });
  });

  it('leaves every other path to Vite: the page is served as without the plugin', async () => {
    const { origin } = await devServer();
    const res = await fetch(`${origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('served by Vite');
  });

  it('serves at /v1 and /__mock without a prefix, as npx pets-mock does', async () => {
    const { origin } = await devServer({});
    expect((await fetch(`${origin}/v1/pets/1`, { headers: key() })).status).toBe(200);
    expect((await fetch(`${origin}/__mock/reset`, { method: 'POST' })).status).toBe(200);
  });

  it('takes the options buildMock takes: pets, keys and the control token', async () => {
    const { origin } = await devServer({ prefix: '/api', pets: [{ id: 1, name: 'Solo', categoryId: 1 }], keys: [{ key: 'only-key', plan: 'business' }], controlToken: 'team-token' });
    const listed = await fetch(`${origin}/api/v1/pets`, { headers: key('only-key') });
    expect(await listed.json()).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }]);
    expect((await fetch(`${origin}/api/v1/pets`, { headers: key() })).status).toBe(401);
    const refused = await fetch(`${origin}/api/__mock/reset`, { method: 'POST' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'CONTROL_TOKEN_REQUIRED' });
    expect((await fetch(`${origin}/api/__mock/reset`, { method: 'POST', headers: key('team-token') })).status).toBe(200);
  });

  it('answers a body over the limit and malformed JSON with the mock\'s own Error bodies', async () => {
    const { origin } = await devServer({ prefix: '/api', bodyLimit: 64 });
    const large = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...key(), ...json }, body: JSON.stringify({ name: 'x'.repeat(200), categoryId: 1 }) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    const malformed = await fetch(`${origin}/api/v1/pets`, { method: 'POST', headers: { ...key(), ...json }, body: '{"name":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: 'MALFORMED_JSON', status: 400 });
  });

  it('answers the control API\'s fault rules: a 503 with its Error body, and a reset connection as a network error', async () => {
    const { origin } = await devServer();
    const addFault = (rule: object) => fetch(`${origin}/api/__mock/faults`, { method: 'POST', headers: json, body: JSON.stringify(rule) });
    expect((await addFault({ operationId: 'listPets', status: 503, retryAfter: 7, times: 1 })).status).toBe(201);
    const unavailable = await fetch(`${origin}/api/v1/pets`, { headers: key() });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('7');
    expect(await unavailable.json()).toMatchObject({ status: 503 });
    expect((await addFault({ operationId: 'listPets', action: 'reset', times: 1 })).status).toBe(201);
    await expect(fetch(`${origin}/api/v1/pets`, { headers: key() })).rejects.toThrow(TypeError);
    expect((await fetch(`${origin}/api/v1/pets`, { headers: key() })).status).toBe(200);
  });

  it('answers each request as the fastify server (npx pets-mock) does: status, headers and body', async () => {
    // Both mocks on a clock standing at one instant, so windows, Reset and Retry-After agree.
    const start = Date.UTC(2026, 5, 1, 12, 30, 0);
    const reference = await startMockServer({ host: '127.0.0.1', port: 0, clock: new ManualClock(start) });
    onTestFinished(() => reference.close());
    const { origin } = await devServer({ prefix: '/api', clock: new ManualClock(start) });
    const server = new URL(reference.url).origin;
    const seenFromServer = await runScript((path, init) => fetch(`${server}${path}`, init));
    const seenFromVite = await runScript((path, init) => fetch(`${origin}/api${path}`, init));
    // Location is the one difference meant: the API is under /api on the dev server.
    const unprefixed = seenFromVite.map(([step, { headers, ...rest }]) => [step, { ...rest, headers: headers.location ? { ...headers, location: headers.location.replace(/^\/api\//, '/') } : headers }]);
    expect(unprefixed).toEqual(seenFromServer);
    // A script that meets every state: the server's answers are the expected ones.
    expect(seenFromServer.map(([, seen]) => seen.status)).toEqual([200, 200, 201, 200, 400, 401, 404, 404, 405, 200, ...Array(60).fill(200), 429]);
  });

  it('frees its mock when the dev server closes: a request still reaching the middleware is answered 500 saying so', async () => {
    const { server, origin } = await devServer();
    // The mock is built on the first request for it: this one builds it, and the close frees it.
    expect((await fetch(`${origin}/api/v1/pets/1`, { headers: key() })).status).toBe(200);
    await server.close();
    // Vite's middlewares outlive the server: mounted on a server of the test's own, they show the mock is closed.
    const bare = createHttpServer(server.middlewares);
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => bare.close(() => resolve())));
    const res = await fetch(`${originOf(bare)}/api/v1/pets`, { headers: key() });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'INTERNAL_ERROR', status: 500, message: expect.stringMatching(/^The pets mock at \/api\/v1 was closed with its server, and GET \/api\/v1\/pets still reached it\. Start the server again\.$/) });
  });

  it('builds a fresh mock when the dev server restarts (a changed vite.config), and serves it', async () => {
    const { server } = await devServer();
    const before = originOf(server.httpServer as Server);
    const created = await fetch(`${before}/api/v1/pets`, { method: 'POST', headers: { ...key(), ...json }, body: newPet });
    const { id } = (await created.json()) as { id: number };
    await server.restart();
    const after = originOf(server.httpServer as Server);
    expect((await fetch(`${after}/api/v1/pets/${id}`, { headers: key() })).status).toBe(404);
    expect((await fetch(`${after}/api/v1/pets/1`, { headers: key() })).status).toBe(200);
  });

  it('answers 500 with the reason when its options cannot build a mock, logs it, and Vite keeps serving the page', async () => {
    const logged: string[] = [];
    const customLogger = createLogger('silent');
    customLogger.error = (message) => void logged.push(message);
    const { origin } = await devServer({ prefix: '/api', controlToken: 'not a token' }, { customLogger });
    const res = await fetch(`${origin}/api/v1/pets`, { headers: key() });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/^The pets mock at \/api\/v1 could not be built: controlToken .* Fix the options given to petsMock\(\) in the Vite config, then start the server again\.$/) });
    expect((await fetch(`${origin}/`)).status).toBe(200);
    expect(logged).toEqual([expect.stringMatching(/^pets mock: could not be built, and answers 500 at \/api\/v1, its control API at \/api\/__mock: controlToken .* Fix the options given to petsMock\(\) in the Vite config\.$/)]);
  });

  it('refuses a prefix that is not a path, saying how to write one', () => {
    expect(() => petsMock({ prefix: 'api' })).toThrow('petsMock({ prefix: "api" }) is not a path on the dev server: give one starting with "/", such as "/api", or leave it out to serve at /v1.');
  });

  it('serves vite preview too, and frees that mock when the preview server closes', async () => {
    const server: PreviewServer = await preview({ configFile: false, root: await siteRoot(), logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' }, plugins: [petsMock({ prefix: '/api' })] });
    const origin = originOf(server.httpServer as Server);
    expect((await fetch(`${origin}/api/v1/pets/1`, { headers: key() })).status).toBe(200);
    await server.close();
    const bare = createHttpServer(server.middlewares);
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => bare.close(() => resolve())));
    const res = await fetch(`${originOf(bare)}/api/v1/pets`, { headers: key() });
    expect(await res.json()).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringMatching(/was closed with its server/) });
  });
});

interface Seen { status: number; headers: Record<string, string>; body: string }

/** Headers that belong to the connection or the moment, not to the answer. */
const unlike = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One session of requests (paths relative to the API's origin, `/v1/...` and `/__mock/...`), with every answer's status, headers and body. */
async function runScript(send: (path: string, init?: RequestInit) => Promise<Response>): Promise<[string, Seen][]> {
  const seen: [string, Seen][] = [];
  const step = async (name: string, path: string, init?: RequestInit) => {
    const res = await send(path, init);
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !unlike.has(name)));
    const answer = { status: res.status, headers, body: await res.text() };
    seen.push([name, answer]);
    return answer;
  };
  await step('freeze the clock', '/__mock/clock', { method: 'POST', headers: json, body: '{"freeze":true}' });
  await step('list', '/v1/pets?limit=5&status=available', { headers: key() });
  const created = await step('create', '/v1/pets', { method: 'POST', headers: { ...key(), ...json }, body: newPet });
  await step('read back', `/v1/pets/${(JSON.parse(created.body) as { id: number }).id}`, { headers: key() });
  await step('bad body', '/v1/pets', { method: 'POST', headers: { ...key(), ...json }, body: JSON.stringify({ name: 'Vite', categoryId: '3' }) });
  await step('no key', '/v1/pets');
  await step('Prefer: code=404', '/v1/pets/1', { headers: { ...key(), prefer: 'code=404' } });
  await step('unknown route', '/v1/owners', { headers: key() });
  await step('wrong method', '/v1/pets/1', { method: 'DELETE', headers: key() });
  await step('HEAD', '/v1/pets/1', { method: 'HEAD', headers: key() });
  for (let i = 1; i <= 61; i++) await step(`free request ${i}`, '/v1/pets?limit=1', { headers: key('demo-free') });
  return seen;
}

describe('fault rules through the Vite plugin', () => {
  it('resets the connection of a request a rule resets, and answers a rule\'s 503 as the server does', async () => {
    const { origin } = await devServer();
    const add = (rule: object) => fetch(`${origin}/api/__mock/faults`, { method: 'POST', headers: json, body: JSON.stringify(rule) });
    expect((await add({ operationId: 'listPets', action: 'reset', times: 1 })).status).toBe(201);
    expect((await add({ operationId: 'getPet', status: 503, times: 1 })).status).toBe(201);
    const failure = await fetch(`${origin}/api/v1/pets`, { headers: key() }).then(() => undefined, (error: Error & { cause?: { code?: string } }) => error);
    expect(failure?.cause?.code).toBe('ECONNRESET');
    expect((await fetch(`${origin}/api/v1/pets`, { headers: key() })).status).toBe(200);
    const unavailable = await fetch(`${origin}/api/v1/pets/1`, { headers: key() });
    expect([unavailable.status, unavailable.headers.get('retry-after')]).toEqual([503, '30']);
    expect(await unavailable.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });
});
