import { spawn, type ChildProcess } from 'node:child_process';

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout then stderr. */
  output: string;
}

/**
 * Runs a command for a test, collecting its output; `done` resolves on `close`, once the output is
 * read (Node's docs: `exit` can fire before). `child` is there to stop it, or to watch it as it runs.
 */
export function runProcess(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): { child: ChildProcess; done: Promise<ProcessResult> } {
  const child = spawn(command, args, options);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const done = new Promise<ProcessResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, output: stdout + stderr })));
  return { child, done };
}
