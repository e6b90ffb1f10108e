import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // API and unit tests of the server, browser tests of the built pages, and unit tests of the
    // front end's own logic (beside its code in web/src).
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
