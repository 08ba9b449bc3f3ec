import type { RunReport } from '../runReport.ts';

const icon = { passed: '✅', failed: '❌', skipped: '⏭️' } as const;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A summary fit for a CI job summary ($GITHUB_STEP_SUMMARY and the like). */
export function markdownReport(report: RunReport): string {
  const { passed, failed, skipped, warnings } = report.summary;
  const lines = [
    `# Pet Adoption API conformance: ${failed > 0 ? '❌ failed' : '✅ passed'}`,
    '',
    `Target \`${report.baseUrl}\`, run \`${report.runId}\`, ${report.requests.total} requests in ${(report.durationMs / 1000).toFixed(1)} s, ${report.tool.name} ${report.tool.version}.`,
    '',
    `**${passed} passed, ${failed} failed, ${skipped} skipped**${warnings > 0 ? `, ${warnings} warnings` : ''}.`,
    '',
    '| Check | Severity | Result | Operations |',
    '|---|---|---|---|',
    ...report.checks.map((c) => `| \`${c.id}\` ${cell(c.title)} | ${c.severity} | ${icon[c.status]} ${c.status} | ${c.operations.map((o) => `${o.operationId}: ${o.status}`).join(', ')} |`),
  ];
  const failures = report.checks.flatMap((c) => c.operations.flatMap((o) => o.findings.filter((f) => f.level === 'failure').map((f) => ({ check: c.id, op: o.operationId, f }))));
  if (failures.length > 0) {
    lines.push('', '## Failures', '');
    for (const { check, op, f } of failures) {
      lines.push(`- **\`${check}\`** (${op}): ${f.message}${f.occurrences > 1 ? ` (${f.occurrences} times)` : ''}`);
      if (f.evidence) lines.push('', '  ```sh', `  ${f.evidence.curl}`, '  ```');
    }
  }
  const skippedChecks = report.checks.filter((c) => c.status === 'skipped');
  if (skippedChecks.length > 0) {
    lines.push('', '## Skipped', '');
    for (const c of skippedChecks) lines.push(`- \`${c.id}\`: ${c.operations[0]?.reason ?? ''}`);
  }
  if (report.notes.length > 0) lines.push('', '## Notes', '', ...report.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}
