// The mock's command line and server with --redis: real processes where it is about the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../server/startMockServer.ts';
import { runMockCli } from '../testing/runMockCli.ts';
import { spawnMock } from '../testing/spawnMock.ts';
import { startRedisServer, uniquePrefix, type TestRedisServer } from './testing/redisServer.ts';

let server: TestRedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

const auth = { authorization: 'Bearer demo-enterprise', 'content-type': 'application/json' };

describe('pets-mock --redis', () => {
  it('runs two processes on one Redis as one mock, and closes its connection on SIGTERM', async () => {
    const prefix = uniquePrefix();
    const first = spawnMock(['--redis', server.url, '--redis-prefix', prefix, '--quiet', '--replica-id', 'first']);
    const second = spawnMock(['--redis', server.url, '--redis-prefix', prefix, '--quiet']);
    try {
      const [a, b] = await Promise.all([first.serving, second.serving]);
      const created = await fetch(`${a}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Across', categoryId: 3 }) });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const read = await fetch(`${b}/pets/${id}`, { headers: auth });
      expect(await read.json()).toMatchObject({ id, name: 'Across', categoryId: 3 });
      expect(first.output()).toMatch(new RegExp(`in Redis at redis://127\\.0\\.0\\.1:${server.port} \\(prefix ${prefix}, replica first\\)`));
      // Without --replica-id, a replica is its host and process id.
      expect(second.output()).toMatch(new RegExp(`\\(prefix ${prefix}, replica [^:\\s]+:${second.child.pid}\\)`));
    } finally {
      first.child.kill('SIGTERM');
      second.child.kill('SIGTERM');
    }
    expect((await first.closed).code).toBe(0);
    expect((await second.closed).code).toBe(0);
  });

  it.each([
    ['--redis', (url: string) => [['--redis', url, '--state-file', 'state.json'], {}] as const],
    ['PETS_MOCK_REDIS_URL', (url: string) => [['--state-file', 'state.json'], { PETS_MOCK_REDIS_URL: url }] as const],
  ])('refuses --state-file with %s, saying why', async (source, make) => {
    const [argv, env] = make(server.url);
    const cli = runMockCli(['--port', '0', ...argv], env);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toContain(`--state-file cannot be used with ${source}: Redis holds the state`);
  });

  it('takes the URL from PETS_MOCK_REDIS_URL and names it without its password', async () => {
    const cli = runMockCli(['--port', '0', '--quiet', '--redis-prefix', uniquePrefix()], { PETS_MOCK_REDIS_URL: server.url.replace('redis://', 'redis://:unused@') });
    await cli.serving.catch(() => {});
    cli.signal('SIGTERM');
    await cli.exit;
    // Serving or refused (this Redis has no password), the URL shows only with the password masked.
    expect(cli.output()).not.toContain('unused');
    expect(cli.output()).toContain(`redis://:***@127.0.0.1:${server.port}`);
  });

  it('fails to start, saying what to fix, when Redis is not there', async () => {
    const cli = runMockCli(['--port', '0', '--redis', 'redis://127.0.0.1:1']);
    expect(await cli.exit).toBe(1);
    expect(cli.output()).toMatch(/Cannot connect to Redis at redis:\/\/127\.0\.0\.1:1: .*Start Redis or fix --redis/);
  });
});

describe('startMockServer with redis', () => {
  it('keeps the connection and the shared pets across a reload', async () => {
    const mock = await startMockServer({ port: 0, host: '127.0.0.1', logLevel: false, redis: { url: server.url, prefix: uniquePrefix() } });
    try {
      const state = mock.mock.state;
      const created = await fetch(`${mock.url}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Kept', categoryId: 1 }) });
      const { id } = (await created.json()) as { id: number };
      expect(await mock.reload()).toBe(true);
      expect(mock.mock.state).toBe(state);
      expect(await (await fetch(`${mock.url}/pets/${id}`, { headers: auth })).json()).toMatchObject({ name: 'Kept' });
    } finally {
      await mock.close();
    }
  });
});
