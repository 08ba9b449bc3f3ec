import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../runReport.ts';
import { spawnCli } from './spawnCli.ts';

export interface CliRun {
  code: number | null;
  output: string;
  reportDir: string;
  /** The JSON report, when the run wrote one. */
  report(): Promise<RunReport>;
  failedChecks(): Promise<string[]>;
}

/**
 * Runs the real `pets-conformance` command as CI would, with its reports in a fresh folder. Only
 * for tests about the command itself; everything else runs the suite in-process.
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  const { code, stdout, stderr } = await spawnCli(['--report-dir', reportDir, ...args], env);
  const report = async () => JSON.parse(await readFile(join(reportDir, 'conformance-report.json'), 'utf8')) as RunReport;
  return {
    code,
    output: stdout + stderr,
    reportDir,
    report,
    failedChecks: async () => (await report()).checks.filter((c) => c.status === 'failed').map((c) => c.id),
  };
}
