// The fastify host over real sockets: what inject() cannot show (header lines as sent, a body cut
// at the limit, a client that leaves mid-body).
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from './startMockServer.ts';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Raw { status: number; rawHeaders: string[]; body: string }
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const key = { authorization: 'Bearer demo-pro' };

describe('the fastify host of the core, over HTTP', () => {
  it('sends each header once, whatever case the answer\'s source named it in (Prism names its own Content-Type)', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false });
    for (const path of ['/pets?limit=2', '/pets/1', '/store/orders', '/nope']) {
      const answer = await send(`${server.url}${path}`, { headers: key });
      const names = answer.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
      expect(names.filter((name, i) => names.indexOf(name) !== i), `${path}: ${answer.rawHeaders.join(' ')}`).toEqual([]);
    }
  });

  it('answers a body past the limit with 413 after reading one byte past it, and closes the connection', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false, bodyLimit: 1024 });
    const answer = await send(`${server.url}/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: Buffer.alloc(64 * 1024, 0x20) });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    const connection = answer.rawHeaders[answer.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'connection') + 1];
    expect(connection).toBe('close');
    expect((await send(`${server.url}/pets?limit=1`, { headers: key })).status).toBe(200);
  });

  it('serves on when a client leaves in the middle of its body, and counts nothing for it', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false });
    await new Promise<void>((resolve) => {
      const req = request(`${server!.url}/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json', 'content-length': '1000' }, agent: false });
      req.on('error', () => resolve());
      req.write('{"name":"Half');
      setImmediate(() => req.destroy());
      req.on('close', () => resolve());
    });
    const after = await send(`${server.url}/pets?limit=1`, { headers: key });
    expect(after.status).toBe(200);
    expect(await server.mock.state.store.count()).toBe(250);
  });
  it('forgets an answer a stall rule holds once its client closes its side, records it unanswered, and closes the connection', async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false });
    const control = `${new URL(server.url).origin}/__mock`;
    const added = await fetch(`${control}/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ operationId: 'listPets', action: 'stall' }) });
    const { id } = (await added.json()) as { id: string };
    const { hostname, port } = new URL(server.url);
    // The request, then the client's FIN, as a client that gives up sends it: the server is left
    // holding an answer no one waits for, and must let go of it and of the connection.
    const heard = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), hostname);
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('error', () => {});
      socket.on('close', () => resolve(text));
      socket.end(`GET /v1/pets HTTP/1.1\r\nHost: mock.test\r\nAuthorization: Bearer demo-pro\r\n\r\n`);
    });
    expect(heard).toBe('');
    const faults = (await (await fetch(`${control}/faults`)).json()) as { faults: { holding?: number }[] };
    expect(faults.faults.map((f) => f.holding ?? 0)).toEqual([0]);
    const { requests } = (await (await fetch(`${control}/requests`)).json()) as { requests: unknown[] };
    expect(requests).toEqual([expect.objectContaining({ path: '/v1/pets', status: 0, fault: id })]);
  });
});
