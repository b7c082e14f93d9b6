import { defineConfig } from 'vitest/config';

// Under CI, also write a JSON report so .ci/run can print the plain `N passed, N failed` line.
const reporters = process.env.CI ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    reporters: reporters as never,
  },
});
