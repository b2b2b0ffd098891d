import { defineConfig } from 'vitest/config';

/**
 * Three projects, one per folder, so the fast part runs alone (`npm run test:unit`, seconds) and `npm test` still
 * runs all:
 * - unit (test/unit): pure code in this process, no child process (test/unit-setup.ts makes one fail the test);
 * - integration (test/integration): real processes (git, tmux, openssl, the proxy process, dist/post.js), no gemini;
 * - gemini (test/e2e, test/image): the real gemini 0.42.0 against the fake model, the runner image.
 * A test file goes in the folder of what it needs; test/integration/vitest-projects.test.ts fails on a test file
 * that no project runs.
 */
export default defineConfig({
  test: {
    // e2e tests start real gemini processes; on a 2-core machine more parallelism only adds contention.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Transformed modules are kept on disk between runs (node_modules/.experimental-vitest-cache, keyed by content).
    experimental: { fsModuleCache: true },
    // GitHub's workflow parser imports its JSON schema without an import attribute, which Node refuses: it is
    // transformed like our own code instead of loaded by Node.
    server: { deps: { inline: ['@actions/workflow-parser'] } },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          setupFiles: ['test/unit-setup.ts'],
          globalSetup: ['test/cache-setup.ts'],
          // One module graph per worker, not per file: re-importing octokit, zod and the src/ tree for each of ~45
          // files was two thirds of the project's CPU time. Unit tests keep no state in modules (nothing is mocked but
          // child_process, in the setup file every file shares).
          isolate: false,
          // Pure code needs no process of its own per worker: threads start faster than forks.
          pool: 'threads',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          // These run dist/ (on Node 24): refuse a stale one.
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'gemini',
          include: ['test/e2e/**/*.test.ts', 'test/image/**/*.test.ts'],
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
