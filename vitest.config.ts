import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'renderer/test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    // Integration tests run real SQLite files, real sockets and child processes: give them room,
    // and run files one at a time-ish on a 2-core box so timing-sensitive rate tests are not starved.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    reporters: ['default'],
  },
});
