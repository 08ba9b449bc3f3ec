// The proxy stays up, bounded and answerable whatever the deployment or the client does: it never
// crashes, never leaves a client waiting on an answer the deployment dropped, never holds more than
// its caps, closes in bounded time, and GET /__proxy/report always answers. Each deployment is a
// server of its own on 127.0.0.1 (a raw socket where Node's HTTP server would refuse to misbehave).
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testSpec } from '../../mock/testing.ts';
import { startProxy, type ProxyOptions, type RunningProxy } from './startProxy.ts';

const rate = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) };
const json = { 'content-type': 'application/json', ...rate };
const rateLines = Object.entries(rate).map(([name, value]) => `${name}: ${value}\r\n`).join('');
const key = { authorization: 'Bearer k' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A deployment on Node's HTTP server. */
async function httpDeployment(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A deployment that writes raw bytes once a request's head has arrived. */
async function rawDeployment(answer: (socket: Socket) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const server: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    let head = '';
    socket.on('data', (chunk) => {
      if (head.includes('\r\n\r\n')) return;
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function proxyTo(target: string, options: Partial<ProxyOptions> = {}): Promise<RunningProxy> {
  const proxy = await startProxy({ target, spec: await testSpec(), ...options });
  let closed = false;
  cleanups.push(async () => {
    if (!closed) await proxy.close();
  });
  const close = proxy.close;
  return {
    ...proxy,
    close: () => {
      closed = true;
      return close();
    },
  };
}

interface Outcome {
  status?: number;
  headers?: IncomingMessage['headers'];
  rawHeaders?: string[];
  bytes: number;
  body: Buffer;
  /** How the exchange ended for the client: the whole answer, or an error (a dropped connection). */
  ended: 'complete' | string;
}

/** One request through node:http; resolves however it ends. `leave` drops the connection on the first byte of the answer. */
function exchange(url: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string; leave?: boolean; maxHeaderSize?: number } = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const req = request(url, { method: init.method ?? 'GET', headers: init.headers ?? {}, agent: false, ...(init.maxHeaderSize ? { maxHeaderSize: init.maxHeaderSize } : {}) }, (res) => {
      const ended = (how: string) => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, bytes, body: Buffer.concat(chunks), ended: how });
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (chunks.length < 64) chunks.push(chunk);
        if (init.leave) req.destroy();
      });
      res.on('end', () => ended('complete'));
      res.on('error', (error) => ended(error.message));
      res.on('close', () => ended(res.complete ? 'complete' : 'closed'));
    });
    req.maxHeadersCount = 0;
    req.on('error', (error) => resolve({ bytes, body: Buffer.alloc(0), ended: error.message }));
    req.end(init.body);
  });
}

const liveReport = async (proxy: RunningProxy) => {
  const res = await fetch(`${proxy.url}/__proxy/report`);
  expect(res.status).toBe(200);
  return (await res.json()) as { verdict: string; exchanges: number; judged: number; reason?: string; findings: { check: string; level: string; message: string; exchange?: { status: number } }[]; notes: string[] };
};

describe('the proxy, before a hostile deployment', () => {
  it('survives a status line Node cannot write (099): the client gets no answer, the report the deployment\'s', async () => {
    const proxy = await proxyTo(await rawDeployment((socket) => socket.end(`HTTP/1.1 099 Weird\r\ncontent-type: application/json\r\n${rateLines}content-length: 2\r\nconnection: close\r\n\r\n[]`)));
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome.status).toBeUndefined();
    expect(outcome.ended).toMatch(/socket hang up|ECONNRESET/);
    // Still serving.
    const report = await liveReport(proxy);
    expect(report.verdict).toBe('failed');
    expect(report.findings).toContainEqual(expect.objectContaining({ check: 'status-codes', level: 'failure', exchange: expect.objectContaining({ status: 99 }) }));
  });

  it('passes on an answer whose reason phrase Node refuses to write, without the reason phrase', async () => {
    const proxy = await proxyTo(await rawDeployment((socket) => socket.end(Buffer.from(`HTTP/1.1 200 Fine\x7f\r\ncontent-type: application/json\r\n${rateLines}content-length: 2\r\nconnection: close\r\n\r\n[]`, 'latin1'))));
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome).toMatchObject({ status: 200, ended: 'complete' });
    expect(outcome.body.toString()).toBe('[]');
  });

  it.each([
    ['a Content-Length', `content-length: 100\r\n\r\n[{"id":1`],
    ['chunks', `transfer-encoding: chunked\r\n\r\n5\r\n[{"id\r\n`],
  ])('drops the client\'s connection when the deployment drops its own mid-body (%s), rather than leave the client waiting', async (_framing, rest) => {
    const proxy = await proxyTo(await rawDeployment((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${rateLines}${rest}`);
      setImmediate(() => socket.destroy());
    }));
    // Without the cut, the client would wait on the rest of the body for good (the test's timeout).
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome.ended).not.toBe('complete');
    const { report } = await proxy.judge();
    expect(report.exchanges.map((e) => e.status)).toEqual([200]);
    expect(report.verdict).toBe('failed');
  });

  it('cuts an answer that stalls past the timeout, and says why', async () => {
    const proxy = await proxyTo(await rawDeployment((socket) => socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${rateLines}content-length: 1000000000000\r\n\r\n[`)), { timeoutMs: 1_000 });
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome.status).toBe(200);
    expect(outcome.ended).not.toBe('complete');
    const report = await liveReport(proxy);
    expect(report.judged).toBe(1);
    expect(report.verdict).toBe('failed');
  });

  it('says what went wrong when the deployment answers nothing at all', async () => {
    const proxy = await proxyTo(await rawDeployment(() => {}), { timeoutMs: 100 });
    expect((await exchange(`${proxy.url}/v1/pets`, { headers: key })).ended).toMatch(/socket hang up|ECONNRESET/);
    const report = await liveReport(proxy);
    expect(report.verdict).toBe('cannot-run');
    expect(report.reason).toMatch(/answered none of the 1 request .*gave no answer within 100 ms/);
  });

  it('answers its report and closes in bounded time while an endless answer streams', async () => {
    const proxy = await proxyTo(await httpDeployment((_req, res) => {
      res.writeHead(200, json);
      res.write('[');
      const timer = setInterval(() => res.write('{"id":1,"name":"Rex","categoryId":1},'), 1);
      res.on('close', () => clearInterval(timer));
    }), { timeoutMs: 2_000 });
    let first!: () => void;
    const streaming = new Promise<void>((resolve) => (first = resolve));
    const client = new Promise<string>((resolve) => {
      const req = request(`${proxy.url}/v1/pets`, { headers: key, agent: false }, (res) => {
        res.once('data', () => first());
        res.resume();
        res.on('error', (error) => resolve(error.message));
        res.on('close', () => resolve(res.complete ? 'complete' : 'closed'));
      });
      req.on('error', (error) => resolve(error.message));
      req.end();
    });
    await streaming;
    expect((await liveReport(proxy)).exchanges).toBe(1);
    // The grace is the timeout (2 s): the test's own timeout catches a close that hangs.
    await proxy.close();
    expect(await client).not.toBe('complete');
    const { report } = await proxy.judge();
    expect(report.unanswered?.map((u) => u.error)).toEqual(['the proxy stopped before the answer ended']);
  });

  it('closes in bounded time while an answer it could not pass on streams on endlessly', async () => {
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const proxy = await proxyTo(await rawDeployment((socket) => {
      socket.write(`HTTP/1.1 099 Weird\r\ncontent-type: application/json\r\n${rateLines}transfer-encoding: chunked\r\n\r\n`);
      const timer = setInterval(() => socket.write('2\r\n[]\r\n'), 1);
      socket.on('close', () => clearInterval(timer));
      streaming();
    }), { timeoutMs: 2_000 });
    const client = exchange(`${proxy.url}/v1/pets`, { headers: key });
    await started;
    expect((await client).status).toBeUndefined();
    await proxy.close();
    expect((await proxy.judge()).report.exchanges.map((e) => e.status)).toEqual([99]);
  });

  it('closes as soon as an exchange in flight on a kept-alive connection ends, not after the keep-alive timeout', async () => {
    let answer!: () => void;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    const proxy = await proxyTo(await httpDeployment((_req, res) => {
      answer();
      setImmediate(() => res.writeHead(200, json).end('[]'));
    }));
    const client = fetch(`${proxy.url}/v1/pets`, { headers: key }).then((res) => res.text());
    await arrived;
    // Node keeps an idle connection 5 s (keepAliveTimeout): a close that waited for it would lose
    // this race; one that closes it as the exchange ends takes a few milliseconds.
    let held: NodeJS.Timeout | undefined;
    const closedFirst = await Promise.race([proxy.close().then(() => true), new Promise<false>((resolve) => (held = setTimeout(() => resolve(false), 4_000)))]);
    clearTimeout(held);
    expect(closedFirst).toBe(true);
    expect(await client).toBe('[]');
  });

  it('judges no answer the client walked away from as the deployment\'s fault', async () => {
    const proxy = await proxyTo(await httpDeployment((_req, res) => {
      res.writeHead(200, json);
      res.write('[{"id":1,');
      // The rest of a good answer comes after the client has gone, unless the proxy tore it down first.
      const rest = setTimeout(() => res.end('"name":"Rex","categoryId":1}]'), 5_000);
      res.on('close', () => clearTimeout(rest));
    }));
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key, leave: true });
    expect(outcome.ended).not.toBe('complete');
    // The proxy learns the client has gone a moment after the client does.
    const { report, findings } = await vi.waitFor(async () => {
      const verdict = await proxy.judge();
      expect(verdict.report.unanswered).toHaveLength(1);
      return verdict;
    }, { timeout: 10_000 });
    expect(findings.filter((f) => f.level === 'failure')).toEqual([]);
    expect(report.unanswered?.map((u) => u.error)).toEqual(['the client closed the connection before the answer ended']);
  });

  it('tears down the request to the deployment when the client goes away mid-request', async () => {
    let torn!: () => void;
    const deploymentSawClose = new Promise<void>((resolve) => (torn = resolve));
    let arrived!: () => void;
    const bodyStarted = new Promise<void>((resolve) => (arrived = resolve));
    const proxy = await proxyTo(await httpDeployment((req, res) => {
      req.once('data', () => arrived());
      req.on('close', () => torn());
      req.on('end', () => res.writeHead(201, json).end('{}'));
    }));
    const client = request(`${proxy.url}/v1/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json', 'content-length': '100000' }, agent: false });
    client.on('error', () => {});
    client.write(Buffer.alloc(1000, 0x20));
    await bodyStarted;
    client.destroy();
    await deploymentSawClose;
    const report = await vi.waitFor(async () => {
      const live = await liveReport(proxy);
      expect(live.reason).toMatch(/the client closed the connection before the answer came/);
      return live;
    }, { timeout: 10_000 });
    expect(report.exchanges).toBe(1);
  });

  it('passes a gzip bomb through whole and judges at most --max-body of it', async () => {
    const bomb = gzipSync(Buffer.alloc(32 * 1024 * 1024, 0x20));
    const proxy = await proxyTo(await httpDeployment((_req, res) => res.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end(bomb)), { maxBody: 64 * 1024 });
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome).toMatchObject({ status: 200, ended: 'complete', bytes: bomb.length });
    const { report } = await proxy.judge();
    expect(report.exchanges).toHaveLength(1);
    expect(report.exchanges[0]!.responseBody.size).toBeLessThanOrEqual(64 * 1024);
  });

  it('passes invalid gzip through byte for byte, and judges it', async () => {
    const proxy = await proxyTo(await httpDeployment((_req, res) => res.writeHead(200, { ...json, 'content-encoding': 'gzip' }).end('not gzip at all')));
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key });
    expect(outcome.body.toString()).toBe('not gzip at all');
    expect((await liveReport(proxy)).verdict).toBe('failed');
  });

  it('passes an answer with 1,000 header lines (40 KB) on, where Node\'s 16 KB default would drop it', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `x-header-number-${i}: value-${i}-padding-padding\r\n`).join('');
    const proxy = await proxyTo(await rawDeployment((socket) => socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${rateLines}${lines}content-length: 2\r\nconnection: close\r\n\r\n[]`)));
    const outcome = await exchange(`${proxy.url}/v1/pets`, { headers: key, maxHeaderSize: 256 * 1024 });
    expect(outcome).toMatchObject({ status: 200, ended: 'complete' });
    expect(Object.keys(outcome.headers!).filter((name) => name.startsWith('x-header-number-'))).toHaveLength(1000);
    expect((await liveReport(proxy)).judged).toBe(1);
  });

  it('forwards a 20 MB request body whole, keeping at most --max-body of it', async () => {
    let received = 0;
    const proxy = await proxyTo(await httpDeployment((req, res) => {
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      req.on('end', () => res.writeHead(400, json).end(JSON.stringify({ code: 'TOO_BIG', message: 'No.', status: 400 })));
    }), { maxBody: 64 * 1024 });
    const outcome = await exchange(`${proxy.url}/v1/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: Buffer.alloc(20 * 1024 * 1024, 0x20) });
    expect(outcome.status).toBe(400);
    expect(received).toBe(20 * 1024 * 1024);
    const { report } = await proxy.judge();
    expect(report.exchanges[0]!.requestBody!.size).toBeLessThanOrEqual(64 * 1024);
  });

  it('answers HEAD and Expect: 100-continue as the deployment does', async () => {
    const proxy = await proxyTo(await httpDeployment((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(req.method === 'HEAD' ? 200 : 201, { ...json, 'content-length': '2' }).end(req.method === 'HEAD' ? undefined : '{}'));
    }));
    expect(await exchange(`${proxy.url}/v1/pets`, { method: 'HEAD', headers: key })).toMatchObject({ status: 200, ended: 'complete', bytes: 0 });
    expect(await exchange(`${proxy.url}/v1/pets`, { method: 'POST', headers: { ...key, 'content-type': 'application/json', expect: '100-continue' }, body: '{"name":"Rex","categoryId":1}' })).toMatchObject({ status: 201, ended: 'complete' });
    expect((await liveReport(proxy)).judged).toBe(2);
  });

  it('keeps no more bodies than its budget while many large answers are in flight at once, and passes each on whole', async () => {
    const big = Buffer.alloc(1024 * 1024, 0x20);
    const proxy = await proxyTo(await httpDeployment((_req, res) => res.writeHead(200, json).end(big)), { maxKeptBytes: 3 * 1024 * 1024 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => exchange(`${proxy.url}/v1/pets`, { headers: key })));
    expect(outcomes.map((o) => o.bytes)).toEqual(Array(10).fill(big.length));
    const report = await liveReport(proxy);
    expect(report.exchanges).toBe(10);
    expect(report.judged).toBeLessThanOrEqual(3);
    expect(report.notes.join('\n')).toMatch(/past the proxy's memory budget were forwarded but not judged/);
  });
});
