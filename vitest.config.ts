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
  },
});
