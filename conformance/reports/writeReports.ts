import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunReport } from '../runReport.ts';
import { ctrfReport } from './ctrfReport.ts';
import { harReport } from './harReport.ts';
import { htmlReport } from './htmlReport.ts';
import { junitReport } from './junitReport.ts';
import { markdownReport } from './markdownReport.ts';

export const reportFiles = {
  junit: 'conformance-junit.xml',
  json: 'conformance-report.json',
  ctrf: 'conformance-ctrf.json',
  har: 'conformance.har',
  html: 'conformance-report.html',
  markdown: 'conformance-summary.md',
} as const;

export type ReportPaths = Record<keyof typeof reportFiles, string>;

/** Every report of a run, by kind, as file contents: a run that could not judge gets them too. */
export function renderReports(report: RunReport): Record<keyof typeof reportFiles, string> {
  return {
    junit: junitReport(report),
    json: `${JSON.stringify(report, null, 2)}\n`,
    ctrf: `${JSON.stringify(ctrfReport(report), null, 2)}\n`,
    har: `${JSON.stringify(harReport(report), null, 2)}\n`,
    html: htmlReport(report),
    markdown: markdownReport(report),
  };
}

/** Writes the six reports into `dir` and returns their paths. */
export function writeReports(report: RunReport, dir: string): Promise<ReportPaths> {
  return writeRendered(renderReports(report), dir);
}

/** Writes reports already rendered into `dir` and returns their paths. */
export async function writeRendered(rendered: Record<keyof typeof reportFiles, string>, dir: string): Promise<ReportPaths> {
  await mkdir(dir, { recursive: true });
  const paths = Object.fromEntries(Object.entries(reportFiles).map(([k, f]) => [k, join(dir, f)])) as ReportPaths;
  await Promise.all(Object.entries(rendered).map(([kind, text]) => writeFile(paths[kind as keyof typeof reportFiles], text)));
  return paths;
}
