import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{spec,mock,conformance,fixtures,bench}/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
