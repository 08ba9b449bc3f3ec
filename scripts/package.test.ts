// The package as a stranger gets it: `npm pack`, installed into an empty project, used only through
// its documented names (bins, entry points, types) from plain Node with no TypeScript loader.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
let project: string;
let tarballFiles: string[];
const children: ChildProcess[] = [];

/** Runs a command in the consumer project; resolves with its exit code and output once it has closed. */
function inProject(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd: project, env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

/** Starts the installed `pets-mock` on a free port; resolves with its base URL once it serves. */
function startInstalledMock(): Promise<string> {
  const child = spawn(join(project, 'node_modules/.bin/pets-mock'), [], { cwd: project, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
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
}

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'pets-consumer-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: root, maxBuffer: 1 << 24 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarballFiles = packed!.files.map((f) => f.path);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(project, packed!.filename), 'typescript@5'], { cwd: project, maxBuffer: 1 << 24 });
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships compiled JavaScript, declarations, the spec, the fixtures, the README and the licence, and no tests, bench or TypeScript sources', () => {
    expect(tarballFiles).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'spec/openapi.yaml', 'fixtures/pets.json', 'fixtures/keys.json', 'dist/mock/bin.js', 'dist/conformance/bin.js', 'dist/spec/types.d.ts', 'dist/mock/index.d.ts', 'dist/conformance/index.d.ts']));
    expect(tarballFiles.filter((f) => /\.test\.|(^|\/)testing(\/|\.)|^bench\/|^scripts\//.test(f))).toEqual([]);
    expect(tarballFiles.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('serves the default fixtures with npx pets-mock, and npx pets-conformance passes it', async () => {
    const base = await startInstalledMock();
    const anonymous = await fetch(`${base}/pets`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401 });
    const listed = await fetch(`${base}/pets?limit=100`, { headers: { authorization: 'Bearer demo-pro' } });
    expect(((await listed.json()) as unknown[]).length).toBe(100);
    const suite = await inProject(join(project, 'node_modules/.bin/pets-conformance'), ['--base-url', base, '--api-key', 'demo-pro', '--report-dir', join(project, 'reports')]);
    expect(suite.code, suite.output).toBe(0);
  });

  it.each(['node16', 'nodenext', 'bundler'])('type-checks the four contract types under moduleResolution %s', async (resolution) => {
    await writeFile(join(project, 'types.ts'), [
      "import type { Pet, NewPet, PetStatus, ErrorBody } from 'pet-adoption-toolkit/types';",
      "export const pet: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' satisfies PetStatus };",
      "export const draft: NewPet = { name: 'Rex', categoryId: 1 };",
      "export const error: ErrorBody = { code: 'X', message: 'y', status: 400 };",
    ].join('\n'));
    const module = resolution === 'bundler' ? 'esnext' : resolution;
    const check = await inProject(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--module', module, '--moduleResolution', resolution, 'types.ts']);
    expect(check.code, check.output).toBe(0);
  });

  it('imports buildMock and runConformance from plain Node and runs the suite against the mock in-process', async () => {
    await writeFile(join(project, 'use.mjs'), `
      import { buildMock } from 'pet-adoption-toolkit/mock';
      import { runConformance } from 'pet-adoption-toolkit/conformance';
      const app = await buildMock();
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const unauthorized = await app.inject({ url: '/v1/pets' });
      const result = await runConformance({ baseUrl: base + '/v1', apiKey: 'demo-pro' });
      await app.close();
      console.log(JSON.stringify({ unauthorized: unauthorized.statusCode, exitCode: result.exitCode }));
    `);
    const used = await inProject(process.execPath, ['use.mjs']);
    expect(used.code, used.output).toBe(0);
    expect(JSON.parse(used.output.trim().split('\n').at(-1)!)).toEqual({ unauthorized: 401, exitCode: 0 });
  });
});

describe('the package metadata', () => {
  it('needs no TypeScript loader or test tool at run time', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; private?: boolean };
    expect(pkg.private).toBeUndefined();
    for (const devOnly of ['tsx', 'typescript', 'vitest', 'autocannon', 'playwright-core', 'msw', 'ctrf']) expect(pkg.dependencies).not.toHaveProperty(devOnly);
  });
});
