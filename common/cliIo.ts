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
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}
