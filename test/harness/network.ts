/**
 * Tests that reach the real npm registry run only when asked (`GEMINI_RUN_TEST_NETWORK=1`, which .ci/run and CI
 * set): offline or behind a slow mirror, the rest of the suite must still run, and fast.
 */
export const NETWORK_TESTS = process.env.GEMINI_RUN_TEST_NETWORK === '1';
export const NETWORK_SKIPPED = 'reaches the npm registry: set GEMINI_RUN_TEST_NETWORK=1 to run it';
