import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { notRunAtAll } from '../reports/testing/handBuiltRuns.ts';
import { markdownReport } from '../reports/markdownReport.ts';
import { publishToGitHub } from './publishToGitHub.ts';
import { appendStepSummary, stepSummaryLimit } from './stepSummary.ts';

describe('the GitHub step summary', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'step-summary-'));
    file = join(dir, 'summary.md');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('appends to what earlier steps wrote', async () => {
    await writeFile(file, '# Build\n');
    await appendStepSummary(file, '# Conformance');
    expect(await readFile(file, 'utf8')).toBe('# Build\n# Conformance\n');
  });

  it('cuts a summary over 1 MiB and says where the whole one is', async () => {
    await appendStepSummary(file, `${'é'.repeat(stepSummaryLimit)}`);
    const text = await readFile(file, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(stepSummaryLimit);
    expect(text).toMatch(/cut to fit GitHub's 1 MiB limit: see the conformance-summary.md report/);
    expect(text).not.toContain('\uFFFD');
  });

  it('is written whenever GITHUB_STEP_SUMMARY is set, and annotations only under GITHUB_ACTIONS=true', async () => {
    const printed: string[] = [];
    await publishToGitHub(notRunAtAll(), markdownReport(notRunAtAll()), { GITHUB_STEP_SUMMARY: file }, (l) => printed.push(l));
    expect(printed).toEqual([]);
    expect(await readFile(file, 'utf8')).toMatch(/could not run[\s\S]*no API key/);
    await publishToGitHub(notRunAtAll(), markdownReport(notRunAtAll()), { GITHUB_ACTIONS: 'true' }, (l) => printed.push(l));
    expect(printed).toEqual([expect.stringMatching(/^::error title=pets-conformance could not run::/)]);
  });
});
