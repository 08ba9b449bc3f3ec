// The package's entry points as a bundler resolves them through package.json's `exports`: for a
// browser (the `browser` condition) and for Node. The package is installed into a folder of the
// test's own as its build would be, with each `dist/<path>.js` its source `<path>.ts` (the build is
// tsc's one-to-one compile), so that esbuild resolves the real export map with no build first.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectPath } from '../projectRoot.ts';

type Exports = Record<string, string | Record<string, unknown>>;
const pkg = JSON.parse(await readFile(projectPath('package.json'), 'utf8')) as { exports: Exports };
/** The entries a browser must not run, and the sentence each one throws. */
const nodeOnly: Record<string, RegExp> = {
  playwright: /^pet-adoption-toolkit\/playwright runs in the Node process that drives Playwright, .*use pet-adoption-toolkit\/vite\.$/,
  vite: /^pet-adoption-toolkit\/vite is a Vite plugin, .*: import it in vite\.config\.ts only, .*\.$/,
  mock: /^pet-adoption-toolkit\/mock builds the mock server in Node, .*use pet-adoption-toolkit\/vite, or run `npx pets-mock` beside the page\.$/,
  conformance: /^pet-adoption-toolkit\/conformance runs the conformance suite in Node, .*run `npx pets-conformance` .*\.$/,
};

let consumer: string;
beforeAll(async () => {
  consumer = await mkdtemp(join(tmpdir(), 'pets-bundler-'));
  const installed = join(consumer, 'node_modules/pet-adoption-toolkit');
  await mkdir(installed, { recursive: true });
  await writeFile(join(installed, 'package.json'), JSON.stringify({ ...pkg, exports: JSON.parse(JSON.stringify(pkg.exports).replace(/"\.\/dist\/([^"]+)\.js"/g, '"./$1.ts"')) }));
  for (const folder of ['common', 'mock', 'spec', 'conformance', 'fixtures']) await symlink(projectPath(folder), join(installed, folder));
});
afterAll(() => rm(consumer, { recursive: true, force: true }));

/** Bundles `code` (which imports the package) as a consumer's file; returns the bundle and the files it took in. */
async function bundle(code: string, options: BuildOptions) {
  const result = await build({ stdin: { contents: code, resolveDir: consumer, loader: 'js' }, absWorkingDir: consumer, bundle: true, write: false, metafile: true, logLevel: 'silent', ...options });
  return { code: result.outputFiles![0]!.text, inputs: Object.keys(result.metafile!.inputs).filter((input) => input !== '<stdin>') };
}
const forBrowser: BuildOptions = { platform: 'browser', conditions: ['browser'], format: 'iife' };

describe('the package\'s entry points in a browser bundle (the `browser` export condition)', () => {
  it.each(Object.keys(nodeOnly))('pet-adoption-toolkit/%s bundles, and throws at import one sentence naming what to use instead', async (entry) => {
    const { code, inputs } = await bundle(`import * as entry from 'pet-adoption-toolkit/${entry}'; globalThis.loaded = entry;`, forBrowser);
    expect(inputs.every((input) => input.includes('common/browserEntries/')), inputs.join(', ')).toBe(true);
    // A context with none of Node's globals, as a page has none.
    expect(() => runInNewContext(code, {})).toThrow(nodeOnly[entry]!);
  });

  it('pet-adoption-toolkit/msw bundles from the framework-free core, with the contract and fixtures inside and no Node module', async () => {
    const { inputs } = await bundle(`import { createPetsHandlers, MockControlError } from 'pet-adoption-toolkit/msw'; globalThis.entry = { createPetsHandlers, MockControlError };`, { ...forBrowser, external: ['msw'] });
    expect(inputs.filter((input) => input.startsWith('node:') || /(^|\/)(fastify|@fastify|@stoplight|pino|ioredis|commander)\//.test(input))).toEqual([]);
    for (const part of ['mock/core/createMockCore.ts', 'spec/generated/openapiDocument.ts', 'fixtures/generated/fixtureData.ts']) expect(inputs.some((input) => input.endsWith(part)), part).toBe(true);
  });

  it('the browser module of pet-adoption-toolkit/msw exports the names the Node one exports', async () => {
    const targets = pkg.exports['./msw'] as Record<string, string>;
    const exportsOf = async (target: string) => {
      const source = projectPath(target.replace(/^\.\/dist\/(.+)\.js$/, '$1.ts'));
      const { metafile } = await build({ entryPoints: [source], absWorkingDir: projectPath(), bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
      return Object.values(metafile.outputs)[0]!.exports.sort();
    };
    expect(await exportsOf(targets.browser!)).toEqual(await exportsOf(targets.node!));
  });

  it('pet-adoption-toolkit/types bundles with no node: import, and runs', async () => {
    const { code, inputs } = await bundle(`import { petStatuses } from 'pet-adoption-toolkit/types'; globalThis.statuses = petStatuses.join();`, forBrowser);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    const page: { statuses?: string } = {};
    runInNewContext(code, page);
    expect(page.statuses).toBe('available,pending,sold');
  });

  it('maps every entry point a page could import: each one either runs there or has a browser module', () => {
    const browserOnes = Object.entries(pkg.exports).filter(([, target]) => typeof target === 'object' && 'browser' in target).map(([entry]) => entry);
    const modules = Object.keys(pkg.exports).filter((entry) => !/\.(ya?ml|json)$/.test(entry));
    expect(browserOnes.sort()).toEqual(modules.sort());
  });

  it.each(Object.keys(nodeOnly))('the browser module of pet-adoption-toolkit/%s exports the names the entry exports, so that importing any of them bundles', async (entry) => {
    const targets = pkg.exports[`./${entry}`] as Record<string, string>;
    /** The names a module exports, read by esbuild from the source the export map's `dist/<path>.js` is built from. */
    const exportsOf = async (target: string) => {
      const source = projectPath(target.replace(/^\.\/dist\/(.+)\.js$/, '$1.ts'));
      const { metafile } = await build({ entryPoints: [source], absWorkingDir: projectPath(), bundle: true, platform: 'node', format: 'esm', packages: 'external', write: false, metafile: true, logLevel: 'silent' });
      return Object.values(metafile.outputs)[0]!.exports.sort();
    };
    const [browser, node] = [await exportsOf(targets.browser!), await exportsOf(targets.node!)];
    expect(node.length).toBeGreaterThan(0);
    expect(browser, `${targets.browser} must export what ${targets.node} exports`).toEqual(node);
  });
});

describe('the package\'s entry points for Node', () => {
  it.each([...Object.keys(nodeOnly), 'msw'])('pet-adoption-toolkit/%s is the Node module under Node\'s conditions', async (entry) => {
    const { inputs } = await bundle(`import 'pet-adoption-toolkit/${entry}';`, { platform: 'node', format: 'esm', packages: 'external' });
    expect(inputs.some((input) => input.includes('common/browserEntries/')), inputs.join(', ')).toBe(false);
  });
});
