// The frontend guide's Jest configuration (docs/frontend.md), run for real: the adapters built as the package ships them, a
// consumer project with the guide's jest.config.js and jest.setup.js, and the guide's Vitest
// example as its test, in Jest's ESM mode, in the jsdom and the node environments (jest,
// jest-environment-jsdom and jest-fixed-jsdom installed into the consumer). The example never closes its
// mock, and Jest, unlike Vitest, waits for the event loop to empty: the run also proves that an
// open mock holds nothing that keeps a process alive. Slow (about 50 s on two cores, two thirds of
// it the tsc build of the package).
import type { ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '../common/projectRoot.ts';
import { runProcess } from '../common/testing/runProcess.ts';

/** What Jest prints when its tests are done and something still holds the event loop; it then waits for ever. */
const jestHeld = 'Jest did not exit one second after the test run has completed';

// A run that hangs in another way is ended with its test (by the timeout), not left behind.
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

async function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const { child, done } = runProcess(command, args, { cwd });
  running.add(child);
  let seen = '';
  const watch = (chunk: Buffer) => {
    seen += chunk;
    // No need to wait for the test's timeout: the run fails now, saying why.
    if (seen.includes(jestHeld)) child.kill('SIGKILL');
  };
  child.stdout!.on('data', watch);
  child.stderr!.on('data', watch);
  const { code, output } = await done;
  running.delete(child);
  return { code, output };
}

/** The frontend guide's ```js blocks under "### Jest" (docs/frontend.md), by the file their first line names. */
async function readmeJestFiles(): Promise<Record<string, string>> {
  const readme = await readFile(projectPath('docs', 'frontend.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Jest\n'), readme.indexOf('\n### ', readme.indexOf('### Jest\n') + 1));
  const files: Record<string, string> = {};
  for (const [, code] of section.matchAll(/```js\n([\s\S]*?)```/g)) files[/^\/\/ ([\w.-]+\.js)/.exec(code!)![1]!] = code!;
  return files;
}

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'pets-jest-'));
  // The package: the build as `npm run build` makes it (with declarations), the spec and fixtures.
  const pkg = join(root, 'pet-adoption-toolkit');
  const built = await run(process.execPath, [projectPath('node_modules', 'typescript', 'bin', 'tsc'), '-p', projectPath('tsconfig.build.json'), '--outDir', join(pkg, 'dist'), '--tsBuildInfoFile', join(pkg, 'dist', '.tsbuildinfo')], projectPath());
  if (built.code !== 0) throw new Error(`The build failed: ${built.output}`);
  await cp(projectPath('spec', 'openapi.yaml'), join(pkg, 'spec', 'openapi.yaml'));
  for (const file of ['pets.json', 'keys.json']) await cp(projectPath('fixtures', file), join(pkg, 'fixtures', file));
  await writeFile(join(pkg, 'package.json'), JSON.stringify({ name: 'pet-adoption-toolkit', type: 'module', exports: { './msw': './dist/mock/adapters/msw.js', './playwright': './dist/mock/adapters/playwright.js' } }));
  await symlink(projectPath('node_modules'), join(pkg, 'node_modules'), 'dir');
  // The consumer: the guide's configuration and the guide's example without its vitest import.
  const consumer = join(root, 'consumer');
  await mkdir(join(consumer, 'node_modules'), { recursive: true });
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Jest is installed into the consumer as a user would: it is no dependency of this repository,
  // whose lock file must install on every platform (some of Jest's optional native packages are
  // not on every registry mirror).
  const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-save', 'jest@30', 'jest-environment-jsdom@30', 'jest-fixed-jsdom@0.0.11'], consumer);
  if (installed.code !== 0) throw new Error(`npm could not install Jest: ${installed.output}`);
  const links: [string, string][] = [['pet-adoption-toolkit', pkg], ['msw', projectPath('node_modules', 'msw')]];
  for (const [name, target] of links) await symlink(target, join(consumer, 'node_modules', name), 'dir');
  for (const [name, code] of Object.entries(await readmeJestFiles())) await writeFile(join(consumer, name), code);
  const example = await readFile(projectPath('mock', 'adapters', 'examples', 'petsApi.msw.test.ts'), 'utf8');
  await writeFile(join(consumer, 'pets.test.js'), example.split('\n').filter((line) => !line.includes("from 'vitest'")).join('\n').replace("'../msw.ts'", "'pet-adoption-toolkit/msw'").replace('(key: string)', '(key)'));
}, 180_000);
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('the frontend guide\'s Jest configuration', () => {
  it('has a jest.config.js and a jest.setup.js', async () => {
    expect(Object.keys(await readmeJestFiles()).sort()).toEqual(['jest.config.js', 'jest.setup.js']);
  });

  for (const environment of ['jest-fixed-jsdom', 'node']) {
    it(`runs the Vitest example under Jest in ESM mode, in the ${environment} environment`, async () => {
      const consumer = join(root, 'consumer');
      const jest = join(consumer, 'node_modules', 'jest', 'bin', 'jest.js');
      const { code, output } = await run(process.execPath, ['--experimental-vm-modules', jest, '--ci', `--testEnvironment=${environment}`], consumer);
      expect(output, 'Jest passed, then something (a worker, a timer, a socket) kept it from exiting').not.toContain(jestHeld);
      expect(code, output).toBe(0);
      expect(output).toMatch(/Tests:\s+7 passed, 7 total/);
    }, 120_000);
  }
});
