import { describe, expect, it } from 'vitest';
import { checkIds } from './checks/index.ts';
import { startDeployment } from './testing/deployment.ts';
import { faults } from './testing/faults.ts';
import { runCli } from './testing/runCli.ts';

describe.concurrent('a deployment that breaks one rule', () => {
  it('covers every check with at least one fault, with at least 15 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(15);
    expect(new Set(faults.map((f) => f.caughtBy))).toEqual(new Set(checkIds));
  });

  it.each(faults)('fails $caughtBy when it $name', async ({ transform, mockOptions, caughtBy }) => {
    const deployment = await startDeployment(transform, mockOptions);
    try {
      const run = await runCli(['--base-url', deployment.baseUrl, '--probe-rate-limit'], { PETS_API_KEY: 'demo-pro' });
      expect(run.code, run.output).toBe(1);
      expect(await run.failedChecks(), run.output).toContain(caughtBy);
      expect(run.output).toContain(`FAIL ${caughtBy}`);
    } finally {
      await deployment.close();
    }
  }, 60_000);
});
