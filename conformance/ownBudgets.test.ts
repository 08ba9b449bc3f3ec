// A run's own budgets (the bodies it keeps, its time, its requests) are the suite's, never findings
// about the deployment; and what a run did not check is never passed as checked.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../mock/index.ts';
import { markdownReport } from './reports/markdownReport.ts';
import { junitReport } from './reports/junitReport.ts';
import { summaryTable } from './reports/consoleReport.ts';
import { inProcessDeployment, isList, withJson, json, type Transform } from './testing/deployment.ts';
import { runOnFreshDeployment, runSuite } from './testing/runSuite.ts';

const failures = (result: Awaited<ReturnType<typeof runSuite>>) => result.report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => `${c.id}: ${f.message}`)));

/** The mock bent so that every answer takes `ms` of the deployment's time: a slow deployment. */
async function slowDeployment(ms: number) {
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 30, 30));
  const slow: Transform = async (req, forward) => {
    clock.advance(ms);
    return forward(req);
  };
  return inProcessDeployment(slow, {}, clock);
}

describe('a run\'s own budget for kept bodies', () => {
  it('is never a finding: past it, bodies kept in part are not judged (each named, with why) and a healthy deployment passes', async () => {
    // Every list carries an extra field of 1 MiB on its first pet (extra fields are allowed): a
    // run keeps 32 MiB of bodies, so its later lists are kept only in part.
    const large: Transform = async (req, forward) => {
      const res = await forward(req);
      const pets = json(res) as Record<string, unknown>[] | undefined;
      if (!isList(req) || res.status !== 200 || !Array.isArray(pets) || pets.length === 0) return res;
      return withJson(res, [{ ...pets[0], about: 'a'.repeat(1024 * 1024) }, ...pets.slice(1)]);
    };
    const result = await runOnFreshDeployment(large);
    expect(failures(result)).toEqual([]);
    expect(result.exitCode).toBe(0);
    const notJudged = result.report.checks.flatMap((c) => c.operations.flatMap((o) => (o.inconclusive ?? []).filter((i) => /its own budget/.test(i.reason)).map(() => c.id)));
    expect(notJudged).toEqual(expect.arrayContaining(['content-type', 'wire-format']));
  });
});

describe('what a run leaves behind', () => {
  it('makes no later run fail: the suite\'s own edge creates store no name over 5,001 characters, however large their bodies', async () => {
    const deployment = await inProcessDeployment();
    try {
      const first = await runSuite(deployment, { depth: 'full' });
      const second = await runSuite(deployment, { depth: 'full' });
      expect([first.exitCode, second.exitCode]).toEqual([0, 0]);
      // The 300 KB body was sent (its bulk whitespace), and taken.
      expect(first.report.exchanges.some((e) => e.case === 'generated/sweep/edge/huge-body' && e.requestBody!.size > 300 * 1024 && e.status === 201)).toBe(true);
      const names = (await deployment.mock.mock.store.all()).map((p) => p.name.length);
      expect(Math.max(...names)).toBeLessThanOrEqual(5_001);
    } finally {
      await deployment.close();
    }
  });
});

describe('a run whose time budget runs out', () => {
  it('exits 2, naming each check it skipped and why, though nothing it judged failed', async () => {
    const deployment = await slowDeployment(1_000);
    try {
      const result = await runSuite(deployment, { maxDuration: 60 });
      expect(failures(result)).toEqual([]);
      expect(result.exitCode).toBe(2);
      expect(result.report.reason).toMatch(/^Not everything the run set out to check was checked, so it is no pass: /);
      expect(result.report.reason).toMatch(/create-pet \(critical\) was skipped: the run's time budget \(--max-duration 60 s\) was spent/);
      expect(result.report.reason).toMatch(/generated-traffic \(high\) was skipped: the run's time budget/);
      expect(result.report.reason).toMatch(/accept a partial run with --allow-partial\.$/);
      expect(result.report.unchecked).toEqual(expect.arrayContaining([expect.stringMatching(/^pet-lifecycle \(critical\) was skipped/)]));
      // The probe is off by default: skipped for that, not for the time.
      expect(result.report.unchecked!.some((u) => u.startsWith('rate-limit-probe'))).toBe(false);
    } finally {
      await deployment.close();
    }
  });

  it('passes with --allow-partial, and every report says it was partial and what it left out', async () => {
    const deployment = await slowDeployment(1_000);
    try {
      const result = await runSuite(deployment, { maxDuration: 60, allowPartial: true });
      expect(result.exitCode).toBe(0);
      expect(result.report.options.allowPartial).toBe(true);
      const line = /Partial run, accepted by --allow-partial: not checked: .*create-pet \(critical\) was skipped: the run's time budget/;
      expect(summaryTable(result.report)).toMatch(line);
      expect(markdownReport(result.report)).toMatch(line);
      expect(junitReport(result.report)).toMatch(/<testcase classname="pets-conformance" name="pets-conformance partial run"[^>]*>\s*<skipped message="Partial run, accepted by --allow-partial/);
      const coverage = result.report.coverage!.filter((r) => r.check === 'create-pet');
      expect(coverage.every((r) => r.status === 'not reached')).toBe(true);
    } finally {
      await deployment.close();
    }
  });
});

describe('a Free key (60 a minute)', () => {
  it('passes twice in a row, the second run starting in the window the first spent, each running generated sequences', async () => {
    const deployment = await inProcessDeployment();
    try {
      for (const run of [1, 2]) {
        const result = await runSuite(deployment, { apiKey: 'demo-free' });
        expect(failures(result), `run ${run}`).toEqual([]);
        expect(result.exitCode, `run ${run}: ${result.report.reason ?? ''}`).toBe(0);
        const sequences = result.report.checks.find((c) => c.id === 'generated-traffic')!.parts!.find((p) => p.part === 'sequences')!;
        expect(sequences.ran, `run ${run}`).toBeGreaterThan(0);
        expect(result.report.coverage!.find((r) => r.check === 'generated-traffic' && r.operation === 'sequences')).toMatchObject({ status: 'judged', exchanges: sequences.ran });
      }
    } finally {
      await deployment.close();
    }
  });
});
