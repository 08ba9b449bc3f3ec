import type { RunReport } from '../runReport.ts';
import type { Finding } from '../check.ts';
import { cannotRunLine, findingLine } from '../reports/testCases.ts';
import { partialRunLine } from '../unchecked.ts';

// Workflow-command escaping, as @actions/core does it: data escapes %, CR and LF; properties also : and ,.
const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub shows ten error annotations a step: more are cut without a word. */
export const maxAnnotations = 10;

/**
 * GitHub Actions annotations (https://docs.github.com/actions/reference/workflow-commands-for-github-actions),
 * for people: one `::error` per failing check and operation (its first finding, how many more, and
 * their cases), then one `::warning` per check and operation with warnings, at most ten in all, most
 * severe first; past ten, one `::notice` says how many more are in the job summary. When the run
 * could not judge, one `::error` with the reason comes first; a partial run, one `::warning` saying what it left unchecked.
 */
export function githubAnnotations(report: RunReport): string[] {
  const partial = partialRunLine(report);
  const cannotRun = report.verdict === 'cannot-run'
    ? [`::error title=${property(`${report.tool.name} could not run`)}::${data(cannotRunLine(report))}`]
    : partial !== undefined ? [`::warning title=${property(`${report.tool.name} partial run`)}::${data(partial)}`] : [];
  const groups: { kind: 'error' | 'warning'; check: string; operationId: string; findings: Finding[] }[] = [];
  const bySeverity = [...report.checks].sort((a, b) => severityOrder.indexOf(a.severity) - severityOrder.indexOf(b.severity));
  for (const level of ['failure', 'warning'] as const) {
    for (const check of bySeverity) {
      for (const op of check.operations) {
        const findings = op.findings.filter((f) => f.level === level);
        if (findings.length > 0) groups.push({ kind: level === 'failure' ? 'error' : 'warning', check: check.id, operationId: op.operationId, findings });
      }
    }
  }
  const room = Math.max(0, maxAnnotations - cannotRun.length);
  const shown = groups.slice(0, room).map(({ kind, check, operationId, findings }) => {
    const [first, ...rest] = findings;
    const cases = [...new Set(rest.flatMap((f) => (f.case !== undefined ? [f.case] : [])))];
    const more = rest.length > 0 ? ` (and ${rest.length} more ${rest.length === 1 ? 'finding' : 'findings'} on ${operationId}${cases.length > 0 ? `: ${cases.slice(0, 5).join(', ')}${cases.length > 5 ? ', …' : ''}` : ''})` : '';
    const reproduce = first!.evidence ? `\nReproduce: ${first!.evidence.curl}` : '';
    return `::${kind} title=${property(check)}::${data(`${findingLine(first!)} [${operationId}]${more}${reproduce}`)}`;
  });
  const hidden = groups.slice(room);
  const notice = hidden.length > 0
    ? [`::notice title=${property(`${report.tool.name}: ${hidden.length} more`)}::${data(`${hidden.length} more failing or warned check${hidden.length === 1 ? '' : 's'} and operation${hidden.length === 1 ? '' : 's'} (${hidden.reduce((n, g) => n + g.findings.length, 0)} findings) are in the job summary and the conformance-summary.md report.`)}`]
    : [];
  return [...cannotRun, ...shown, ...notice];
}

const severityOrder = ['critical', 'high', 'medium', 'low'];
