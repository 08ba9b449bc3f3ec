import type { CheckReport, RunReport } from '../runReport.ts';
import { findingLine } from './testCases.ts';
import { coverageHeadline, coverageLines } from './coverageTable.ts';
import { partialRunLine } from '../unchecked.ts';

const mark = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

/** One progress line per finished check. */
export function progressLine(check: CheckReport): string {
  const failures = check.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure'));
  const first = failures[0] ? `: ${findingLine(failures[0])}` : check.status === 'skipped' ? `: ${check.operations[0]?.reason ?? ''}` : '';
  return `${mark[check.status]} ${check.id}${first}${failures.length > 1 ? ` (+${failures.length - 1} more)` : ''}`;
}

/** The closing summary table. */
export function summaryTable(report: RunReport): string {
  // A run stopped before any check: no table of nothing, the reason instead.
  if (report.checks.length === 0) return `No check ran: ${report.reason ?? 'nothing was judged'} (${report.requests.total} ${report.requests.total === 1 ? 'request' : 'requests'} sent).`;
  const rows = report.checks.map((c) => [c.id, c.severity, mark[c.status], String(c.operations.reduce((n, o) => n + o.findings.filter((f) => f.level === 'failure').length, 0))]);
  const header = ['check', 'severity', 'result', 'failures'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  const { passed, failed, skipped, warnings } = report.summary;
  return [
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${passed} passed, ${failed} failed, ${skipped} skipped, ${warnings} warnings; ${report.requests.total} ${report.requests.total === 1 ? 'request' : 'requests'} (${report.requests.withKey} with the key) in ${(report.durationMs / 1000).toFixed(1)} s`,
    ...(partialRunLine(report) !== undefined ? [partialRunLine(report)!] : []),
    ...verified(report),
  ].join('\n');
}

/** What the run verified, in two lines: the rules judged, and those not reached with why. */
function verified(report: RunReport): string[] {
  if ((report.coverage ?? []).length === 0) return [];
  const unreached = coverageLines(report).filter((l) => l.status === 'not reached');
  return [`Verified: ${coverageHeadline(report)}.`, ...unreached.slice(0, 8).map((l) => `  not reached: ${l.rule}: ${l.reason ?? ''}`), ...(unreached.length > 8 ? [`  (and ${unreached.length - 8} more: see the reports)`] : []), ...(report.reproductions ?? []).map((r, i) => `Shortest failing sequence ${i + 1} (${r.rules.join(', ')}): ${r.requests.shrunk} requests; the reports print it as a curl script.`)];
}
