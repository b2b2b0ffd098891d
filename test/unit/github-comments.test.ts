import { describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/github/client.js';
import { TEST_REPO, useFakeGitHub } from '../harness/github-fixture.js';
import {
  commentMarker,
  createComment,
  findMarkedComment,
  reactToComment,
  tokenIdentity,
  upsertMarkedComment,
} from '../../src/github/comments.js';
import { hasWriteAccess } from '../../src/github/permissions.js';
import { type RepoRole } from '../harness/fake-github.js';

const TOKEN = 'ghs_commentsTestToken000000000000000000';
const repo = TEST_REPO;
const fx = useFakeGitHub(TOKEN);

describe('upsertMarkedComment', () => {
  const marker = commentMarker('summary');
  const BOT = 'github-actions[bot]';

  it('creates the comment once and updates it in place afterwards', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    const a = await upsertMarkedComment(fx.client, repo, n, marker, 'first run', BOT);
    const b = await upsertMarkedComment(fx.client, repo, n, marker, 'second run', BOT);
    expect(a.created).toBe(true);
    expect(b).toMatchObject({ created: false, id: a.id });
    expect(fx.gh.comments(n).map((c) => c.body)).toEqual([`${marker}\nsecond run`]);
    expect(b.htmlUrl).toBe(`https://github.com/acme/demo/issues/${n}#issuecomment-${a.id}`);
  });

  it('finds its comment beyond the first page', async () => {
    const n = fx.gh.addIssue({ title: 'busy' });
    for (let i = 0; i < 150; i++) fx.gh.addComment({ issue: n, body: `chatter ${i}` });
    const ours = fx.gh.addComment({ issue: n, body: `${marker}\nold summary`, user: 'github-actions[bot]' });
    const r = await upsertMarkedComment(fx.client, repo, n, marker, 'new summary', BOT);
    expect(r).toMatchObject({ created: false, id: ours });
    expect(fx.gh.comments(n)).toHaveLength(151);
    expect(fx.gh.requests.filter((q) => q.method === 'GET').map((q) => q.query.page ?? '1')).toEqual([
      '1',
      '2',
    ]);
  });

  it('ignores a person quoting the marker and other markers', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    fx.gh.addComment({ issue: n, body: `> ${marker}\n> quoted summary` });
    fx.gh.addComment({ issue: n, body: `${commentMarker('issue-status')}\nstatus` });
    const r = await upsertMarkedComment(fx.client, repo, n, marker, 'summary', BOT);
    expect(r.created).toBe(true);
    expect(fx.gh.comments(n)).toHaveLength(3);
  });

  it("counts a marked comment only when the token's identity wrote it, and leaves anyone else's alone", async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    const planted = fx.gh.addComment({ issue: n, body: `${marker}\nplanted`, user: 'mallory' });
    expect(await tokenIdentity(fx.client)).toBe(BOT);
    expect(await findMarkedComment(fx.client, repo, n, marker, BOT)).toBeUndefined();
    const r = await upsertMarkedComment(fx.client, repo, n, marker, 'ours', BOT);
    expect(r.created).toBe(true);
    expect(fx.gh.comments(n).find((c) => c.id === planted)?.body).toBe(`${marker}\nplanted`);
    expect(await findMarkedComment(fx.client, repo, n, marker, 'GitHub-Actions[bot]')).toMatchObject({
      id: r.id,
      body: `${marker}\nours`,
    });
    // Identity unknown: nothing is trusted, a new comment is written.
    expect((await upsertMarkedComment(fx.client, repo, n, marker, 'again', undefined)).created).toBe(true);
  });

  it('caps a body over 65,536 characters and says so', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    await upsertMarkedComment(fx.client, repo, n, marker, 'y'.repeat(70_000), BOT);
    const [c] = fx.gh.comments(n);
    expect(c?.body.length).toBeLessThanOrEqual(65_536);
    expect(c?.body).toMatch(/Cut here: this text was 70,0\d\d characters/);
  });

  it('refuses a marker that would be visible', async () => {
    await expect(upsertMarkedComment(fx.client, repo, 1, 'SUMMARY', 'x', BOT)).rejects.toThrow(
      /hidden HTML comment/,
    );
    expect(() => commentMarker('bad kind -->')).toThrow();
  });

  it('createComment returns the id and link', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    const c = await createComment(fx.client, repo, n, 'hello');
    expect(fx.gh.comments(n)).toEqual([
      expect.objectContaining({ id: c.id, body: 'hello', user: 'github-actions[bot]' }),
    ]);
  });
});

describe('reactToComment', () => {
  it('adds the reaction to that comment', async () => {
    const n = fx.gh.addIssue({ title: 'x' });
    const id = fx.gh.addComment({ issue: n, body: '/gemini go', user: 'alice' });
    await reactToComment(fx.client, repo, id, 'eyes');
    expect(fx.gh.reactions).toEqual([
      { content: 'eyes', target: `comment:${id}`, user: 'github-actions[bot]' },
    ]);
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
    fx.gh.setPermission('alice', role);
    expect(await hasWriteAccess(fx.client, repo, 'alice')).toBe(expected);
    expect(fx.gh.requests.at(-1)?.path).toBe('/repos/acme/demo/collaborators/alice/permission');
  });

  it('is false for a login GitHub does not know (404) and for an empty actor', async () => {
    expect(await hasWriteAccess(fx.client, repo, 'nobody')).toBe(false);
    expect(await hasWriteAccess(fx.client, repo, '')).toBe(false);
  });

  it('judges a custom role by the base permission it inherits', async () => {
    fx.gh.setPermission('carol', { custom: 'release-manager', base: 'maintain' });
    fx.gh.setPermission('dave', { custom: 'auditor', base: 'triage' });
    expect(await hasWriteAccess(fx.client, repo, 'carol')).toBe(true);
    expect(await hasWriteAccess(fx.client, repo, 'dave')).toBe(false);
  });

  it('rethrows other failures instead of refusing silently', async () => {
    fx.gh.setPermission('alice', 'write');
    fx.gh.failNext({
      path: '/repos/acme/demo/collaborators/alice/permission',
      times: 10,
      kind: 'server-error',
    });
    const fragile = createGitHubClient(TOKEN, fx.gh.url, { retries: 0 });
    await expect(hasWriteAccess(fragile, repo, 'alice')).rejects.toMatchObject({ status: 500 });
  });
});
