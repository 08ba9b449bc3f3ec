// The shared corpus (`../shared/corpus/` beside the clone): independent deployments of the contract,
// each startable clean, with one fault, or with one legal variant. What a run must give is the
// corpus README's: exit 1 for each FAULT, exit 0 for each LEGAL variant and each clean server.
// GRAY behaviours are arguable and not counted, so they are not run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../../common/projectRoot.ts';
import { freePort } from '../../common/testing/freePort.ts';
import { runProcess, type ProcessResult } from '../../common/testing/runProcess.ts';

export type CorpusKind = 'CLEAN' | 'FAULT' | 'LEGAL';

export interface CorpusCase {
  file: string;
  kind: CorpusKind;
  /** The FAULT or LEGAL name; `clean` for the server as written. */
  name: string;
  /** The exit code the corpus README asks of the gate. */
  expected: 0 | 1;
}

/** Where the corpus lives: `PETS_CORPUS_DIR`, or `../shared/corpus` beside the clone (as CI lays it out). */
export const corpusDir = (): string => process.env.PETS_CORPUS_DIR ?? projectPath('..', 'shared', 'corpus');

/** Every counted case of the corpus, read from its `cases.json`. */
export function corpusCases(dir = corpusDir()): CorpusCase[] {
  const listed = JSON.parse(readFileSync(join(dir, 'cases.json'), 'utf8')) as Record<string, Partial<Record<'FAULT' | 'LEGAL' | 'GRAY', string[]>>>;
  return Object.entries(listed).flatMap(([file, kinds]) => [
    { file, kind: 'CLEAN' as const, name: 'clean', expected: 0 as const },
    ...(kinds.FAULT ?? []).map((name) => ({ file, kind: 'FAULT' as const, name, expected: 1 as const })),
    ...(kinds.LEGAL ?? []).map((name) => ({ file, kind: 'LEGAL' as const, name, expected: 0 as const })),
  ]);
}


/** The gate's arguments as the corpus README gives them. */
export const gateArgs = (baseUrl: string, reportDir: string): string[] => ['--base-url', baseUrl, '--api-key', 'demo-pro', '--probe-rate-limit', '--report-dir', reportDir];

/** Starts the case's deployment on a free port, a fresh server; `close` stops it. */
export async function startCorpusCase(c: CorpusCase, dir = corpusDir()): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, PORT: String(port) };
  if (c.kind !== 'CLEAN') env[c.kind] = c.name;
  const server = runProcess(process.execPath, [join(dir, c.file)], { env });
  const close = async () => {
    server.child.kill();
    await server.done;
  };
  // The server prints one line when it listens; an exit before that is the corpus refusing the name.
  const listening = await new Promise<boolean>((resolve) => {
    server.child.stdout!.once('data', () => resolve(true));
    server.child.once('exit', () => resolve(false));
  });
  if (!listening) {
    const result = await server.done;
    throw new Error(`${c.file} ${c.kind}=${c.name} did not start (exit ${result.code}): ${result.output.slice(0, 500)}`);
  }
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close };
}

/**
 * Starts the case's deployment (each case a fresh server, as the README asks), runs the built
 * `pets-conformance` against it, stops the server, and gives the command's result.
 */
export async function runCorpusCase(c: CorpusCase, reportDir: string, dir = corpusDir()): Promise<ProcessResult> {
  const server = await startCorpusCase(c, dir);
  try {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(PETS_|GITHUB_)/.test(k)));
    return await runProcess(process.execPath, [projectPath('dist', 'conformance', 'bin.js'), ...gateArgs(server.baseUrl, reportDir)], { cwd: projectPath(), env: inherited }).done;
  } finally {
    await server.close();
  }
}
