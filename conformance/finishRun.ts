import { resolve } from 'node:path';
import type { CliIo } from '../common/cliIo.ts';
import { publishToGitHub } from './github/publishToGitHub.ts';
import { exitCodes, type RunReport } from './runReport.ts';
import { renderReports, writeRendered, type ReportPaths } from './reports/writeReports.ts';

export type FinishIo = Pick<CliIo, 'stdout' | 'stderr' | 'env'>;

/**
 * Ends every run the same way, exit 0, 1 or 2: writes the reports into `reportDir` (when known),
 * shows the run in GitHub Actions, and returns the exit code. A report that cannot be written is
 * said on stderr; it does not change the verdict.
 */
export async function finishRun(report: RunReport, options: { reportDir?: string; io: FinishIo }): Promise<{ exitCode: 0 | 1 | 2; paths?: ReportPaths }> {
  // Rendered once: the job summary is the Markdown report.
  const rendered = renderReports(report);
  let paths: ReportPaths | undefined;
  if (options.reportDir !== undefined) {
    try {
      paths = await writeRendered(rendered, resolve(options.reportDir));
    } catch (error) {
      options.io.stderr.write(`Could not write the reports into ${options.reportDir}: ${(error as Error).message}. Check --report-dir.\n`);
    }
  }
  try {
    await publishToGitHub(report, rendered.markdown, options.io.env, (line) => options.io.stdout.write(`${line}\n`));
  } catch (error) {
    options.io.stderr.write(`Could not append the job summary to ${options.io.env.GITHUB_STEP_SUMMARY}: ${(error as Error).message}.\n`);
  }
  return { exitCode: exitCodes[report.verdict], ...(paths ? { paths } : {}) };
}
