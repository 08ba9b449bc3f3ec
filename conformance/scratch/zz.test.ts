import { it } from 'vitest';
import { runOnFreshDeployment } from '../testing/runSuite.ts';
import { legalVariants } from '../testing/regressions.ts';
import type { ConformanceResult } from '../index.ts';
const failures = (r: ConformanceResult) => r.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.case ?? ''} ${f.message.slice(0, 400)}`)));
const show = (label: string, r: ConformanceResult) => console.log(label, 'exit', r.exitCode, r.report.reason ?? '', r.report.requests.total, '\n  ' + failures(r).slice(0, 6).join('\n  '));
it('size limits across seeds', async () => {
  const v = legalVariants.find((x) => x.name === 'size and character limits')!;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const r = await runOnFreshDeployment(v.make(), { probeRateLimit: true, apiKey2: 'demo-free', seed }, v.mockOptions);
    show(`seed ${seed}`, r);
  }
}, 600_000);
