import { describe, expect, it } from 'vitest';
import { TEST_REPO, useFakeGitHub } from '../harness/github-fixture.js';
import { createGitHubClient } from '../../src/github/client.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exec } from '../../src/util/exec.js';
import { branchesFromGit, FakeGitHub } from '../harness/fake-github.js';

const TOKEN = 'ghs_fakeTokenForTests000000000000000000';
const repo = TEST_REPO;
const fx = useFakeGitHub(TOKEN, { retries: 0 }, { assertNoUnexpected: false });

describe('FakeGitHub', () => {
  it('answers the real Octokit with GitHub-shaped data and records the request', async () => {
    const { data } = await fx.client.rest.repos.get(repo);
    expect(data.full_name).toBe('acme/demo');
    expect(data.default_branch).toBe('main');
    expect(data.html_url).toBe('https://github.com/acme/demo');
    expect(fx.gh.requests).toMatchObject([
      { method: 'GET', path: '/repos/acme/demo', status: 200, authorized: true },
    ]);
    fx.gh.assertNoUnexpected();
  });

  it('rejects a wrong token with 401 and accepts Bearer too', async () => {
    const wrong = createGitHubClient('ghs_wrong', fx.gh.url, { retries: 0 });
    await expect(wrong.rest.repos.get(repo)).rejects.toMatchObject({ status: 401 });
    expect(fx.gh.requests[0]).toMatchObject({ status: 401, authorized: false });
    const res = await fetch(`${fx.gh.url}/repos/acme/demo`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    const none = await fetch(`${fx.gh.url}/repos/acme/demo`);
    expect(none.status).toBe(401);
  });

  it('puts an unknown endpoint in unexpected (404) so assertNoUnexpected throws', async () => {
    await expect(fx.client.rest.repos.listBranches(repo)).rejects.toMatchObject({ status: 404 });
    expect(() => fx.gh.assertNoUnexpected()).toThrow(
      /1 unexpected request\(s\): GET \/repos\/acme\/demo\/branches/,
    );
  });

  it('treats a repository it was never given as unexpected, but a missing issue as a plain 404', async () => {
    await expect(fx.client.rest.issues.get({ ...repo, issue_number: 99 })).rejects.toMatchObject({
      status: 404,
    });
    fx.gh.assertNoUnexpected();
    await expect(fx.client.rest.repos.get({ owner: 'acme', repo: 'other' })).rejects.toMatchObject({
      status: 404,
    });
    expect(() => fx.gh.assertNoUnexpected()).toThrow(/acme\/other/);
  });

  it('paginates comments with per_page, page and a Link header that Octokit follows', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    for (let i = 0; i < 7; i++) fx.gh.addComment({ issue: n, body: `c${i}` });
    const first = await fx.client.rest.issues.listComments({
      ...repo,
      issue_number: n,
      per_page: 3,
      page: 1,
    });
    expect(first.data.map((c) => c.body)).toEqual(['c0', 'c1', 'c2']);
    expect(first.headers.link).toContain('rel="next"');
    expect(first.headers.link).toContain('page=3>; rel="last"');
    const last = await fx.client.rest.issues.listComments({ ...repo, issue_number: n, per_page: 3, page: 3 });
    expect(last.data.map((c) => c.body)).toEqual(['c6']);
    expect(last.headers.link).not.toContain('rel="next"');
    const all = await fx.client.paginate(fx.client.rest.issues.listComments, {
      ...repo,
      issue_number: n,
      per_page: 2,
    });
    expect(all).toHaveLength(7);
    expect(fx.gh.requests.filter((r) => r.path.endsWith('/comments'))).toHaveLength(2 + 4);
  });

  it('shares the number sequence between issues and PRs and serves a PR on the issues API too', async () => {
    const issue = fx.gh.addIssue({ title: 'bug' });
    const { data: pr } = await fx.client.rest.pulls.create({
      ...repo,
      head: 'fix',
      base: 'main',
      title: 'Fix',
      draft: true,
    });
    expect([issue, pr.number]).toEqual([1, 2]);
    expect(pr).toMatchObject({
      draft: true,
      state: 'open',
      head: { ref: 'fix', label: 'acme:fix' },
      base: { ref: 'main' },
    });
    expect(pr.html_url).toBe('https://github.com/acme/demo/pull/2');
    expect(pr.user?.login).toBe('github-actions[bot]');
    const { data: asIssue } = await fx.client.rest.issues.get({ ...repo, issue_number: 2 });
    expect(asIssue.pull_request?.html_url).toBe(pr.html_url);
  });

  it('mirrors GitHub: no second open PR for a head, draft not changeable by PATCH, head filter needs owner:', async () => {
    await fx.client.rest.pulls.create({ ...repo, head: 'fix', base: 'main', title: 'Fix', draft: true });
    fx.gh.addPull({ title: 'Other', head: 'other' });
    await expect(
      fx.client.rest.pulls.create({ ...repo, head: 'fix', base: 'main', title: 'Again' }),
    ).rejects.toMatchObject({
      status: 422,
    });
    const { data: updated } = await fx.client.request('PATCH /repos/{owner}/{repo}/pulls/{pull_number}', {
      ...repo,
      pull_number: 1,
      title: 'Fix 2',
      draft: false,
    });
    expect(updated).toMatchObject({ title: 'Fix 2', draft: true });
    const filtered = await fx.client.rest.pulls.list({ ...repo, head: 'acme:fix' });
    expect(filtered.data.map((p) => p.number)).toEqual([1]);
    const unfiltered = await fx.client.rest.pulls.list({ ...repo, head: 'fix' });
    expect(unfiltered.data).toHaveLength(2);
  });

  it('checks branches through resolveBranch when given one', async () => {
    const shas: Record<string, string> = { main: 'a'.repeat(40), fix: 'b'.repeat(40), same: 'a'.repeat(40) };
    const strict = new FakeGitHub({ token: TOKEN, resolveBranch: (_r, b) => shas[b] });
    strict.addRepo({ owner: 'acme', name: 'demo' });
    await strict.start();
    try {
      const c = createGitHubClient(TOKEN, strict.url, { retries: 0 });
      await expect(
        c.rest.pulls.create({ ...repo, head: 'nope', base: 'main', title: 't' }),
      ).rejects.toMatchObject({ status: 422 });
      await expect(c.rest.pulls.create({ ...repo, head: 'same', base: 'main', title: 't' })).rejects.toThrow(
        /No commits between/,
      );
      const { data } = await c.rest.pulls.create({ ...repo, head: 'fix', base: 'main', title: 't' });
      expect(data.head.sha).toBe(shas.fix);
      shas.fix = 'c'.repeat(40);
      expect((await c.rest.pulls.get({ ...repo, pull_number: data.number })).data.head.sha).toBe(shas.fix);
    } finally {
      await strict.stop();
    }
  });

  it('branchesFromGit resolves branches of a real bare repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fake-gh-'));
    try {
      const env = {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_'))),
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: dir,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.com',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.com',
      };
      const work = join(dir, 'work');
      const bare = join(dir, 'origin.git');
      await exec('git', ['init', '-q', '-b', 'main', work], { env });
      await exec('git', ['-C', work, 'config', 'gc.auto', '0'], { env });
      await exec('git', ['-C', work, 'commit', '-q', '--allow-empty', '-m', 'base'], { env });
      await exec('git', ['clone', '-q', '--bare', work, bare], { env });
      await exec('git', ['-C', work, 'checkout', '-q', '-b', 'fix'], { env });
      await exec('git', ['-C', work, 'commit', '-q', '--allow-empty', '-m', 'fix'], { env });
      await exec('git', ['-C', work, 'push', '-q', bare, 'fix'], { env });
      const fixSha = (await exec('git', ['-C', work, 'rev-parse', 'HEAD'], { env })).stdout.trim();
      const resolve = branchesFromGit({ 'acme/demo': bare });
      expect(await resolve('acme/demo', 'fix')).toBe(fixSha);
      expect(await resolve('ACME/demo', 'main')).toMatch(/^[0-9a-f]{40}$/);
      expect(await resolve('acme/demo', 'missing')).toBeUndefined();
      expect(await resolve('other/repo', 'fix')).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('adds and removes labels, reacts, and keeps state readable', async () => {
    const n = fx.gh.addIssue({ title: 'x', labels: ['bug'] });
    const { data } = await fx.client.rest.issues.addLabels({
      ...repo,
      issue_number: n,
      labels: ['gemini-run', 'bug'],
    });
    expect(data.map((l) => l.name)).toEqual(['bug', 'gemini-run']);
    await fx.client.rest.issues.removeLabel({ ...repo, issue_number: n, name: 'gemini-run' });
    await expect(
      fx.client.rest.issues.removeLabel({ ...repo, issue_number: n, name: 'gemini-run' }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(fx.gh.issue(n)?.labels).toEqual(['bug']);
    const id = fx.gh.addComment({ issue: n, body: '/gemini go' });
    await fx.client.rest.reactions.createForIssueComment({ ...repo, comment_id: id, content: 'eyes' });
    expect(fx.gh.reactions).toEqual([
      { content: 'eyes', target: `comment:${id}`, user: 'github-actions[bot]' },
    ]);
    fx.gh.assertNoUnexpected();
  });

  it('serves the draft GraphQL mutations and flags any other GraphQL call', async () => {
    const { data: pr } = await fx.client.rest.pulls.create({
      ...repo,
      head: 'fix',
      base: 'main',
      title: 'Fix',
      draft: true,
    });
    const ready = await fx.client.graphql<{
      markPullRequestReadyForReview: { pullRequest: { isDraft: boolean } };
    }>(
      'mutation($pullRequestId: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $pullRequestId}) { pullRequest { isDraft } } }',
      { pullRequestId: pr.node_id },
    );
    expect(ready.markPullRequestReadyForReview.pullRequest.isDraft).toBe(false);
    expect(fx.gh.pulls()[0]?.draft).toBe(false);
    fx.gh.assertNoUnexpected();
    await expect(fx.client.graphql('query { viewer { name } }')).rejects.toThrow(
      /does not know this GraphQL/,
    );
    expect(() => fx.gh.assertNoUnexpected()).toThrow(/POST \/graphql/);
  });

  it('injects faults for the next N matching requests only', async () => {
    fx.gh.failNext({ method: 'GET', path: '/repos/acme/demo', times: 2, kind: 'bad-gateway' });
    await expect(fx.client.rest.repos.get(repo)).rejects.toMatchObject({ status: 502 });
    await expect(fx.client.rest.repos.get(repo)).rejects.toMatchObject({ status: 502 });
    await expect(fx.client.rest.repos.get(repo)).resolves.toMatchObject({ status: 200 });
  });
  it('refuses bodies over 65,536 characters, PR creation when forbidden, and names the token identity', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    const long = 'x'.repeat(65_537);
    const tooLong = await fx.client.rest.issues
      .createComment({ ...repo, issue_number: n, body: long })
      .catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ status: 422 });
    expect(JSON.stringify((tooLong as { response: { data: unknown } }).response.data)).toContain(
      'body is too long (maximum is 65536 characters)',
    );
    await fx.client.rest.issues.createComment({ ...repo, issue_number: n, body: 'x'.repeat(65_536) });
    fx.gh.forbidPullCreation = true;
    const forbidden = await fx.client.rest.pulls
      .create({ ...repo, head: 'b', base: 'main', title: 't' })
      .catch((e: unknown) => e);
    expect(forbidden).toMatchObject({
      status: 403,
      message: expect.stringContaining('GitHub Actions is not permitted to create or approve pull requests'),
    });
    const viewer = await fx.client.graphql<{ viewer: { login: string } }>('query { viewer { login } }');
    expect(viewer.viewer.login).toBe('github-actions[bot]');
    fx.gh.assertNoUnexpected();
  });
});
