import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, isBotUser } from '../../src/github/client.js';
import { UserError } from '../../src/util/errors.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGitHub } from '../harness/fake-github.js';

const TOKEN = 'ghs_clientTestToken0000000000000000000';
const repo = { owner: 'acme', repo: 'demo' };
let gh: FakeGitHub;

beforeEach(async () => {
  gh = new FakeGitHub({ token: TOKEN });
  gh.addRepo({ owner: 'acme', name: 'demo' });
  await gh.start();
});
afterEach(async () => {
  await gh.stop();
});

const hits = (path: string): number => gh.requests.filter((r) => r.path === path).length;

describe('createGitHubClient', () => {
  it('sends the token and retries a 502 until it succeeds', async () => {
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1 });
    gh.failNext({ path: '/repos/acme/demo', times: 2, kind: 'bad-gateway' });
    const { data } = await client.rest.repos.get(repo);
    expect(data.full_name).toBe('acme/demo');
    expect(gh.requests.map((r) => r.status)).toEqual([502, 502, 200]);
    expect(gh.requests.every((r) => r.authorized)).toBe(true);
  });

  it('gives up on 5xx after the configured retries', async () => {
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1, retries: 2 });
    gh.failNext({ path: '/repos/acme/demo', times: 5, kind: 'server-error' });
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 500 });
    expect(hits('/repos/acme/demo')).toBe(3);
  });

  it('retries a write after a secondary rate limit and logs it', async () => {
    const logger = createMemoryLogger();
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1, logger });
    const n = gh.addIssue({ title: 'x' });
    gh.failNext({
      method: 'POST',
      path: `/repos/acme/demo/issues/${n}/comments`,
      kind: 'secondary-rate-limit',
      retryAfter: 3,
    });
    await client.rest.issues.createComment({ ...repo, issue_number: n, body: 'hello' });
    expect(gh.comments(n).map((c) => c.body)).toEqual(['hello']);
    expect(gh.requests.map((r) => r.status)).toEqual([403, 201]);
    expect(logger.lines.join('\n')).toMatch(
      /secondary rate limit on POST .*: waiting 3 s until \S+ \(1\/2\)/,
    );
  });

  it('stops after a bounded number of secondary-rate-limit retries', async () => {
    const logger = createMemoryLogger();
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1, logger });
    gh.failNext({ path: '/repos/acme/demo', times: 10, kind: 'secondary-rate-limit' });
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(hits('/repos/acme/demo')).toBe(3);
    expect(logger.lines.at(-1)).toMatch(/giving up/);
  });

  it('waits out a short primary rate limit once the reset time passes', async () => {
    const logger = createMemoryLogger();
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1, logger });
    gh.failNext({ path: '/repos/acme/demo', kind: 'rate-limit', retryAfter: 1 });
    await expect(client.rest.repos.get(repo)).resolves.toMatchObject({ status: 200 });
    expect(gh.requests.map((r) => r.status)).toEqual([403, 200]);
    expect(logger.lines.join('\n')).toMatch(/primary rate limit/);
  });

  it('does not wait for a retry-after longer than the cap', async () => {
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1, maxRetryAfterSeconds: 5 });
    gh.failNext({ path: '/repos/acme/demo', kind: 'secondary-rate-limit', retryAfter: 600 });
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(hits('/repos/acme/demo')).toBe(1);
  });

  it('never asks again after a 404, or a 403 that is no rate limit', async () => {
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 1 });
    gh.failNext({ path: '/repos/acme/demo', times: 2, kind: 'forbidden' });
    await expect(client.rest.repos.get(repo)).rejects.toMatchObject({ status: 403 });
    expect(hits('/repos/acme/demo')).toBe(1);
    await expect(client.rest.repos.get({ owner: 'acme', repo: 'nope' })).rejects.toMatchObject({
      status: 404,
    });
    expect(hits('/repos/acme/nope')).toBe(1);
  });

  it('waits between tries 1, 4 and 9 seconds (of the base), in order', async () => {
    const client = createGitHubClient(TOKEN, gh.url, { retryAfterBaseValue: 20 });
    gh.failNext({ path: '/repos/acme/demo', times: 3, kind: 'bad-gateway' });
    await client.rest.repos.get(repo);
    const at = gh.requests.filter((r) => r.path === '/repos/acme/demo').map((r) => r.at);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps.map((g, i) => g >= [20, 80, 180][i]! - 5)).toEqual([true, true, true]);
  });

  it('ends a wait between tries when the client is aborted', async () => {
    const controller = new AbortController();
    const client = createGitHubClient(TOKEN, gh.url, { signal: controller.signal });
    gh.failNext({ path: '/repos/acme/demo', times: 1, kind: 'bad-gateway' });
    const t0 = Date.now();
    const pending = client.rest.repos.get(repo);
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toThrow();
    // The first retry would come after 1 s.
    expect(Date.now() - t0).toBeLessThan(900);
    expect(hits('/repos/acme/demo')).toBe(1);
  });

  it('refuses an empty token with a one-line UserError', () => {
    expect(() => createGitHubClient('')).toThrow(UserError);
  });
});

describe('isBotUser', () => {
  it('knows bots by type or [bot] suffix', () => {
    expect(isBotUser({ login: 'dependabot[bot]' })).toBe(true);
    expect(isBotUser({ login: 'renovate', type: 'Bot' })).toBe(true);
    expect(isBotUser({ login: 'alice', type: 'User' })).toBe(false);
  });
});
