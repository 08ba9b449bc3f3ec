// Every host dates its answers on the mock's clock (RFC 9110, 6.6.1), not the machine's: a test
// that moves the clock past getPet's removal (5 December 2030) reads a Date of that day, beside the
// 410 and the rate-limit reset of that day. Each host through its public surface, in this process;
// the clock is frozen and moved through the control API, so nothing waits.
import { connect } from 'node:net';
import Fastify from 'fastify';
import { setupServer } from 'msw/node';
import { createServer as createViteServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { buildMock, startMockServer } from '../index.ts';
import { openMock } from '../core/openMock.ts';
import { generatePets } from '../../fixtures/generatePets.ts';
import { testSpec } from '../testing.ts';
import { petsMockPlugin } from './fastify.ts';
import { createPetsHandlers } from './msw.ts';
import { createPetsHandlers as createBrowserPetsHandlers } from './mswBrowser.ts';
import { routePetsMock, type PageOrContext } from './playwright.ts';
import petsMock from './vite.ts';

/** Half past noon on the day getPet is removed, a quarter of a second in: the Date reads the whole second. */
const movedTo = Date.UTC(2030, 11, 5, 12, 30, 0, 250);
const key = { authorization: 'Bearer demo-pro' };

/** What a host answered, as a client reads it. */
interface Read {
  status: number;
  header(name: string): string | null | undefined;
}
/** A request to the host: a path under its origin (`/v1/pets`, `/__mock/clock`). */
type Send = (method: string, path: string, headers?: Record<string, string>, body?: string) => Promise<Read>;

/**
 * Freezes the host's mock at `movedTo` through its control API, then reads Date on a listing and
 * on the removed getPet, and again once the clock is moved one second on: the text follows the
 * mock's second, never the machine's.
 */
async function expectDatedByMockClock(send: Send): Promise<void> {
  const json = { 'content-type': 'application/json' };
  expect((await send('POST', '/__mock/clock', json, JSON.stringify({ freeze: true, at: new Date(movedTo).toISOString() }))).status).toBe(200);
  const list = await send('GET', '/v1/pets?limit=1', key);
  expect(list.status).toBe(200);
  expect(list.header('date')).toBe('Thu, 05 Dec 2030 12:30:00 GMT');
  // X-RateLimit-Reset is read against Date: the window ends within the minute Date names.
  const reset = Number(list.header('x-ratelimit-reset'));
  expect(reset * 1000 - Date.parse(list.header('date')!)).toBeGreaterThan(0);
  expect(reset * 1000 - Date.parse(list.header('date')!)).toBeLessThanOrEqual(60_000);
  expect((await send('POST', '/__mock/clock', json, JSON.stringify({ advanceSeconds: 1 }))).status).toBe(200);
  const gone = await send('GET', '/v1/pets/1', key);
  expect(gone.status).toBe(410);
  expect(gone.header('date')).toBe('Thu, 05 Dec 2030 12:30:01 GMT');
}

/** fetch at an origin, answers read as a client reads them. */
const fetchAt = (origin: string): Send => async (method, path, headers = {}, body) => {
  const res = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  await res.arrayBuffer();
  return { status: res.status, header: (name) => res.headers.get(name) };
};

describe('the Date of every host reads the mock\'s clock', () => {
  it('the pets-mock server (Node\'s HTTP server), its own answers to what Node refuses included', async () => {
    const server = await startMockServer({ port: 0, host: '127.0.0.1', pets: { count: 5 } });
    onTestFinished(() => server.close());
    const origin = new URL(server.url).origin;
    await expectDatedByMockClock(fetchAt(origin));
    // What the server's Node layer answers, not the core: HTTP/1.1 without Host (on a response
    // Node made), and a request line that is none (straight to the socket).
    const { port } = new URL(origin);
    for (const sent of ['GET /v1/pets HTTP/1.1\r\n\r\n', 'NOT A REQUEST\r\n\r\n']) {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(sent));
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk)).once('error', reject).once('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw.match(/^date: .*$/gim)).toEqual(['date: Thu, 05 Dec 2030 12:30:01 GMT']);
    }
  });

  it('buildMock (fastify), and the plugin in a user\'s own fastify app', async () => {
    const spec = await testSpec();
    const plugged = Fastify();
    await plugged.register(petsMockPlugin, { spec, pets: generatePets({ count: 5 }) });
    for (const app of [await buildMock({ spec, pets: generatePets({ count: 5 }) }), plugged]) {
      onTestFinished(() => app.close());
      await expectDatedByMockClock(async (method, url, headers, payload) => {
        const res = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
        return { status: res.statusCode, header: (name) => res.headers[name] as string | undefined };
      });
    }
  });

  it('openMock\'s handle (WHATWG Request and Response)', async () => {
    const mock = await openMock({ spec: await testSpec(), pets: generatePets({ count: 5 }) });
    onTestFinished(() => mock.close());
    await expectDatedByMockClock(async (method, path, headers, body) => {
      const res = await mock.handle(new Request(`http://localhost${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
      return { status: res.status, header: (name) => res.headers.get(name) };
    });
  });

  describe('MSW', () => {
    const server = setupServer();
    beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => server.close());

    it.each([['in Node (msw/node)', createPetsHandlers], ['built for the browser (setupWorker), run here', createBrowserPetsHandlers]])('%s', async (_, create) => {
      const { handlers, mock } = await create({ baseUrl: 'http://pets.test/v1' });
      onTestFinished(() => mock.close());
      server.resetHandlers(...handlers);
      await expectDatedByMockClock(fetchAt('http://pets.test'));
    });
  });

  it('Playwright routing (page.route), on a page that hands each request over as Playwright does', async () => {
    const routes: ((route: Parameters<Parameters<PageOrContext['route']>[1]>[0]) => Promise<void>)[] = [];
    const page: PageOrContext = {
      route: async (_url, handler) => routes.push(handler),
      unroute: async () => {},
      once: () => page,
    };
    const mock = await routePetsMock(page, { baseUrl: 'http://pets.test/v1' });
    onTestFinished(() => mock.close());
    await expectDatedByMockClock((method, path, headers = {}, body) => new Promise<Read>((resolve, reject) => {
      void routes[0]!({
        request: () => ({ method: () => method, url: () => `http://pets.test${path}`, allHeaders: async () => headers, postDataBuffer: () => (body === undefined ? null : Buffer.from(body)), resourceType: () => 'fetch' }),
        fulfill: async ({ status, headers: answered }) => resolve({ status, header: (name) => answered[name] }),
        abort: async (code) => reject(new Error(`aborted: ${code ?? ''}`)),
      }).catch(reject);
    }));
  });

  it('the Vite plugin (the dev server\'s middleware)', async () => {
    const server = await createViteServer({ configFile: false, logLevel: 'silent', server: { port: 0, host: '127.0.0.1', watch: null }, plugins: [petsMock({ pets: generatePets({ count: 5 }) })] });
    onTestFinished(() => server.close());
    await server.listen();
    const address = server.httpServer!.address() as { port: number };
    await expectDatedByMockClock(fetchAt(`http://127.0.0.1:${address.port}`));
  });
});
