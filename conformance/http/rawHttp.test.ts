import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRequest, exchangeRaw, splitPoint, type RawRequest, type RequestSpec } from './rawHttp.ts';
import { frameConnection } from './responseFraming.ts';

let server: Server | TcpServer | undefined;
afterEach(async () => {
  if (server && 'closeAllConnections' in server) server.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A node:http server on 127.0.0.1 and a free port; every request it got, with its body as it came. */
async function httpServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const got: { method: string; url: string; body: string; headers: IncomingMessage['headers'] }[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      got.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
      handle(req, res, body);
    });
  });
  server = http;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { got, open: opener((http.address() as AddressInfo).port) };
}

/** A TCP server that answers each connection's bytes as `answer` says. */
async function tcpServer(answer: (socket: Socket, data: Buffer) => void) {
  const tcp = createTcpServer((socket) => {
    socket.on('error', () => {});
    socket.on('data', (data) => answer(socket, data));
  });
  server = tcp;
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  return opener((tcp.address() as AddressInfo).port);
}

const opener = (port: number) => () =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });

const request = (spec: Partial<RequestSpec> = {}): RawRequest => encodeRequest({ method: 'GET', target: '/v1/pets', version: '1.1', headers: [['Host', 'api.test']], ...spec });
const options = { timeoutMs: 5000, maxBytes: 64 * 1024 };
const ok = (res: ServerResponse, body: string, headers: Record<string, string> = {}) => res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);

describe('encodeRequest', () => {
  it('writes the request line, the fields, the body\'s length and Connection: close as asked', () => {
    const raw = encodeRequest({ method: 'POST', target: '/v1/pets', version: '1.1', headers: [['Host', 'a']], body: '{"a":1}', close: true });
    expect(Buffer.from(raw.head).toString()).toBe('POST /v1/pets HTTP/1.1\r\nHost: a\r\nContent-Length: 7\r\nConnection: close\r\n\r\n');
    expect(raw.body.map((p) => Buffer.from(p).toString())).toEqual(['{"a":1}']);
    expect(raw.close).toBe(true);
  });

  it('splits a body inside its first multi-byte character, and chunks it (RFC 9112, 7.1)', () => {
    const body = '{"name":"Zoé"}';
    expect(splitPoint(Buffer.from(body))).toBe(12);
    const split = encodeRequest({ method: 'POST', target: '/', version: '1.1', headers: [], body, bodyAs: 'split' });
    expect(split.body.map((p) => p.length)).toEqual([12, 3]);
    const chunked = encodeRequest({ method: 'POST', target: '/', version: '1.1', headers: [], body, bodyAs: 'chunked' });
    expect(Buffer.from(chunked.head).toString()).toContain('Transfer-Encoding: chunked\r\n');
    expect(Buffer.concat(chunked.body).toString('latin1')).toBe(`c\r\n{"name":"Zo\xc3\r\n3\r\n\xa9"}\r\n0\r\n\r\n`);
  });

  it('asks for the close on HTTP/1.0 unless keep-alive is sent', () => {
    expect(request({ version: '1.0' }).close).toBe(true);
    expect(request({ version: '1.0', headers: [['Connection', 'keep-alive']] }).close).toBe(false);
  });
});

describe('exchangeRaw', () => {
  it('sends requests one by one on one kept-alive connection and records every byte of every answer', async () => {
    const { got, open } = await httpServer((req, res) => ok(res, JSON.stringify({ url: req.url })));
    const records = await exchangeRaw(open, [request({ target: '/a' }), request({ target: '/b' }), request({ method: 'HEAD', target: '/c' })], false, options);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({ indexes: [0, 1, 2], ended: 'done', pipelined: false });
    expect(got.map((g) => g.url)).toEqual(['/a', '/b', '/c']);
    const framed = frameConnection(record!.received, record!.requests, 'closed');
    expect(framed.answers.map((a) => [a.head.status, Buffer.from(a.body).toString(), a.problems])).toEqual([
      [200, '{"url":"/a"}', []],
      [200, '{"url":"/b"}', []],
      [200, '', []],
    ]);
    expect(record!.requests[1]!.writtenAt).toBe(framed.answers[0]!.end);
    expect(record!.timings.answeredMs.every((t) => t !== undefined)).toBe(true);
  });

  it('waits for the close a request asked for, and records it', async () => {
    const { open } = await httpServer((_req, res) => ok(res, '[]'));
    const [record] = await exchangeRaw(open, [request(), request({ close: true })], false, options);
    expect(record).toMatchObject({ ended: 'closed', indexes: [0, 1] });
    expect(record!.timings.closedMs).toBeDefined();
  });

  it('goes on on a new connection when the server says it closes after an answer', async () => {
    const { open } = await httpServer((_req, res) => ok(res, '[]', { connection: 'close' }));
    const records = await exchangeRaw(open, [request(), request(), request()], false, options);
    expect(records.map((r) => [r.indexes, r.ended])).toEqual([[[0], 'closed'], [[1], 'closed'], [[2], 'closed']]);
  });

  it('pipelines requests in one write, and reads the answers in order', async () => {
    const { got, open } = await httpServer((req, res) => ok(res, JSON.stringify({ url: req.url })));
    const records = await exchangeRaw(open, [request({ target: '/1' }), request({ target: '/2' }), request({ target: '/3' })], true, options);
    expect(records).toHaveLength(1);
    expect(got.map((g) => g.url)).toEqual(['/1', '/2', '/3']);
    const framed = frameConnection(records[0]!.received, records[0]!.requests, 'closed');
    expect(framed.answers.map((a) => Buffer.from(a.body).toString())).toEqual(['{"url":"/1"}', '{"url":"/2"}', '{"url":"/3"}']);
  });

  it('sends a body split inside a character, and one chunked, that the server reads whole', async () => {
    const { got, open } = await httpServer((_req, res) => ok(res, '{}'));
    const body = '{"name":"Zoé 🐕"}';
    await exchangeRaw(open, [request({ method: 'POST', body, bodyAs: 'split' }), request({ method: 'POST', body, bodyAs: 'chunked' })], false, options);
    expect(got.map((g) => [g.body, g.headers['transfer-encoding']])).toEqual([[body, undefined], [body, 'chunked']]);
  });

  it('stops reading at the byte cap', async () => {
    const open = await tcpServer((socket) => socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n${'a'.repeat(100_000)}`));
    const [record] = await exchangeRaw(open, [request()], false, { timeoutMs: 5000, maxBytes: 1000 });
    expect([record!.ended, record!.received.length]).toEqual(['cap', 1000]);
  });

  it('stops when an answer does not come within the timeout, and sends nothing more', async () => {
    // The timeout here is the client's own behaviour under test, not a measure of speed.
    const open = await tcpServer(() => {});
    const records = await exchangeRaw(open, [request(), request()], false, { timeoutMs: 200, maxBytes: 1000 });
    expect(records.map((r) => [r.indexes, r.ended])).toEqual([[[0], 'timeout']]);
  });

  it('stops waiting when the run\'s budget ends first, and calls that no timeout of the deployment\'s', async () => {
    const open = await tcpServer(() => {});
    const records = await exchangeRaw(open, [request(), request()], false, { timeoutMs: 60_000, maxBytes: 1000, budgetMs: 100 });
    expect(records.map((r) => [r.indexes, r.ended])).toEqual([[[0], 'done']]);
  });

  it('calls a wait the budget cut no timeout of the deployment\'s, even when its timer fires before the clock reads the budget\'s end', async () => {
    const open = await tcpServer(() => {});
    // A clock that never moves: the wait's timer fires, yet the clock still reads before the budget's end.
    const records = await exchangeRaw(open, [request()], false, { timeoutMs: 60_000, maxBytes: 1000, budgetMs: 50, now: () => 0 });
    expect(records.map((r) => r.ended)).toEqual(['done']);
  });

  it('records a connection that cannot be opened', async () => {
    const records = await exchangeRaw(() => Promise.reject(new Error('connect ECONNREFUSED')), [request()], false, options);
    expect(records).toEqual([expect.objectContaining({ error: 'connect ECONNREFUSED', indexes: [] })]);
  });
});
