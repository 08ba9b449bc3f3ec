import { describe, expect, it } from 'vitest';
import { inProcessDeployment } from './deployment.ts';
import { faults, type Fault } from './faults.ts';
import { failedCases, failedChecks, runSuite } from './runSuite.ts';

/** How many files the fault runs are spread over, so that the test runner's workers share them. */
export const FAULT_PARTS = 4;

/** The faults of one part (1 to FAULT_PARTS): every FAULT_PARTS-th, so each part mixes cheap and costly ones. */
export const faultsOfPart = (part: number): Fault[] => faults.filter((_, i) => i % FAULT_PARTS === part - 1);

/**
 * For each fault of a part: a full run fails the check that must catch it (and the case, when the
 * fault names one) and exits 1; then every check the full run failed is run alone and fails
 * alone, so a check's verdict never depends on another check's traffic.
 */
export function describeFaultVerdicts(part: number): void {
  describe(`a deployment that breaks one rule (part ${part} of ${FAULT_PARTS})`, () => {
    it.each(faultsOfPart(part))('fails $caughtBy and exits 1 when it $name, in a full run and with the check alone', async ({ transform, mockOptions, caughtBy, caseName, needsProbe }) => {
      const run = async (checks?: string[]) => {
        const deployment = await inProcessDeployment(transform, mockOptions);
        try {
          return await runSuite(deployment, { probeRateLimit: needsProbe ?? false, ...(checks ? { checks } : {}) });
        } finally {
          await deployment.close();
        }
      };
      const full = await run();
      expect(full.exitCode, full.report.reason).toBe(1);
      expect(failedChecks(full)).toContain(caughtBy);
      if (caseName) expect(failedCases(full, caughtBy)).toContain(caseName);
      for (const id of failedChecks(full)) {
        const alone = await run([id]);
        expect(alone.exitCode, `${id} alone: ${alone.report.reason}`).toBe(1);
        expect(failedChecks(alone), `${id} alone`).toEqual([id]);
        if (id === caughtBy && caseName) expect(failedCases(alone, caughtBy)).toContain(caseName);
      }
    });
  });
}
