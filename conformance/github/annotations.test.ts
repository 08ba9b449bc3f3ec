import { describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import { failingRun, notRunAtAll } from '../reports/testing/handBuiltRuns.ts';
import { githubAnnotations } from './annotations.ts';

describe('GitHub annotations', () => {
  const failing = failingRun();

  it('prints one ::error per failing check and operation, titled with the check id, its first finding and how many more', () => {
    const lines = githubAnnotations(failing);
    const errors = lines.filter((l) => l.startsWith('::error '));
    const groups = failing.checks.flatMap((c) => c.operations.filter((o) => o.findings.some((f) => f.level === 'failure')).map((o) => ({ check: c.id, o })));
    expect(errors).toHaveLength(Math.min(groups.length, 10));
    // Each line shown is one check and operation's first failure.
    for (const line of errors) {
      const group = groups.find(({ check, o }) => line.startsWith(`::error title=${check}::`) && line.includes(`[${o.operationId}]`));
      expect(group, line).toBeDefined();
      expect(line).toContain(group!.o.findings.find((f) => f.level === 'failure')!.message.replace(/%/g, '%25').replace(/\n/g, '%0A'));
    }
    // One line each: the curl line follows an escaped line break.
    for (const line of lines) expect(line).not.toMatch(/[\r\n]/);
    expect(errors.find((l) => l.startsWith('::error title=response-schema::'))).toMatch(/categoryId is required.*%0AReproduce: curl -i /);
  });

  it('prints at most ten, the most severe first, and says how many more are in the summary', () => {
    const finding = (n: number) => ({ level: 'failure' as const, message: `broken ${n}`, case: `case/${n}`, occurrences: 1 });
    const report: RunReport = {
      ...notRunAtAll(),
      verdict: 'failed',
      reason: undefined,
      checks: Array.from({ length: 12 }, (_, i) => ({ id: `check-${i}`, title: 't', severity: i === 11 ? 'critical' as const : 'high' as const, description: '', status: 'failed' as const, durationMs: 1, operations: [{ operationId: 'listPets', status: 'failed' as const, findings: [finding(1), finding(2), finding(3)] }] })),
    };
    const lines = githubAnnotations(report);
    expect(lines.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(lines[0]).toMatch(/^::error title=check-11::case\/1: broken 1 \[listPets\] \(and 2 more findings on listPets: case\/2, case\/3\)/);
    expect(lines.at(-1)).toBe('::notice title=pets-conformance%3A 2 more::2 more failing or warned checks and operations (6 findings) are in the job summary and the conformance-summary.md report.');
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
