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
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd(), signals: processSignals(process) };
}

/** How often a serving CLI looks whether the process that started it is still there. */
export const parentWatchMs = 500;

interface ProcessLike {
  readonly ppid: number;
  on(signal: StopSignal, listener: () => void): unknown;
  off(signal: StopSignal, listener: () => void): unknown;
}

/**
 * The process's SIGINT and SIGTERM, and a SIGTERM of its own once the process that started it is
 * gone (its parent id changes as the orphan is adopted). `npx pets-mock & … kill $!` signals npm,
 * which exits without passing the signal on: the mock would go on holding its port with nobody left
 * to stop it. Only while a listener waits is the parent watched, and the timer never keeps the
 * process alive.
 */
export function processSignals(target: ProcessLike, everyMs = parentWatchMs): NonNullable<CliIo['signals']> {
  const parent = target.ppid;
  const terms = new Set<() => void>();
  let watch: ReturnType<typeof setInterval> | undefined;
  const orphaned = () => {
    if (target.ppid === parent) return;
    clearInterval(watch);
    watch = undefined;
    for (const listener of [...terms]) listener();
  };
  return {
    on(signal, listener) {
      target.on(signal, listener);
      if (signal !== 'SIGTERM') return;
      terms.add(listener);
      watch ??= setInterval(orphaned, everyMs);
      watch.unref?.();
    },
    off(signal, listener) {
      target.off(signal, listener);
      if (signal !== 'SIGTERM') return;
      terms.delete(listener);
      if (terms.size === 0 && watch !== undefined) {
        clearInterval(watch);
        watch = undefined;
      }
    },
  };
}
