// The deployments of testing/faults.ts each break one rule: the suite must catch every one, with
// the right check, in a full run and with that check alone.
import { describe, expect, it } from 'vitest';
import { checkIds } from './checks/index.ts';
import { faults } from './testing/faults.ts';
import { rules } from './model/rules.ts';
import { failedCases, failedChecks, runOnFreshDeployment } from './testing/runSuite.ts';

describe('a deployment that breaks one rule', () => {
  it('is covered for every check that sends its own cases or judges an answer\'s form, with at least 40 faults', () => {
    expect(faults.length).toBeGreaterThanOrEqual(40);
    // The rules of the other checks (the relations, the data, the accounting, HTTP itself, the
    // generated traffic) are measured on the independent catalogues (regressions*.catalogue.test.ts).
    const measuredElsewhere = ['generated-traffic', 'http-framing', 'data-integrity', 'rate-limit-accounting', 'wire-format', 'deprecation', 'keyless-and-unlisted', 'equivalent-requests', 'http-semantics'];
    expect(new Set(faults.map((f) => f.caughtBy))).toEqual(new Set(checkIds.filter((id) => !measuredElsewhere.includes(id))));
    for (const id of measuredElsewhere) expect(rules.some((r) => r.checkId === id), id).toBe(true);
  });

  // A full run fails the check that must catch the fault (and its case, when the fault names one)
  // and exits 1; then that check alone fails too. Selecting checks changes what is reported, never
  // what is sent, so a check's verdict alone is its verdict in a full run.
  it.each(faults)('fails $caughtBy and exits 1 when it $name, in a full run and with the check alone', async ({ transform, mockOptions, caughtBy, caseName, needsProbe }) => {
    const run = (checks?: string[]) => runOnFreshDeployment(transform, { probeRateLimit: needsProbe ?? false, ...(checks ? { checks } : {}) }, mockOptions);
    const full = await run();
    expect(full.exitCode, full.report.reason).toBe(1);
    expect(failedChecks(full)).toContain(caughtBy);
    if (caseName) expect(failedCases(full, caughtBy)).toContain(caseName);
    const alone = await run([caughtBy]);
    expect(alone.exitCode, `${caughtBy} alone: ${alone.report.reason}`).toBe(1);
    expect(failedChecks(alone)).toEqual([caughtBy]);
    if (caseName) expect(failedCases(alone, caughtBy)).toContain(caseName);
  });
});
