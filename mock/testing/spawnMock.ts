// Runs the mock as a real process (`node mock/bin.ts` through tsx), for what is about the process:
// signals, kill -9, the exit code.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface SpawnedMock {
  child: ChildProcess;
  output(): string;
  /** Resolves with the base URL once the mock says where it serves. */
  serving: Promise<string>;
  /** Resolves with the exit code (or the signal) once the process has ended and its output is read. */
  closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnMock(args: string[]): SpawnedMock {
  const child = spawn(process.execPath, ['--import', 'tsx', 'mock/bin.ts', ...args], { cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // `close`, not `exit`: exit can fire before the output streams are read.
  const closed = once(child, 'close').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  const serving = new Promise<string>((resolve, reject) => {
    const look = () => {
      const match = /serving (http:\/\/[^ ]+\/v1)/.exec(output);
      if (match) {
        child.stdout!.off('data', look);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', look);
    void closed.then(({ code }) => reject(new Error(`mock exited with ${code} before serving: ${output}`)));
  });
  return { child, output: () => output, serving, closed };
}
