import { configDefaults, defineConfig } from 'vitest/config';
import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with the plain 'N passed, N failed, N skipped' line that CI logs are read by. */
const countsLine: Reporter = {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  },
};

/** Where the tests of `npm test` live (bench/ holds the bench tier, scripts/ the package tier). */
const folders = '{common,spec,mock,conformance,fixtures,docs}';

// `npm test` runs the 'tests' project: every unit and Redis (a redis-server per test file) test, in
// two workers, beside the type-check (scripts in package.json); the browser tests and the parity
// suite are the 'hosts' project (`npm run test:hosts`). `npm run test:unit` and `test:redis` are the
// 'tests' project filtered by file name. Timeouts only catch hangs: no test depends on how fast the machine is.
const source = (path: string) => new URL(path, import.meta.url).pathname;

export default defineConfig({
  resolve: {
    // The package's published entry points, as the tests import them, are the sources here.
    alias: [
      { find: /^pet-adoption-toolkit\/types$/, replacement: source('./spec/types.ts') },
      { find: /^pet-adoption-toolkit\/mock$/, replacement: source('./mock/index.ts') },
      { find: /^pet-adoption-toolkit\/conformance$/, replacement: source('./conformance/index.ts') },
      { find: /^pet-adoption-toolkit\/msw$/, replacement: source('./mock/adapters/msw.ts') },
      { find: /^pet-adoption-toolkit\/playwright$/, replacement: source('./mock/adapters/playwright.ts') },
      { find: /^pet-adoption-toolkit\/vite$/, replacement: source('./mock/adapters/vite.ts') },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // One per core: on two cores a third worker costs more (its own module loading and JIT
    // warm-up) than it overlaps.
    maxWorkers: 2,
    reporters: ['default', countsLine],
    projects: [
      // Two workers, each with a module cache every file it runs shares (no module-level state
      // anywhere: every test builds its own mock), so fastify, Ajv, Playwright and the spec are
      // loaded, and the JIT warmed on them, once per worker. The type-check runs beside them.
      // Soak tests (`*.soak.test.ts`: many whole runs in a row, minutes each), the hostile
      // deployments (`*.hostile.test.ts`: runs that must wait out stalls and timeouts in real time),
      // the catalogues and the corpus are tiers of their own, never in `npm test`.
      { extends: true, test: { name: 'tests', include: [`${folders}/**/*.test.ts`], exclude: [...configDefaults.exclude, '**/*.soak.test.ts', '**/*.hostile.test.ts', '**/*.hosts.test.ts', '**/*.browser.test.ts', '**/*.corpus.test.ts', '**/*.catalogue.test.ts'], isolate: false } },
      // The hosts end to end, in real browsers and processes: the parity suite (`*.hosts.test.ts`:
      // one script through every host, a Vite-built page in Chromium among them, answers and client
      // reports compared byte for byte), MSW's host in a script of its own, and every test a page in
      // Debian's Chromium runs (`*.browser.test.ts`: CORS as a browser enforces it, Playwright
      // routing, the guide's page, the HTML report's first screen). Chromium's seconds per page are
      // most of their time, so they are a tier of their own that `.ci/run` runs right after
      // `npm test`; `npm test` keeps each host's in-process tests and the core-against-fastify and
      // Node-against-fastify parity tests.
      { extends: true, test: { name: 'hosts', include: [`${folders}/**/*.hosts.test.ts`, `${folders}/**/*.browser.test.ts`] } },
      { extends: true, test: { name: 'soak', include: [`${folders}/**/*.soak.test.ts`] } },
      // Runs against deployments that stall, flood and lie about framing, over real sockets with
      // real timeouts: each ends with its verdict and reports, within its time and memory bounds.
      { extends: true, test: { name: 'hostile', include: [`${folders}/**/*.hostile.test.ts`], testTimeout: 120_000 } },
      // The benchmark harness run end to end in smoke mode (no figures: those come from `npm run bench`).
      { extends: true, test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      // The suite's power: whole gate runs against every regression and legal variant of its own
      // catalogues (conformance/testing/), in process on the mock's clock.
      { extends: true, test: { name: 'catalogues', include: ['conformance/**/*.catalogue.test.ts'], testTimeout: 120_000 } },
      // The gate against every deployment of the shared corpus (`../shared/corpus/`), each a fresh
      // server and a run of the built command: ten at once, as each run mostly waits (on its server,
      // and with the probe on, for its last 429's Retry-After before one more request).
      { extends: true, test: { name: 'corpus', include: ['conformance/**/*.corpus.test.ts'], maxConcurrency: 10, testTimeout: 300_000 } },
      // The package as a stranger gets it: `npm pack` installed into an empty project, the README's examples run there against
      // each msw and playwright-core release of the peer ranges (docs/testing.md), the README's Jest setup run on a build, and
      // every command and workflow the docs print run as printed (scripts/docsRunAsPrinted.test.ts).
      // One file at a time: Jest's own 5 s test timeout must not meet a machine busy with the other file.
      { extends: true, test: { name: 'package', include: ['scripts/*.test.ts'], fileParallelism: false } },
    ],
  },
});
