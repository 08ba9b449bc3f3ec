// Writes a drift run's reports (Markdown, HTML, JSON) and, when asked, the base side's profile.
// Every key the run used is hidden in whatever is written, should a judge's message quote one.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hidden } from '../../common/secretPlaces.ts';
import type { DriftResult } from './classifyDrift.ts';
import { driftHtml, driftMarkdown } from './driftReport.ts';

export const driftReportFiles = { json: 'drift-report.json', html: 'drift-report.html', markdown: 'drift-summary.md' } as const;

export function hideSecrets(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length > 0).reduce((out, secret) => out.split(secret).join(hidden(secret)), text);
}

export async function writeDriftReports(result: DriftResult, dir: string, secrets: readonly string[]): Promise<Record<keyof typeof driftReportFiles, string>> {
  await mkdir(dir, { recursive: true });
  const rendered = { json: `${JSON.stringify(result, null, 2)}\n`, html: driftHtml(result), markdown: driftMarkdown(result) };
  const paths = {} as Record<keyof typeof driftReportFiles, string>;
  for (const kind of Object.keys(driftReportFiles) as (keyof typeof driftReportFiles)[]) {
    paths[kind] = join(dir, driftReportFiles[kind]);
    await writeFile(paths[kind], hideSecrets(rendered[kind], secrets));
  }
  return paths;
}

export async function writeProfile(result: DriftResult, file: string, secrets: readonly string[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, hideSecrets(`${JSON.stringify({ $schema: 'https://github.com/your-org/pet-adoption-toolkit/blob/main/mock/profile/profile.schema.json', ...result.profile }, null, 2)}\n`, secrets));
}
