// The package as a stranger gets it: `npm pack`, installed into an empty project, used only through
// its documented names (bins, entry points, types) from plain Node with no TypeScript loader.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../common/testing/freePort.ts';
import { consumerProject, type ConsumerProject } from './testing/consumerProject.ts';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;
let project: string;
let tarballFiles: string[];

/** The consumer project's commands and its installed pets-mock (scripts/testing/consumerProject.ts). */
let consumer: ConsumerProject;
const inProject: ConsumerProject['run'] = (command, args, env) => consumer.run(command, args, env);
const startInstalledMock = () => consumer.startMock();

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'pets-consumer-'));
  consumer = consumerProject(project);
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: root, maxBuffer: 1 << 24 });
  const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  tarballFiles = packed!.files.map((f) => f.path);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // Vitest, and the types of the Node that runs this, for the MSW example below, as the README's reader has them.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(project, packed!.filename), 'typescript@5', 'vitest@4', 'vite@8', `@types/node@${process.versions.node.split('.')[0]}`], { cwd: project, maxBuffer: 1 << 24 });
}, 420_000);

afterAll(async () => {
  consumer?.close();
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

  it('stops the mock started in the background with npx when the recipe kills what $! names, freeing its port', async () => {
    const port = await freePort();
    const recipe = [
      `npx pets-mock --port ${port} > mock.log 2>&1 &`,
      'MOCK_PID=$!',
      // Up to 60 s for npx to start it on a busy machine.
      `for i in $(seq 1 600); do curl -s -o /dev/null http://127.0.0.1:${port}/v1/pets && break; sleep 0.1; done`,
      `curl -s -o /dev/null -w 'up %{http_code}\n' http://127.0.0.1:${port}/v1/pets`,
      'kill $MOCK_PID',
      // Up to 30 s for the mock to see its parent gone and finish its shutdown.
      `for i in $(seq 1 300); do curl -s -o /dev/null http://127.0.0.1:${port}/v1/pets || break; sleep 0.1; done`,
      `curl -s -o /dev/null -w 'after %{http_code}\n' http://127.0.0.1:${port}/v1/pets || true`,
    ].join('\n');
    const ran = await inProject('bash', ['-c', recipe]);
    expect(ran.output).toContain('up 401');
    expect(ran.output).toContain('after 000');
  }, 60_000);

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

// The peer ranges, each end of them: the README's examples (mock/adapters/examples/, importing the
// package's `./msw` and `./playwright`) run with Vitest in the consumer against each release below,
// and a TypeScript file using the adapter type-checked against that release's own declarations.
// msw: `^2.7.0 || ^3.0.0`, the oldest release the range allows, the newest 2.x and the newest 3.x; the
// MSW example intercepts every fetch it makes (nothing listens at its address, and an unhandled
// request is an error). msw 3 needs Node 22.12 (on Node 20 its first intercepted request fails with
// "Promise.withResolvers is not a function"): on an older Node its example runs on Node 22 from the
// npm registry (scripts/withNode.mjs), so no case is skipped; `.ci/run` runs this tier on Node 22 too. playwright-core: `>=1.40.0`, its
// oldest release, driving Debian's Chromium (the newest is the one the browser tier runs).
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number) as [number, number];
const peerReleases = [
  { spec: 'msw@2.7.0', what: 'the oldest msw the range allows', adapter: 'msw', node: [20, 19] },
  { spec: 'msw@2', what: 'the newest msw 2.x', adapter: 'msw', node: [20, 19] },
  { spec: 'msw@3', what: 'the newest msw 3.x', adapter: 'msw', node: [22, 12] },
  { spec: 'playwright-core@1.40.0', what: 'the oldest playwright-core the range allows', adapter: 'playwright', node: [20, 19] },
] as const;

const examples = { msw: 'petsApi.msw.test.ts', playwright: 'petsPage.browser.test.ts' };
/** What a consumer writes with each adapter: type-checked, not run. */
const typed = {
  msw: [
    "import { http, HttpResponse, type RequestHandler } from 'msw';",
    "import { setupServer } from 'msw/node';",
    "import { createPetsHandlers, type PetsHandlers, type PetsMock } from 'pet-adoption-toolkit/msw';",
    'const built: PetsHandlers = await createPetsHandlers({ control: false });',
    "const own: RequestHandler[] = [...built.handlers, http.get('https://example.test/', () => HttpResponse.json({ ok: true }))];",
    'export const server = setupServer(...own);',
    'export const mock: PetsMock = built.mock;',
  ],
  playwright: [
    "import { chromium } from 'playwright-core';",
    "import { routePetsMock, type PetsMock } from 'pet-adoption-toolkit/playwright';",
    'const browser = await chromium.launch();',
    'const context = await browser.newContext();',
    'export const forContext: PetsMock = await routePetsMock(context);',
    "export const forPage: PetsMock = await routePetsMock(await context.newPage(), { baseUrl: 'http://127.0.0.1:4011/v1' });",
  ],
};

describe('the adapters on each release the peer ranges allow', () => {
  const tests: Record<string, number> = {};
  beforeAll(async () => {
    for (const [adapter, file] of Object.entries(examples)) {
      const example = await readFile(join(root, 'mock/adapters/examples', file), 'utf8');
      tests[adapter] = example.match(/^it\(/gm)?.length ?? 0;
      await writeFile(join(project, file), example.replace(`'../${adapter}.ts'`, `'pet-adoption-toolkit/${adapter}'`));
      await writeFile(join(project, `${adapter}.ts`), typed[adapter as keyof typeof typed].join('\n'));
    }
  });

  for (const { spec, what, adapter, node } of peerReleases) {
    const runsHere = nodeMajor > node[0] || (nodeMajor === node[0] && nodeMinor >= node[1]);
    // The Node that runs the example: this one, or that major's newest from the registry.
    const onNode = (args: string[]): [string, string[]] => (runsHere ? [process.execPath, args] : [process.execPath, [join(root, 'scripts/withNode.mjs'), String(node[0]), 'node', ...args]]);
    it(`${spec} (${what}; needs Node >= ${node.join('.')}): the guide's example passes, and the adapter type-checks`, async () => {
      await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', spec], { cwd: project, maxBuffer: 1 << 24 });
      const [name, range] = [spec.slice(0, spec.lastIndexOf('@')), spec.slice(spec.lastIndexOf('@') + 1)];
      const { version } = JSON.parse(await readFile(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
      expect(range.includes('.') ? version : version.split('.')[0], `installed ${name} ${version}`).toBe(range);

      // The outer Vitest's variables (VITEST, VITEST_POOL_ID, NODE_ENV…) are not the consumer's.
      const outer = Object.fromEntries(Object.keys(process.env).filter((key) => key.startsWith('VITEST') || key === 'NODE_ENV' || key === 'TEST').map((key) => [key, undefined]));
      const vitest = await inProject(...onNode([join(project, 'node_modules/vitest/vitest.mjs'), 'run', examples[adapter]]), { ...outer, NO_COLOR: '1' });
      expect(vitest.code, `${name} ${version}: ${vitest.output}`).toBe(0);
      expect(tests[adapter]).toBeGreaterThan(0);
      expect(vitest.output, `${name} ${version}: ${vitest.output}`).toMatch(new RegExp(`Tests\\s+${tests[adapter]} passed \\(${tests[adapter]}\\)`));

      const check = await inProject(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', `${adapter}.ts`]);
      expect(check.code, `${name} ${version}: ${check.output}`).toBe(0);
    }, 120_000);
  }
});

describe('the package metadata', () => {
  it('needs no TypeScript loader or test tool at run time', async () => {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; private?: boolean };
    expect(pkg.private).toBeUndefined();
    for (const devOnly of ['tsx', 'typescript', 'vitest', 'autocannon', 'playwright-core', 'msw', 'vite', 'ctrf']) expect(pkg.dependencies).not.toHaveProperty(devOnly);
  });
});

// The Vite plugin in a consumer's Vite (vite@8, which Vitest 4 brings anyway), and the entries as a
// browser bundler resolves them (the `browser` export condition) from the installed package.
describe('the package in a Vite project', () => {
  it('serves the mock through a Vite dev server with pet-adoption-toolkit/vite, and the plugin type-checks in a vite.config.ts', async () => {
    await writeFile(join(project, 'vite.config.ts'), [
      "import { defineConfig } from 'vite';",
      "import petsMock from 'pet-adoption-toolkit/vite';",
      "export default defineConfig({ plugins: [petsMock({ prefix: '/api', latency: { minMs: 0, maxMs: 0 } })] });",
    ].join('\n'));
    await writeFile(join(project, 'index.html'), '<!doctype html><p>the consumer page</p>');
    await writeFile(join(project, 'dev.mjs'), `
      import { createServer } from 'vite';
      import petsMock from 'pet-adoption-toolkit/vite';
      const server = await createServer({ configFile: false, root: process.cwd(), logLevel: 'silent', server: { port: 0, host: '127.0.0.1', watch: null }, plugins: [petsMock({ prefix: '/api' })] });
      await server.listen();
      const origin = 'http://127.0.0.1:' + server.httpServer.address().port;
      const listed = await fetch(origin + '/api/v1/pets?limit=3', { headers: { authorization: 'Bearer demo-pro' } });
      const anonymous = await fetch(origin + '/api/v1/pets');
      const reset = await fetch(origin + '/api/__mock/reset', { method: 'POST' });
      const page = await fetch(origin + '/');
      const seen = { listed: [listed.status, (await listed.json()).length, listed.headers.get('x-ratelimit-limit')], anonymous: [anonymous.status, (await anonymous.json()).code], reset: reset.status, page: (await page.text()).includes('the consumer page') };
      await server.close();
      console.log(JSON.stringify(seen));
    `);
    const served = await inProject(process.execPath, ['dev.mjs']);
    expect(served.code, served.output).toBe(0);
    expect(JSON.parse(served.output.trim().split('\n').at(-1)!)).toEqual({ listed: [200, 3, '300'], anonymous: [401, 'UNAUTHORIZED'], reset: 200, page: true });
    const check = await inProject(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', 'vite.config.ts']);
    expect(check.code, check.output).toBe(0);
  }, 60_000);

  it('bundles for a browser: /msw from the framework-free core, the Node-only entries throwing at import naming what to use instead, /types with no node: import', async () => {
    const forBrowser = async (code: string, external: string[] = []) => {
      const result = await build({ stdin: { contents: code, resolveDir: project, loader: 'js' }, absWorkingDir: project, bundle: true, write: false, metafile: true, logLevel: 'silent', platform: 'browser', conditions: ['browser'], format: 'iife', external });
      return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
    };
    for (const entry of ['playwright', 'vite', 'mock', 'conformance']) {
      const { code } = await forBrowser(`import * as entry from 'pet-adoption-toolkit/${entry}'; globalThis.entry = entry;`);
      expect(() => runInNewContext(code, {}), entry).toThrow(new RegExp(`^pet-adoption-toolkit/${entry} .*, not in a browser( page)?: .+\\.$`));
    }
    // The packed package's browser build of /msw: the core, the bundled contract, no Node module.
    const msw = await forBrowser(`import { createPetsHandlers } from 'pet-adoption-toolkit/msw'; globalThis.create = createPetsHandlers;`, ['msw']);
    expect(msw.inputs.filter((input) => input.startsWith('node:') || /node_modules\/(fastify|@stoplight|pino|ioredis|commander)\//.test(input))).toEqual([]);
    expect(msw.inputs.some((input) => input.endsWith('dist/mock/core/createMockCore.js'))).toBe(true);
    const types = await forBrowser(`import { petStatuses } from 'pet-adoption-toolkit/types'; globalThis.statuses = petStatuses.join();`);
    expect(types.inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    const page: { statuses?: string } = {};
    runInNewContext(types.code, page);
    expect(page.statuses).toBe('available,pending,sold');
  });
});
