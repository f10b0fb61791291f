import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // DuckDB and better-sqlite3 are native addons: each test file gets its own process.
    pool: 'forks',
    // Most files wait on child processes (the CLI, sshd, tmux, ansible-playbook), not the CPU: by
    // default vitest runs one file at a time on a 2-core machine (cores - 1); three overlap the waits.
    maxWorkers: 3,
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // A hang guard, not a speed goal (those are in bench/): CLI-driven tests take several times
    // longer on a loaded 2-core machine than on a quiet one.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
