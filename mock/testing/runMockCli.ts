// Runs the mock's `main` in-process, as a test would run the command.
import { EventEmitter } from 'node:events';
import type { CliIo, StopSignal } from '../../common/cliIo.ts';
import { main } from '../cli.ts';

export interface RunningCli {
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the base URL once the mock serves; rejects if main ends first. */
  serving: Promise<string>;
  /** main's exit code. */
  exit: Promise<number>;
  /** Sends SIGINT or SIGTERM to the running main. */
  signal(signal: StopSignal): void;
}

export function runMockCli(argv: string[], env: Record<string, string | undefined> = {}): RunningCli {
  let output = '';
  const signals = new EventEmitter();
  let servingAt: (url: string) => void = () => {};
  const serving = new Promise<string>((resolve) => (servingAt = resolve));
  const io: CliIo = {
    stdout: { write: (text: string) => (output += text) },
    stderr: { write: (text: string) => (output += text) },
    env,
    cwd: process.cwd(),
    signals,
    serving: (url) => servingAt(url),
  };
  const exit = main(argv, io);
  const servingOrEnded = Promise.race([serving, exit.then((code) => Promise.reject(new Error(`main ended with ${code} before serving: ${output}`)))]);
  // Tests of a refused start never await `serving`: its rejection is not an unhandled one.
  servingOrEnded.catch(() => {});
  return {
    output: () => output,
    serving: servingOrEnded,
    exit,
    signal: (signal) => void signals.emit(signal),
  };
}
