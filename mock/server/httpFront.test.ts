// Node's HTTP server in front of the mock, on real sockets: what a client's FIN does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startHttpFront } from './httpFront.ts';
import { ApiError } from '../errors/errorCatalogue.ts';

/** A front whose route answers each request only once the server has read the client's FIN. */
async function answeringAfterFin() {
  const route = (req: IncomingMessage, res: ServerResponse) => {
    req.socket.once('end', () => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
      res.end('ok');
    });
  };
  return startHttpFront({
    port: 0,
    host: '127.0.0.1',
    route,
    state: () => { throw new Error('not asked: no request here is refused by Node'); },
    methodNotAllowed: () => new ApiError('METHOD_NOT_ALLOWED'),
    clientAddress: () => '127.0.0.1',
  });
}

describe('the HTTP front', () => {
  it('answers a client that half-closes after its request, then closes the connection (RFC 9293, 3.6)', async () => {
    const front = await answeringAfterFin();
    try {
      const { port } = new URL(front.origin);
      const heard = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.setEncoding('latin1');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', reject);
        socket.on('close', () => resolve(text));
        // The request, then a FIN: the client sends nothing more, and still reads.
        socket.end('GET /v1/pets HTTP/1.1\r\nHost: mock.test\r\n\r\n');
      });
      expect(heard).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(heard.endsWith('\r\n\r\nok')).toBe(true);
    } finally {
      await front.close(1000);
    }
  });
});
