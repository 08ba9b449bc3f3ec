import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import { failingRun, notRunAtAll } from '../reports/testing/reportFixtures.ts';
import { githubAnnotations } from './annotations.ts';

describe('GitHub annotations', () => {
  let failing: RunReport;
  beforeAll(async () => {
    failing = await failingRun();
  });

  it('prints an ::error per failure, titled with the check id, its message the finding', () => {
    const lines = githubAnnotations(failing);
    const errors = lines.filter((l) => l.startsWith('::error '));
    const failures = failing.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => ({ check: c.id, f }))));
    expect(errors).toHaveLength(failures.length);
    failures.forEach(({ check, f }, i) => {
      expect(errors[i]).toMatch(new RegExp(`^::error title=${check}::`));
      expect(errors[i]).toContain(f.message.replace(/%/g, '%25').replace(/\n/g, '%0A'));
    });
    // One line each: the curl line follows an escaped line break.
    for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
    expect(errors.find((l) => l.startsWith('::error title=response-schema::'))).toMatch(/categoryId is required.*%0AReproduce: curl -i /);
  });

  it('escapes what would end a workflow command early', () => {
    const report: RunReport = {
      ...notRunAtAll(),
      verdict: 'failed',
      reason: undefined,
      checks: [{ id: 'a,b:c', title: 't', severity: 'high', description: '', status: 'failed', durationMs: 1, operations: [{ operationId: 'listPets', status: 'failed', findings: [{ level: 'failure', message: '100% wrong\r\nsecond line', occurrences: 1 }] }] }],
    };
    expect(githubAnnotations(report)).toEqual(['::error title=a%2Cb%3Ac::100%25 wrong%0D%0Asecond line [listPets]']);
  });

  it('prints one ::error with the reason when the run could not judge', () => {
    expect(githubAnnotations(notRunAtAll())).toEqual(['::error title=pets-conformance could not run::The suite could not judge https://staging.example.com/v1: no API key. Give --api-key or set PETS_API_KEY.']);
  });
});
