import { describe, expect, it } from 'vitest';
import { markdownReport } from './markdownReport.ts';
import { failingRun, notRunAtAll, refusedKeyRun } from './testing/handBuiltRuns.ts';

describe('the Markdown summary', () => {
  it('says in one line at the top why a run could not judge', () => {
    for (const report of [refusedKeyRun(), notRunAtAll()]) {
      const [headline, , reason] = markdownReport(report).split('\n');
      expect(headline).toBe('# Pet Adoption API conformance: ⚠️ could not run');
      expect(reason).toContain(report.reason!);
    }
    expect(markdownReport(refusedKeyRun())).toMatch(/refused the API key/);
  });

  it('names every failed check with its finding and curl line', () => {
    const report = failingRun();
    const text = markdownReport(report);
    expect(text.split('\n')[0]).toBe('# Pet Adoption API conformance: ❌ failed');
    for (const check of report.checks.filter((c) => c.status === 'failed')) expect(text).toMatch(new RegExp(`- \\*\\*\`${check.id}\`\\*\\*`));
    expect(text).toMatch(/```sh\n {2}curl -i /);
  });

  it('opens with the verdict and a table of the failing checks, most severe first, and folds the details', () => {
    const text = markdownReport(failingRun());
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Pet Adoption API conformance: ❌ failed');
    const table = lines.indexOf('| Failing check | Severity | Operations | First finding |');
    expect(table).toBeGreaterThan(0);
    expect(table).toBeLessThan(lines.indexOf('<details>'));
    const rows = lines.slice(table + 2, lines.indexOf('', table));
    expect(rows.length).toBeGreaterThan(1);
    const severities = rows.map((l) => l.split(' | ')[1]);
    expect(severities).toEqual([...severities].sort((a, b) => ['critical', 'high', 'medium', 'low'].indexOf(a!) - ['critical', 'high', 'medium', 'low'].indexOf(b!)));
    expect(text).toMatch(/<details>\n<summary>Failures \(\d+\)<\/summary>\n\n- \*\*`/);
    expect(text.match(/<details>/g)!.length).toBe(text.match(/<\/details>/g)!.length);
  });
});
