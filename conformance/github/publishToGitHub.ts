import type { RunReport } from '../runReport.ts';
import { githubAnnotations } from './annotations.ts';
import { appendStepSummary } from './stepSummary.ts';

/**
 * What a run shows in GitHub Actions, whatever its verdict: annotations when `GITHUB_ACTIONS` is
 * `true`, and its Markdown report (as rendered for the report files) appended to
 * `$GITHUB_STEP_SUMMARY` when that is set.
 */
export async function publishToGitHub(report: RunReport, markdown: string, env: Record<string, string | undefined>, print: (line: string) => void): Promise<void> {
  if (env.GITHUB_ACTIONS === 'true') for (const line of githubAnnotations(report)) print(line);
  if (env.GITHUB_STEP_SUMMARY) await appendStepSummary(env.GITHUB_STEP_SUMMARY, markdown);
}
