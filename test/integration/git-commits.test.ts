import { chmod, mkdir, mkdtemp, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filesChanged, listCommits, parseCommitLog, type GitIdentity } from '../../src/git/commits.js';
import { exportWork } from '../../src/git/export.js';
import { Git } from '../../src/git/git.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

describe('commits on a real repository', () => {
  let dir: string;
  let git: Git;
  let base: string;
  /** The agent's side of the export, run as this user (isolation: none): true when leftovers were committed. */
  const commitLeftovers = async (worktree: string, message: string, identity?: GitIdentity) => {
    const r = await exportWork({
      worktree,
      runAs: [],
      home: join(worktree, '..', `${worktree.split('/').at(-1) ?? 'x'}-home`),
      path: process.env.PATH ?? '/usr/bin:/bin',
      base,
      bundle: join(worktree, '..', `${worktree.split('/').at(-1) ?? 'x'}.bundle`),
      message,
      ...(identity ? { identity } : {}),
    });
    return r.leftoverCommitted;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'git-commits-'));
    git = Git.create(dir, ENV);
    await git.run(['init', '-q', '-b', 'main']);
    await git.run(['config', 'gc.auto', '0']);
    await git.run(['config', 'user.name', 'Repo User']);
    await git.run(['config', 'user.email', 'repo@example.com']);
    await writeFile(join(dir, '.gitignore'), 'build/\n*.log\n');
    await writeFile(join(dir, 'tracked.txt'), 'one\n');
    await writeFile(join(dir, 'doomed.txt'), 'bye\n');
    await git.run(['add', '.']);
    await git.run(['commit', '-q', '-m', 'Initial']);
    base = await git.headSha();
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('commits tracked changes, deletions and new files, never ignored or excluded ones', async () => {
    await writeFile(join(dir, '.git', 'info', 'exclude'), 'GEMINI.local.md\n');
    await writeFile(join(dir, 'GEMINI.local.md'), '# task: secret instructions\n');
    await writeFile(join(dir, 'tracked.txt'), 'two\n');
    await unlink(join(dir, 'doomed.txt'));
    await mkdir(join(dir, 'src'));
    await writeFile(join(dir, 'src', 'new file.ts'), 'export {};\n');
    await mkdir(join(dir, 'build'));
    await writeFile(join(dir, 'build', 'out.js'), 'x\n');
    await writeFile(join(dir, 'debug.log'), 'x\n');
    // The export is the agent's own commit (as its user): hooks that could refuse it are skipped.
    const marker = join(dir, 'hook-ran');
    for (const hook of ['pre-commit', 'commit-msg']) {
      await writeFile(join(dir, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
      await chmod(join(dir, '.git', 'hooks', hook), 0o755);
    }

    const committed = await commitLeftovers(dir, 'Save uncommitted work', {
      name: 'Bot',
      email: 'bot@example.com',
    });

    expect(committed).toBe(true);
    const files = await filesChanged(dir, base, 'HEAD');
    expect(files.sort()).toEqual(['doomed.txt', 'src/new file.ts', 'tracked.txt']);
    expect(await git.output(['ls-tree', '-r', '--name-only', 'HEAD'])).not.toContain('GEMINI.local.md');
    expect(await git.output(['log', '-1', '--format=%an <%ae>|%cn <%ce>|%B'])).toBe(
      'Bot <bot@example.com>|Bot <bot@example.com>|Save uncommitted work\n',
    );
    await expect(stat(marker)).rejects.toThrow();
    // The excluded and ignored files are still there, just not committed.
    expect(await readFile(join(dir, 'GEMINI.local.md'), 'utf8')).toContain('secret');
    expect(await git.output(['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(await commitLeftovers(dir, 'again')).toBe(false);
  });

  it('bundles what the agent made for the action to fetch: HEAD over the base, nothing when HEAD is the base', async () => {
    const bundle = join(dir, '..', `${dir.split('/').at(-1) ?? 'x'}.bundle`);
    const opts = { worktree: dir, runAs: [], home: dir, path: process.env.PATH ?? '/usr/bin:/bin', bundle };
    expect(await exportWork({ ...opts, base, message: 'none' })).toEqual({
      head: base,
      bundled: false,
      leftoverCommitted: false,
    });
    await writeFile(join(dir, 'new.txt'), 'left over\n');
    const r = await exportWork({ ...opts, base, message: 'Leftovers' });
    expect(r).toMatchObject({ bundled: true, leftoverCommitted: true });
    const heads = await git.output(['bundle', 'list-heads', bundle]);
    expect(heads).toBe(`${r.head} HEAD`);
    await rm(bundle, { force: true });
  });

  it('returns false on a clean tree and uses the repository identity by default', async () => {
    expect(await commitLeftovers(dir, 'nothing')).toBe(false);
    expect(await git.headSha()).toBe(base);
    await writeFile(join(dir, 'tracked.txt'), 'three\n');
    expect(await commitLeftovers(dir, 'Leftovers')).toBe(true);
    expect(await git.output(['log', '-1', '--format=%an|%s'])).toBe('Repo User|Leftovers');
  });

  it('lists commits oldest first, merges included, and the files they changed', async () => {
    await writeFile(join(dir, 'a.txt'), 'a\n');
    await git.run(['add', 'a.txt']);
    await git.run(['commit', '-q', '-m', 'First\n\nwith body']);
    await git.run(['checkout', '-q', '-b', 'side', base]);
    await writeFile(join(dir, 'b.txt'), 'b\n');
    await git.run(['add', 'b.txt']);
    await git.run(['commit', '-q', '-m', 'Side']);
    await git.run(['checkout', '-q', 'main']);
    await git.run(['merge', '-q', '--no-ff', '-m', 'Merge side', 'side']);
    await git.run(['mv', 'tracked.txt', 'renamed.txt']);
    await git.run(['commit', '-q', '-m', 'Rename']);

    const commits = await listCommits(dir, base, 'HEAD');
    expect(commits.map((c) => c.subject).slice(2)).toEqual(['Merge side', 'Rename']);
    expect(
      commits
        .map((c) => c.subject)
        .slice(0, 2)
        .sort(),
    ).toEqual(['First', 'Side']);
    // Oldest first: every parent inside the range comes before its child.
    commits.forEach((c, i) => {
      for (const p of c.parents) {
        const at = commits.findIndex((x) => x.sha === p);
        expect(at === -1 ? p : at < i).toBe(at === -1 ? base : true);
      }
    });
    const first = commits.find((c) => c.subject === 'First');
    expect(first?.message).toBe('First\n\nwith body\n');
    expect(first?.parents).toEqual([base]);
    expect(first?.authorName).toBe('Repo User');
    expect(first?.authorDate).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(commits[2]?.parents).toHaveLength(2);
    expect(commits.at(-1)?.sha).toBe(await git.headSha());
    expect((await filesChanged(dir, base, 'HEAD')).sort()).toEqual([
      'a.txt',
      'b.txt',
      'renamed.txt',
      'tracked.txt',
    ]);
    expect(await listCommits(dir, 'HEAD', 'HEAD')).toEqual([]);
    expect(await filesChanged(dir, 'HEAD', 'HEAD')).toEqual([]);
  });

  it('parses log records whose messages contain odd characters', () => {
    const out =
      'abc\x1fp1 p2\x1fA\x1fa@x\x1f2024-01-01T00:00:00+02:00\x1fSubj\n\nBody | with ; stuff\n\x1e\n';
    expect(parseCommitLog(out)).toEqual([
      {
        sha: 'abc',
        parents: ['p1', 'p2'],
        authorName: 'A',
        authorEmail: 'a@x',
        authorDate: '2024-01-01T00:00:00+02:00',
        subject: 'Subj',
        message: 'Subj\n\nBody | with ; stuff\n',
      },
    ]);
  });
});
