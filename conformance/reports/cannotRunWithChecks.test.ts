import { validateStrict } from 'ctrf';
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { githubAnnotations } from '../github/annotations.ts';
import type { RunReport } from '../runReport.ts';
import { failingRun } from './testing/handBuiltRuns.ts';
import { testCases } from './testCases.ts';
import { renderReports } from './writeReports.ts';

describe('a run that could not judge after checks ran (most requests unanswered)', () => {
  it('says why first in every report, and still shows what the checks found', () => {
    const report: RunReport = { ...failingRun(), verdict: 'cannot-run', reason: 'Most requests got no answer.' };
    const rendered = renderReports(report);

    const junit = new JSDOM(rendered.junit, { contentType: 'text/xml' }).window.document;
    expect(junit.querySelector('testcase')?.querySelector('error')?.getAttribute('message')).toContain('Most requests got no answer.');
    expect(junit.querySelectorAll('failure').length).toBeGreaterThan(0);

    const ctrf = JSON.parse(rendered.ctrf);
    expect(() => validateStrict(ctrf)).not.toThrow();
    expect(ctrf.results.tests[0]).toMatchObject({ name: 'pets-conformance could not run', status: 'failed' });
    expect(ctrf.results.tests).toHaveLength(1 + testCases(report).length);

    const markdown = rendered.markdown.split('\n');
    expect(markdown[0]).toBe('# Pet Adoption API conformance: ⚠️ could not run');
    expect(markdown[2]).toContain('Most requests got no answer.');
    expect(rendered.markdown).toContain('| `response-schema`');

    const html = new JSDOM(rendered.html).window.document;
    expect(html.querySelector('header + .cannot-run-reason')?.textContent).toContain('Most requests got no answer.');
    expect(html.querySelectorAll('table.failed-checks tbody tr').length).toBe(report.summary.failed);

    const annotations = githubAnnotations(report);
    expect(annotations[0]).toMatch(/^::error title=pets-conformance could not run::.*Most requests got no answer\./);
    expect(annotations.some((a) => a.startsWith('::error title=response-schema::'))).toBe(true);
  });
});
