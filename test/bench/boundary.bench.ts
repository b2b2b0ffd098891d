/**
 * BENCH boundary-git-ms: what it costs to take the agent's commits across the boundary as data, on a repository of
 * 2,000 files and 200 commits with a 5-commit run on top: the vault made from the workspace's object files, the
 * export (leftover commit and bundle, here as this user), the bundle copied out and fetched with fsck, the commits
 * and files listed in the vault, and the workspace's .git rebuilt. Baseline, in the same run on a copy of the same
 * repository: what the product did before (leftover commit and listing in the workspace itself).
 * `node --import tsx test/bench/boundary.bench.ts` (RUNS=<n> for more samples; medians are printed).
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesChanged, listCommits } from '../../src/git/commits.js';
import { exportWork } from '../../src/git/export.js';
import { Git } from '../../src/git/git.js';
import { createVault, importBundle } from '../../src/git/vault.js';
import { inspectWorkspace, rebuildWorkspaceGit } from '../../src/git/workspace.js';
import { copyAgentFile, ownerUids } from '../../src/util/agent-file.js';
import { bench, median } from './lib.js';

process.env.GIT_CONFIG_GLOBAL = '/dev/null';
process.env.GIT_CONFIG_NOSYSTEM = '1';
const RUNS = Number(process.env.RUNS ?? 5);
const IDENTITY = { name: 'Bench', email: 'bench@example.invalid' };

async function buildRepo(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const git = Git.create(dir);
  await git.run(['init', '-q', '-b', 'main']);
  for (const [k, v] of [
    ['user.name', 'Bench'],
    ['user.email', 'bench@example.invalid'],
    ['gc.auto', '0'],
  ] as const) {
    await git.run(['config', k, v]);
  }
  for (let c = 0; c < 200; c++) {
    for (let f = 0; f < (c === 0 ? 2000 : 10); f++) {
      const n = c === 0 ? f : (c * 7 + f) % 2000;
      await mkdir(join(dir, 'src', String(n % 40)), { recursive: true });
      await writeFile(
        join(dir, 'src', String(n % 40), `f${n}.ts`),
        `export const v${n} = ${c};\n`.repeat(20),
      );
    }
    await git.run(['add', '-A']);
    await git.run(['commit', '-q', '-m', `Change ${c}`]);
  }
  await git.run(['gc', '-q']);
  return git.headSha();
}

/** The agent's work: 5 commits and something left uncommitted. */
async function agentWork(dir: string): Promise<void> {
  const git = Git.create(dir);
  for (let c = 0; c < 5; c++) {
    await writeFile(join(dir, `agent-${c}.ts`), `export const a${c} = ${c};\n`);
    await git.run(['add', '-A']);
    await git.run(['commit', '-q', '-m', `Agent ${c}`]);
  }
  await writeFile(join(dir, 'left.ts'), 'left\n');
}

const root = await mkdtemp(join(tmpdir(), 'bench-boundary-'));
try {
  const template = join(root, 'template');
  const base = await buildRepo(template);
  const baseline: number[] = [];
  const product: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    // Before: the leftover commit and the listing in the workspace, with the action's rights.
    const old = join(root, `old-${i}`);
    await cp(template, old, { recursive: true });
    await agentWork(old);
    let t0 = performance.now();
    const oldGit = Git.forUntrusted(old);
    await oldGit.run(['add', '--all']);
    await oldGit.run(['commit', '-q', '--no-verify', '-m', 'leftovers'], {
      env: {
        GIT_AUTHOR_NAME: 'B',
        GIT_AUTHOR_EMAIL: 'b@x',
        GIT_COMMITTER_NAME: 'B',
        GIT_COMMITTER_EMAIL: 'b@x',
      },
    });
    const oldHead = await oldGit.headSha();
    await listCommits(old, base, oldHead);
    await filesChanged(old, base, oldHead);
    baseline.push(performance.now() - t0);

    // Now: vault before the run, export after it, import, list, rebuild.
    const work = join(root, `new-${i}`);
    const run = join(root, `run-${i}`);
    await cp(template, work, { recursive: true });
    await mkdir(run, { mode: 0o700 });
    t0 = performance.now();
    const snapshot = await inspectWorkspace(work, join(run, 'workspace-git'));
    const vault = await createVault({ worktree: work, dir: join(run, 'vault.git'), objectFormat: 'sha1' });
    const before = performance.now() - t0;
    await agentWork(work);
    t0 = performance.now();
    const bundle = join(root, `agent-${i}.bundle`);
    const exported = await exportWork({
      worktree: work,
      runAs: [],
      home: root,
      path: process.env.PATH ?? '/usr/bin:/bin',
      base,
      bundle,
      identity: IDENTITY,
      message: 'leftovers',
    });
    if (!exported.bundled) throw new Error(`export failed: ${exported.problem ?? '?'}`);
    const copy = join(run, 'agent.bundle');
    await copyAgentFile(bundle, copy, { root, uids: ownerUids(undefined), maxBytes: 1 << 30 });
    const head = await importBundle(vault, copy);
    const commits = await listCommits(vault.dir, base, head);
    await filesChanged(vault.dir, base, head);
    await rebuildWorkspaceGit({ snapshot, vault: vault.dir });
    product.push(before + performance.now() - t0);
    if (commits.length !== 6) throw new Error(`expected 6 commits, got ${commits.length}`);
    await rm(old, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
    await rm(run, { recursive: true, force: true });
  }
  const value = median(product);
  const base0 = median(baseline);
  bench(
    'boundary-git-ms',
    Math.round(value),
    'ms',
    `vault + export as the agent + fsck'd import + listing + .git rebuild, 2,000 files / 200 commits, median of ${RUNS}; baseline: leftover commit and listing in the workspace (the old path), same repository`,
    { baseline: Math.round(base0), ratio: value / base0 },
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
