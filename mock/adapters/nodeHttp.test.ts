// The Node host (nodeHttp.ts, what pets-mock serves with) answers as the fastify adapter
// (fastify.ts, what buildMock serves with) does, byte for byte on a real socket: the same request
// to two mocks opened alike, one served through each, gives the same response but for its Date.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMock, type MockOptions } from '../buildMock.ts';
import { openMock, type Mock } from '../core/openMock.ts';
import { answerRaw, serveNode, type NodeAnswerer } from './nodeHttp.ts';
import { ConnectionResetError } from '../core/coreTypes.ts';
import { clientAddressOf } from './clientAddress.ts';
import { ManualClock } from '../state/clock.ts';
import { testSpec } from '../testing.ts';
import { generatePets } from '../../fixtures/generatePets.ts';

let viaFastify: FastifyInstance;
let viaNodeMock: Mock;
let viaNode: Server;
let ports: { fastify: number; node: number };

beforeAll(async () => {
  const spec = await testSpec();
  const options = (): MockOptions => ({ spec, pets: generatePets({ count: 30 }), clock: new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30)), bodyLimit: 256, trustProxy: 1, corsOrigins: ['http://app.test'] });
  viaFastify = await buildMock(options());
  await viaFastify.listen({ port: 0, host: '127.0.0.1' });
  const { trustProxy, ...mockOptions } = options();
  viaNodeMock = await openMock(mockOptions);
  viaNode = createServer(serveNode(() => viaNodeMock, { bodyLimit: 256, clientAddress: clientAddressOf(trustProxy), log: viaNodeMock.log }));
  await new Promise<void>((resolve) => viaNode.listen(0, '127.0.0.1', resolve));
  ports = { fastify: (viaFastify.server.address() as AddressInfo).port, node: (viaNode.address() as AddressInfo).port };
});

afterAll(async () => {
  await viaFastify?.close();
  await new Promise((resolve) => viaNode?.close(resolve));
  await viaNodeMock?.close();
});

/** Sends `head` (the request line and headers, without the blank line) and `body` as bytes; the whole response back, its Date line left out. */
function exchange(port: number, head: string, body = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').replace(/^Date: .*\r\n/im, '')));
    // Not half-closed: a server may drop a connection whose client ended before a slow answer (Prism loading).
    socket.write(`${head}\r\nHost: mock.test\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** The same request to both hosts: their answers must be the same; the answer. */
async function bothAnswer(head: string, body = ''): Promise<string> {
  const [fromFastify, fromNode] = await Promise.all([exchange(ports.fastify, head, body), exchange(ports.node, head, body)]);
  expect(fromNode).toBe(fromFastify);
  expect(fromNode).toMatch(/^HTTP\/1\.1 \d{3} /);
  return fromNode;
}

const key = 'Authorization: Bearer demo-pro';
const json = 'Content-Type: application/json';
const pet = '{"name":"Rex","categoryId":2}';

describe('the Node host of the mock (pets-mock)', () => {
  it.each<[string, string, string?]>([
    ['a page', `GET /v1/pets?limit=5&status=available HTTP/1.1\r\n${key}`],
    ['a pet', `GET /v1/pets/3 HTTP/1.1\r\n${key}`],
    ['no pet', `GET /v1/pets/999 HTTP/1.1\r\n${key}`],
    ['no key', 'GET /v1/pets HTTP/1.1'],
    ['a wrong key', 'GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer nope'],
    ['a HEAD', `HEAD /v1/pets HTTP/1.1\r\n${key}`],
    ['a create', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: ${pet.length}`, pet],
    ['a chunked create', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nTransfer-Encoding: chunked`, `${pet.length.toString(16)}\r\n${pet}\r\n0\r\n\r\n`],
    ['a create with an empty body', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: 0`],
    ['a create with no Content-Type', `POST /v1/pets HTTP/1.1\r\n${key}\r\nContent-Length: ${pet.length}`, pet],
    ['a create in text', `POST /v1/pets HTTP/1.1\r\n${key}\r\nContent-Type: text/plain\r\nContent-Length: ${pet.length}`, pet],
    ['a create with a malformed Content-Type', `POST /v1/pets HTTP/1.1\r\n${key}\r\nContent-Type: ;;\r\nContent-Length: ${pet.length}`, pet],
    ['a create past the body limit', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: 300`, `{"name":"${'x'.repeat(280)}","categoryId":1}`.slice(0, 300)],
    ['a create with malformed JSON', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: 9`, '{"name":1'],
    ['a create without a key', `POST /v1/pets HTTP/1.1\r\n${json}\r\nContent-Length: ${pet.length}`, pet],
    ['a DELETE without a body', `DELETE /v1/pets/3 HTTP/1.1\r\n${key}`],
    ['a DELETE with a Content-Type and no body', `DELETE /__mock/requests HTTP/1.1\r\n${json}`],
    ['a DELETE with a Content-Type and a length of 0', `DELETE /__mock/requests HTTP/1.1\r\n${json}\r\nContent-Length: 0`],
    ['a DELETE with a body and no Content-Type', 'DELETE /__mock/faults HTTP/1.1\r\nContent-Length: 2', '{}'],
    ['a chunked DELETE with no Content-Type', 'DELETE /__mock/faults HTTP/1.1\r\nTransfer-Encoding: chunked', '2\r\n{}\r\n0\r\n\r\n'],
    ['a DELETE with a body of an unknown type', 'DELETE /__mock/faults HTTP/1.1\r\nContent-Type: nonsense\r\nContent-Length: 2', '{}'],
    ['an OPTIONS with a Content-Type and no body', `OPTIONS /nowhere HTTP/1.1\r\n${json}`],
    ['a POST with a Content-Type and no body', `POST /v1/pets HTTP/1.1\r\n${key}\r\n${json}`],
    ['a DELETE with a body', `DELETE /v1/pets/3 HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: 2`, '{}'],
    ['a preflight', 'OPTIONS /v1/pets HTTP/1.1\r\nOrigin: http://app.test\r\nAccess-Control-Request-Method: POST'],
    ['a refused preflight', 'OPTIONS /v1/pets HTTP/1.1\r\nOrigin: http://evil.test\r\nAccess-Control-Request-Method: POST'],
    ['a PROPFIND', `PROPFIND /v1/pets HTTP/1.1\r\n${key}`],
    ['a QUERY', `QUERY /v1/pets HTTP/1.1\r\n${key}\r\n${json}\r\nContent-Length: 2`, '{}'],
    ['an undecodable path', `GET /v1/pets/%E0%A4%A HTTP/1.1\r\n${key}`],
    ['an absolute-form target', `GET http://mock.test/v1/pets/2 HTTP/1.1\r\n${key}`],
    ['a path outside the API', 'GET /pets HTTP/1.1'],
    ['a control request', 'GET /__mock/requests?limit=3 HTTP/1.1'],
    ['a Prefer', `GET /v1/pets HTTP/1.1\r\n${key}\r\nPrefer: code=503`],
    ['an unknown query parameter', `GET /v1/pets?offset=100 HTTP/1.1\r\n${key}`],
    ['a client behind the trusted proxy, told by X-Forwarded-For', 'GET /v1/pets HTTP/1.1\r\nX-Forwarded-For: 203.0.113.9'],
  ])('answers %s as the fastify host does', async (_name, head, body) => {
    await bothAnswer(head, body);
  });

  it('reads two Authorization headers as fetch joins them, and refuses the pair as a malformed key', async () => {
    const answer = await bothAnswer(`GET /v1/pets HTTP/1.1\r\n${key}\r\nAuthorization: Bearer demo-free`);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toContain('"code":"UNAUTHORIZED"');
  });

  it('reads a body only when the request says how long it is or chunks it (RFC 9112, 6.3)', async () => {
    // A client that sets Content-Type on every request: its DELETE has no body, and is done.
    expect(await bothAnswer(`DELETE /__mock/requests HTTP/1.1\r\n${json}`)).toMatch(/^HTTP\/1\.1 204 /);
    // A body of no type the mock reads is refused, and nothing is removed.
    expect(await bothAnswer('DELETE /__mock/faults HTTP/1.1\r\nContent-Length: 2', '{}')).toMatch(/^HTTP\/1\.1 415 /);
    expect(await bothAnswer('DELETE /__mock/faults HTTP/1.1\r\nContent-Type: nonsense\r\nContent-Length: 2', '{}')).toMatch(/^HTTP\/1\.1 415 /);
  });

  it('keeps the client address X-Forwarded-For names, through the trusted proxy, in the request log', async () => {
    await bothAnswer('GET /v1/pets/7 HTTP/1.1\r\nX-Forwarded-For: 198.51.100.4, 203.0.113.9');
    for (const port of [ports.fastify, ports.node]) expect(await exchange(port, 'GET /__mock/requests?status=401 HTTP/1.1')).toContain('"client":"203.0.113.9"');
  });

  it('answers any generated request as the fastify adapter does', async () => {
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
    const path = fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/pets/abc', '/v1/store/orders', '/v1', '/__mock/clock', '/nowhere', '/v1/pets?limit=0', '/v1/pets?limit=2&status=sold');
    const auth = fc.constantFrom('', `\r\n${key}`, '\r\nAuthorization: Basic eDp5', '\r\nAuthorization: Bearer demo-free');
    const body = fc.option(fc.constantFrom(pet, '{}', '[]', 'null', '{"name":"A","categoryId":"4"}', '{bad'), { nil: undefined });
    const type = fc.constantFrom('', `\r\n${json}`, '\r\nContent-Type: text/plain');
    await fc.assert(fc.asyncProperty(method, path, auth, body, type, async (m, p, a, b, t) => {
      const head = `${m} ${p} HTTP/1.1${a}${b === undefined ? '' : `${t}\r\nContent-Length: ${Buffer.byteLength(b)}`}`;
      await bothAnswer(head, b ?? '');
    }), { numRuns: 60 });
  });
});

describe('answerRaw, the Node hosts\' hand-over', () => {
  /** A server answering every request with `answerNow`'s answer, through answerRaw as pets-mock does. */
  async function serving(answerNow: NodeAnswerer['answerNow'], errors: unknown[] = []): Promise<{ port: number; close: () => Promise<void> }> {
    const server = createServer(serveNode(() => ({ answerNow, arrival: () => Date.UTC(2026, 5, 1) }), { bodyLimit: 256, clientAddress: () => '127.0.0.1', log: { error: (fields) => errors.push(fields) } }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('writes an answer the mock gives at once before answerRaw returns, with no promise', async () => {
    const res = { headersSent: false, destroyed: false, writeHead(status: number) { this.status = status; this.headersSent = true; }, end(body: string) { this.body = body; }, status: 0, body: '' };
    const req = { method: 'GET', url: '/v1/pets', rawHeaders: ['Host', 'mock.test'], socket: null };
    const returned = answerRaw({ answerNow: () => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '[]' }) }, { req: req as never, res: res as never, ip: '127.0.0.1', arrivedAt: 0 }, { bodyLimit: 256, log: { error: () => {} } });
    expect(returned).toBeUndefined();
    expect(res).toMatchObject({ status: 200, body: '[]' });
  });

  it('through serveNode, sets the head of an answer given at once and ends it after the turn, with the answers read in it', async () => {
    const calls: string[] = [];
    const fakeResponse = (name: string) => ({
      headersSent: false, destroyed: false,
      writeHead(status: number) { this.headersSent = true; calls.push(`${name} head ${status}`); },
      end(body: string) { calls.push(`${name} end ${body}`); },
    });
    const listener = serveNode(() => ({ answerNow: (request) => ({ status: 200, headers: {}, body: request.url }), arrival: () => 0 }), { bodyLimit: 256, clientAddress: () => '127.0.0.1', log: { error: () => {} } });
    for (const url of ['/v1/pets/1', '/v1/pets/2']) listener({ method: 'GET', url, rawHeaders: ['Host', 'mock.test'], socket: null } as never, fakeResponse(url) as never);
    expect(calls).toEqual(['/v1/pets/1 head 200', '/v1/pets/2 head 200']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.slice(2)).toEqual(['/v1/pets/1 end /v1/pets/1', '/v1/pets/2 end /v1/pets/2']);
  });

  it('writes the answer pipelined ahead of a request a reset rule takes, then drops the connection', async () => {
    const server = await serving((request) => {
      if (request.url === '/v1/reset') throw new ConnectionResetError('a reset rule');
      return { status: 200, headers: { 'content-length': '2' }, body: 'ok' };
    });
    try {
      const heard = await new Promise<{ text: string }>((resolve) => {
        const socket = connect(server.port, '127.0.0.1');
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ text }));
        // In one write: the server reads both in one turn of its event loop.
        socket.write(['/v1/pets/1', '/v1/reset'].map((path) => `GET ${path} HTTP/1.1\r\nHost: mock.test\r\n\r\n`).join(''));
      });
      expect([...heard.text.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => m[1])).toEqual(['200']);
      // Nothing for the second: the connection is gone (cut while the first answer was still
      // being written, the client reads its end rather than a reset).
      expect(heard.text.endsWith('\r\n\r\nok')).toBe(true);
    } finally {
      await server.close();
    }
  });

  it.each<[string, NodeAnswerer['answerNow']]>([
    ['an answer given at once that cannot be written', () => ({ status: 200, headers: { 'x-bad': 'one\ntwo' }, body: '[]' })],
    ['an answer given later that cannot be written', () => Promise.resolve({ status: 200, headers: { 'x-bad': 'one\ntwo' }, body: '[]' })],
    ['a mock that throws', () => { throw new Error('broken'); }],
    ['a mock that rejects', () => Promise.reject(new Error('broken'))],
  ])('answers %s with an Error body (500), logged, never a dropped connection', async (_name, answerNow) => {
    const errors: unknown[] = [];
    const server = await serving(answerNow, errors);
    try {
      const answer = await exchange(server.port, 'GET /v1/pets HTTP/1.1');
      expect(answer).toMatch(/^HTTP\/1\.1 500 /);
      expect(answer).toContain('"code":"INTERNAL_ERROR"');
      expect(errors).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
