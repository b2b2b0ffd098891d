/**
 * GitHub's rate limits as GitHub documents them, in real time (seconds of it): the primary limit is waited out until
 * `x-ratelimit-reset`, whether it comes as a 403 or a 429; the secondary one for `retry-after`; a reset beyond what
 * the run waits fails at once, naming when it lifts. Asserted from the fake GitHub's request log. The cases wait
 * at once (each with its own fake GitHub): the seconds are the plugin's, not the machine's.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGitHub } from '../harness/fake-github.js';

const TOKEN = 'ghs_rateLimitTestToken000000000000000';
const repo = { owner: 'acme', repo: 'demo' };
const PATH = '/repos/acme/demo';

/** A fake GitHub for one test, stopped with it (by the test's own context: the cases run concurrently). */
async function fakeGitHub({ onTestFinished }: TestContext): Promise<FakeGitHub> {
  const gh = new FakeGitHub({ token: TOKEN });
  gh.addRepo({ owner: 'acme', name: 'demo' });
  await gh.start();
  onTestFinished(() => gh.stop());
  return gh;
}

describe.concurrent('rate limits', () => {
  it.for(['rate-limit', 'rate-limit-429'] as const)(
    'a primary limit (%s) with its reset 2 s ahead is asked again only after the reset, and the wait is logged',
    async (kind, context) => {
      const gh = await fakeGitHub(context);
      const logger = createMemoryLogger();
      const client = createGitHubClient(TOKEN, gh.url, { logger });
      gh.failNext({ path: PATH, kind, retryAfter: 2 });
      await expect(client.rest.repos.get(repo)).resolves.toMatchObject({ status: 200 });
      const [limited, retried] = gh.requests.filter((r) => r.path === PATH);
      expect([limited?.status, retried?.status]).toEqual([kind === 'rate-limit' ? 403 : 429, 200]);
      // The reset the fake sent is whole seconds: the retry comes after the second it names has passed.
      const reset = (Math.floor(limited!.at / 1000) + 2) * 1000;
      expect(retried!.at).toBeGreaterThanOrEqual(reset);
      expect(logger.lines.join('\n')).toMatch(
        /GitHub primary rate limit on GET \/repos\/\{owner\}\/\{repo\}: waiting \d s until \d{4}-\d\d-\d\dT/,
      );
    },
  );

  it('a secondary limit with retry-after: 3 waits at least 3 s', async (context) => {
    const gh = await fakeGitHub(context);
    const client = createGitHubClient(TOKEN, gh.url, {});
    gh.failNext({ path: PATH, kind: 'secondary-rate-limit', retryAfter: 3 });
    await client.rest.repos.get(repo);
    const [limited, retried] = gh.requests.filter((r) => r.path === PATH);
    expect(retried!.at - limited!.at).toBeGreaterThanOrEqual(3000);
  });

  it('a reset beyond what the run waits fails at once, naming when the limit lifts', async (context) => {
    const gh = await fakeGitHub(context);
    const logger = createMemoryLogger();
    const client = createGitHubClient(TOKEN, gh.url, { logger, maxRetryAfterSeconds: 60 });
    gh.failNext({ path: PATH, kind: 'rate-limit-429', retryAfter: 900 });
    const t0 = Date.now();
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 429 });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(gh.requests.filter((r) => r.path === PATH)).toHaveLength(1);
    expect(logger.lines.at(-1)).toMatch(
      /lifts at \d{4}-\d\d-\d\dT\S+, 90\d s from now, longer than gemini-run waits \(60 s\); giving up/,
    );
  });

  it("waits out a reset beyond two minutes when the run's time allows it", async (context) => {
    const gh = await fakeGitHub(context);
    const logger = createMemoryLogger();
    // 10 ms per "second": a 150 s reset is 1.5 s here, and the run has 500 "s" left.
    const client = createGitHubClient(TOKEN, gh.url, {
      logger,
      retryAfterBaseValue: 10,
      deadline: Date.now() + 5000,
    });
    gh.failNext({ path: PATH, kind: 'rate-limit-429', retryAfter: 150 });
    await expect(client.rest.repos.get(repo)).resolves.toMatchObject({ status: 200 });
    expect(gh.requests.filter((r) => r.path === PATH).map((r) => r.status)).toEqual([429, 200]);
    expect(logger.lines.join('\n')).toMatch(/waiting 15\d s until/);
  });

  it("fails at once when the limit lifts after the run's time is up, naming both", async (context) => {
    const gh = await fakeGitHub(context);
    const logger = createMemoryLogger();
    const client = createGitHubClient(TOKEN, gh.url, { logger, deadline: Date.now() + 30_000 });
    gh.failNext({ path: PATH, kind: 'rate-limit', retryAfter: 900 });
    const t0 = Date.now();
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(gh.requests.filter((r) => r.path === PATH)).toHaveLength(1);
    expect(logger.lines.at(-1)).toMatch(
      /lifts at \d{4}-\d\d-\d\dT\S+, 90\d s from now, after this run's time is up \(\d\d s left\); giving up/,
    );
  });
});
