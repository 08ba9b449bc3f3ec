import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeContent, httpTransport, TransportError, type Transport, defaultMaxBodyBytes } from './transport.ts';

const bom = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = Buffer.from('{"name":"Café"}', 'latin1');

/** 32 MiB of zeros gzipped (about 32 KB), made without holding the 32 MiB. */
async function gzipBomb(mib: number): Promise<Buffer> {
  const gzip = zlib.createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < mib; i++) gzip.write(zeros);
  gzip.end();
  await ended;
  return Buffer.concat(out);
}

/** Writes chunk after chunk for as long as the client reads, never ending the body. */
function endless(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(16 * 1024, 0x61);
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  pump();
}

let bomb: Buffer;
const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/ok': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'x-ratelimit-limit': '60' }).end('[]'),
  '/drop': (req) => req.socket.destroy(),
  '/drop-mid-body': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('[{"id":1');
    setImmediate(() => req.socket.destroy());
  },
  '/hang': () => {}, // never answers: the client's timeout must end it
  '/stall': (_, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('[{"id":1'), // a body that never ends
  '/endless': (_, res) => endless(res),
  '/bom': (_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat([bom, Buffer.from('{"a":1}')])),
  '/latin1': (_, res) => res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' }).end(latin1),
  '/twice': (_, res) => {
    res.setHeader('X-RateLimit-Remaining', ['5', '4']);
    res.setHeader('Content-Type', 'application/json');
    res.end('[]');
  },
  '/peer': (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ address: req.socket.remoteAddress, port: req.socket.remotePort })),
  '/echo': (req, res) => res.writeHead(200, { 'content-type': 'application/json', allow: 'GET, HEAD, OPTIONS' }).end(JSON.stringify({ method: req.method, rawHeaders: req.rawHeaders })),
  '/announced': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 20) }).end(Buffer.alloc(1 << 20, 0x20)),
  '/redirect': (_, res) => res.writeHead(302, { location: '/ok' }).end(),
  '/gzip': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(zlib.gzipSync('{"coding":"gzip"}')),
  '/deflate': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(zlib.deflateSync('{"coding":"deflate"}')),
  '/deflate-raw': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'deflate' }).end(zlib.deflateRawSync('{"coding":"raw"}')),
  '/br': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' }).end(zlib.brotliCompressSync('{"coding":"br"}')),
  // A registered coding no Node decodes (zstd is decoded from Node 22.15 on, so it is no longer unknown).
  '/unknown-coding': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'exi' }).end('not exi'),
  '/bad-gzip': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip at all'),
  '/bomb': (_, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(bomb),
  // Bytes written as they are, past node's own framing: what a hand-written server gets wrong.
  '/utf16-length': (req) => {
    const body = '[{"name":"Émile"}]';
    req.socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  },
  '/length-and-chunked': (req) => req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n'),
  '/bad-chunk': (req) => req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2\r\n[1,2]\r\n0\r\n\r\n'),
  '/status-line-only': (req) => req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n'),
  '/endless-head': (req) => req.socket.write(`HTTP/1.1 200 OK\r\n${'x-endless: yes\r\n'.repeat(2000)}`),
};

let server: Server;
let base: string;
let transport: Transport;
beforeAll(async () => {
  bomb = await gzipBomb(32);
  server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  transport = httpTransport();
});
afterAll(async () => {
  await transport.close?.();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, timeoutMs = 5000, through = transport) => through.send({ method: 'GET', url: `${base}${path}`, headers: {} }, timeoutMs);

describe('httpTransport: the connection a request goes on', () => {
  const peer = async (connection?: { fresh?: boolean; localAddress?: string }) => JSON.parse((await transport.send({ method: 'GET', url: `${base}/peer`, headers: {}, ...(connection ? { connection } : {}) }, 5000)).body) as { address: string; port: number };

  it('reuses one kept-alive connection, and opens one of its own for a fresh request', async () => {
    const first = await peer();
    expect((await peer()).port).toBe(first.port);
    const fresh = await peer({ fresh: true });
    expect(fresh.port).not.toBe(first.port);
    expect((await peer()).port).toBe(first.port);
  });

  it('connects from the local address asked for, as a client behind another NAT address', async () => {
    expect((await peer({ localAddress: '127.0.0.2' })).address).toBe('127.0.0.2');
    expect((await peer()).address).toBe('127.0.0.1');
  });
});

describe('httpTransport', () => {
  it('returns status, lower-case headers and the body as text and bytes', async () => {
    const res = await get('/ok');
    expect(res).toMatchObject({ status: 200, body: '[]', headers: { 'x-ratelimit-limit': '60' } });
    expect(res.bytes).toEqual(new TextEncoder().encode('[]'));
    expect(res.rawHeaders).toContainEqual(['x-ratelimit-limit', '60']);
    expect(res.truncated).toBeUndefined();
  });

  it('keeps a BOM in the bytes and in the text', async () => {
    const res = await get('/bom');
    expect([...res.bytes.subarray(0, 3)]).toEqual([...bom]);
    expect(res.body).toBe('\ufeff{"a":1}');
  });

  it('keeps Latin-1 bytes as sent, and reads them as UTF-8 (not decoded as Latin-1)', async () => {
    const res = await get('/latin1');
    expect(Buffer.from(res.bytes)).toEqual(latin1);
    expect(res.body).toBe('{"name":"Caf\ufffd"}');
  });

  it('keeps a header sent twice as two lines, and joins them in `headers`', async () => {
    const res = await get('/twice');
    expect(res.rawHeaders.filter(([name]) => name === 'x-ratelimit-remaining')).toEqual([['x-ratelimit-remaining', '5'], ['x-ratelimit-remaining', '4']]);
    expect(res.headers['x-ratelimit-remaining']).toBe('5, 4');
  });

  it('sends header names in the case given, and Accept-Encoding only when asked', async () => {
    const res = await transport.send({ method: 'GET', url: `${base}/echo`, headers: { AUTHORIZATION: 'Bearer k', 'X-Mixed-Case': 'v' } }, 5000);
    const raw = (JSON.parse(res.body) as { rawHeaders: string[] }).rawHeaders;
    expect(raw).toEqual(expect.arrayContaining(['AUTHORIZATION', 'Bearer k', 'X-Mixed-Case', 'v']));
    expect(raw.map((h) => h.toLowerCase())).not.toContain('accept-encoding');
    const asked = await transport.send({ method: 'GET', url: `${base}/echo`, headers: { 'Accept-Encoding': 'gzip' } }, 5000);
    expect((JSON.parse(asked.body) as { rawHeaders: string[] }).rawHeaders).toEqual(expect.arrayContaining(['Accept-Encoding', 'gzip']));
  });

  it('sends HEAD and OPTIONS; a HEAD answer has no body whatever length it announces', async () => {
    const head = await transport.send({ method: 'HEAD', url: `${base}/announced`, headers: {} }, 5000);
    expect(head).toMatchObject({ status: 200, body: '', headers: { 'content-length': String(1 << 20) } });
    expect(head.bytes).toHaveLength(0);
    expect(head.truncated).toBeUndefined();
    const options = await transport.send({ method: 'OPTIONS', url: `${base}/echo`, headers: {} }, 5000);
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(options.body)).toMatchObject({ method: 'OPTIONS' });
    const put = await transport.send({ method: 'PUT', url: `${base}/echo`, headers: { 'content-type': 'application/json' }, body: '{"é":1}' }, 5000);
    expect(JSON.parse(put.body)).toMatchObject({ method: 'PUT' });
  });

  it('does not follow a redirect', async () => {
    const res = await get('/redirect');
    expect(res).toMatchObject({ status: 302, headers: { location: '/ok' } });
  });

  it('cuts a body past the cap and says so', async () => {
    const capped = httpTransport({ maxBodyBytes: 64 * 1024 });
    try {
      const endlessRes = await get('/endless', 5000, capped);
      expect(endlessRes).toMatchObject({ status: 200, truncated: true });
      expect(endlessRes.bytes).toHaveLength(64 * 1024);
      // A length past the cap announced: nothing is read.
      const announced = await get('/announced', 5000, capped);
      expect(announced).toMatchObject({ status: 200, truncated: true, body: '' });
      // The transport is still usable after dropping those connections.
      expect(await get('/ok', 5000, capped)).toMatchObject({ status: 200, body: '[]' });
    } finally {
      await capped.close?.();
    }
  });

  it('ends an endless body at the cap or the timeout, whichever comes first', async () => {
    const outcome = await get('/endless', 300).catch((e: unknown) => e);
    if (outcome instanceof TransportError) expect(outcome.message).toMatch(/did not end within 300 ms/);
    else expect(outcome).toMatchObject({ truncated: true, bytes: expect.objectContaining({ length: defaultMaxBodyBytes }) });
  });

  it('gives up on a body that stops coming at the timeout', async () => {
    // Long enough that the first 8 bytes arrive within it on a busy machine; the body never ends.
    await expect(get('/stall', 2_000)).rejects.toThrow(/GET .*\/stall failed: the body did not end within 2000 ms \(8 bytes read\)/);
  });

  it.each([
    ['/gzip', { coding: 'gzip' }],
    ['/deflate', { coding: 'deflate' }],
    ['/deflate-raw', { coding: 'raw' }],
    ['/br', { coding: 'br' }],
  ])('decodes %s', async (path, json) => {
    const res = await get(path);
    expect(JSON.parse(res.body)).toEqual(json);
    expect(res.headers['content-encoding']).toBeDefined();
  });

  it('leaves a body in an unknown coding as it came', async () => {
    expect(await get('/unknown-coding')).toMatchObject({ body: 'not exi', headers: { 'content-encoding': 'exi' } });
  });

  it('reports a body that is not what its coding says as a TransportError', async () => {
    await expect(get('/bad-gzip')).rejects.toThrow(/not valid gzip/);
  });

  it('stops inflating a gzip bomb at the cap', async () => {
    const capped = httpTransport({ maxBodyBytes: 1 << 20 });
    try {
      const res = await get('/bomb', 5000, capped);
      expect(bomb.length).toBeLessThan(1 << 20);
      expect(res).toMatchObject({ status: 200, truncated: true });
      expect(res.bytes).toHaveLength(1 << 20);
    } finally {
      await capped.close?.();
    }
    // The same cap holds when decoding outside a transport.
    const decoded = await decodeContent(bomb, 'gzip', 4096);
    expect(decoded).toMatchObject({ truncated: true, bytes: expect.objectContaining({ length: 4096 }) });
  });

  it('reuses one connection for consecutive requests, and close() lets it go', async () => {
    const sockets: Socket[] = [];
    const own = createServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
    own.on('connection', (socket) => sockets.push(socket));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}/`;
    const kept = httpTransport();
    try {
      expect((await kept.send({ method: 'GET', url, headers: {} }, 5000)).status).toBe(200);
      expect((await kept.send({ method: 'GET', url, headers: {} }, 5000)).status).toBe(200);
      expect(sockets).toHaveLength(1);
      const released = new Promise((resolve) => sockets[0]!.once('close', resolve));
      await kept.close?.();
      await released;
      expect(sockets[0]!.destroyed).toBe(true);
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it.each([
    ['a connection closed before the answer', '/drop', /socket hang up|ECONNRESET/],
    ['a connection closed in the middle of the body', '/drop-mid-body', /ECONNRESET|connection closed/],
  ])('reports %s as a TransportError', async (_, path, reason) => {
    const error = await get(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as Error).message).toMatch(reason);
  });

  it('reports a refused connection as a TransportError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(transport.send({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {} }, 5000)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('gives up on an answer that does not come within the timeout, as one that timed out', async () => {
    // The timeout here is the transport's own behaviour under test, not a measure of speed.
    const error = await get('/hang', 200).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: expect.stringMatching(/no answer within 200 ms/), timedOut: true, partial: undefined });
  });

  describe('an answer node\'s parser refuses is the deployment\'s evidence, not a network failure', () => {
    const failure = async (path: string, timeoutMs = 5000) => {
      const error = await get(path, timeoutMs).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      return error as TransportError;
    };

    it('keeps the answer a Content-Length counted in UTF-16 units framed, and says what came after it', async () => {
      const error = await failure('/utf16-length');
      expect([error.timedOut, error.malformed]).toEqual([false, true]);
      expect(error.partial).toMatchObject({ status: 200, body: '[{"name":"Émile"}', headers: { 'content-length': '18' } });
      expect(error.message).toMatch(/breaks HTTP\/1.1 framing: .*HPE_INVALID_CONSTANT.*"\]"; it came after the 18 body bytes .* does not count the whole body/);
    });

    it('keeps the head of an answer with both Content-Length and Transfer-Encoding', async () => {
      const error = await failure('/length-and-chunked');
      expect(error.partial).toMatchObject({ status: 200, headers: { 'content-length': '2', 'transfer-encoding': 'chunked' } });
      expect(error.message).toMatch(/HPE_/);
    });

    it('keeps what came of a chunked body whose chunk size does not match', async () => {
      const error = await failure('/bad-chunk');
      expect(error.partial).toMatchObject({ status: 200 });
      expect(error.message).toMatch(/HPE_/);
    });

    it('keeps the status line of a head that stalls, and says it is not a silence', async () => {
      const error = await failure('/status-line-only', 2_000);
      expect(error).toMatchObject({ timedOut: false, malformed: false, partial: { status: 200, headers: { 'content-type': 'application/json' } } });
      expect(error.message).toMatch(/status line came \(200\) but the head did not end within 2000 ms/);
    });

    it('keeps the status line of a head that never ends', async () => {
      const error = await failure('/endless-head');
      expect(error.partial).toMatchObject({ status: 200 });
      expect(error.message).toMatch(/HPE_HEADER_OVERFLOW/);
    });
  });
});
