// A gate must end every run with a verdict and its reports, in bounded time and memory, whatever
// the deployment sends. Each deployment here answers the preflight as the API would, then turns
// hostile; each runs over real HTTP on 127.0.0.1, with a short timeout and time budget.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance } from '../index.ts';
import { testSpec } from '../../mock/testing.ts';

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

const run = async (baseUrl: string, maxDuration = 4) => runConformance({ baseUrl, apiKey: 'k', spec: await testSpec(), timeout: 1000, maxDuration, maxWait: 1 });

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
