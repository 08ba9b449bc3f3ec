import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../runReport.ts';
import { htmlReport } from './htmlReport.ts';
import { junitReport } from './junitReport.ts';
import { markdownReport } from './markdownReport.ts';

export const reportFiles = {
  junit: 'conformance-junit.xml',
  json: 'conformance-report.json',
  html: 'conformance-report.html',
  markdown: 'conformance-summary.md',
} as const;

/** Writes the four reports into `dir` and returns their paths. */
export async function writeReports(report: RunReport, dir: string): Promise<Record<keyof typeof reportFiles, string>> {
  await mkdir(dir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(reportFiles).map(([k, f]) => [k, join(dir, f)])) as Record<keyof typeof reportFiles, string>;
  await Promise.all([
    writeFile(paths.junit, junitReport(report)),
    writeFile(paths.json, `${JSON.stringify(report, null, 2)}\n`),
    writeFile(paths.html, htmlReport(report)),
    writeFile(paths.markdown, markdownReport(report)),
  ]);
  return paths;
}
