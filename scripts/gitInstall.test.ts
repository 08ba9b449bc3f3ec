// The package installed the way `npm install git+https://…` installs it: npm clones the repository,
// installs its dependencies, runs its `prepare` script (which builds `dist/`) and packs it by its
// `files`. Here from this clone's committed HEAD over git+file, in a fresh folder; then both bins
// and every entry point, as from the registry's tarball.
import { execFile } from 'node:child_process';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeEntries, consumerProject, loadEveryEntry, type ConsumerProject } from './testing/consumerProject.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
let project: ConsumerProject;

beforeAll(async () => {
  project = consumerProject(await mkdtemp(join(tmpdir(), 'pets-git-consumer-')));
  const { stdout: head } = await run('git', ['rev-parse', 'HEAD'], { cwd: root });
  await writeFile(join(project.dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // With the optional peers a user of ./msw, ./playwright and ./vite installs beside it.
  const installed = await project.run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `git+file://${root}#${head.trim()}`, 'msw@2', 'playwright-core', 'vite']);
  if (installed.code !== 0) throw new Error(`npm install from git failed: ${installed.output}`);
}, 600_000);

afterAll(async () => {
  project?.close();
  if (project) await rm(project.dir, { recursive: true, force: true });
});

describe('the package installed from a git URL', () => {
  it('has dist/ built by its prepare script, and both bins', async () => {
    for (const file of ['dist/mock/bin.js', 'dist/conformance/bin.js', 'dist/mock/index.d.ts']) await access(join(project.dir, 'node_modules/pet-adoption-toolkit', file));
    await access(join(project.dir, 'node_modules/.bin/pets-mock'));
    await access(join(project.dir, 'node_modules/.bin/pets-conformance'));
  });

  it('serves the default fixtures with npx pets-mock, and npx pets-conformance passes it', async () => {
    const base = await project.startMock();
    expect((await fetch(`${base}/pets`)).status).toBe(401);
    const suite = await project.run('npx', ['--no-install', 'pets-conformance', '--base-url', base, '--api-key', 'demo-pro', '--report-dir', join(project.dir, 'reports')]);
    expect(suite.code, suite.output).toBe(0);
  }, 120_000);

  it('loads every entry point from an ES module and from CommonJS', async () => {
    const { esm, cjs, data } = await loadEveryEntry(project);
    for (const name of codeEntries) {
      expect(esm[name]!.length, name).toBeGreaterThan(0);
      expect(cjs[name], name).toEqual(esm[name]);
    }
    expect(esm.mock).toContain('buildMock');
    expect(esm.conformance).toContain('runConformance');
    expect(Object.values(data).every((size) => size > 0)).toBe(true);
  });
});
