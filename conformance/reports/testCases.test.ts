import { describe, expect, it } from 'vitest';
import { githubAnnotations } from '../github/annotations.ts';
import { ctrfReport } from './ctrfReport.ts';
import { htmlReport } from './htmlReport.ts';
import { markdownReport } from './markdownReport.ts';
import { failingRun } from './testing/handBuiltRuns.ts';
import { testCases } from './testCases.ts';

// pagination in a record where limit=101 was taken for 100, and every try of limit=1.5 got no answer.
const report = failingRun();

describe('the tests the reports list', () => {
  it('give each generated case a check sent its own test, named check, operation and case', () => {
    const pagination = testCases(report).filter((t) => t.check.id === 'pagination');
    const sent = new Set(report.exchanges.filter((e) => e.check === 'pagination' && e.case !== undefined).map((e) => e.case));
    expect(sent.size).toBeGreaterThan(5);
    expect(new Set(pagination.map((t) => t.case))).toEqual(new Set([...sent, 'list-pets/query/limit/float']));
    expect(pagination.find((t) => t.case === 'list-pets/query/limit/above-max')).toMatchObject({
      name: 'pagination listPets list-pets/query/limit/above-max',
      status: 'failed',
      failures: [expect.objectContaining({ case: 'list-pets/query/limit/above-max' })],
    });
    expect(pagination.find((t) => t.case === 'list-pets/query/limit/min')).toMatchObject({ status: 'passed', failures: [] });
  });

  it('come from the verdicts the run recorded, not from its exchanges: a record that kept none lists the same', () => {
    expect(testCases({ ...report, exchanges: [], unanswered: [] })).toEqual(testCases(report));
    expect(report.checks.find((c) => c.id === 'pagination')!.operations[0]!.cases).toContainEqual({ case: 'list-pets/query/limit/float', status: 'skipped', reason: expect.stringMatching(/^could not judge: /), durationMs: 15 });
  });

  it('list a case that could not be judged as skipped, with why', () => {
    const float = testCases(report).find((t) => t.case === 'list-pets/query/limit/float')!;
    expect(float).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/^could not judge: .*UND_ERR_SOCKET.*\(3 tries\)/) });
    const ctrf = ctrfReport(report).results.tests.find((t) => t.name === 'pagination listPets list-pets/query/limit/float');
    expect(ctrf).toMatchObject({ status: 'skipped', message: expect.stringMatching(/could not judge/), labels: { case: 'list-pets/query/limit/float' } });
    expect(markdownReport(report)).toMatch(/<summary>Inconclusive cases, skipped \(\d+\)<\/summary>\n\n(- .*\n)*- `pagination` \(listPets\) `list-pets\/query\/limit\/float`: could not judge: .*3 tries/);
    expect(htmlReport(report)).toMatch(/<li class="finding inconclusive"><p><span class="tag">skipped<\/span> <code class="case">list-pets\/query\/limit\/float<\/code> could not judge: /);
  });

  it('keep a passive check to one test per operation, its findings naming the case they saw', () => {
    const statusCodes = testCases(report).filter((t) => t.check.id === 'status-codes');
    expect(statusCodes.every((t) => t.case === undefined)).toBe(true);
    expect(statusCodes.map((t) => t.name)).toContain('status-codes listPets');
    expect(statusCodes.find((t) => t.name === 'status-codes createPet')).toMatchObject({ status: 'failed', failures: [expect.objectContaining({ case: 'create-pet/body/required-only' })] });
  });

  it('name the case in the annotations, the Markdown failures and the HTML findings', () => {
    expect(githubAnnotations(report)).toContainEqual(expect.stringMatching(/^::error title=pagination::list-pets\/query\/limit\/above-max: .* \[listPets\]/));
    expect(markdownReport(report)).toMatch(/- \*\*`pagination`\*\* \(listPets\): list-pets\/query\/limit\/above-max: /);
    expect(htmlReport(report)).toContain('<span class="tag">failure</span> <code class="case">list-pets/query/limit/above-max</code>');
  });
});
