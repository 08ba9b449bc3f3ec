import { expect, it } from 'vitest';
import { runSmoke } from './testing/runSmoke.ts';

// Only that the harness runs and prints its tables: figures come from `npm run bench`, never from a test.
// Without the Redis scenario, which needs redis-server: run.redis.test.ts runs that one.
it('runs the benchmark harness end to end in smoke mode and prints every table', async () => {
  const { code, output: out } = await runSmoke(['--no-redis']);
  expect(code, out).toBe(0);
  for (const heading of ['### Throughput', '### Targets', '### Start-up']) expect(out).toContain(heading);
  for (const server of ['| node:http ceiling |', '| node:http replaying the mock |', '| mock |', '| prism 5.12 (static) |', '| MSW handlers (in-process fetch) |']) expect(out).toContain(server);
  expect(out).toMatch(/\| mock GET \/pets\?limit=20 \/ ceiling, in alternating 1 s slices \(median of \d+ pairs\) \| \d+\.\d\d \| >= 0\.65 \| (yes|NO) \|/);
  expect(out).toMatch(/\| for the record: CPU per answer, ceiling \/ mock \(same pairs; [\d.]+ µs and [\d.]+ µs\) \| \d+\.\d\d \|  \|  \|/);
  expect(out).toMatch(/\| for the record: MSW host \/ a plain handler taking its requests as the host's do, same slices \(median of \d+ rounds; [\d.]+ µs CPU per answer\) \| \d+\.\d\d \|/);
  expect(out).toMatch(/\| MSW host GET \/pets\?limit=20 \/ plain MSW handler, same page, in alternating quarter-second slices \(median of \d+ pairs\) \| \d+\.\d\d \| >= 0\.9 \|/);
  expect(out).toMatch(/\| for the record: POST \/pets, node:http replaying the mock's answer \/ Prism \| \d+\.\d\d \|  \|  \|/);
  expect(out).toMatch(/\| conformance default run against the mock, seconds \| \d+\.\d\d \| < 10 \|/);
  expect(out).toMatch(/\| GitHub Action: run step start to first request, ms \| [\d,]+\.\d\d \| < 5000 \|/);
  expect(out).toMatch(/\| validating proxy: added p50 of GET \/pets\?limit=20, ms \([\d.]+ direct, [\d.]+ through\) \| -?[\d.]+ \| < 2 \|/);
}, 300_000);
