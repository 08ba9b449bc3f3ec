import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Only that the Redis scenario runs and reports: figures come from `npm run bench`, never from a test.
it('runs two mocks on one Redis in the benchmark harness and reports them beside the in-memory mock', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--source', '--no-prism'], { cwd: fileURLToPath(new URL('..', import.meta.url)) });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code, out).toBe(0);
  expect(out).toContain('### Replicas on Redis');
  expect(out).toMatch(/\| GET \/pets\?limit=20 \| [\d,]+ \| [\d,]+ \| \d+\.\d\d \| \d+\.\d \|/);
  expect(out).toMatch(/\| 2 mocks on one Redis \| POST \/pets \| [\d,]+ \|.*\| 2xx [\d,]+ \|/);
}, 180_000);
