import { projectPath } from '../../common/projectRoot.ts';
import { runProcess, type ProcessResult } from '../../common/testing/runProcess.ts';

/** Runs the benchmark harness in smoke mode from its source, with `args`, until it has closed. */
export function runSmoke(args: string[]): Promise<ProcessResult> {
  return runProcess(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--source', ...args], { cwd: projectPath() }).done;
}
