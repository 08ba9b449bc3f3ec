import type { RunReport } from '../runReport.ts';
import { findingLine } from './testCases.ts';
import { accountingNote, coverageHeadline, coverageLines } from './coverageTable.ts';
import { partialRunLine } from '../unchecked.ts';
import { usageMarkdown } from './usageSection.ts';

const icon = { passed: '✅', failed: '❌', skipped: '⏭️' } as const;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const severities = ['critical', 'high', 'medium', 'low'];
const verdictHeadline = { passed: '✅ passed', failed: '❌ failed', 'cannot-run': '⚠️ could not run' } as const;

/** A summary fit for a CI job summary ($GITHUB_STEP_SUMMARY and the like); a run that could not judge says why on its second line. */
export function markdownReport(report: RunReport): string {
  const { passed, failed, skipped, warnings } = report.summary;
  const lines = [`# Pet Adoption API conformance: ${verdictHeadline[report.verdict]}`, '', ...usageMarkdown(report)];
  if (report.verdict === 'cannot-run') {
    lines.push(
      `**Could not judge \`${report.baseUrl}\`:** ${cell(report.reason ?? 'unknown reason')}`,
      '',
      `${report.checks.length === 0 ? 'No check ran' : 'What the checks saw rests on too little'}, so this is neither a pass nor a failure of the deployment (exit 2). ${report.requests.total} requests sent; ${report.tool.name} ${report.tool.version}.`,
    );
    if (report.checks.length === 0) {
      if (report.exchanges.length > 0) {
        lines.push('', '| # | Request | Status |', '|---|---|---|', ...report.exchanges.map((e) => `| ${e.seq} | \`${cell(`${e.method} ${e.url}`)}\` | ${e.status} |`));
      }
      return `${lines.join('\n')}\n`;
    }
    lines.push('');
  }
  lines.push(
    `Target \`${report.baseUrl}\`, run \`${report.runId}\`, ${report.requests.total} ${report.requests.total === 1 ? 'request' : 'requests'} in ${(report.durationMs / 1000).toFixed(1)} s, ${report.tool.name} ${report.tool.version}.`,
    '',
    `**${passed} passed, ${failed} failed, ${skipped} skipped**${warnings > 0 ? `, ${warnings} warnings` : ''}.`,
  );
  const partial = partialRunLine(report);
  if (partial !== undefined) lines.push('', `**${cell(partial)}**`);
  // First what a reader acts on: the failing checks, most severe first; the rest is folded.
  const failing = report.checks.filter((c) => c.status === 'failed').sort((a, b) => severities.indexOf(a.severity) - severities.indexOf(b.severity));
  if (failing.length > 0) {
    lines.push('', '| Failing check | Severity | Operations | First finding |', '|---|---|---|---|');
    for (const c of failing) {
      const first = c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure'))[0];
      lines.push(`| \`${c.id}\` ${cell(c.title)} | ${c.severity} | ${c.operations.filter((o) => o.status === 'failed').map((o) => o.operationId).join(', ')} | ${first ? cell(findingLine(first)).slice(0, 300) : ''} |`);
    }
  }
  const fold = (summary: string, body: string[]) => lines.push('', '<details>', `<summary>${summary}</summary>`, '', ...body, '', '</details>');
  fold(`All ${report.checks.length} checks`, [
    '| Check | Severity | Result | Operations |',
    '|---|---|---|---|',
    ...report.checks.map((c) => `| \`${c.id}\` ${cell(c.title)} | ${c.severity} | ${icon[c.status]} ${c.status} | ${c.operations.map((o) => `${o.operationId}: ${o.status}`).join(', ')} |`),
  ]);
  const failures = report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => ({ check: c.id, op: o.operationId, f }))));
  if (failures.length > 0) {
    const body: string[] = [];
    for (const { check, op, f } of failures) {
      body.push(`- **\`${check}\`** (${op}): ${cell(findingLine(f))}`);
      if (f.evidence) body.push('', '  ```sh', `  ${f.evidence.curl}`, '  ```');
    }
    fold(`Failures (${failures.length})`, body);
  }
  if ((report.reproductions ?? []).length > 0) {
    const body: string[] = [];
    for (const [i, r] of report.reproductions!.entries()) {
      body.push(`${i + 1}. Breaks ${r.rules.map((rule) => `\`${rule}\``).join(', ')}: ${r.requests.shrunk} request${r.requests.shrunk === 1 ? '' : 's'} (shrunk from ${r.requests.original}), exchanges ${r.exchanges.map((seq) => `#${seq}`).join(', ')}.`, '', '   ```sh', ...r.curl.trimEnd().split('\n').map((l) => `   ${l}`), '   ```', '');
    }
    fold('Shortest failing sequences, as curl scripts', body);
  }
  if ((report.coverage ?? []).length > 0) {
    fold(`What the run verified: ${coverageHeadline(report)}`, [
      accountingNote(report),
      '',
      '| Rule | Check | Result | Judged on (answers) | Not reached because |',
      '|---|---|---|---|---|',
      ...coverageLines(report).map((l) => `| \`${l.rule}\` ${cell(l.title)} | \`${l.check}\` | ${l.status} | ${cell(l.judged || '—')} | ${cell(l.reason ?? '')} |`),
    ]);
  }
  const skippedChecks = report.checks.filter((c) => c.status === 'skipped');
  if (skippedChecks.length > 0) fold(`Skipped (${skippedChecks.length})`, skippedChecks.map((c) => `- \`${c.id}\`: ${c.operations[0]?.reason ?? ''}`));
  const unjudged = report.checks.flatMap((c) => c.operations.flatMap((o) => (o.inconclusive ?? []).map((i) => `- \`${c.id}\` (${o.operationId})${i.case !== undefined ? ` \`${i.case}\`` : ''}: could not judge: ${cell(i.reason)}`)));
  if (unjudged.length > 0) fold(`Inconclusive cases, skipped (${unjudged.length})`, unjudged);
  if (report.notes.length > 0) fold(`Notes (${report.notes.length})`, report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}
