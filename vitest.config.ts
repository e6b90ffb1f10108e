import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // API and unit tests of the server, browser tests of the built pages, and unit tests of the
    // front end's own logic (beside its code in web/src).
    include: ['test/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time, whatever the core count: most of a file's time is spent waiting
    // (on PostgreSQL, Chromium, SMTP and server processes of its own), and vitest's own default on
    // a 2-core machine is one. Files never share state (own databases, Redis prefixes, free ports);
    // TEST_WORKERS overrides.
    maxWorkers: Number(process.env.TEST_WORKERS) || 2,
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
