/**
 * signCommits against the fake GitHub's Git database API over a real bare origin, through the real Octokit: the
 * branch moves forward once or not at all, each tree is GitHub's equal, and the limits hold before any request.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitObjects } from '../../src/git/commit-objects.js';
import { SignError, signCommits } from '../../src/github/signed-commits.js';
import { exec } from '../../src/util/exec.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { TEST_REPO, useFakeGitHub } from '../harness/github-fixture.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';

const fx = useFakeGitHub('ghs_signedCommitsToken00000000000000000', { retries: 0 });

async function repo(): Promise<WorkRepo> {
  const r = await createWorkRepo();
  fx.gh.serveGitData(`${TEST_REPO.owner}/${TEST_REPO.repo}`, r.originDir);
  return r;
}
const originOf = (r: WorkRepo) => (args: string[]) =>
  exec('git', ['--git-dir', r.originDir, ...args], { env: r.env, allowAllExitCodes: true }).then((x) =>
    x.stdout.trim(),
  );

async function sign(
  r: WorkRepo,
  o: { branch: string; exists: boolean; known: string[]; maxBlobBytes?: number },
) {
  const head = await r.git(['rev-parse', 'HEAD']).then((s) => s.trim());
  const log = createMemoryLogger();
  const signed = await signCommits({
    client: fx.client,
    repo: TEST_REPO,
    source: await commitObjects(r.dir, head, o.known),
    head,
    branch: o.branch,
    exists: o.exists,
    log,
    ...(o.maxBlobBytes ? { maxBlobBytes: o.maxBlobBytes } : {}),
  });
  return { head, signed, log };
}

async function commitFiles(r: WorkRepo, files: Record<string, string>, message: string): Promise<void> {
  for (const [p, text] of Object.entries(files)) {
    await mkdir(join(r.dir, p, '..'), { recursive: true });
    await writeFile(join(r.dir, p), text);
  }
  await r.git(['add', '-A']);
  await r.git(['commit', '--quiet', '-m', message]);
}

const writes = () => fx.gh.requests.filter((q) => q.method !== 'GET');

describe('signCommits', () => {
  it('moves an existing branch forward once, onto its tip, with trees equal to the local ones', async () => {
    await using r = await repo();
    await r.git(['switch', '--quiet', '-c', 'work']);
    await commitFiles(r, { 'a.md': 'a\n' }, 'On the branch before');
    await r.git(['push', '--quiet', 'origin', 'work']);
    const tip = (await r.git(['rev-parse', 'HEAD'])).trim();
    await commitFiles(r, { 'b.md': 'b\n' }, 'One');
    await commitFiles(r, { 'c.md': 'c\n' }, 'Two');
    const { head, signed } = await sign(r, { branch: 'work', exists: true, known: [tip] });
    const origin = originOf(r);
    expect(await origin(['rev-parse', 'work'])).toBe(signed.head);
    expect(await origin(['rev-parse', 'work~2'])).toBe(tip);
    expect(await origin(['rev-parse', 'work^{tree}'])).toBe(
      (await r.git(['rev-parse', `${head}^{tree}`])).trim(),
    );
    expect(signed.map.size).toBe(2);
    expect(signed.unverified).toBe(0);
    const refs = writes().filter((q) => q.path.includes('/git/refs'));
    expect(refs.map((q) => `${q.method} ${decodeURIComponent(q.path)}`)).toEqual([
      'PATCH /repos/acme/demo/git/refs/heads/work',
    ]);
  });

  it('a branch someone moved meanwhile: SignError moved, and their commit stays', async () => {
    await using r = await repo();
    await r.git(['switch', '--quiet', '-c', 'work']);
    await r.git(['push', '--quiet', 'origin', 'work']);
    const base = (await r.git(['rev-parse', 'HEAD'])).trim();
    // Someone else's commit on the remote branch.
    await commitFiles(r, { 'theirs.md': 't\n' }, 'Theirs');
    await r.git(['push', '--quiet', 'origin', 'work']);
    const theirs = (await r.git(['rev-parse', 'HEAD'])).trim();
    await r.git(['reset', '--quiet', '--hard', base]);
    await commitFiles(r, { 'mine.md': 'm\n' }, 'Mine');
    const error = await sign(r, { branch: 'work', exists: true, known: [base] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignError);
    expect((error as SignError).kind).toBe('moved');
    expect((error as SignError).message).toMatch(/Update is not a fast forward/);
    expect(await originOf(r)(['rev-parse', 'work'])).toBe(theirs);
  });

  it('a new branch that exists by now: moved, nothing overwritten', async () => {
    await using r = await repo();
    const base = (await r.git(['rev-parse', 'HEAD'])).trim();
    await r.git(['push', '--quiet', 'origin', 'HEAD:refs/heads/taken']);
    await commitFiles(r, { 'mine.md': 'm\n' }, 'Mine');
    const error = await sign(r, { branch: 'taken', exists: false, known: [base] }).catch((e: unknown) => e);
    expect((error as SignError).kind).toBe('moved');
    expect(await originOf(r)(['rev-parse', 'taken'])).toBe(base);
  });

  it('a file over the limit: too-large before a single request', async () => {
    await using r = await repo();
    const base = (await r.git(['rev-parse', 'HEAD'])).trim();
    await commitFiles(r, { 'small.md': 's\n', 'data/huge.bin': 'x'.repeat(3000) }, 'Big');
    const before = fx.gh.requests.length;
    const error = await sign(r, { branch: 'big', exists: false, known: [base], maxBlobBytes: 2048 }).catch(
      (e: unknown) => e,
    );
    expect((error as SignError).kind).toBe('too-large');
    expect((error as SignError).message).toMatch(/^data\/huge\.bin is 0\.0 MiB, over the 0 MiB/);
    expect(fx.gh.requests.length).toBe(before);
  });

  it('250 files in one commit: a chain of three trees, the last one equal to the local tree', async () => {
    await using r = await repo();
    const base = (await r.git(['rev-parse', 'HEAD'])).trim();
    const files = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/f${i}.txt`, `${i}\n`]));
    await commitFiles(r, files, 'Many');
    const { head, signed } = await sign(r, { branch: 'many', exists: false, known: [base] });
    expect(writes().filter((q) => q.path.endsWith('/git/trees'))).toHaveLength(3);
    expect(await originOf(r)(['rev-parse', `${signed.head}^{tree}`])).toBe(
      (await r.git(['rev-parse', `${head}^{tree}`])).trim(),
    );
  });

  it("a merge of the remote's main keeps main's commit as a parent; a submodule entry stays a gitlink", async () => {
    await using r = await repo();
    const base = (await r.git(['rev-parse', 'HEAD'])).trim();
    await commitFiles(r, { 'main.md': 'on main\n' }, 'On main');
    await r.git(['push', '--quiet', 'origin', 'main']);
    const mainTip = (await r.git(['rev-parse', 'HEAD'])).trim();
    await r.git(['switch', '--quiet', '-c', 'work', base]);
    await commitFiles(r, { 'w.md': 'w\n' }, 'Work');
    await r.git(['merge', '--quiet', '--no-ff', '--no-edit', 'main']);
    await r.git(['update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},vendor/lib`]);
    await r.git(['commit', '--quiet', '-m', 'A submodule']);
    const { head, signed } = await sign(r, { branch: 'work', exists: false, known: [base, mainTip] });
    const origin = originOf(r);
    expect(await origin(['rev-parse', 'work^^2'])).toBe(mainTip);
    expect(await origin(['ls-tree', 'work', 'vendor/lib'])).toBe(
      `160000 commit ${'1'.repeat(40)}\tvendor/lib`,
    );
    expect(await origin(['rev-parse', `${signed.head}^{tree}`])).toBe(
      (await r.git(['rev-parse', `${head}^{tree}`])).trim(),
    );
    expect(signed.map.size).toBe(3);
  });
});
