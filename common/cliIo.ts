/** The signals a long-running CLI stops on. */
export type StopSignal = 'SIGINT' | 'SIGTERM';

/**
 * What a CLI's `main(argv, io)` reads and writes instead of `process`, so tests can run it in-process
 * and the bins stay one line: `process.exitCode = await main(process.argv.slice(2), processIo())`.
 */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Resolves relative paths given on the command line. */
  cwd: string;
  /**
   * Where a long-running CLI (the mock) listens for SIGINT and SIGTERM: `process` in the bins, an
   * EventEmitter a test emits on. A CLI that serves stops when told, and never calls process.exit().
   */
  signals?: {
    on(signal: StopSignal, listener: () => void): unknown;
    off(signal: StopSignal, listener: () => void): unknown;
  };
  /** Told once a serving CLI listens, with its base URL (tests learn the port this way). */
  serving?(url: string): void;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signals: process };
}
