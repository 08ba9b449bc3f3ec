// What an adversarial probe of the core and its fastify host found, each held here: the right 4xx
// and an Error body, never a 5xx, a fastify-made answer, a stack overflow or a request lost.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { testMock, type TestMock } from '../testing.ts';
import { startMockServer, type MockServer } from '../server/startMockServer.ts';

let mock: TestMock | undefined;
let server: MockServer | undefined;
afterEach(async () => {
  await mock?.app.close();
  await server?.close();
  mock = undefined;
  server = undefined;
});

const nested = (depth: number, inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
const json = { 'content-type': 'application/json' };

/** One request written on a socket as given; the answer's text once the server closes or answers. */
function raw(port: number, text: string, { end = true }: { end?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => (end ? socket.end(text) : socket.write(text)));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (!end && answer.includes('\r\n\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('hostile input to the core and its host', () => {
  it('refuses a body nested too deep with 400, on the API and the control API, whatever keys it holds', async () => {
    mock = await testMock();
    const create = await mock.call({ method: 'POST', url: '/v1/pets', headers: json, payload: `{"name":${nested(5000, '"__proto__"')},"categoryId":1}` });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toMatchObject({ code: 'INVALID_BODY', status: 400, message: expect.stringMatching(/more than 64 levels deep/) });
    const clock = await mock.app.inject({ method: 'POST', url: '/__mock/clock', headers: json, payload: `{"freeze":true,"at":${nested(5000, '1')}}` });
    expect(clock.statusCode).toBe(400);
    expect(clock.json().code).toBe('INVALID_CONTROL_REQUEST');
    // Sixty levels are read as JSON (and refused by the schema, not by the parser).
    expect((await mock.call({ method: 'POST', url: '/v1/pets', headers: json, payload: nested(60, '1') })).json().message).toMatch(/^Invalid request body/);
  });

  it('keeps only the contract\'s fields of the pets the control API sets, so none comes back from the API', async () => {
    mock = await testMock();
    const set = await mock.app.inject({ method: 'PUT', url: '/__mock/pets', headers: json, payload: '[{"id":1,"name":"Solo","categoryId":1,"extra":"hi","deep":[[[[1]]]]}]' });
    expect(set.statusCode).toBe(200);
    expect((await mock.call({ url: '/v1/pets/1' })).json()).toEqual({ id: 1, name: 'Solo', categoryId: 1 });
    expect((await mock.call({ url: '/v1/pets' })).json()).toEqual([{ id: 1, name: 'Solo', categoryId: 1 }]);
  });

  it('answers a malformed Content-Type from the catalogue, after the key, with the rate-limit headers', async () => {
    mock = await testMock();
    for (const type of ['json', ';', 'application/ json', 'application/json, text/plain']) {
      const res = await mock.call({ method: 'POST', url: '/v1/pets', headers: { 'content-type': type }, payload: '{"name":"Rex","categoryId":1}' });
      expect(res.statusCode, type).toBe(415);
      expect(res.json(), type).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
      expect(res.headers['x-ratelimit-remaining'], type).toBeDefined();
    }
    const keyless = await mock.call({ method: 'POST', url: '/v1/pets', key: null, headers: { 'content-type': 'json' }, payload: '{}' });
    expect(keyless.statusCode).toBe(401);
    const control = await mock.app.inject({ method: 'POST', url: '/__mock/reset', headers: { 'content-type': 'json' }, payload: '{}' });
    expect(control.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
  });

  it('answers a method the path does not serve with 405 before reading its body', async () => {
    mock = await testMock();
    for (const [method, type, payload] of [['PUT', 'text/plain', 'x'], ['PATCH', 'application/json', '{"name":'], ['QUERY', undefined, undefined]] as const) {
      const res = await mock.call({ method: method as 'PUT', url: '/v1/pets', headers: type ? { 'content-type': type } : {}, ...(payload ? { payload } : {}) });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe('GET, HEAD, POST, OPTIONS');
    }
  });

  it('answers a preflight 204 with no Content-Length (RFC 9110, 8.6)', async () => {
    mock = await testMock();
    const res = await mock.call({ method: 'OPTIONS', url: '/v1/pets', key: null, headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
    expect(res.statusCode).toBe(204);
    expect(res.headers).not.toHaveProperty('content-length');
  });

  it.each([false, true])('names __proto__, constructor and the like as unknown query parameters, as any other name (refused under strict: %s)', async (strict) => {
    mock = await testMock({ strict });
    for (const query of ['__proto__=x', 'constructor=x&limit=1', '__proto__=a&__proto__=b', 'limit=1&__proto__[limit]=1000', 'toString=1&hasOwnProperty=2']) {
      const names = [...new Set(new URLSearchParams(query).keys())];
      // listPets takes limit; getPet takes no query parameter at all.
      for (const [path, unknown] of [['/v1/pets', names.filter((name) => name !== 'limit')], ['/v1/pets/1', names]] as const) {
        const answer = await mock.call({ method: 'GET', url: `${path}?${query}` });
        expect(answer.statusCode).toBe(strict ? 400 : 200);
        expect(answer.headers['x-mock-ignored-query']).toBe(unknown.join(', '));
        if (strict) expect(answer.json()).toMatchObject({ code: 'UNKNOWN_QUERY_PARAMETER', status: 400 });
      }
    }
  });

  it('takes a request target in absolute form as its path (RFC 9112, 3.2.2)', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false });
    const port = new URL(server.url).port;
    const answer = await raw(Number(port), `GET http://127.0.0.1:${port}/v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer demo-pro\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('records a request whose client cut its body short and left, as unanswered, and counts no pet for it', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false });
    const port = Number(new URL(server.url).port);
    await raw(port, 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-pro\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"Half');
    let logged: { status: number }[] = [];
    for (let i = 0; i < 200 && logged.length === 0; i++) {
      logged = (await (await fetch(`${server.url.replace(/\/v1$/, '/__mock')}/requests?method=POST`)).json()).requests;
    }
    expect(logged).toEqual([expect.objectContaining({ method: 'POST', path: '/v1/pets', status: 0 })]);
    expect(await server.mock.state.store.count()).toBe(250);
  });
});
