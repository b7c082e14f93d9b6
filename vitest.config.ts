import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Under CI, also write a JSON report so .ci/run can print the plain `N passed, N failed` line.
const reporters = process.env.CI ? ['default', ['json', { outputFile: '.vitest-report.json' }]] : ['default'];

// Most of the suite's time is spent waiting on child processes (the built CLI, tmux, git), not on
// the CPU, so one test file per core plus one keeps every core busy. Vitest's own default (cores − 1)
// runs the whole suite in a single worker on a 2-core machine. CODEY_TEST_WORKERS overrides it.
const maxWorkers = Number(process.env.CODEY_TEST_WORKERS) || availableParallelism() + 1;

// Test files that get a fresh process each. Every other test file shares a worker with the files
// run before it (the "shared" project below), so Ink, React and the app are loaded once per worker,
// not once per file: that was about half of those files' time. A file belongs here when it depends
// on what a module decides once, when it is first evaluated, or replaces a module for the process:
const ISOLATED = [
  // the end-to-end tests run the built CLI and tmux: nothing to share, and each sets up its own box
  'test/e2e/**/*.test.{ts,tsx}',
  // start the app through runTui (test/tui/vt-app.ts, test/tui/app/tui-driver.ts), which loads Ink
  // with CI hidden so that it draws live; an Ink loaded earlier under CI=true draws only at the end
  'test/tui/app/clear.test.tsx',
  'test/tui/app/live-area.test.tsx',
  'test/tui/app/run.test.tsx',
  'test/tui/app/resize-matrix.test.tsx',
  'test/tui/app/scrollback.test.tsx',
  'test/tui/approval/approval-shows-all.test.tsx',
  'test/tui/approval/approval-hidden-count.test.tsx',
  'test/tui/approval/approval-cut-command.test.tsx',
  'test/tui/viewer/viewer-terminal.test.tsx',
  // starts the setup wizard through runWizard, which loads Ink the same way
  'test/tui/wizard/small-screen.test.tsx',
  // set CI=true before Ink is loaded, as a shell that exports it does
  'test/tui/wizard/run-ci.test.tsx',
  // set FORCE_COLOR before Ink's colour library is loaded, so that only NO_COLOR turns colour off
  'test/tui/transcript/tools/colour.test.tsx',
  'test/tui/app/status-line-mode.test.tsx',
  'test/tui/app/terminal-escapes.test.tsx',
  'test/tui/app/theme-auto.test.tsx',
  // vi.mock a module of src, which in a shared worker would stay mocked for the files after them
  'test/agent/dispatch-stages.test.ts',
  'test/cli/mcp-early-start.test.ts',
  // after other files in the same worker, its refresh of an expired token ends in "needs login";
  // the state it inherits is not found yet
  'test/mcp/oauth.test.ts',
];

// Under CI a failed test runs once more: the real-terminal and child-process tests wait on a
// machine shared with other jobs. A test that passes only the second time still prints its first
// failure (.ci/run lists it as FLAKY), so it is seen and fixed; one that fails twice fails the run.
const retry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    retry,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    maxWorkers,
    reporters: reporters as never,
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true, provide: { sharedWorker: false } },
      },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ISOLATED,
          isolate: false,
          provide: { sharedWorker: true },
        },
      },
    ],
  },
});
