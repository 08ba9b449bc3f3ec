import { defineConfig } from 'vitest/config';
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

const folders = '{common,spec,mock,conformance,fixtures,bench}';

// Tiers a contributor can run alone: `npm run test:unit`, `test:browser` (Chromium), `test:redis`
// (a redis-server per test file). `npm test` runs them all. Timeouts only catch hangs: no test
// depends on how fast the machine is.
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
    ],
  },
  test: {
    testTimeout: 30_000,
    // More workers than the machine's two cores overlap the files that wait on a child process,
    // a browser or a socket.
    maxWorkers: 4,
    hookTimeout: 30_000,
    reporters: ['default', countsLine],
    projects: [
      // No module-level state anywhere (every test builds its own mock), so the unit files share
      // their workers' module cache: loading fastify, Ajv and the spec once per worker, not once
      // per file, halves the tier's CPU time.
      { extends: true, test: { name: 'unit', include: [`${folders}/**/*.test.ts`], exclude: ['**/*.browser.test.ts', '**/*.redis.test.ts', 'bench/**', '**/node_modules/**'], isolate: false } },
      { extends: true, test: { name: 'all', include: [`${folders}/**/*.test.ts`], exclude: ['bench/**', '**/node_modules/**'], isolate: false } },
      { extends: true, test: { name: 'browser', include: [`${folders}/**/*.browser.test.ts`], isolate: false } },
      { extends: true, test: { name: 'redis', include: [`${folders}/**/*.redis.test.ts`], exclude: ['bench/**'], isolate: false } },
      // The benchmark harness run end to end in smoke mode (no figures: those come from `npm run bench`).
      { extends: true, test: { name: 'bench', include: ['bench/**/*.test.ts'] } },
      // The package as a stranger gets it: `npm pack` installed into an empty project, and the README's Jest setup run on a build.
      { extends: true, test: { name: 'package', include: ['scripts/*.test.ts'] } },
    ],
  },
});
