import { expect, it } from 'vitest';
import { runSmoke } from './testing/runSmoke.ts';

// Only that the Redis scenario runs and reports: figures come from `npm run bench`, never from a test.
it('runs two mocks on one Redis in the benchmark harness and reports them beside the in-memory mock', async () => {
  const { code, output: out } = await runSmoke(['--no-prism']);
  expect(code, out).toBe(0);
  expect(out).toContain('### Replicas on Redis');
  expect(out).toMatch(/\| GET \/pets\?limit=20 \| [\d,]+ \| [\d,]+ \| \d+\.\d\d \| \d+\.\d \| \d+\.\d \|/);
  expect(out).toMatch(/\| 2 mocks on one Redis \| POST \/pets \| [\d,]+ \|.*\| 2xx [\d,]+ \|/);
}, 180_000);
