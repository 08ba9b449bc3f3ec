import { projectPath } from '../../common/projectRoot.ts';
import { runProcess, type ProcessResult } from '../../common/testing/runProcess.ts';

/**
 * Runs the real `pets-conformance` command (conformance/bin.ts) from the project root, for the few
 * tests about the command itself; resolves once it has closed and its output is read.
 */
export function spawnCli(args: string[], env: Record<string, string> = {}): Promise<ProcessResult> {
  // Only what the test gives: the developer's own key, URL or GitHub variables must not leak in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PETS_|GITHUB_)/.test(k)));
  return runProcess(process.execPath, ['--import', 'tsx', 'conformance/bin.ts', ...args], { cwd: projectPath(), env: { ...inherited, ...env } }).done;
}
