import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Under CI, also write a JSON report so .ci/run can print the plain `N passed, N failed` line.
const reporters = process.env.CI ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'];

// Most of the suite's time is spent waiting on child processes (the built CLI, tmux, git), not on
// the CPU, so one test file per core plus one keeps every core busy. Vitest's own default (cores − 1)
// runs the whole suite in a single worker on a 2-core machine. CODEY_TEST_WORKERS overrides it.
const maxWorkers = Number(process.env.CODEY_TEST_WORKERS) || availableParallelism() + 1;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers,
    reporters: reporters as never,
  },
});
