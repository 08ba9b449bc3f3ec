import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../runReport.ts';
import { htmlReport } from './htmlReport.ts';
import { failingRun, notRunAtAll, refusedKeyRun } from './testing/handBuiltRuns.ts';

const page = (report: RunReport) => new JSDOM(htmlReport(report)).window.document;

describe('the HTML report', () => {
  const failing = failingRun();

  it('opens with the verdict, the target, the counts and a table of every failed check linking to its section', () => {
    const doc = page(failing);
    expect(doc.querySelector('header h1')?.textContent).toBe('Pet Adoption API conformance: failed');
    expect(doc.querySelector('header .meta')?.textContent).toContain('http://deployment.test/v1');
    const { passed, failed, skipped } = failing.summary;
    expect(doc.querySelector('header .counts')?.textContent).toMatch(new RegExp(`${passed} passed.*${failed} failed.*${skipped} skipped`));
    const failedIds = failing.checks.filter((c) => c.status === 'failed').map((c) => c.id);
    const rows = [...doc.querySelectorAll('table.failed-checks tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-check')).sort()).toEqual([...failedIds].sort());
    for (const row of rows) {
      const id = row.getAttribute('data-check')!;
      expect(row.querySelector('a')?.getAttribute('href')).toBe(`#check-${id}`);
      expect(doc.getElementById(`check-${id}`)?.getAttribute('data-status')).toBe('failed');
      const severity = failing.checks.find((c) => c.id === id)!.severity;
      expect(row.children[1]?.textContent).toBe(severity);
      expect(row.children[3]?.textContent).not.toBe('');
    }
  });

  it('opens only the first evidence of each check', () => {
    const doc = page(failing);
    for (const section of doc.querySelectorAll('section.check')) {
      const details = [...section.querySelectorAll('li.finding details')];
      if (details.length === 0) continue;
      expect(details.map((d) => d.hasAttribute('open'))).toEqual(details.map((_, i) => i === 0));
    }
  });

  it('shows quotes, < and & as they were sent, escaped exactly once', () => {
    const html = htmlReport(failing);
    const text = page(failing).body.textContent!;
    expect(text).toContain('www-authenticate: Bearer realm="pets"');
    expect(text).toContain('<h1>Not "here" & gone</h1>');
    expect(text).not.toMatch(/&(quot|amp|lt|gt|#39);/);
    expect(html).not.toMatch(/&amp;(quot|amp|lt|gt|#39);/);
  });

  it('offers a filter for failed, warned, skipped or all checks', () => {
    const doc = page(failing);
    const choices = [...doc.querySelectorAll('fieldset.filter input[type=radio]')].map((i) => i.id);
    expect(choices).toEqual(['show-failed', 'show-warned', 'show-skipped', 'show-all']);
    expect((doc.getElementById('show-all') as HTMLInputElement).checked).toBe(true);
  });

  it('is one self-contained file: no script, style sheet or image from elsewhere', () => {
    const doc = page(failing);
    expect(doc.querySelectorAll('script[src], link, img, iframe')).toHaveLength(0);
    expect([...doc.querySelectorAll('a[href]')].every((a) => a.getAttribute('href')!.startsWith('#'))).toBe(true);
  });

  it('says in one line at the top why a run could not judge', () => {
    for (const report of [refusedKeyRun(), notRunAtAll()]) {
      const doc = page(report);
      expect(doc.title).toMatch(/^Conformance could not run/);
      const alert = doc.querySelector('header + .cannot-run-reason');
      expect(alert?.textContent).toContain(report.reason!);
      expect(doc.querySelectorAll('section.check')).toHaveLength(0);
    }
  });
});
