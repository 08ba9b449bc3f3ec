import { expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { runProcess } from '../common/testing/runProcess.ts';

// Only that the proxy's stress harness runs and prints its tables: figures come from `npm run bench:proxy`, never from a test.
it('runs the proxy stress harness end to end in smoke mode and prints every table', async () => {
  const { code, output } = await runProcess(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/proxyStress.ts', '--smoke', '--source'], { cwd: projectPath() }).done;
  expect(code, output).toBe(0);
  for (const row of ['| the usual traffic alone |', '| with GET /__proxy/report every 100 ms |', '| with requests of 60,000 header lines, 2 at a time |', '| 20 unfinished requests (200 KiB heads, forwarded, bodies never ending) |']) expect(output).toContain(row);
  expect(output).toMatch(/floods of 234 KiB: [\d,]+ × 431/);
  expect(output).toMatch(/One answer of a 4 MiB JSON list \(57,000 pets\), judged in one go: the longest stall was [\d,.]+ ms/);
}, 300_000);
