import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { TEST_REPO, useFakeGitHub } from '../harness/github-fixture.js';
import {
  createOrUpdatePull,
  findOpenPullForBranch,
  getPull,
  listReviewComments,
  setPullDraft,
} from '../../src/github/pulls.js';
import { FakeGitHub } from '../harness/fake-github.js';

const TOKEN = 'ghs_pullsTestToken00000000000000000000';
const repo = TEST_REPO;
const fx = useFakeGitHub(TOKEN);

const spec = {
  head: 'gemini-run/issue-1',
  base: 'main',
  title: 'Fix footer',
  body: 'Closes #1',
  draft: true,
};

describe('createOrUpdatePull', () => {
  it('creates once, then updates the same PR on later calls', async () => {
    fx.gh.addIssue({ title: 'Footer' });
    const first = await createOrUpdatePull(fx.client, repo, spec);
    expect(first.created).toBe(true);
    expect(first.pull).toMatchObject({
      number: 2,
      draft: true,
      headRef: spec.head,
      headRepo: 'acme/demo',
      baseRef: 'main',
    });
    const second = await createOrUpdatePull(fx.client, repo, {
      ...spec,
      title: 'Fix footer (v2)',
      body: 'Closes #1 again',
      draft: false,
    });
    expect(second.created).toBe(false);
    expect(second.pull.number).toBe(2);
    expect(fx.gh.pulls()).toHaveLength(1);
    // REST cannot change draft; the update goes through GraphQL's markPullRequestReadyForReview.
    expect(fx.gh.pulls()[0]).toMatchObject({
      title: 'Fix footer (v2)',
      body: 'Closes #1 again',
      draft: false,
    });
    expect(second.pull.draft).toBe(false);
    expect(fx.gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /repos/acme/demo/pulls',
      'POST /repos/acme/demo/pulls',
      'GET /repos/acme/demo/pulls',
      'PATCH /repos/acme/demo/pulls/2',
      'POST /graphql',
    ]);
    // And back to draft when a later run does not finish cleanly; no GraphQL call when nothing changes.
    await createOrUpdatePull(fx.client, repo, { ...spec, draft: true });
    await createOrUpdatePull(fx.client, repo, { ...spec, draft: true });
    expect(fx.gh.pulls()[0]?.draft).toBe(true);
    expect(fx.gh.requests.filter((r) => r.path === '/graphql')).toHaveLength(2);
  });

  it('reports a GraphQL failure to flip draft', async () => {
    await expect(setPullDraft(fx.client, { nodeId: 'PR_nope', draft: true }, false)).rejects.toThrow(
      /Could not resolve/,
    );
  });

  it('creates a new PR when the earlier one for the branch was closed', async () => {
    fx.gh.addPull({ title: 'old', head: spec.head, state: 'closed' });
    const r = await createOrUpdatePull(fx.client, repo, spec);
    expect(r.created).toBe(true);
    expect(fx.gh.pulls().filter((p) => p.state === 'open')).toHaveLength(1);
  });

  it('never picks up an unrelated PR or a fork branch with the same name', async () => {
    fx.gh.addPull({ title: 'someone else', head: 'feature' });
    fx.gh.addPull({ title: 'fork', head: spec.head, headRepo: 'mallory/demo' });
    expect(await findOpenPullForBranch(fx.client, repo, spec.head)).toBeUndefined();
    const r = await createOrUpdatePull(fx.client, repo, spec);
    expect(r.created).toBe(true);
    expect(fx.gh.pulls().find((p) => p.title === 'someone else')?.body).toBeNull();
  });

  it('finds the existing PR even when the lookup first hits a 502', async () => {
    fx.gh.failNext({ method: 'GET', path: '/repos/acme/demo/pulls', kind: 'bad-gateway' });
    const other = fx.gh.addPull({ title: 'raced', head: spec.head, user: 'github-actions[bot]' });
    const r = await createOrUpdatePull(fx.client, repo, spec);
    expect(r).toMatchObject({ created: false, pull: { number: other, title: 'Fix footer' } });
    expect(fx.gh.pulls()).toHaveLength(1);
  });

  it('updates the PR after losing the race at creation time', async () => {
    let injected = false;
    const racy = new FakeGitHub({
      token: TOKEN,
      resolveBranch: () => {
        // Called while the fake handles POST /pulls: simulate the other run winning just before.
        if (!injected) {
          injected = true;
          racy.addPull({ title: 'winner', head: spec.head, draft: true });
        }
        return 'a'.repeat(40);
      },
    });
    racy.addRepo({ owner: 'acme', name: 'demo' });
    await racy.start();
    try {
      const c = createGitHubClient(TOKEN, racy.url);
      const r = await createOrUpdatePull(c, repo, { ...spec, base: 'main' });
      expect(r.created).toBe(false);
      expect(racy.pulls()).toHaveLength(1);
      expect(racy.pulls()[0]?.title).toBe('Fix footer');
      expect(racy.requests.map((q) => `${q.method} ${q.status}`)).toEqual([
        'GET 200',
        'POST 422',
        'GET 200',
        'PATCH 200',
      ]);
    } finally {
      await racy.stop();
    }
  });
});

describe('getPull and listReviewComments', () => {
  it('tells a fork head or a deleted fork from our own branch', async () => {
    const fork = fx.gh.addPull({ title: 'f', head: 'patch-1', headRepo: 'mallory/demo' });
    const gone = fx.gh.addPull({ title: 'g', head: 'patch-2', headRepo: null });
    const own = fx.gh.addPull({ title: 'o', head: 'gemini-run/issue-9' });
    expect((await getPull(fx.client, repo, fork)).headRepo).toBe('mallory/demo');
    expect((await getPull(fx.client, repo, gone)).headRepo).toBeNull();
    expect(await getPull(fx.client, repo, own)).toMatchObject({
      headRepo: 'acme/demo',
      headRef: 'gemini-run/issue-9',
      author: 'octocat',
    });
  });

  it('lists review comments across pages', async () => {
    const n = fx.gh.addPull({ title: 'p', head: 'x' });
    for (let i = 0; i < 105; i++)
      fx.gh.addReviewComment({ pull: n, body: `r${i}`, path: 'src/a.ts', line: i + 1 });
    const all = await listReviewComments(fx.client, repo, n);
    expect(all).toHaveLength(105);
    expect(all[104]).toMatchObject({ body: 'r104', path: 'src/a.ts', line: 105, author: 'octocat' });
  });
});
