import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/github/client.js';
import {
  commentMarker,
  createComment,
  reactToComment,
  upsertMarkedComment,
} from '../../src/github/comments.js';
import { hasWriteAccess } from '../../src/github/permissions.js';
import { FakeGitHub, type RepoRole } from '../harness/fake-github.js';

const TOKEN = 'ghs_commentsTestToken000000000000000000';
const repo = { owner: 'acme', repo: 'demo' };
let gh: FakeGitHub;
let client: GitHubClient;

beforeEach(async () => {
  gh = new FakeGitHub({ token: TOKEN });
  gh.addRepo({ owner: 'acme', name: 'demo' });
  await gh.start();
  client = createGitHubClient(TOKEN, gh.url, { spaceWrites: false, retryAfterBaseValue: 1 });
});
afterEach(async () => {
  gh.assertNoUnexpected();
  await gh.stop();
});

describe('upsertMarkedComment', () => {
  const marker = commentMarker('summary');

  it('creates the comment once and updates it in place afterwards', async () => {
    const n = gh.addIssue({ title: 'x' });
    const a = await upsertMarkedComment(client, repo, n, marker, 'first run');
    const b = await upsertMarkedComment(client, repo, n, marker, 'second run');
    expect(a.created).toBe(true);
    expect(b).toMatchObject({ created: false, id: a.id });
    expect(gh.comments(n).map((c) => c.body)).toEqual([`${marker}\nsecond run`]);
    expect(b.htmlUrl).toBe(`https://github.com/acme/demo/issues/${n}#issuecomment-${a.id}`);
  });

  it('finds its comment beyond the first page', async () => {
    const n = gh.addIssue({ title: 'busy' });
    for (let i = 0; i < 150; i++) gh.addComment({ issue: n, body: `chatter ${i}` });
    const ours = gh.addComment({ issue: n, body: `${marker}\nold summary`, user: 'github-actions[bot]' });
    const r = await upsertMarkedComment(client, repo, n, marker, 'new summary');
    expect(r).toMatchObject({ created: false, id: ours });
    expect(gh.comments(n)).toHaveLength(151);
    expect(gh.requests.filter((q) => q.method === 'GET').map((q) => q.query.page ?? '1')).toEqual(['1', '2']);
  });

  it('ignores a person quoting the marker and other markers', async () => {
    const n = gh.addIssue({ title: 'x' });
    gh.addComment({ issue: n, body: `> ${marker}\n> quoted summary` });
    gh.addComment({ issue: n, body: `${commentMarker('issue-status')}\nstatus` });
    const r = await upsertMarkedComment(client, repo, n, marker, 'summary');
    expect(r.created).toBe(true);
    expect(gh.comments(n)).toHaveLength(3);
  });

  it('refuses a marker that would be visible', async () => {
    await expect(upsertMarkedComment(client, repo, 1, 'SUMMARY', 'x')).rejects.toThrow(/hidden HTML comment/);
    expect(() => commentMarker('bad kind -->')).toThrow();
  });

  it('createComment returns the id and link', async () => {
    const n = gh.addIssue({ title: 'x' });
    const c = await createComment(client, repo, n, 'hello');
    expect(gh.comments(n)).toEqual([
      expect.objectContaining({ id: c.id, body: 'hello', user: 'github-actions[bot]' }),
    ]);
  });
});

describe('reactToComment', () => {
  it('adds the reaction to that comment', async () => {
    const n = gh.addIssue({ title: 'x' });
    const id = gh.addComment({ issue: n, body: '/gemini go', user: 'alice' });
    await reactToComment(client, repo, id, 'eyes');
    expect(gh.reactions).toEqual([{ content: 'eyes', target: `comment:${id}`, user: 'github-actions[bot]' }]);
  });
});

describe('hasWriteAccess', () => {
  it.each<[RepoRole, boolean]>([
    ['admin', true],
    ['maintain', true],
    ['write', true],
    ['triage', false],
    ['read', false],
    ['none', false],
  ])('%s → %s', async (role, expected) => {
    gh.setPermission('alice', role);
    expect(await hasWriteAccess(client, repo, 'alice')).toBe(expected);
    expect(gh.requests.at(-1)?.path).toBe('/repos/acme/demo/collaborators/alice/permission');
  });

  it('is false for a login GitHub does not know (404) and for an empty actor', async () => {
    expect(await hasWriteAccess(client, repo, 'nobody')).toBe(false);
    expect(await hasWriteAccess(client, repo, '')).toBe(false);
  });

  it('judges a custom role by the base permission it inherits', async () => {
    gh.setPermission('carol', { custom: 'release-manager', base: 'maintain' });
    gh.setPermission('dave', { custom: 'auditor', base: 'triage' });
    expect(await hasWriteAccess(client, repo, 'carol')).toBe(true);
    expect(await hasWriteAccess(client, repo, 'dave')).toBe(false);
  });

  it('rethrows other failures instead of refusing silently', async () => {
    gh.setPermission('alice', 'write');
    gh.failNext({ path: '/repos/acme/demo/collaborators/alice/permission', times: 10, kind: 'server-error' });
    const fragile = createGitHubClient(TOKEN, gh.url, { retries: 0 });
    await expect(hasWriteAccess(fragile, repo, 'alice')).rejects.toMatchObject({ status: 500 });
  });
});
