/**
 * `sign-commits` through the whole pipeline (issue 27): the run's commits re-created through the fake GitHub's
 * Git database API, which writes real objects into the bare origin. Every kind of change must come out the
 * same, tree for tree, as the agent made it; a refusal falls back to a plain push (or, `required`, to nothing
 * pushed); and a wrong tree from GitHub never moves the branch.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { ended, PipelineWorld, usePipelineWorld } from '../harness/pipeline-world.js';
import { scrubbedGitEnv } from '../harness/repo.js';

let w: PipelineWorld;
usePipelineWorld((world) => (w = world));

const gitIn = async (dir: string, args: string[]) =>
  (await exec('git', ['-C', dir, ...args], { env: scrubbedGitEnv() })).stdout;
const origin = (args: string[]) =>
  exec('git', ['--git-dir', w.world.repo.originDir, ...args], {
    env: scrubbedGitEnv(),
    allowAllExitCodes: true,
  });

const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
/** 3 MiB that no text filter would leave alone: every byte value, NULs and CRs included. */
const BIG = Buffer.alloc(3 * 1024 * 1024, 0).map((_, i) => (i * 7 + (i >> 11)) % 256);
const FIRST_MESSAGE =
  'Every kind of change\n\nA body with  two spaces,\ttabs and ünïcödé.\n\nCo-authored-by: Gemini <gemini@google.com>\n';

/** What main holds before the run: the files the agent then renames, deletes, re-modes and replaces. */
async function seedMain(): Promise<void> {
  const dir = w.world.repo.dir;
  await writeFile(join(dir, 'keep.txt'), 'kept\n');
  await writeFile(join(dir, 'old-name.txt'), 'moved, same content\n');
  await writeFile(join(dir, 'gone.txt'), 'deleted\n');
  await writeFile(join(dir, 'script.sh'), '#!/bin/sh\necho hi\n');
  await writeFile(join(dir, 'a'), 'a file, later a directory\n');
  await w.world.repo.git(['add', '-A']);
  await w.world.repo.git(['commit', '--quiet', '-m', 'Base files']);
  await w.world.repo.git(['push', '--quiet', 'origin', 'main']);
  await w.world.checkout();
}

/** The agent's two commits: every kind of change GitHub's trees must carry. */
async function everyKind(dir: string, git: (args: string[]) => Promise<string>): Promise<void> {
  await writeFile(join(dir, 'keep.txt'), 'kept, and changed\r\nwith a CR\n');
  await mkdir(join(dir, 'moved', 'deeper'), { recursive: true });
  await git(['mv', 'old-name.txt', 'moved/deeper/name.txt']);
  await git(['rm', '--quiet', 'gone.txt']);
  await chmod(join(dir, 'script.sh'), 0o755);
  await writeFile(join(dir, 'bytes.bin'), BYTES);
  await writeFile(join(dir, 'empty'), '');
  await symlink('keep.txt', join(dir, 'link'));
  await writeFile(join(dir, 'big.bin'), BIG);
  await writeFile(join(dir, 'ünï cödé name.txt'), 'ü\n');
  await git(['add', '--all']);
  await git(['commit', '--quiet', '-m', FIRST_MESSAGE]);
  await writeFile(join(dir, 'bytes.bin'), Buffer.concat([BYTES, Buffer.from(BYTES).reverse()]));
  await rm(join(dir, 'link'));
  await symlink('moved/deeper/name.txt', join(dir, 'link'));
  await chmod(join(dir, 'script.sh'), 0o644);
  await rm(join(dir, 'a'));
  await mkdir(join(dir, 'a'));
  await writeFile(join(dir, 'a', 'b'), 'where a file was\n');
  await git(['add', '--all']);
  await git(['commit', '--quiet', '-m', 'Second round']);
}

/** The trees of the same work done in a fresh clone of main: what GitHub's commits must have, in order. */
async function expectedTrees(): Promise<string[]> {
  const dir = await mkdtemp(join(w.world.tmp, 'replay-'));
  await exec('git', ['clone', '--quiet', w.world.repo.originDir, dir], { env: scrubbedGitEnv() });
  const git = (args: string[]) =>
    gitIn(dir, ['-c', 'user.name=x', '-c', 'user.email=x@example.com', ...args]);
  await everyKind(dir, git);
  await writeFile(join(dir, 'left.md'), 'left over\n');
  await git(['add', '--all']);
  await git(['commit', '--quiet', '-m', 'Leftover']);
  return (await gitIn(dir, ['log', '--reverse', '--format=%T', 'origin/main..HEAD'])).trim().split('\n');
}

const play = { act: everyKind, leftovers: { 'left.md': 'left over\n' } };
const BRANCH = 'gemini-run/issue-1';

describe('sign-commits (issue 27)', () => {
  it('every kind of change round-trips: GitHub signs each commit, tree for tree, messages as scrubbed', async () => {
    await seedMain();
    const r = await w.run({ play, inputs: { 'sign-commits': 'true' } });
    const { outputs } = ended(r);
    expect(outputs.status, r.log.join('\n')).toBe('finished');
    expect(outputs['pull-request-operation']).toBe('created');

    const tip = (await origin(['rev-parse', `refs/heads/${BRANCH}`])).stdout.trim();
    expect(outputs['head-sha']).toBe(tip);
    const trees = (await origin(['log', '--reverse', '--format=%T', `main..${BRANCH}`])).stdout
      .trim()
      .split('\n');
    expect(trees).toEqual(await expectedTrees());

    // Each is GitHub's: signed by web-flow, the token's user as author, parents chained onto main.
    const raw = (
      await origin(['log', '--reverse', '--format=%an|%cn <%ce>|%G?%x00%B%x01', `main..${BRANCH}`])
    ).stdout;
    const commits = raw
      .split('\x01')
      .map((s) => s.replace(/^\n/, ''))
      .filter(Boolean);
    expect(commits).toHaveLength(3);
    for (const c of commits)
      expect(c.split('\0')[0]).toMatch(/^github-actions\[bot\]\|GitHub <noreply@github\.com>\|/);
    const objects = await Promise.all(
      ['~2', '~1', ''].map(async (n) => (await origin(['cat-file', 'commit', `${BRANCH}${n}`])).stdout),
    );
    for (const o of objects) expect(o).toMatch(/^gpgsig -----BEGIN PGP SIGNATURE-----$/m);
    expect(commits[0]!.split('\0')[1]).toBe(
      'Every kind of change\n\nA body with  two spaces,\ttabs and ünïcödé.\n',
    );
    expect(commits[1]!.split('\0')[1]).toBe('Second round\n');
    expect((await origin(['rev-parse', `${BRANCH}~3`])).stdout.trim()).toBe(
      (await origin(['rev-parse', 'main'])).stdout.trim(),
    );

    // The bytes, modes and links themselves (the tree shas above already imply them; this says which is which).
    const ls = (await origin(['ls-tree', '-r', BRANCH])).stdout;
    expect(ls).toMatch(/^120000 blob \w+\tlink$/m);
    expect(ls).toMatch(/^100644 blob \w+\tscript\.sh$/m);
    expect(ls).toMatch(/^100644 blob e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\tempty$/m);
    expect((await origin(['cat-file', 'blob', `${BRANCH}:link`])).stdout).toBe('moved/deeper/name.txt');
    expect((await origin(['ls-tree', `${BRANCH}~2`, 'script.sh'])).stdout).toMatch(/^100755 /);
    const big = await exec(
      'git',
      ['--git-dir', w.world.repo.originDir, 'cat-file', 'blob', `${BRANCH}:big.bin`],
      {
        env: scrubbedGitEnv(),
      },
    );
    expect(big.stdoutBytes!.equals(BIG)).toBe(true);

    // The PR, the summary and the run record name GitHub's commits, not the vault's.
    const pull = w.github.pulls()[0]!;
    const short = (await origin(['log', '--format=%h', '--abbrev=7', `main..${BRANCH}`])).stdout
      .trim()
      .split('\n');
    for (const s of short) expect(pull.body ?? '').toContain(`\`${s}\``);
    expect(r.log.join('\n')).toMatch(/Re-created 3 commit\(s\) through GitHub's API/);
    // Only new content is sent (not the renamed file, not the re-moded one): the 7 small texts (links too) inside
    // the tree requests, the 3 binaries as blobs.
    expect(r.log.join('\n')).toMatch(/\(7 file\(s\) sent in trees, 3 as blobs; 10 request\(s\)\)/);
    const blobs = w.requestsOf(r).filter((q) => q.method === 'POST' && q.path.endsWith('/git/blobs'));
    expect(blobs.length).toBe(3);
  });

  it('GitHub refuses the API: a plain push with a warning, and the pull request opens', async () => {
    w.github.failNext({ method: 'POST', path: /\/git\/trees$/, kind: 'forbidden' });
    const r = await w.run({
      play: { commits: { 'Add it': { 'n.md': 'n\n' } } },
      inputs: { 'sign-commits': 'true' },
    });
    const { outputs } = ended(r);
    expect(outputs.status).toBe('finished');
    expect(r.log.join('\n')).toMatch(
      /Could not re-create the commits signed \(GitHub refused to create a tree: 403 Resource not accessible by integration\); pushing them unsigned instead\./,
    );
    const tip = (await origin(['cat-file', 'commit', `refs/heads/${BRANCH}`])).stdout;
    expect(tip).not.toMatch(/^gpgsig/m);
    // The vault's commit as settled: the run's identity (rewrite-author), not the agent's.
    expect(tip).toMatch(/^author github-actions\[bot\] </m);
    expect(outputs['head-sha']).toBe((await origin(['rev-parse', BRANCH])).stdout.trim());
  });

  it("a head GitHub has already (the agent moved its branch to a person's) is pointed at, even under 'required'", async () => {
    // A person's branch on origin; the agent takes it as its own work, making no commit of its own.
    const feature = await w.world.pushAsPerson(
      'feature',
      { 'feature.txt': "a person's work\n" },
      'A person adds a feature',
    );
    const takeFeature = async (_: string, git: (args: string[]) => Promise<string>) => {
      await git(['fetch', '--quiet', 'origin', 'feature']);
      await git(['reset', '--quiet', '--hard', 'FETCH_HEAD']);
    };
    const r = await w.run({ play: { act: takeFeature }, inputs: { 'sign-commits': 'required' } });
    expect(ended(r).outputs, r.log.join('\n')).toMatchObject({ status: 'finished', 'head-sha': feature });
    expect(r.log.join('\n')).toMatch(
      /Nothing to re-create: gemini-run\/issue-1 is at [0-9a-f]{12}, which GitHub has/,
    );
    expect((await origin(['rev-parse', `refs/heads/${BRANCH}`])).stdout.trim()).toBe(feature);
    expect(w.github.pulls().map((p) => p.head)).toEqual([BRANCH]);
    expect(w.github.pulls()[0]?.body).toContain(
      `No commits of the run's own: its branch is at \`${feature.slice(0, 7)}\`, already on GitHub.`,
    );
  });

  it("a wrong tree from GitHub moves nothing; under 'required' nothing is pushed and the issue says why", async () => {
    w.github.corruptTrees = true;
    const r = await w.run({
      play: { commits: { 'Add it': { 'n.md': 'n\n', 'm.md': 'm\n' } } },
      inputs: { 'sign-commits': 'required' },
    });
    const { outputs, failure } = ended(r);
    expect(outputs).toMatchObject({ status: 'publish-failed', 'pr-url': '', branch: '', 'head-sha': '' });
    expect(failure).toMatch(
      /could not be re-created signed, and sign-commits is 'required': GitHub built the tree/,
    );
    expect((await origin(['rev-parse', '--verify', '--quiet', `refs/heads/${BRANCH}`])).exitCode).not.toBe(0);
    expect(w.requestsOf(r).filter((q) => q.path.includes('/git/refs'))).toEqual([]);
    expect(w.github.pulls()).toEqual([]);
    const said = w.github
      .comments(1)
      .map((c) => c.body)
      .join('\n');
    expect(said).toMatch(/`sign-commits: required`/);
    expect(said).toMatch(/gemini-run\.bundle/);
  });

  it("a wrong tree under 'true': the plain push instead, never GitHub's wrong commit", async () => {
    w.github.corruptTrees = true;
    const r = await w.run({
      play: { commits: { 'Add it': { 'n.md': 'n\n', 'm.md': 'm\n' } } },
      inputs: { 'sign-commits': 'true' },
    });
    expect(ended(r).outputs.status).toBe('finished');
    expect(r.log.join('\n')).toMatch(
      /GitHub built the tree \w+ for commit \w+, whose tree is \w+; nothing was moved/,
    );
    expect((await origin(['ls-tree', '--name-only', BRANCH])).stdout).toMatch(/^m\.md$/m);
  });
});
