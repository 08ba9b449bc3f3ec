// The framework-free core answers as the server does: the same requests, in the same order, to a
// fresh server (buildMock, through inject) and a fresh core, must get the same status, headers and
// body, whatever the request (valid, invalid, hostile), and leave the same request log behind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMock, type MockOptions } from '../buildMock.ts';
import { generatePets } from '../../fixtures/generatePets.ts';
import { defaultKeysFile } from '../../fixtures/loadFixtures.ts';
import { loadKeysFile } from '../state/loadKeysFile.ts';
import { ManualClock } from '../state/clock.ts';
import { MockState } from '../state/mockState.ts';
import { testSpec } from '../testing.ts';
import { bodyIsSent } from '../pipeline/readRequest.ts';
import { createMockCore } from './createMockCore.ts';
import { ConnectionResetError, type CoreRequest } from './coreTypes.ts';

const start = Date.UTC(2026, 5, 1, 12, 30, 0);
/** Headers about the connection or the moment, which no two answers share. */
const ignored = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

interface Seen { status: number | 'reset'; headers: Record<string, string>; body: unknown }

type Options = Pick<MockOptions, 'corsOrigins' | 'strict' | 'controlToken' | 'defaultStatus'>;

async function pair(options: Options = {}) {
  const spec = await testSpec();
  const pets = generatePets({ count: 30 });
  const keys = await loadKeysFile(defaultKeysFile);
  const serverClock = new ManualClock(start);
  const app = await buildMock({ spec, pets, keys, clock: serverClock, ...options });
  const coreClock = new ManualClock(start);
  const core = createMockCore({ spec, state: MockState.create({ fixtures: pets, keys, clock: coreClock }), ...options });
  const body = (text: string | null) => {
    if (text === null || text === '') return null;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  };
  const clean = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !ignored.has(name)).map(([name, value]) => [name, String(value)]).sort());
  return {
    app,
    async server(request: CoreRequest): Promise<Seen> {
      const res = await app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.body ? { payload: Buffer.from(request.body) } : {}) }).catch((error: Error) => error);
      if (res instanceof Error) return { status: 'reset', headers: {}, body: null };
      // inject hands back a HEAD answer's body, which no HTTP client ever reads.
      return { status: res.statusCode, headers: clean(res.headers), body: request.method === 'HEAD' ? null : body(res.body) };
    },
    async core(request: CoreRequest): Promise<Seen> {
      try {
        // As every host hands a request over: its body when the socket would carry one (the length inject() sends).
        const sized = request.body === undefined ? request.headers : { 'content-length': String(request.body.byteLength), ...request.headers };
        const res = await core.answer({ ...request, body: bodyIsSent(sized) ? request.body : undefined });
        return { status: res.status, headers: clean(res.headers), body: body(res.body) };
      } catch (error) {
        if (error instanceof ConnectionResetError) return { status: 'reset', headers: {}, body: null };
        throw error;
      }
    },
    advance(ms: number) {
      serverClock.advance(ms);
      coreClock.advance(ms);
    },
  };
}

const as = (key: string, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...extra });
const jsonType = { 'content-type': 'application/json' };
const text = (s: string) => new TextEncoder().encode(s);

/** A session every host must answer alike: reads, writes, refusals, Prefer, the control API. */
const script: CoreRequest[] = [
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=5&status=available', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=0', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=abc', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=1e1', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=5&limit=6', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?status=adopted', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?offset=10&page=2', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/', headers: as('demo-pro') },
  { method: 'HEAD', url: '/v1/pets?limit=2', headers: as('demo-pro') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Parity","categoryId":3,"status":"pending"}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Plain","categoryId":2}') },
  { method: 'GET', url: '/v1/pets/31', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/32', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets?limit=3', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/99999', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/0x10', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/9223372036854775808', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/9223372036854775807', headers: as('demo-pro') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Parity","categoryId":"3"}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Parity"}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"__proto__":{"x":1},"name":"A","categoryId":1}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', { 'content-type': 'text/plain' }), body: text('Rex') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"A","categoryId":1,"extra":true}') },
  { method: 'GET', url: '/v1/pets', headers: {} },
  { method: 'GET', url: '/v1/pets', headers: { authorization: 'Basic abc' } },
  { method: 'GET', url: '/v1/pets', headers: { authorization: 'Bearer "quoted"' } },
  { method: 'GET', url: '/v1/pets', headers: as('not-a-key') },
  { method: 'GET', url: '/v1/pets/1', headers: as('demo-pro', { prefer: 'code=404' }) },
  { method: 'GET', url: '/v1/pets/1', headers: as('demo-pro', { prefer: 'code=500' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'code=503' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'code=429' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'code=401' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'code=418' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'delay=abc' }) },
  { method: 'GET', url: '/v1/pets?limit=3', headers: as('demo-pro', { prefer: 'code=200, dynamic=true, seed=7' }) },
  { method: 'GET', url: '/v1/pets/5', headers: as('demo-pro', { prefer: 'code=200' }) },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { prefer: 'example=nope' }) },
  { method: 'GET', url: '/v1/store/orders', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/owners', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/owners', headers: {} },
  { method: 'DELETE', url: '/v1/pets/1', headers: as('demo-pro') },
  { method: 'PUT', url: '/v1/pets', headers: {} },
  { method: 'PROPFIND', url: '/v1/pets/1', headers: {} },
  { method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } },
  { method: 'GET', url: '/elsewhere', headers: {} },
  { method: 'GET', url: '/__mock/clock', headers: {} },
  { method: 'POST', url: '/__mock/clock', headers: jsonType, body: text('{"freeze":true}') },
  { method: 'POST', url: '/__mock/clock', headers: jsonType, body: text('{"advanceSeconds":-1}') },
  { method: 'POST', url: '/__mock/clock', headers: jsonType, body: text('{"freeze":true,"at":"yesterday"}') },
  { method: 'PUT', url: '/__mock/keys/my-key', headers: jsonType, body: text('{"plan":"free","perMinute":2}') },
  { method: 'PUT', url: '/__mock/keys/my-key', headers: jsonType, body: text('{"plan":"gold"}') },
  { method: 'GET', url: '/v1/pets?limit=1', headers: as('my-key') },
  { method: 'GET', url: '/v1/pets?limit=1', headers: as('my-key') },
  { method: 'GET', url: '/v1/pets?limit=1', headers: as('my-key') },
  { method: 'GET', url: '/v1/pets?limit=1', headers: as('my-key') },
  { method: 'DELETE', url: '/__mock/keys/nobody', headers: {} },
  { method: 'POST', url: '/__mock/faults', headers: jsonType, body: text('{"operationId":"createPet","status":503,"times":1}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Faulted","categoryId":1}') },
  { method: 'POST', url: '/v1/pets', headers: as('demo-pro', jsonType), body: text('{"name":"Faulted","categoryId":1}') },
  { method: 'POST', url: '/__mock/faults', headers: jsonType, body: text('{"operationId":"getPet","action":"reset","times":1}') },
  { method: 'GET', url: '/v1/pets/1', headers: as('demo-pro') },
  { method: 'GET', url: '/v1/pets/1', headers: as('demo-pro') },
  { method: 'POST', url: '/__mock/faults', headers: jsonType, body: text('{"operation":"nope"}') },
  { method: 'GET', url: '/__mock/faults', headers: {} },
  { method: 'DELETE', url: '/__mock/faults/fault-99', headers: {} },
  { method: 'GET', url: '/__mock/requests?status=4xx&limit=5', headers: {} },
  { method: 'GET', url: '/__mock/requests?status=abc', headers: {} },
  { method: 'GET', url: '/__mock/client-report', headers: {} },
  { method: 'GET', url: '/__mock/client-report?key=demo-pro', headers: {} },
  { method: 'GET', url: '/__mock/pets', headers: {} },
  { method: 'PUT', url: '/__mock/pets', headers: jsonType, body: text('[{"id":1,"name":"Solo","categoryId":1}]') },
  { method: 'PUT', url: '/__mock/pets', headers: jsonType, body: text('[{"id":1}]') },
  { method: 'GET', url: '/v1/pets', headers: as('demo-pro') },
  { method: 'POST', url: '/__mock/nope', headers: {} },
  { method: 'POST', url: '/__mock/reset', headers: {} },
  { method: 'GET', url: '/v1/pets?limit=2', headers: as('demo-pro') },
];

describe('the framework-free core', () => {
  it('answers a scripted session exactly as the server does', async () => {
    const { server, core } = await pair();
    for (const request of script) {
      const [a, b] = [await server(request), await core(request)];
      expect(b, `${request.method} ${request.url}`).toEqual(a);
    }
  });

  it('answers the free plan past its limit, a ban, and the next window as the server does', async () => {
    const { server, core, advance } = await pair();
    const request = { method: 'GET', url: '/v1/pets?limit=1', headers: as('demo-free') };
    for (let i = 0; i < 85; i++) expect(await core(request), `request ${i + 1}`).toEqual(await server(request));
    advance(400_000);
    expect(await core(request)).toEqual(await server(request));
  });

  it('answers with a list of allowed origins, strict query checks and a control token as the server does', async () => {
    const { server, core } = await pair({ corsOrigins: ['http://localhost:5173'], strict: true, controlToken: 'secret-token' });
    const requests: CoreRequest[] = [
      { method: 'GET', url: '/v1/pets?offset=3', headers: as('demo-pro', { origin: 'http://localhost:5173' }) },
      { method: 'GET', url: '/v1/pets', headers: as('demo-pro', { origin: 'http://evil.test' }) },
      { method: 'OPTIONS', url: '/v1/pets', headers: { origin: 'http://evil.test', 'access-control-request-method': 'GET' } },
      { method: 'GET', url: '/__mock/clock', headers: {} },
      { method: 'GET', url: '/__mock/clock', headers: { authorization: 'Bearer wrong' } },
      { method: 'GET', url: '/__mock/clock', headers: { authorization: 'Bearer secret-token' } },
      { method: 'OPTIONS', url: '/__mock/reset', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } },
    ];
    for (const request of requests) expect(await core(request), `${request.method} ${request.url}`).toEqual(await server(request));
  });

  it('answers generated requests as the server does', async () => {
    const segment = fc.oneof(fc.constantFrom('pets', 'v1', 'store', 'orders', '1', '', '%', '%zz', '..', '0x1', '-1', '00', '9007199254740993'), fc.string({ maxLength: 6 }).map(encodeURIComponent));
    const query = fc.array(fc.tuple(fc.constantFrom('limit', 'status', 'offset', 'x', ''), fc.constantFrom('1', '100', '101', '-1', 'available', 'sold', '', '1.5', '%20')), { maxLength: 3 });
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'PATCH'),
      path: fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => `/v1/${parts.join('/')}`),
      query,
      key: fc.constantFrom('demo-pro', 'demo-free', 'nope', ''),
      body: fc.option(fc.oneof(fc.constant('{"name":"G","categoryId":1}'), fc.json(), fc.string({ maxLength: 20 })), { nil: undefined }),
      type: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
      prefer: fc.option(fc.constantFrom('code=500', 'code=404', 'code=200', 'delay=0', 'dynamic=true, seed=3', 'code=abc'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 8 }), async (requests) => {
        const { server, core } = await pair();
        for (const r of requests) {
          const headers: Record<string, string> = {};
          if (r.key) headers.authorization = `Bearer ${r.key}`;
          if (r.type && r.body !== undefined) headers['content-type'] = r.type;
          if (r.prefer) headers.prefer = r.prefer;
          // As a fetch client sends it: dot segments resolved, the rest percent-encoded.
          const target = new URL(r.query.length ? `${r.path}?${r.query.map(([k, v]) => `${k}=${v}`).join('&')}` : r.path, 'http://mock.test');
          const url = target.pathname + target.search;
          const sent: CoreRequest = { method: r.method, url, headers, ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: text(r.body) } : {}) };
          const [a, b] = [await server(sent), await core(sent)];
          expect(b, `${sent.method} ${sent.url} ${JSON.stringify(headers)} ${r.body ?? ''}`).toEqual(a);
        }
      }),
      { numRuns: 100 },
    );
  });
});
