import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The e2e tests run dist/: refuse a stale one.
    globalSetup: ['test/global-setup.ts'],
    // e2e tests start real gemini processes; on a 2-core machine more parallelism only adds contention.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
