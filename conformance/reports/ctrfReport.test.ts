import { CURRENT_SPEC_VERSION, validateStrict, type CTRFReport } from 'ctrf';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import { ctrfReport, ctrfSpecVersion } from './ctrfReport.ts';
import { failingRun, notRunAtAll, refusedKeyRun } from './testing/handBuiltRuns.ts';
import { testCases } from './testCases.ts';
import { renderReports } from './writeReports.ts';

/** The CTRF file as written, read back. */
const written = (report: RunReport): CTRFReport => JSON.parse(renderReports(report).ctrf);

describe('the CTRF report', () => {
  const failing = failingRun();

  it('passes the ctrf package\'s strict validation for a failing run', () => {
    const ctrf = written(failing);
    expect(() => validateStrict(ctrf)).not.toThrow();
    // The validation is strict: a field CTRF does not define is refused.
    expect(() => validateStrict({ ...ctrf, results: { ...ctrf.results, tests: [{ ...ctrf.results.tests[0]!, severity: 'high' }] } })).toThrow();
  });

  it('has a test per generated case and per check and operation no case covers, with the statuses and counts of the run', () => {
    const ctrf = written(failing);
    const operations = testCases(failing).map((t) => [t.name, t.status]);
    // Every case the record's checks sent, and the one they could not (limit=1.5, lost three times).
    const cases = new Set([...failing.exchanges, ...failing.unanswered!].filter((e) => e.case !== undefined && e.check !== 'preflight').map((e) => `${e.check} ${e.case}`));
    expect(ctrf.results.tests.filter((t) => t.labels?.case !== undefined).length).toBe(cases.size);
    expect(ctrf.results.tests.map((t) => [t.name, t.status])).toEqual(operations);
    expect(new Set(ctrf.results.tests.map((t) => t.status))).toEqual(new Set(['passed', 'failed', 'skipped']));
    const { summary } = ctrf.results;
    expect(summary.tests).toBe(operations.length);
    expect(summary.failed).toBe(operations.filter(([, s]) => s === 'failed').length);
    expect(summary.passed + summary.failed + summary.skipped).toBe(summary.tests);
    expect(ctrf.runId).toBe(failing.runId);
  });

  it('gives each failed test its finding as message, its evidence and curl line as trace, and its check\'s severity', () => {
    const ctrf = written(failing);
    const failed = ctrf.results.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(3);
    for (const test of failed) {
      const check = failing.checks.find((c) => test.name.startsWith(`${c.id} `))!;
      expect(test.message).toBeTruthy();
      expect(test.tags).toEqual([check.severity]);
      expect(test.labels).toMatchObject({ check: check.id, severity: check.severity });
      if (test.extra?.curl) {
        expect(test.extra.curl).toMatch(/^curl -i /);
        expect(test.trace).toContain(`Reproduce: ${test.extra.curl as string}`);
      }
    }
    const schema = failed.find((t) => t.name === 'response-schema listPets')!;
    expect(schema.message).toMatch(/categoryId is required/);
    expect(schema.trace).toMatch(/Request: GET http:\/\/deployment.test\/v1\/pets[\s\S]*Response: 200/);
  });

  it('gives each skipped test its reason', () => {
    const probe = written(failing).results.tests.find((t) => t.name === 'rate-limit-probe listPets')!;
    expect(probe).toMatchObject({ status: 'skipped', message: expect.stringMatching(/--probe-rate-limit/) });
  });

  it('reports a run that could not judge as one failed test with the reason, still valid', () => {
    for (const report of [refusedKeyRun(), notRunAtAll()]) {
      const ctrf = written(report);
      expect(() => validateStrict(ctrf)).not.toThrow();
      expect(ctrf.results.tests).toHaveLength(1);
      expect(ctrf.results.tests[0]).toMatchObject({ status: 'failed', message: expect.stringContaining(report.reason!) });
      expect(ctrf.results.extra).toMatchObject({ verdict: 'cannot-run' });
    }
  });

  it('follows the spec version the ctrf package validates against', () => {
    expect(ctrfSpecVersion).toBe(CURRENT_SPEC_VERSION);
    expect(ctrfReport(notRunAtAll()).specVersion).toBe(CURRENT_SPEC_VERSION);
  });
});
