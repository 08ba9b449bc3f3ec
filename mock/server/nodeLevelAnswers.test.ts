import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer, type ServerOptions } from './startMockServer.ts';

const running: MockServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

async function start(options: Partial<ServerOptions> = {}) {
  const server = await startMockServer({ port: 0, host: '127.0.0.1', pets: { count: 10 }, logLevel: false, ...options });
  running.push(server);
  return server;
}

function open(server: MockServer): Socket {
  return connect(Number(new URL(server.url).port), '127.0.0.1');
}

/** Sends `text` (or nothing) and reads until the mock closes the connection. */
async function exchange(server: MockServer, text?: string): Promise<string> {
  const socket = open(server);
  if (text !== undefined) socket.write(text);
  let answer = '';
  socket.setEncoding('latin1');
  for await (const chunk of socket) answer += chunk;
  return answer;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Splits raw HTTP/1.1 text into its responses (each with a Content-Length). */
function responses(text: string): Answer[] {
  const out: Answer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

function expectError(answer: Answer | undefined, status: number, code: string): void {
  expect(answer?.status).toBe(status);
  expect(answer?.headers['content-type']).toMatch(/^application\/json/);
  expect(answer?.headers.connection).toBe('close');
  expect(answer?.body).toMatchObject({ code, status, message: expect.any(String) });
}

const rateLimitHeaders = { 'x-ratelimit-limit': expect.stringMatching(/^\d+$/), 'x-ratelimit-remaining': expect.stringMatching(/^\d+$/), 'x-ratelimit-reset': expect.stringMatching(/^\d+$/) };

describe('answers Node writes below fastify', () => {
  it('answers an Expect it cannot meet with a 417 Error and the key\'s rate-limit headers', async () => {
    const server = await start();
    const [answer, ...more] = responses(await exchange(server, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-pro\r\nExpect: foo\r\n\r\n'));
    expectError(answer, 417, 'EXPECTATION_FAILED');
    expect(answer!.headers).toMatchObject({ ...rateLimitHeaders, 'x-ratelimit-limit': '300' });
    expect(more).toEqual([]);
  });

  it('reads the client\'s address as the mock does: behind a trusted proxy, its 417 counts against the address X-Forwarded-For names', async () => {
    const server = await start({ trustProxy: 1 });
    const from = (address: string, more = '') => `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${address}\r\nConnection: close${more}\r\n\r\n`;
    for (let i = 0; i < 2; i++) expect(responses(await exchange(server, from('203.0.113.9')))[0]?.status).toBe(401);
    const remaining = async (address: string) => Number(responses(await exchange(server, from(address, '\r\nExpect: foo')))[0]!.headers['x-ratelimit-remaining']);
    expect((await remaining('198.51.100.7')) - (await remaining('203.0.113.9'))).toBe(2);
  });

  it('answers headers over the limit with a 431 Error and the address\'s rate-limit headers', async () => {
    const server = await start();
    const [answer] = responses(await exchange(server, `GET /v1/pets HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`));
    expectError(answer, 431, 'HEADERS_TOO_LARGE');
    expect(answer!.headers).toMatchObject(rateLimitHeaders);
  });

  it('answers HTTP/1.1 without Host with a 400 Error', async () => {
    const server = await start();
    const [answer] = responses(await exchange(server, 'GET /v1/pets HTTP/1.1\r\nAuthorization: Bearer demo-pro\r\n\r\n'));
    expectError(answer, 400, 'BAD_REQUEST');
    expect(answer!.body).toMatchObject({ message: expect.stringContaining('Host') });
    expect(answer!.headers).toMatchObject(rateLimitHeaders);
  });

  it.each(['HOST', 'host', 'hOsT'])('takes a Host field named %s in any case (RFC 9110, 5.1), and HTTP/1.0 without one', async (name) => {
    const server = await start();
    const [named] = responses(await exchange(server, `GET /v1/pets?limit=1 HTTP/1.1\r\n${name}: x\r\nAuthorization: Bearer demo-pro\r\nConnection: close\r\n\r\n`));
    expect(named!.status).toBe(200);
    const [old] = responses(await exchange(server, 'GET /v1/pets?limit=1 HTTP/1.0\r\nAuthorization: Bearer demo-pro\r\n\r\n'));
    expect(old!.status).toBe(200);
  });

  it('answers CONNECT with a 405 Error whose Allow lists only what the API serves', async () => {
    const server = await start();
    const [answer] = responses(await exchange(server, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    expectError(answer, 405, 'METHOD_NOT_ALLOWED');
    // Its target (host:port) is no resource of the mock: Allow lists what the API serves, from the spec.
    expect(answer!.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers a method no one knows with a 405 Error and a line that is not HTTP with a 400 Error', async () => {
    const server = await start();
    expectError(responses(await exchange(server, 'FROB /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n'))[0], 405, 'METHOD_NOT_ALLOWED');
    expectError(responses(await exchange(server, 'GARBAGE\r\n\r\n'))[0], 400, 'BAD_REQUEST');
  });

  it.each(['FROB', 'get', 'Post'])('answers %s, a method Node does not know, on a path the API serves with the 405 the API gives: Allow from the spec', async (method) => {
    const server = await start();
    const [onPet] = responses(await exchange(server, `${method} /v1/pets/3 HTTP/1.1\r\nHost: x\r\n\r\n`));
    expectError(onPet, 405, 'METHOD_NOT_ALLOWED');
    expect(onPet?.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(onPet?.body).toMatchObject({ message: `${method} is not allowed on /v1/pets/{petId}. Use GET, HEAD, OPTIONS.` });
    const [onPets] = responses(await exchange(server, `${method} /v1/pets?limit=2 HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(onPets?.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    // A path the API does not serve: every method the API serves, from the spec (none it does not).
    const [elsewhere] = responses(await exchange(server, `${method} /nowhere HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(elsewhere?.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    // A control path: the methods that path serves.
    const [onControl] = responses(await exchange(server, `${method} /__mock/clock HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(onControl?.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it.each(['PROPFIND', 'TRACE', 'PURGE'])('answers %s on a path the API serves with a 405 Error listing the methods it allows', async (method) => {
    const server = await start();
    const [answer] = responses(await exchange(server, `${method} /v1/pets/3 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    expect(answer?.status).toBe(405);
    expect(answer?.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
    expect(answer?.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(answer?.headers).toMatchObject(rateLimitHeaders);
  });

  it('answers a connection that never sends a byte with a 408 Error once the headers timeout passes', async () => {
    const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300, timeoutCheckIntervalMs: 50 });
    expectError(responses(await exchange(server))[0], 408, 'REQUEST_TIMEOUT');
  });

  it('answers headers that never finish with a 408 Error', async () => {
    const server = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300, timeoutCheckIntervalMs: 50 });
    expectError(responses(await exchange(server, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\n'))[0], 408, 'REQUEST_TIMEOUT');
  });

  it('answers a chunked body it cannot parse (a bad chunk size) with a 400 Error and the key\'s rate-limit headers, not silence', async () => {
    const server = await start();
    const all = responses(await exchange(server, 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-pro\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'));
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBe(400);
    expect(all[0]!.body).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(all[0]!.headers['x-ratelimit-limit']).toBe('300');
    expect(all[0]!.headers.connection).toBe('close');
  });

  it('sends one answer, not two, to a GET with Transfer-Encoding: identity', async () => {
    const server = await start();
    const all = responses(await exchange(server, 'GET /v1/pets?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-pro\r\nTransfer-Encoding: identity\r\n\r\n'));
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBeGreaterThanOrEqual(200);
  });

  it.each([['keep-alive', ''], ['close', 'Connection: close\r\n']])('lets a client that uploads its whole body over the limit (%s) read its 413 Error, without a reset', async (_, connection) => {
    const server = await start({ bodyLimit: 1024 });
    // A client that keeps uploading after the mock answered (it reads only once its body is out),
    // as many HTTP clients do: the mock must read the rest, not reset the connection under it.
    const socket = connect({ port: Number(new URL(server.url).port), host: '127.0.0.1', allowHalfOpen: true });
    socket.setEncoding('latin1');
    let text = '';
    socket.on('data', (chunk: string) => (text += chunk));
    const ended = new Promise<Error | undefined>((resolve) => {
      socket.once('error', resolve);
      socket.once('close', () => resolve(undefined));
    });
    // Far more than the socket buffers hold, so most of it is still to send when the mock answers.
    const total = 32 * 1024 * 1024;
    socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer demo-pro\r\n${connection}Content-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let writeError: Error | undefined;
    socket.once('error', (error) => (writeError = error));
    for (let sent = 0; sent < total && !socket.destroyed; sent += chunk.length) {
      if (!socket.write(chunk)) await new Promise((resolve) => (socket.once('drain', resolve), socket.once('close', resolve)));
    }
    socket.end();
    expect(await ended).toBeUndefined();
    expect(writeError).toBeUndefined();
    const [answer] = responses(text);
    expect(answer?.status).toBe(413);
    expect(answer?.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
  });
});
