import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunReport } from '../runReport.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface CliRun {
  code: number | null;
  output: string;
  reportDir: string;
  /** The JSON report, when the run wrote one. */
  report(): Promise<RunReport>;
  failedChecks(): Promise<string[]>;
}

/**
 * Runs the real `pets-conformance` command (conformance/bin.ts) as CI would, with its reports in a
 * fresh folder. Only for tests about the command itself; everything else runs the suite in-process.
 */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const reportDir = await mkdtemp(join(tmpdir(), 'conformance-'));
  // Only what the test gives: a key or URL in the developer's own environment must not leak in.
  const { PETS_API_KEY: _key, PETS_BASE_URL: _url, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/bin.ts', '--report-dir', reportDir, ...args], {
    cwd: root,
    env: { ...inherited, ...env },
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  // `close`, not `exit`: exit can fire before the output streams are read (Node's child_process docs).
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const report = async () => JSON.parse(await readFile(join(reportDir, 'conformance-report.json'), 'utf8')) as RunReport;
  return {
    code,
    output,
    reportDir,
    report,
    failedChecks: async () => (await report()).checks.filter((c) => c.status === 'failed').map((c) => c.id),
  };
}
