import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Real PTYs, terminals and child processes: give each test room on a 2-core CI machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest 4: one worker per core of the 2-core CI machine (poolOptions.forks.maxForks before 4).
    maxWorkers: 2,
    // The end-to-end tests race real processes (PTYs, daemons, tmux servers, Chromium) on a loaded 2-core machine:
    // a test that fails is run once more, and the build fails if it fails again. Each test that passed only when
    // run again is named at the end of the run (tests/helpers/flaky-reporter.ts): a flaky test is still seen.
    retry: 1,
    reporters: ['default', './tests/helpers/flaky-reporter.ts'],
  },
});
