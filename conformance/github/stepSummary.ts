import { appendFile } from 'node:fs/promises';

/** GitHub refuses a step summary over 1 MiB (and then shows none); a longer one is cut with a note. */
export const stepSummaryLimit = 1024 * 1024;

/** Appends Markdown to the file `$GITHUB_STEP_SUMMARY` names, as the job summary of the step. */
export async function appendStepSummary(path: string, markdown: string): Promise<void> {
  const note = '\n\n_Summary cut to fit GitHub\'s 1 MiB limit: see the conformance-summary.md report._\n';
  let text = markdown;
  if (Buffer.byteLength(text) > stepSummaryLimit) {
    text = Buffer.from(text).subarray(0, stepSummaryLimit - Buffer.byteLength(note) - 4).toString('utf8').replace(/\uFFFD+$/, '') + note;
  }
  await appendFile(path, text.endsWith('\n') ? text : `${text}\n`);
}
