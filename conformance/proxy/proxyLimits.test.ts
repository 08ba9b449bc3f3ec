// The proxy stays bounded and never holds up the traffic it judges, whatever a client sends: header
// lines by the thousand, heads that never end, a thousand unfinished requests, a report asked for
// while exchanges wait to be judged. Nothing here is timed: that one thing goes before another is
// shown by the order things happen in, and memory by what the proxy counts as held.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import { asError } from '../testing/catalogueHelpers.ts';
import { startDeployment, type Transform } from '../testing/deployment.ts';
import { startProxy, type ProxyOptions, type RunningProxy } from './startProxy.ts';

const rate = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) };
const json = { 'content-type': 'application/json', ...rate };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A deployment on Node's HTTP server that reads any number of header lines. */
async function deployment(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer({ maxHeaderSize: 1024 * 1024 }, handler);
  server.maxHeadersCount = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function proxyTo(target: string, options: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ target, spec: await testSpec(), ...options });
  cleanups.push(() => proxy.close());
  return proxy;
}

/** A client connection to the proxy, closed by the test. */
async function socketTo(proxy: RunningProxy): Promise<Socket> {
  const socket = connect(Number(new URL(proxy.url).port), '127.0.0.1');
  socket.on('error', () => {});
  cleanups.push(async () => {
    socket.destroy();
  });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return socket;
}

/** Everything a connection receives until it closes. */
const received = (socket: Socket): Promise<string> =>
  new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
  });

/** One request through node:http, its answer as text. */
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const key = { authorization: 'Bearer k' };

describe('the proxy, flooded with header lines', () => {
  it('forwards a request of 2,000 header lines whole and in order while other requests go through', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seen: string[] = [];
    const target = await deployment((req, res) => {
      if (req.headers['x-flood'] === undefined) return void res.writeHead(200, json).end('[]');
      seen = req.rawHeaders.flatMap((name, i) => (i % 2 === 0 && name === 'X-Flood' ? [req.rawHeaders[i + 1]!] : []));
      void held.then(() => res.writeHead(200, json).end('[]'));
    });
    const proxy = await proxyTo(target);
    const lines = Array.from({ length: 1_997 }, (_, i) => `X-Flood: ${i}\r\n`).join('');
    const flood = await socketTo(proxy);
    const answer = received(flood);
    flood.write(`GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\nConnection: close\r\n${lines}\r\n`);
    // While the flood is held by the deployment, a plain request goes through.
    await vi.waitFor(() => expect(seen).toHaveLength(1_997), { timeout: 20_000, interval: 10 });
    expect((await send(`${proxy.url}/v1/pets`, { headers: key })).status).toBe(200);
    release();
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(seen).toEqual(Array.from({ length: 1_997 }, (_, i) => String(i)));
  });

  it('answers a request of 60,000 header lines itself with 431 and an Error, unforwarded, while a request sent meanwhile goes through', async () => {
    let forwarded = 0;
    const proxy = await proxyTo(await deployment((_req, res) => {
      forwarded++;
      res.writeHead(200, json).end('[]');
    }));
    const flood = await socketTo(proxy);
    const answer = received(flood);
    flood.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    // 60,000 lines of 4 bytes, under the 256 KiB of --max-header-size: sent in ten parts, a plain request between two.
    for (let part = 0; part < 10; part++) {
      await new Promise<void>((resolve) => flood.write('x:\r\n'.repeat(6_000), () => resolve()));
      if (part === 5) expect((await send(`${proxy.url}/v1/pets`, { headers: key })).status).toBe(200);
    }
    flood.write('\r\n');
    const text = await answer;
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    // Node 20 and 22 meet the line count first; Node 24's parser counts each line's bytes with an
    // overhead of its own, so there the 256 KiB size comes first. Either is a 431 the proxy gives.
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: expect.stringMatching(/more header lines than the proxy passes on \(2,000, --max-header-count\)|header section is longer than the proxy reads \(262,144 bytes, --max-header-size\)/), status: 431 });
    expect(forwarded).toBe(1);
    expect(proxy.forwarded()).toBe(1);
    expect(proxy.stats().refused).toBe(1);
  });

  it('answers a header section past --max-header-size with 431 and an Error, and goes on serving', async () => {
    const proxy = await proxyTo(await deployment((_req, res) => res.writeHead(200, json).end('[]')), { maxHeaderSize: 16 * 1024 });
    const big = await send(`${proxy.url}/v1/pets`, { headers: { ...key, 'x-big': 'a'.repeat(20 * 1024) } });
    expect(big.status).toBe(431);
    expect(big.headers['content-type']).toBe('application/json');
    expect(JSON.parse(big.text)).toEqual({ code: 'REQUEST_HEADER_FIELDS_TOO_LARGE', message: expect.stringMatching(/longer than the proxy reads \(16,384 bytes, --max-header-size\)/), status: 431 });
    expect((await send(`${proxy.url}/v1/pets`, { headers: key })).status).toBe(200);
  });

  it('forwards and judges a request with a header named __proto__', async () => {
    let got: string[] = [];
    const proxy = await proxyTo(await deployment((req, res) => {
      got = req.rawHeaders;
      res.writeHead(200, json).end('[]');
    }));
    const client = await socketTo(proxy);
    const answer = received(client);
    client.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k\r\n__proto__: x\r\nConnection: close\r\n\r\n');
    expect((await answer).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(got).toEqual(expect.arrayContaining(['__proto__', 'x']));
    expect((await proxy.live()).judged).toBe(1);
  });
});

describe('the proxy, with connections that never finish', () => {
  it('answers a head not sent in time with 408 and an Error, and closes the connection', async () => {
    const proxy = await proxyTo(await deployment((_req, res) => res.writeHead(200, json).end('[]')), { headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const silent = await socketTo(proxy);
    const partial = await socketTo(proxy);
    const answers = [received(silent), received(partial)];
    partial.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    for (const text of await Promise.all(answers)) {
      expect(text.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'REQUEST_TIMEOUT', status: 408 });
    }
    await vi.waitFor(() => expect(proxy.stats().connections).toBe(0), { timeout: 5_000, interval: 10 });
    expect(proxy.forwarded()).toBe(0);
  });

  it('lets go of all 1,000 unfinished requests once their connections are gone', async () => {
    const heads = { arrived: 0, closed: 0 };
    const proxy = await proxyTo(await deployment((req) => {
      // The body never ends: the deployment waits, as it should.
      heads.arrived++;
      req.on('close', () => heads.closed++);
      req.resume();
    }));
    const filler = `X-Filler: ${'f'.repeat(1000)}\r\n`;
    const sockets = await Promise.all(Array.from({ length: 1_000 }, () => socketTo(proxy)));
    sockets.forEach((socket, i) => socket.write(`POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer key-${i % 4}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n${filler}\r\n{"name":"Unfinished`));
    await vi.waitFor(() => expect(heads.arrived).toBe(1_000), { timeout: 30_000, interval: 20 });
    expect(proxy.stats()).toMatchObject({ connections: 1_000, inFlight: 1_000 });
    for (const socket of sockets) socket.destroy();
    await vi.waitFor(() => expect(proxy.stats()).toMatchObject({ connections: 0, inFlight: 0, heldBytes: 0 }), { timeout: 30_000, interval: 20 });
    await vi.waitFor(() => expect(heads.closed).toBe(1_000), { timeout: 30_000, interval: 20 });
    const live = await proxy.live();
    expect(live).toMatchObject({ exchanges: 1_000, waiting: 0 });
    // What the reports keep of each: its head, the long values cut, not the request whole.
    const stats = proxy.stats();
    expect(stats.waiting).toBe(0);
    expect(stats.keptSize).toBeLessThan(stats.kept * 4 * 1024);
    expect(live.refused).toBe(0);
  }, 90_000);
});

describe('the proxy\'s report', () => {
  it('is answered after a request sent after it, while a burst of 200 exchanges is being judged', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    const proxy = await proxyTo(await deployment((req, res) => {
      if (req.url === '/v1/pets?plain') return void res.writeHead(200, json).end('[]');
      waiting++;
      void held.then(() => res.writeHead(200, json).end('[]'));
    }), { judgeSliceMs: 0 });
    const burst = Array.from({ length: 200 }, () => send(`${proxy.url}/v1/pets?limit=1`, { headers: key }));
    await vi.waitFor(() => expect(waiting).toBe(200), { timeout: 20_000, interval: 10 });
    release();
    await Promise.all(burst);
    // Judging yields after every step (judgeSliceMs 0): thousands of turns of the event loop, where
    // a request needs a handful.
    expect(proxy.stats().waiting).toBeGreaterThan(0);
    const order: string[] = [];
    const report = send(`${proxy.url}/__proxy/report`).then((res) => {
      order.push('report');
      return JSON.parse(res.text) as { judged: number; waiting: number };
    });
    const plain = send(`${proxy.url}/v1/pets?plain`, { headers: key }).then((res) => {
      order.push('plain');
      return res;
    });
    expect((await plain).status).toBe(200);
    // The report waits for the burst to be judged, and judging it lets the traffic through first.
    expect((await report).judged).toBeGreaterThanOrEqual(200);
    expect(order).toEqual(['plain', 'report']);
  });

  it('renders what was judged without judging again: each exchange is judged once, whatever the reports', async () => {
    const proxy = await proxyTo(await deployment((_req, res) => res.writeHead(200, json).end('[]')));
    for (let i = 0; i < 5; i++) await send(`${proxy.url}/v1/pets?limit=1`, { headers: key });
    const first = await proxy.live();
    const again = await proxy.live();
    expect(again).toEqual(first);
    expect(first).toMatchObject({ exchanges: 5, judged: 5, waiting: 0 });
  });

  it('needs the control token when the proxy has one: a 401 with an Error without it or with another', async () => {
    const proxy = await proxyTo(await deployment((_req, res) => res.writeHead(200, json).end('[]')), { controlToken: 's3cret-token' });
    const none = await send(`${proxy.url}/__proxy/report`);
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="pets-conformance proxy"');
    expect(JSON.parse(none.text)).toEqual({ code: 'CONTROL_TOKEN_REQUIRED', message: expect.stringMatching(/needs a token/), status: 401 });
    const wrong = await send(`${proxy.url}/__proxy/report`, { headers: { authorization: 'Bearer s3cret-tokem' } });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toMatchObject({ code: 'CONTROL_TOKEN_INVALID', status: 401 });
    expect(wrong.text).not.toContain('s3cret');
    const right = await send(`${proxy.url}/__proxy/report`, { headers: { authorization: 'bearer s3cret-token' } });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toMatchObject({ verdict: 'cannot-run', exchanges: 0 });
    // API requests carry their own Authorization on to the deployment, token or not.
    expect((await send(`${proxy.url}/v1/pets`, { headers: key })).status).toBe(200);
  });

  it('keeps the last --max-records exchanges for the reports, judges them all, and counts those it let go', async () => {
    const proxy = await proxyTo(await deployment((_req, res) => res.writeHead(200, json).end('[]')), { maxRecords: 3 });
    for (let i = 0; i < 5; i++) await send(`${proxy.url}/v1/pets?limit=${i + 1}`, { headers: key });
    const live = await proxy.live();
    expect(live).toMatchObject({ exchanges: 5, judged: 5, kept: 3, dropped: 2 });
    expect(live.notes.join('\n')).toMatch(/2 earlier exchanges were judged but are not listed: the reports keep the last 3/);
    const { report } = await proxy.judge();
    expect(report.exchanges.map((e) => e.url)).toEqual([3, 4, 5].map((limit) => expect.stringMatching(new RegExp(`limit=${limit}$`))));
  });
});

describe('the proxy\'s judgement of keys, made as the exchanges end', () => {
  it('does not judge what came with a key before the deployment first accepted it, and fails a key it always refused with 403', async () => {
    let created = false;
    const late: Transform = async (req, forward) => {
      const auth = req.headers.authorization ?? '';
      if (auth === 'Bearer late-key') {
        if (!created) return asError(await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer nobody' } }), 403, 'FORBIDDEN', 'Unknown key.');
        return forward({ ...req, headers: { ...req.headers, authorization: 'Bearer demo-pro' } });
      }
      if (auth === 'Bearer stranger') return asError(await forward({ ...req, headers: { ...req.headers, authorization: 'Bearer nobody' } }), 403, 'FORBIDDEN', 'Unknown key.');
      return forward(req);
    };
    const target = await startDeployment(late);
    cleanups.push(() => target.close());
    const proxy = await proxyTo(target.baseUrl);
    expect((await send(`${proxy.url}/v1/pets?limit=1`, { headers: { authorization: 'Bearer late-key' } })).status).toBe(403);
    expect((await send(`${proxy.url}/v1/pets?limit=1`, { headers: { authorization: 'Bearer stranger' } })).status).toBe(403);
    const before = await proxy.judge();
    // Both refused so far: each judged as a wrong key, which the contract answers with 401.
    expect(before.findings.filter((f) => f.level === 'failure' && f.check === 'keyless-and-unlisted').map((f) => f.exchange?.status)).toEqual([403, 403]);
    created = true;
    expect((await send(`${proxy.url}/v1/pets?limit=1`, { headers: { authorization: 'Bearer late-key' } })).status).toBe(200);
    const after = await proxy.judge();
    expect(after.findings.filter((f) => f.level === 'failure' && f.check === 'keyless-and-unlisted').map((f) => [f.occurrences, f.exchange?.status])).toEqual([[1, 403]]);
    expect(after.report.notes.join('\n')).toMatch(/1 request with a key sent before the deployment first accepted that key were not judged/);
    expect(JSON.stringify(after)).not.toMatch(/late-key|stranger/);
    expect(after.report.exchanges.map((e) => e.requestHeaders.authorization)).toEqual(['Bearer $REFUSED_KEY_2', 'Bearer $CLIENT_KEY_1']);
  });
});
