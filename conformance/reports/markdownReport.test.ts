import { describe, expect, it } from 'vitest';
import { markdownReport } from './markdownReport.ts';
import { failingRun, notRunAtAll, refusedKeyRun } from './testing/reportFixtures.ts';

describe('the Markdown summary', () => {
  it('says in one line at the top why a run could not judge', async () => {
    for (const report of [await refusedKeyRun(), notRunAtAll()]) {
      const [headline, , reason] = markdownReport(report).split('\n');
      expect(headline).toBe('# Pet Adoption API conformance: ⚠️ could not run');
      expect(reason).toContain(report.reason!);
    }
    expect(markdownReport(await refusedKeyRun())).toMatch(/refused the API key/);
  });

  it('names every failed check with its finding and curl line', async () => {
    const report = await failingRun();
    const text = markdownReport(report);
    expect(text.split('\n')[0]).toBe('# Pet Adoption API conformance: ❌ failed');
    for (const check of report.checks.filter((c) => c.status === 'failed')) expect(text).toMatch(new RegExp(`- \\*\\*\`${check.id}\`\\*\\*`));
    expect(text).toMatch(/```sh\n {2}curl -i /);
    expect(text).not.toContain('demo-pro');
  });
});
