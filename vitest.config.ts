import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // DuckDB and better-sqlite3 are native addons: each test file gets its own process.
    pool: 'forks',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
