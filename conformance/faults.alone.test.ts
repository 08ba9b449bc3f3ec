import { describe, expect, it } from 'vitest';
import { inProcessDeployment } from './testing/deployment.ts';
import { faults } from './testing/faults.ts';
import { failedCases, failedChecks, runSuite } from './testing/runSuite.ts';

// The same faults as faults.fullRun.test.ts: a check gives the same verdict alone as in a full run.
describe('a deployment that breaks one rule, with only the check that catches it', () => {
  it.each(faults)('fails $caughtBy alone, and exits 1, when it $name', async ({ transform, mockOptions, caughtBy, caseName, needsProbe }) => {
    const deployment = await inProcessDeployment(transform, mockOptions);
    try {
      const result = await runSuite(deployment, { probeRateLimit: needsProbe ?? false, checks: [caughtBy] });
      expect(result.exitCode, result.report.reason).toBe(1);
      expect(failedChecks(result)).toEqual([caughtBy]);
      if (caseName) expect(failedCases(result, caughtBy)).toContain(caseName);
    } finally {
      await deployment.close();
    }
  });
});
