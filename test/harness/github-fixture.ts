/**
 * One FakeGitHub per test with the real Octokit pointed at it, for the src/github tests. Registers its own
 * beforeEach/afterEach; every test ends by asserting the fake saw no endpoint it does not know and that every
 * request and answer of its log is one GitHub's REST description allows (test/harness/openapi-check.ts).
 */
import { afterEach, beforeEach } from 'vitest';
import { createGitHubClient, type GitHubClient, type GitHubClientOptions } from '../../src/github/client.js';
import { FakeGitHub } from '../../src/fake/github-api.js';
import { assertConformsToGitHub } from './openapi-check.js';

export const TEST_REPO = { owner: 'acme', repo: 'demo' };

export interface GitHubFixture {
  readonly token: string;
  gh: FakeGitHub;
  client: GitHubClient;
}

export function useFakeGitHub(
  token: string,
  clientOptions: GitHubClientOptions = {},
  opts: { assertNoUnexpected?: boolean } = {},
): GitHubFixture {
  const fixture = { token } as GitHubFixture;
  beforeEach(async () => {
    fixture.gh = new FakeGitHub({ token });
    fixture.gh.addRepo({ owner: TEST_REPO.owner, name: TEST_REPO.repo });
    await fixture.gh.start();
    // Near-instant retries: the tests exercise behaviour, not GitHub's pacing.
    fixture.client = createGitHubClient(token, fixture.gh.url, {
      retryAfterBaseValue: 1,
      ...clientOptions,
    });
  });
  afterEach(async () => {
    // The fake's own tests make unknown calls on purpose.
    try {
      if (opts.assertNoUnexpected ?? true) {
        fixture.gh.assertNoUnexpected();
        assertConformsToGitHub(fixture.gh.requests);
      }
    } finally {
      await fixture.gh.stop();
    }
  });
  return fixture;
}
