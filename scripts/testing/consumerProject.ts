// A consumer project in a fresh folder, as a stranger's: commands run in it, the installed
// `pets-mock` started in it, and every entry point of the package loaded from it.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface ConsumerProject {
  dir: string;
  /** Runs a command in the project; resolves with its exit code and output once it has closed. */
  run(command: string, args: string[], env?: Record<string, string | undefined>): Promise<{ code: number | null; output: string }>;
  /** Starts the installed `pets-mock` on a free port; resolves with its base URL once it serves. */
  startMock(): Promise<string>;
  /** Stops what it started. */
  close(): void;
}

export function consumerProject(dir: string): ConsumerProject {
  const children: ChildProcess[] = [];
  return {
    dir,
    run(command, args, env = {}) {
      const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined));
      const child = spawn(command, args, { cwd: dir, env: merged });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
    },
    startMock() {
      const child = spawn(join(dir, 'node_modules/.bin/pets-mock'), [], { cwd: dir, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
      children.push(child);
      let output = '';
      return new Promise((resolve, reject) => {
        child.stdout.on('data', (c) => {
          output += c;
          const match = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(output);
          if (match) resolve(match[1]!);
        });
        child.stderr.on('data', (c) => (output += c));
        child.on('close', (code) => reject(new Error(`pets-mock exited with ${code}: ${output}`)));
      });
    },
    close() {
      for (const child of children) child.kill('SIGKILL');
    },
  };
}

/** The package's code entry points, as `exports` names them. */
export const codeEntries = ['mock', 'conformance', 'msw', 'playwright', 'vite', 'types'] as const;

/**
 * Loads every code entry point in the project, from an ES module and from CommonJS (`require()` of
 * an ES module, which Node loads from 20.19), and the data entries; prints what each exports.
 */
export async function loadEveryEntry(project: ConsumerProject): Promise<{ esm: Record<string, string[]>; cjs: Record<string, string[]>; data: Record<string, number> }> {
  const names = JSON.stringify(codeEntries);
  await writeFile(join(project.dir, 'entries.mjs'), `
    import { readFileSync } from 'node:fs';
    import { createRequire } from 'node:module';
    const require = createRequire(import.meta.url);
    const esm = {}, cjs = {}, data = {};
    for (const name of ${names}) esm[name] = Object.keys(await import('pet-adoption-toolkit/' + name)).sort();
    for (const name of ${names}) cjs[name] = Object.keys(require('pet-adoption-toolkit/' + name)).filter((k) => k !== 'module.exports' && k !== '__esModule').sort();
    for (const name of ['openapi.yaml', 'conformance-config.schema.json', 'package.json']) data[name] = readFileSync(require.resolve('pet-adoption-toolkit/' + name)).length;
    console.log(JSON.stringify({ esm, cjs, data }));
  `);
  const loaded = await project.run(process.execPath, ['entries.mjs']);
  if (loaded.code !== 0) throw new Error(`Loading the entry points failed (exit ${loaded.code}): ${loaded.output}`);
  return JSON.parse(loaded.output.trim().split('\n').at(-1)!);
}
