import { defineConfig } from 'vitest/config';

/**
 * Three projects, so the fast part runs alone (`npm run test:unit`, seconds) and `npm test` still runs all:
 * - unit: pure code in this process, no child process (test/unit-setup.ts makes one fail the test);
 * - integration: real processes (git, tmux, openssl, the proxy process, dist/post.js) but no gemini;
 * - gemini: the real gemini 0.42.0 against the fake model (most of test/e2e, the runner image in test/image).
 * A test file under test/unit that starts a process is listed in INTEGRATION (or GEMINI); a new folder of tests
 * goes in a project's include (test/e2e/vitest-projects.test.ts fails on a test file that no project runs).
 */
const INTEGRATION = [
  'test/integration/**/*.test.ts',
  'test/unit/conformance.test.ts',
  'test/unit/fake-gemini.test.ts',
  'test/unit/fake-github.test.ts',
  'test/unit/gemini-attribution.test.ts',
  'test/unit/gemini-context-file.test.ts',
  'test/unit/git-*.test.ts',
  'test/unit/model-proxy.test.ts',
  'test/unit/tmux-driver.test.ts',
  'test/unit/util-agent-file.test.ts',
  'test/unit/vertex-proxy.test.ts',
  'test/e2e/action-runtime.test.ts',
  'test/e2e/fake-actions.test.ts',
  'test/e2e/install-cache.test.ts',
  'test/e2e/post-step.test.ts',
  'test/e2e/post-step-isolation.test.ts',
  'test/e2e/vitest-projects.test.ts',
];
/** Files under test/unit that start the real gemini (a live describe next to pure ones). */
const GEMINI_IN_UNIT = ['test/unit/gemini-spawn.test.ts', 'test/unit/gemini-transcript.test.ts'];

export default defineConfig({
  test: {
    // e2e tests start real gemini processes; on a 2-core machine more parallelism only adds contention.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...INTEGRATION, ...GEMINI_IN_UNIT],
          setupFiles: ['test/unit-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // These run dist/ (on Node 24): refuse a stale one.
          globalSetup: ['test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'gemini',
          include: ['test/e2e/**/*.test.ts', 'test/image/**/*.test.ts', ...GEMINI_IN_UNIT],
          exclude: INTEGRATION,
          globalSetup: ['test/global-setup.ts'],
        },
      },
    ],
  },
});
