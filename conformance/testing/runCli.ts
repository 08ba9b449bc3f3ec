import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIo } from '../../common/cliIo.ts';
import { projectPath } from '../../common/projectRoot.ts';
import { main } from '../cli.ts';
import type { RunReport } from '../runReport.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  output: string;
  /** Where the run wrote its reports, unless the arguments or a --config file name another folder. */
  reportDir: string;
  /** The JSON report, when the run wrote one. */
  report(): Promise<RunReport>;
  failedChecks(): Promise<string[]>;
}

export interface RunCliOptions {
  /** Resolves relative paths; the project root by default. */
  cwd?: string;
  /** Where the reports go: a fresh folder by default; null leaves it to the arguments or the --config file. */
  reportDir?: string | null;
}

/**
 * Runs the `pets-conformance` command as CI would, in-process: its `main(argv, io)` with the
 * environment the test gives (and nothing of the developer's), from the project root, with its
 * reports in a fresh folder. The bin is `process.exitCode = await main(argv, processIo())`;
 * spawnCli runs it for real, for the few tests about the process itself.
 */
export async function runCli(args: string[], env: Record<string, string> = {}, options: RunCliOptions = {}): Promise<CliRun> {
  const { cwd = projectPath() } = options;
  const reportDir = options.reportDir === null ? resolve(cwd, 'reports') : (options.reportDir ?? (await mkdtemp(join(tmpdir(), 'conformance-'))));
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env, cwd };
  const code = await main([...(options.reportDir === null ? [] : ['--report-dir', reportDir]), ...args], io);
  const report = async () => JSON.parse(await readFile(join(reportDir, 'conformance-report.json'), 'utf8')) as RunReport;
  return {
    code,
    stdout,
    stderr,
    output: stdout + stderr,
    reportDir,
    report,
    failedChecks: async () => (await report()).checks.filter((c) => c.status === 'failed').map((c) => c.id),
  };
}
