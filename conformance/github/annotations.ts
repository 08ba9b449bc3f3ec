import type { RunReport } from '../runReport.ts';
import { cannotRunLine, findingLine, testCases } from '../reports/testCases.ts';

// Workflow-command escaping, as @actions/core does it: data escapes %, CR and LF; properties also : and ,.
const data = (text: string) => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (text: string) => data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

/**
 * GitHub Actions annotations (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
 * an `::error` per failure, titled with the check id, its message the finding, the operation and the
 * curl line; an `::warning` per warning; one `::error` with the reason when the run could not judge.
 */
export function githubAnnotations(report: RunReport): string[] {
  const cannotRun = report.verdict === 'cannot-run' ? [`::error title=${property(`${report.tool.name} could not run`)}::${data(cannotRunLine(report))}`] : [];
  return [...cannotRun, ...testCases(report).flatMap((test) => [
    ...test.failures.map((f) => ({ kind: 'error', f })),
    ...test.warnings.map((f) => ({ kind: 'warning', f })),
  ].map(({ kind, f }) => {
    const reproduce = f.evidence ? `\nReproduce: ${f.evidence.curl}` : '';
    return `::${kind} title=${property(test.check.id)}::${data(`${findingLine(f)} [${test.operationId}]${reproduce}`)}`;
  }))];
}
