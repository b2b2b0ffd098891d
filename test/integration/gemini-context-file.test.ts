import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTEXT_FILE_NAME,
  detectConventions,
  installSkills,
  removeContextFile,
  removeInstalledSkills,
  renderContextFile,
  previousRunOf,
  writeContextFile,
} from '../../src/gemini/context-file.js';
import type { Task } from '../../src/domain/types.js';
import { exec } from '../../src/util/exec.js';

const task: Task = {
  title: 'Fix the\nlogin bug',
  instruction: 'Please fix the crash on empty passwords.',
  body: 'Steps: open login, submit empty password.',
  comments: [
    { author: 'alice', body: 'Happens on Safari too.' },
    { author: 'bob', body: 'See `auth.ts` line 40.' },
  ],
  source: { kind: 'issue', number: 7, url: 'https://github.com/o/r/issues/7' },
};

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env))
    if (/^GIT_(DIR|WORK_TREE|INDEX_FILE|COMMON_DIR|OBJECT_DIRECTORY)$/.test(k)) delete env[k];
  return {
    ...env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@x',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@x',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
}
const git = (cwd: string, ...args: string[]) => exec('git', args, { cwd, env: gitEnv() });

let dir: string;
let repo: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gr-ctx-'));
  repo = join(dir, 'repo');
  await fs.mkdir(repo);
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'config', 'gc.auto', '0');
  await fs.writeFile(join(repo, 'README.md'), 'hi\n');
  await git(repo, 'add', '.');
  await git(repo, 'commit', '-q', '-m', 'init');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderContextFile', () => {
  it('places a review comment in its file, line and hunk, and standing instructions after the task', () => {
    const md = renderContextFile(
      {
        ...task,
        anchor: { path: 'src/a.ts', line: 12, diffHunk: '@@ -10,3 +10,3 @@\n-old ```x```\n+new' },
        standingInstructions: 'Write commit subjects in the imperative.',
      },
      [],
    );
    expect(md).toContain('The comment is on `src/a.ts` line 12.');
    expect(md).toMatch(/````diff\n@@ -10,3 \+10,3 @@\n-old ```x```\n\+new\n````/);
    const rules = md.indexOf('## Standing instructions');
    expect(rules).toBeGreaterThan(md.indexOf('### Discussion'));
    expect(md.slice(rules)).toContain('Write commit subjects in the imperative.');
  });
  it('carries title, instruction, body, comments with authors, conventions and the done-rules', () => {
    const md = renderContextFile(task, ['Run the tests with `npm test` before committing.']);
    expect(md).toContain('## Fix the login bug');
    expect(md).toContain('Issue: #7 https://github.com/o/r/issues/7');
    expect(md).toContain('Please fix the crash on empty passwords.');
    expect(md).toContain('Steps: open login');
    expect(md).toMatch(/\*\*@alice\*\* wrote:\n\nHappens on Safari too\./);
    expect(md).toContain('**@bob**');
    expect(md).toContain('- Run the tests with `npm test`');
    expect(md).toMatch(/focused commits with clear messages/);
    expect(md).toMatch(/Do not push/);
    expect(md).toContain('Do not edit, commit or delete `GEMINI.local.md`');
    expect(md).toMatch(/short summary/);
  });
  it('omits empty sections and a body equal to the instruction', () => {
    const md = renderContextFile(
      { ...task, body: task.instruction, comments: [], source: { kind: 'local' } },
      [],
    );
    expect(md).not.toContain('### Description');
    expect(md).not.toContain('### Discussion');
    expect(md).not.toContain('## Repository conventions');
    expect(md).not.toContain('Issue:');
    expect(md).not.toContain('### Before this run');
  });

  it('tells the agent when the previous run stopped in the middle of its work, before the discussion', () => {
    const md = renderContextFile({ ...task, previousRun: { status: 'timed-out' } }, []);
    expect(md).toContain(
      '### Before this run\n\nThe previous run on this pull request was stopped at its time limit, in the middle of its work.',
    );
    expect(md.indexOf('### Before this run')).toBeLessThan(md.indexOf('### Discussion'));
    expect(md.indexOf('### Instruction')).toBeLessThan(md.indexOf('### Before this run'));
    expect(renderContextFile({ ...task, previousRun: { status: 'budget-exceeded' } }, [])).toContain(
      'was stopped at its token budget',
    );
  });

  it('tells of runs that stopped mid-work only, whatever status string it is handed', () => {
    expect(previousRunOf('timed-out')).toEqual({ status: 'timed-out' });
    expect(previousRunOf('quota-exhausted')).toEqual({ status: 'quota-exhausted' });
    for (const other of ['finished', 'auth-failed', undefined, 'toString', '__proto__', 'constructor']) {
      expect(previousRunOf(other), String(other)).toBeUndefined();
    }
  });
});

describe('detectConventions', () => {
  it('mentions convention files and how tests run', async () => {
    expect(await detectConventions(repo)).toEqual([]);
    await fs.writeFile(join(repo, 'AGENTS.md'), 'x');
    await fs.writeFile(join(repo, 'CONTRIBUTING.md'), 'x');
    await fs.writeFile(join(repo, 'package.json'), JSON.stringify({ scripts: { test: 'vitest' } }));
    await fs.writeFile(join(repo, 'pnpm-lock.yaml'), '');
    await fs.writeFile(join(repo, 'Makefile'), 'build:\n\ttrue\ntest:\n\ttrue\n');
    expect(await detectConventions(repo)).toEqual([
      'Follow the guidance in `AGENTS.md`, `CONTRIBUTING.md`.',
      'Run the tests with `pnpm test` before committing.',
      'Run the tests with `make test` before committing.',
    ]);
  });
});

describe('writeContextFile', () => {
  it('is invisible to git status, idempotently excluded, and removed after the run', async () => {
    const file = await writeContextFile(repo, task);
    expect(file).toBe(join(repo, CONTEXT_FILE_NAME));
    expect(await fs.readFile(file, 'utf8')).toContain('Please fix the crash');
    expect((await git(repo, 'status', '--porcelain', '--untracked-files=all')).stdout).toBe('');
    await writeContextFile(repo, task);
    const exclude = await fs.readFile(join(repo, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/GEMINI.local.md')).toHaveLength(1);
    // `git add -A` must not pick it up either.
    await git(repo, 'add', '-A');
    expect((await git(repo, 'diff', '--cached', '--name-only')).stdout).toBe('');
    await removeContextFile(repo);
    await expect(fs.access(file)).rejects.toThrow();
    await removeContextFile(repo);
  });

  it('refuses a repository that tracks GEMINI.local.md, leaving it untouched', async () => {
    await fs.writeFile(join(repo, CONTEXT_FILE_NAME), 'theirs\n');
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'track it');
    await expect(writeContextFile(repo, task)).rejects.toThrow(/tracks GEMINI\.local\.md/);
    expect(await fs.readFile(join(repo, CONTEXT_FILE_NAME), 'utf8')).toBe('theirs\n');
  });

  it('a missing skills folder is a UserError', async () => {
    await expect(installSkills(join(dir, 'nope'), repo)).rejects.toThrow(
      /skills folder .*nope does not exist/,
    );
  });

  it('works in a linked worktree (info/exclude lives in the common dir)', async () => {
    const wt = join(dir, 'wt');
    await git(repo, 'worktree', 'add', '-q', wt, '-b', 'run');
    await writeContextFile(wt, task);
    expect((await git(wt, 'status', '--porcelain', '--untracked-files=all')).stdout).toBe('');
    expect(await fs.readFile(join(repo, '.git', 'info', 'exclude'), 'utf8')).toContain('/GEMINI.local.md');
  });
});

describe('installSkills', () => {
  it('copies skills into .gemini/skills, keeps the repo\u2019s own, excludes and removes what it copied', async () => {
    const src = join(dir, 'skills');
    await fs.mkdir(join(src, 'review', 'refs'), { recursive: true });
    await fs.writeFile(join(src, 'review', 'SKILL.md'), '---\nname: review\n---\n');
    await fs.writeFile(join(src, 'review', 'refs', 'a.md'), 'a');
    await fs.mkdir(join(src, 'own'));
    await fs.writeFile(join(src, 'own', 'SKILL.md'), 'theirs');
    await fs.mkdir(join(repo, '.gemini', 'skills', 'own'), { recursive: true });
    await fs.writeFile(join(repo, '.gemini', 'skills', 'own', 'SKILL.md'), 'repo');
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'own skill');

    const copied = await installSkills(src, repo);
    expect(copied).toEqual(['.gemini/skills/review']);
    expect(await fs.readFile(join(repo, '.gemini', 'skills', 'review', 'refs', 'a.md'), 'utf8')).toBe('a');
    expect(await fs.readFile(join(repo, '.gemini', 'skills', 'own', 'SKILL.md'), 'utf8')).toBe('repo');
    expect((await git(repo, 'status', '--porcelain', '--untracked-files=all')).stdout).toBe('');
    await removeInstalledSkills(repo, copied);
    await expect(fs.access(join(repo, '.gemini', 'skills', 'review'))).rejects.toThrow();
    await fs.access(join(repo, '.gemini', 'skills', 'own', 'SKILL.md'));
  });
});
