// A gate must end every run with a verdict and its reports, in bounded time and memory, whatever
// the deployment sends. Each deployment here answers the preflight as the API would, then turns
// hostile; each runs over real HTTP on 127.0.0.1, with a short timeout and time budget.
import { readFile, readdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { testSpec } from '../../mock/testing.ts';
import { reportFiles } from '../reports/writeReports.ts';
import { capturedBodyLimit } from '../runReport.ts';
import { spawnCli } from '../testing/spawnCli.ts';

const rate = { 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600) };
const pets = JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A deployment whose first answer is a plain list and every later one `hostile`'s. */
async function deployment(hostile: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  let first = true;
  server = createServer((req, res) => {
    req.resume();
    if (first) {
      first = false;
      res.writeHead(200, { 'content-type': 'application/json', ...rate }).end(pets);
      return;
    }
    hostile(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`;
}

// A budget the preflight and the first requests fit in on a busy machine, each request cut at 1 s.
const run = async (baseUrl: string, maxDuration = 8) => runConformance({ baseUrl, apiKey: 'k', spec: await testSpec(), timeout: 1000, maxDuration, maxWait: 1 });

describe('a hostile deployment', () => {
  it('that stops answering after the preflight ends the run with exit 2 and that reason', async () => {
    const result = await run(await deployment(() => {}), 25);
    expect(result.exitCode).toBe(2);
    expect(result.report.reason).toMatch(/stopped answering: 3 requests in a row got no answer/);
  });

  it('that sends an endless chunked body fails as unreadable, within the time budget', async () => {
    const result = await run(await deployment((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...rate });
      res.write('[');
      const timer = setInterval(() => res.write('{"id":1,"name":"Rex","categoryId":1},'), 5);
      res.on('close', () => clearInterval(timer));
    }));
    expect(result.exitCode).toBe(1);
    expect(result.report.checks.find((c) => c.id === 'wire-format')!.status).toBe('failed');
  });

  it('that sends a gzip bomb fails as unreadable, reading no more than the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const result = await run(await deployment((_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...rate }).end(bomb)));
    expect(result.exitCode).toBe(1);
    expect(result.report.checks.find((c) => c.id === 'wire-format')!.operations.flatMap((o) => o.findings).map((f) => f.message).join('\n')).toMatch(/larger than the suite reads/);
  });

  it('that ignores limit and lists 170,000 pets fails, without overflowing the stack', async () => {
    const many = JSON.stringify(Array.from({ length: 170_000 }, (_, i) => ({ id: i + 1, name: 'Rex', categoryId: 1, status: 'available' })));
    const result = await run(await deployment((_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...rate }).end(many)));
    expect(result.exitCode).toBe(1);
  });

  it('that answers JSON nested 2,000 deep fails, without overflowing the stack', async () => {
    const deep = `${'['.repeat(2000)}${']'.repeat(2000)}`;
    const result = await run(await deployment((_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...rate }).end(deep)));
    expect(result.exitCode).toBe(1);
  });
});

/** Every way of answering that costs a careless client memory or time, one per request, in turn. */
const hostileAnswers: ((req: IncomingMessage, res: ServerResponse) => void)[] = [
  // An endless chunked body.
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...rate });
    res.write('[');
    const chunk = '{"id":1,"name":"Rex","categoryId":1},'.repeat(200);
    let open = true;
    res.on('close', () => (open = false));
    const pump = () => {
      while (open && res.write(chunk));
      if (open) res.once('drain', pump);
    };
    pump();
  },
  // A gzip bomb: 64 MiB of spaces in about 64 KB.
  (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', ...rate }).end(bomb),
  // A 2 GiB Content-Length, its body trickling.
  (req) => {
    req.socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${2 ** 31}\r\n\r\n[`);
    const timer = setInterval(() => req.socket.writable && req.socket.write('{"id":1},'.repeat(100)), 5);
    req.socket.on('close', () => clearInterval(timer));
  },
  // A list of 170,000 pets.
  (_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...rate }).end(huge),
  // JSON nested 2 Mi deep: 4 MiB of brackets.
  (_req, res) => res.writeHead(200, { 'content-type': 'application/json', ...rate }).end(deepest),
  // A head that never ends.
  (req) => {
    req.socket.write('HTTP/1.1 200 OK\r\n');
    const timer = setInterval(() => req.socket.writable && req.socket.write('x-more: yes\r\n'.repeat(50)), 5);
    req.socket.on('close', () => clearInterval(timer));
  },
  // A stall after the status line.
  (req) => req.socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n'),
];
const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
const huge = JSON.stringify(Array.from({ length: 170_000 }, (_, i) => ({ id: i + 1, name: 'Rex', categoryId: 1, status: 'available' })));
const deepest = `${'['.repeat(2 * 1024 * 1024)}${']'.repeat(2 * 1024 * 1024)}`;

describe('whatever a deployment sends, the command stays bounded', () => {
  it('ends with a verdict and all six reports, its peak memory under 512 MiB, the HAR holding only bounded starts of bodies', async () => {
    let sent = 0;
    const baseUrl = await deployment((req, res) => {
      req.socket.on('error', () => {});
      hostileAnswers[sent++ % hostileAnswers.length]!(req, res);
    });
    const reportDir = await mkdtemp(join(tmpdir(), 'conformance-hostile-'));
    const run = await spawnCli(['--base-url', baseUrl, '--api-key', 'k', '--timeout', '2000', '--max-duration', '30', '--max-wait', '1', '--report-dir', reportDir], {
      NODE_OPTIONS: `--import=${new URL('../testing/peakMemory.mjs', import.meta.url).href}`,
    });
    expect(run.code, run.output.slice(-2000)).toBe(1);
    const peak = Number(/peak-rss-bytes (\d+)/.exec(run.stderr)?.[1]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(512 * 1024 * 1024);
    expect((await readdir(reportDir)).sort()).toEqual(Object.values(reportFiles).sort());
    const report = JSON.parse(await readFile(join(reportDir, reportFiles.json), 'utf8'));
    expect(report.verdict).toBe('failed');
    const har = JSON.parse(await readFile(join(reportDir, reportFiles.har), 'utf8'));
    for (const entry of har.log.entries) expect(entry.response.content.text?.length ?? 0).toBeLessThan(capturedBodyLimit + 100);
  }, 180_000);
});
