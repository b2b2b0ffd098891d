/**
 * The workspace rebuild removes the repositories an agent nests in the worktree (issue 39): a `sub/.git` directory
 * in a tracked directory, an untracked `pkg/.git`, a `gitdir:` file pointing at a repository elsewhere, a `.git`
 * link, a tracked directory made repository-shaped with untracked `HEAD`/`objects`/`refs`/`config`, and one inside
 * a directory the agent closed. Each sets `core.fsmonitor` to a command that writes a marker; a later step's
 * `git status` in each runs none of them (checked to run before the rebuild). A bare repository the project itself
 * tracks (a test fixture) stays as it is, and so does a second checkout an earlier step made in the workspace and
 * the run left alone; one the agent gave an fsmonitor goes, and so does one whose own hook an earlier step set.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVault } from '../../src/git/vault.js';
import { inspectWorkspace, rebuildWorkspaceGit } from '../../src/git/workspace.js';
import { exec } from '../../src/util/exec.js';
import { pathExists } from '../../src/util/fs.js';
import { createWorkRepo, scrubbedGitEnv, type WorkRepo } from '../harness/repo.js';

const FIXTURE = 'fixtures/repo.git';

describe('the workspace rebuild and nested repositories', () => {
  let repo: WorkRepo | undefined;
  let tmp: string | undefined;
  afterEach(async () => {
    if (repo) await exec('chmod', ['-R', 'u+rwx', repo.dir], { allowAllExitCodes: true });
    await repo?.[Symbol.asyncDispose]();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('removes every nested repository the agent left, names it, and keeps a tracked fixture', async () => {
    repo = await createWorkRepo({
      files: {
        'sub/a.txt': 'a\n',
        'lib/b.txt': 'b\n',
        'closed/c.txt': 'c\n',
        [`${FIXTURE}/HEAD`]: 'ref: refs/heads/main\n',
        [`${FIXTURE}/objects/.keep`]: '',
        [`${FIXTURE}/refs/.keep`]: '',
      },
    });
    tmp = await mkdtemp(join(tmpdir(), 'gemini-run-nested-'));
    const marker = join(tmp, 'fsmonitor-ran');
    const fsmonitor = `echo "$PWD" >> ${marker}; false`;
    // Second checkouts an earlier step made in the workspace: one to keep, one the agent shapes, one with a hook.
    const clone = (name: string) =>
      exec('git', ['clone', '-q', repo!.originDir, join(repo!.dir, name)], { env: scrubbedGitEnv() });
    for (const name of ['tools', 'shaped', 'hooked']) await clone(name);
    await writeFile(join(repo.dir, 'hooked', '.git', 'hooks', 'post-checkout'), '#!/bin/sh\ntrue\n', {
      mode: 0o755,
    });
    const snapshot = await inspectWorkspace(repo.dir, join(tmp, 'workspace-git'));
    const vault = await createVault({
      worktree: repo.dir,
      dir: join(tmp, 'vault.git'),
      objectFormat: 'sha1',
    });

    // The agent's doing: repositories for whoever runs git below the workspace next.
    const git = (cwd: string, args: string[]) => exec('git', args, { cwd, env: scrubbedGitEnv() });
    const plant = async (dir: string) => {
      await mkdir(dir, { recursive: true });
      await git(dir, ['init', '-q']);
      await git(dir, ['config', 'core.fsmonitor', fsmonitor]);
    };
    await plant(join(repo.dir, 'sub'));
    await plant(join(repo.dir, 'pkg'));
    await git(join(repo.dir, 'shaped'), ['config', 'core.fsmonitor', fsmonitor]);
    const elsewhere = join(tmp, 'elsewhere');
    await plant(elsewhere);
    await writeFile(join(repo.dir, 'lib', '.git'), `gitdir: ${join(elsewhere, '.git')}\n`);
    await mkdir(join(repo.dir, 'linked'));
    await symlink(join(elsewhere, '.git'), join(repo.dir, 'linked', '.git'));
    // `src` is tracked: the agent adds a repository's own files around its sources, and a work tree to it.
    const src = join(repo.dir, 'src');
    await git(src, ['init', '-q', '--bare', '.']);
    for (const [k, v] of [
      ['core.bare', 'false'],
      ['core.worktree', src],
      ['core.fsmonitor', fsmonitor],
    ])
      await git(src, ['config', '--file', 'config', k!, v!]);
    await plant(join(repo.dir, 'closed', 'deep'));
    await chmod(join(repo.dir, 'closed', 'deep'), 0o555);
    await chmod(join(repo.dir, 'closed'), 0o555);

    const laterStep = (rel: string) => git(join(repo!.dir, rel), ['status', '--porcelain']);
    const planted = ['sub', 'pkg', 'lib', 'linked', 'src', 'closed/deep', 'shaped'];
    // Before the rebuild each of them runs its fsmonitor in a later step: what the test would miss otherwise.
    for (const rel of planted) await laterStep(rel);
    const ranBefore = new Set((await readFile(marker, 'utf8')).trim().split('\n'));
    expect(ranBefore).toEqual(new Set(planted.map((rel) => join(repo!.dir, rel))));
    await rm(marker);

    const report = await rebuildWorkspaceGit({ snapshot, vault: vault.dir });

    expect(report.removed).toEqual([
      'closed/deep/.git',
      'hooked/.git',
      'lib/.git',
      'linked/.git',
      'pkg/.git',
      'shaped/.git',
      'src/HEAD',
      'sub/.git',
    ]);
    expect(report.removedPreexisting.sort()).toEqual(['hooked/.git', 'shaped/.git']);
    // The clones' own fixture comes with each: untouched, it stays (their index tracks it, which we do not read).
    expect(report.kept).toEqual([
      'hooked/fixtures/repo.git',
      'shaped/fixtures/repo.git',
      'tools/.git',
      'tools/fixtures/repo.git',
    ]);
    expect(report.trackedShapes).toEqual([FIXTURE]);
    expect(report.problems).toEqual([]);
    for (const rel of planted) {
      const r = await laterStep(rel);
      expect(r.exitCode, `${rel}: ${r.stderr}`).toBe(0);
    }
    expect(await pathExists(marker)).toBe(false);
    // Nothing else went: the agent's other files, the tracked fixture, the repository the link pointed at.
    expect(await pathExists(join(repo.dir, 'pkg'))).toBe(true);
    expect(await pathExists(join(repo.dir, 'src', 'greet.js'))).toBe(true);
    expect(await pathExists(join(repo.dir, FIXTURE, 'HEAD'))).toBe(true);
    expect(await pathExists(join(elsewhere, '.git', 'HEAD'))).toBe(true);
    const top = await laterStep('.');
    expect(top.exitCode).toBe(0);
    // The kept checkout works as before for a later step.
    const tools = await laterStep('tools');
    expect(tools.exitCode, tools.stderr).toBe(0);
    expect(tools.stdout).toBe('');
    expect((await git(join(repo.dir, 'tools'), ['rev-parse', '--show-toplevel'])).stdout.trim()).toBe(
      join(repo.dir, 'tools'),
    );
    expect(top.stdout).toContain('?? src/config');
  });
});
