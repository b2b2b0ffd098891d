import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Git, gitEnv, parseStatusPorcelain } from '../../src/git/git.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

describe('parseStatusPorcelain', () => {
  it('parses modified, untracked, renamed and odd paths', () => {
    const out = ' M b\0R  c d\0a\0?? new\0A  sp ace/"q"\0';
    expect(parseStatusPorcelain(out)).toEqual([
      { index: ' ', worktree: 'M', path: 'b' },
      { index: 'R', worktree: ' ', path: 'c d', origPath: 'a' },
      { index: '?', worktree: '?', path: 'new' },
      { index: 'A', worktree: ' ', path: 'sp ace/"q"' },
    ]);
  });
  it('returns nothing for a clean tree and rejects garbage', () => {
    expect(parseStatusPorcelain('')).toEqual([]);
    expect(() => parseStatusPorcelain('bogus')).toThrow(/unexpected git status entry/);
    expect(() => parseStatusPorcelain('R  x\0')).toThrow(/rename without a source/);
  });
});

describe('gitEnv', () => {
  it('drops repository-location variables and disables pagers and editors', () => {
    const env = gitEnv({
      PATH: '/bin',
      GIT_DIR: '/x',
      GIT_INDEX_FILE: '/i',
      GIT_CONFIG_KEY_0: 'a',
      GIT_AUTHOR_NAME: 'A',
    });
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_INDEX_FILE).toBeUndefined();
    expect(env.GIT_CONFIG_KEY_0).toBeUndefined();
    expect(env.GIT_AUTHOR_NAME).toBe('A');
    expect(env.PATH).toBe('/bin');
    expect(env.GIT_PAGER).toBe('cat');
    expect(env.GIT_EDITOR).toBe('true');
  });
});

describe('Git', () => {
  let dir: string;
  let git: Git;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'git-git-'));
    // An inherited GIT_DIR must not redirect us to another repository.
    git = Git.create(dir, { ...ENV, GIT_DIR: '/nonexistent' });
    await git.run(['init', '-q', '-b', 'main']);
    await git.run(['config', 'gc.auto', '0']);
    await git.run(['config', 'user.name', 'T']);
    await git.run(['config', 'user.email', 't@example.com']);
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the helper questions on a real repository', async () => {
    await writeFile(join(dir, 'a'), 'a\n');
    await git.run(['add', 'a']);
    await git.run(['commit', '-q', '-m', 'one']);
    const first = await git.headSha();
    expect(first).toMatch(/^[0-9a-f]{40}$/);
    await git.run(['commit', '-q', '--allow-empty', '-m', 'two']);
    expect(await git.revParse('HEAD~1')).toBe(first);
    expect(await git.tryRevParse('nope')).toBeUndefined();
    await expect(git.revParse('nope')).rejects.toThrow();
    expect(await git.currentBranch()).toBe('main');
    expect(await git.headRef()).toBe('refs/heads/main');
    expect(await git.isAncestor(first, 'HEAD')).toBe(true);
    expect(await git.isAncestor('HEAD', first)).toBe(false);
    expect(await git.remoteUrl('origin')).toBeUndefined();
    await git.run(['remote', 'add', 'origin', 'https://github.com/o/r.git']);
    expect(await git.remoteUrl('origin')).toBe('https://github.com/o/r.git');
    expect(await git.tryRun(['rev-parse', '--verify', 'nope'])).toBe(false);
    expect(await git.tryRun(['rev-parse', '--verify', 'HEAD'])).toBe(true);
    await writeFile(join(dir, 'a'), 'changed\n');
    await writeFile(join(dir, 'new file'), 'n\n');
    expect(await git.statusPorcelain()).toEqual([
      { index: ' ', worktree: 'M', path: 'a' },
      { index: '?', worktree: '?', path: 'new file' },
    ]);
    await git.run(['checkout', '-q', '--detach']);
    expect(await git.currentBranch()).toBeUndefined();
    expect(await git.objectFormat()).toBe('sha1');
  });

  it('never opens a pager or editor', async () => {
    await git.run(['commit', '-q', '--allow-empty', '-m', 'x']);
    const log = await git.run(['log'], { env: { GIT_PAGER: 'false', PAGER: 'false' }, timeoutMs: 10_000 });
    expect(log.stdout).toContain('x');
    // `commit --amend` without -m would wait for an editor; GIT_EDITOR=true keeps the message instead.
    const amend = await git.run(['commit', '--amend', '--allow-empty'], { timeoutMs: 10_000 });
    expect(amend.exitCode).toBe(0);
  });
});
