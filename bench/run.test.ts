import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Only that the harness runs and prints its tables: figures come from `npm run bench`, never from a test.
// Without the Redis scenario, which needs redis-server: run.redis.test.ts runs that one.
it('runs the benchmark harness end to end in smoke mode and prints every table', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--source', '--no-redis'], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise((resolve) => child.on('exit', resolve));
  expect(code, out).toBe(0);
  for (const heading of ['### Throughput', '### Targets', '### Start-up']) expect(out).toContain(heading);
  for (const server of ['| node:http ceiling |', '| mock |', '| prism 5.12 (static) |', '| MSW handlers (in-process fetch) |']) expect(out).toContain(server);
  expect(out).toMatch(/\| mock GET \/pets\?limit=20 \/ ceiling \| \d+\.\d\d \| >= 0\.5 \|/);
  expect(out).toMatch(/\| conformance default run against the mock, seconds \| \d+\.\d\d \| < 10 \|/);
}, 120_000);
