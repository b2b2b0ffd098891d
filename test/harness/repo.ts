/**
 * Throw-away git repositories for tests: a work repository with one commit on `main` whose `origin` is a bare
 * repository, both in temp dirs, removed by the async disposer.
 */
import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { exec } from '../../src/util/exec.js';

export interface WorkRepo {
  dir: string;
  originDir: string;
  /** The scrubbed environment git runs with (exported so tests start other git-using processes alike). */
  env: Record<string, string>;
  /** Runs git in `dir`; resolves stdout, rejects on a non-zero exit. */
  git(args: readonly string[]): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface WorkRepoOptions {
  /** Basename of the work dir (the CLI derives its project slug from it). Default `work`. */
  name?: string;
  /** Extra files for the initial commit: relative path → content. */
  files?: Record<string, string>;
}

export const INITIAL_FILES: Record<string, string> = {
  'README.md': '# Sample project\n\nA tiny repository for gemini-run tests.\n',
  'src/greet.js': 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
};

/** Environment for git with every variable that could point it at another repository removed. Exported for tests. */
export function scrubbedGitEnv(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) {
    if (v === undefined) continue;
    if (/^GIT_/.test(k)) continue; // GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY, GIT_CONFIG_* ...
    env[k] = v;
  }
  // Keep the user's global/system config out: tests must not depend on (or sign with) the host's setup.
  env['GIT_CONFIG_NOSYSTEM'] = '1';
  env['GIT_CONFIG_GLOBAL'] = '/dev/null';
  return env;
}

/** A repository as files: each one's path below the root, mode and bytes; the empty directories too. */
interface Snapshot {
  root: string;
  dirs: string[];
  files: { rel: string; mode: number; data: Buffer }[];
}

/**
 * Built repositories by options, one per process: each later repository of the same options is written from the
 * snapshot (the same commit) instead of built by 13 git processes again.
 */
const snapshots = new Map<string, Promise<Snapshot>>();

async function buildRepo(root: string, opts: WorkRepoOptions, env: Record<string, string>): Promise<void> {
  const dir = join(root, opts.name ?? 'work');
  const originDir = join(root, 'origin.git');
  const run = (cwd: string, args: readonly string[]) => exec('git', args, { cwd, env });
  await mkdir(dir, { recursive: true });
  await run(root, ['init', '--bare', '--quiet', '--initial-branch=main', originDir]);
  await run(dir, ['init', '--quiet', '--initial-branch=main']);
  for (const [k, v] of [
    ['user.name', 'Test User'],
    ['user.email', 'test-user@example.invalid'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['commit.gpgsign', 'false'],
  ] as const) {
    await run(dir, ['config', k, v]);
  }
  await run(originDir, ['config', 'gc.auto', '0']);
  const files = { ...INITIAL_FILES, ...opts.files };
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(join(dir, rel, '..'), { recursive: true });
    await writeFile(join(dir, rel), content);
  }
  await run(dir, ['add', '-A']);
  await run(dir, ['commit', '--quiet', '-m', 'Initial commit']);
  await run(dir, ['remote', 'add', 'origin', originDir]);
  await run(dir, ['push', '--quiet', '-u', 'origin', 'main']);
}

async function readSnapshot(root: string): Promise<Snapshot> {
  const snap: Snapshot = { root, dirs: [], files: [] };
  for (const e of await readdir(root, { recursive: true, withFileTypes: true })) {
    const rel = relative(root, join(e.parentPath, e.name));
    if (e.isDirectory()) snap.dirs.push(rel);
    else {
      const abs = join(root, rel);
      snap.files.push({ rel, mode: (await stat(abs)).mode & 0o777, data: await readFile(abs) });
    }
  }
  return snap;
}

function snapshotOf(opts: WorkRepoOptions, env: Record<string, string>): Promise<Snapshot> {
  const key = JSON.stringify([opts.name, opts.files]);
  let snap = snapshots.get(key);
  if (!snap) {
    snap = (async () => {
      const root = await mkdtemp(join(tmpdir(), 'gemini-run-repo-'));
      try {
        await buildRepo(root, opts, env);
        return await readSnapshot(root);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    })();
    snapshots.set(key, snap);
    snap.catch(() => snapshots.delete(key));
  }
  return snap;
}

/** Writes `snap` below `root`: the root's path, where a file names it (the remote's URL), becomes the new one. */
async function writeSnapshot(snap: Snapshot, root: string): Promise<void> {
  const from = Buffer.from(snap.root);
  for (const d of snap.dirs) await mkdir(join(root, d), { recursive: true });
  for (const f of snap.files) {
    const data = f.data.includes(from)
      ? Buffer.from(f.data.toString('utf8').replaceAll(snap.root, root))
      : f.data;
    await writeFile(join(root, f.rel), data, { mode: f.mode });
  }
}

export async function createWorkRepo(opts: WorkRepoOptions = {}): Promise<WorkRepo> {
  const root = await mkdtemp(join(tmpdir(), 'gemini-run-repo-'));
  const dir = join(root, opts.name ?? 'work');
  const originDir = join(root, 'origin.git');
  const env = scrubbedGitEnv();
  const run = async (cwd: string, args: readonly string[]): Promise<string> =>
    (await exec('git', args, { cwd, env })).stdout;
  try {
    await writeSnapshot(await snapshotOf(opts, env), root);
    // The index keeps each file's inode and times: written anew, the files are stat-dirty until refreshed.
    await run(dir, ['update-index', '-q', '--refresh']);
  } catch (e) {
    await rm(root, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    originDir,
    env,
    git: (args) => run(dir, args),
    [Symbol.asyncDispose]: () => rm(root, { recursive: true, force: true }),
  };
}
