import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTransport, TransportError } from './transport.ts';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/drop') return req.socket.destroy();
    if (req.url === '/drop-mid-body') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('[{"id":1');
      return setImmediate(() => req.socket.destroy());
    }
    if (req.url === '/hang') return; // never answers: the client's timeout must end it
    res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '60' }).end('[]');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetchTransport', () => {
  it('returns status, lower-case headers and the body as text', async () => {
    const res = await fetchTransport.send({ method: 'GET', url: `${base}/ok`, headers: {} }, 5000);
    expect(res).toMatchObject({ status: 200, body: '[]', headers: { 'x-ratelimit-limit': '60' } });
  });

  it.each([
    ['a connection closed before the answer', '/drop', /UND_ERR_SOCKET|ECONNRESET|other side closed/],
    ['a connection closed in the middle of the body', '/drop-mid-body', /UND_ERR_SOCKET|ECONNRESET|terminated|other side closed/],
  ])('reports %s as a TransportError', async (_, path, reason) => {
    const error = await fetchTransport.send({ method: 'GET', url: `${base}${path}`, headers: {} }, 5000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(reason);
  });

  it('reports a refused connection as a TransportError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchTransport.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }, 5000)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('gives up on an answer that does not come within the timeout', async () => {
    // The timeout here is the transport's own behaviour under test, not a measure of speed.
    await expect(fetchTransport.send({ method: 'GET', url: `${base}/hang`, headers: {} }, 200)).rejects.toThrow(/no answer within 200 ms/);
  });
});
