import { describe, expect, it } from 'vitest';
import { checkIds } from './checks/index.ts';
import { inProcessDeployment } from './testing/deployment.ts';
import { faults } from './testing/faults.ts';
import { failedCases, failedChecks, runSuite } from './testing/runSuite.ts';

describe('a deployment that breaks one rule, in a full run', () => {
  it('is covered for every check, with at least 40 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(40);
    expect(new Set(faults.map((f) => f.caughtBy))).toEqual(new Set(checkIds));
  });

  it.each(faults)('fails $caughtBy and exits 1 when it $name; each other check it fails, fails alone too', async ({ transform, mockOptions, caughtBy, caseName, needsProbe }) => {
    const deployment = await inProcessDeployment(transform, mockOptions);
    let others: string[];
    try {
      const result = await runSuite(deployment, { probeRateLimit: needsProbe ?? false });
      expect(result.exitCode, result.report.reason).toBe(1);
      expect(failedChecks(result)).toContain(caughtBy);
      if (caseName) expect(failedCases(result, caughtBy)).toContain(caseName);
      others = failedChecks(result).filter((id) => id !== caughtBy);
    } finally {
      await deployment.close();
    }
    // The check that must catch the fault is run alone in faults.alone.test.ts; here, the others.
    for (const id of others) {
      const fresh = await inProcessDeployment(transform, mockOptions);
      try {
        const alone = await runSuite(fresh, { probeRateLimit: needsProbe ?? false, checks: [id] });
        expect(failedChecks(alone), `${id} alone`).toEqual([id]);
      } finally {
        await fresh.close();
      }
    }
  });
});
