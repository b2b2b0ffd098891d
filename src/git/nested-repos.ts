/**
 * Repositories nested inside the worktree. A later workflow step that runs git in a subdirectory finds the nearest
 * repository going up: a `sub/.git` (a directory, a `gitdir:` file pointing anywhere, a link) or a directory that is
 * itself shaped like a repository (`HEAD` beside `objects/` and `refs/`, or beside a `commondir` file) comes before
 * the workspace's own `.git`, and its config (`core.fsmonitor`, an alias, a hook path) runs with the job's
 * environment. So after the run every nested `.git` goes, whole, and a repository-shaped directory loses its
 * `HEAD` (without it git does not take the directory for a repository) unless the run's own tree tracks that
 * `HEAD` (a fixture of the repository's, like libgit2's test repositories, or something committed for review).
 *
 * Kept: a nested repository that was there before the run (a second checkout an earlier step made), whose git
 * directory then passed the same checks as the workspace's own (workspace.ts: nothing but what actions/checkout
 * writes, no hook, nothing pointing elsewhere), and whose control files (config, hooks, alternates, ...) the run
 * left byte for byte as they were — or as the action left them when it moved the checkout's credentials out of the
 * agent's reach (credentials.ts). A `gitdir:` file or a link is never kept: what it points at is not ours to check.
 *
 * The walk reads directory entries only (no link is followed, no git runs in what it finds); the removal runs after
 * every process of the agent has ended.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants, type Dirent } from 'node:fs';
import { chmod, lstat, open, readdir, readlink, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';

/** Entries visited at most: far beyond a checkout with its dependencies, and a bound on a planted maze. */
const MAX_ENTRIES = 2_000_000;

export interface NestedRepoReport {
  /** Worktree-relative paths removed: `sub/.git`, or `dir/HEAD` of a repository-shaped directory. */
  removed: string[];
  /** Of those, the ones that were there before the run (changed by it, or never safe to keep). */
  removedPreexisting: string[];
  /** Nested repositories kept: there before the run, safe then, unchanged since. */
  kept: string[];
  /** Repository-shaped directories left because their HEAD is tracked. */
  trackedShapes: string[];
  /** What could not be walked or removed, one line each (bounded). */
  problems: string[];
}

/**
 * What the action recorded before the run: for each nested git directory it may keep, the fingerprints it may be
 * kept with (as found; as the action left it after moving its credentials out), and every one seen.
 */
export const nestedRecordSchema = z.object({
  keep: z.record(z.string(), z.array(z.string())),
  seen: z.array(z.string()),
});
export type NestedRecord = z.infer<typeof nestedRecordSchema>;

/** A nested repository found by the walk: `rel` is its `.git` entry, or the repository-shaped directory. */
interface Nested {
  rel: string;
  shaped: boolean;
  /** A real directory (a `.git` file or link is not). */
  dir: boolean;
}

/** Whether a directory's entries make git take it for a repository (setup.c is_git_directory). Pure. */
function looksLikeGitDir(entries: readonly Dirent[]): boolean {
  const by = new Map(entries.map((e) => [e.name, e]));
  const head = by.get('HEAD');
  if (!head || head.isDirectory()) return false;
  if (by.has('commondir')) return true;
  return Boolean(by.get('objects')?.isDirectory() && by.get('refs')?.isDirectory());
}

/** Every nested repository below `worktree` (its own `.git` aside), walked without following a link. */
async function findNested(worktree: string, problem: (l: string) => void): Promise<Nested[]> {
  const found: Nested[] = [];
  const stack: string[] = [''];
  let visited = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const entries = await readdirOpening(rel === '' ? worktree : join(worktree, rel)).catch((e: unknown) => {
      problem(`${rel || '.'}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      return undefined;
    });
    if (!entries) continue;
    visited += entries.length;
    if (visited > MAX_ENTRIES) {
      problem(`stopped after ${MAX_ENTRIES} entries`);
      break;
    }
    if (rel !== '' && looksLikeGitDir(entries)) found.push({ rel, shaped: true, dir: true });
    for (const e of entries) {
      const child = rel === '' ? e.name : join(rel, e.name);
      if (e.name === '.git') {
        if (rel !== '') found.push({ rel: child, shaped: false, dir: e.isDirectory() });
        continue;
      }
      // Dirent types come from the directory itself: a link to a directory is a link, never entered.
      if (e.isDirectory()) stack.push(child);
    }
  }
  return found;
}

/** The files of a git directory that decide what git runs there; `hooks/` is taken whole. */
const CONTROL_FILES = [
  'config',
  'config.worktree',
  'commondir',
  'gitdir',
  'info/attributes',
  'objects/info/alternates',
  'objects/info/http-alternates',
];

/** One entry as data: absent, a link and its target, a directory, or a file's size and content hash. */
async function describeEntry(path: string): Promise<string> {
  const st = await lstat(path).catch(() => undefined);
  if (!st) return 'absent';
  if (st.isSymbolicLink()) return `link ${await readlink(path).catch(() => '?')}`;
  if (st.isDirectory()) return 'dir';
  if (!st.isFile() || st.size > 1 << 20) return `other ${st.mode} ${st.size}`;
  const fh = await open(path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK).catch(
    () => undefined,
  );
  if (!fh) return 'unreadable';
  try {
    return `file ${createHash('sha256')
      .update(await fh.readFile())
      .digest('hex')}`;
  } finally {
    await fh.close();
  }
}

/** A fingerprint of what in a git directory can make git run something (read as data, no link followed). */
async function gitDirFingerprint(gitDir: string): Promise<string> {
  const hash = createHash('sha256');
  for (const name of CONTROL_FILES) hash.update(`${name}\0${await describeEntry(join(gitDir, name))}\n`);
  const hooks = (await readdir(join(gitDir, 'hooks')).catch(() => [] as string[])).sort();
  for (const name of hooks)
    hash.update(`hooks/${name}\0${await describeEntry(join(gitDir, 'hooks', name))}\n`);
  return hash.digest('hex');
}

/**
 * Before the run: the nested repositories there are, and a fingerprint of each whose git directory `safe` accepts
 * (the workspace's own checks; `shaped` for a repository-shaped directory, which may have no config: a fixture of
 * a nested checkout's): those may be kept after the run if unchanged.
 */
export async function recordNestedRepositories(
  worktree: string,
  safe: (gitDir: string, shaped: boolean) => Promise<boolean>,
): Promise<NestedRecord> {
  const record: NestedRecord = { keep: {}, seen: [] };
  const keep = new Map<string, string[]>();
  for (const n of await findNested(worktree, () => undefined)) {
    record.seen.push(n.rel);
    const gitDir = join(worktree, n.rel);
    if (n.dir && (await safe(gitDir, n.shaped))) keep.set(n.rel, [await gitDirFingerprint(gitDir)]);
  }
  // Paths are the worktree's names: an entry, never a key on a prototype.
  record.keep = Object.fromEntries(keep);
  return record;
}

/**
 * The record after the action itself changed the git directories `changed` before the run (their credentials moved
 * out): each it may keep may also be kept as it is now. As it was stays allowed too, for a post step after a main
 * step that put the credentials back and died before it said so.
 */
export async function keepAsNow(
  worktree: string,
  record: NestedRecord,
  changed: readonly string[],
): Promise<NestedRecord> {
  const keep = new Map(Object.entries(record.keep));
  for (const rel of changed) {
    const prints = keep.get(rel);
    if (prints) keep.set(rel, [...prints, await gitDirFingerprint(join(worktree, rel))]);
  }
  return { ...record, keep: Object.fromEntries(keep) };
}

/**
 * Removes every nested `.git` below `worktree` (the top-level one is left: the rebuild made it) and the `HEAD` of
 * every untracked repository-shaped directory, but for those `before` says may be kept and that are unchanged.
 * `tracked` holds the worktree-relative paths the run's tree tracks.
 */
export async function removeNestedRepositories(
  worktree: string,
  tracked: ReadonlySet<string>,
  before: NestedRecord = { keep: {}, seen: [] },
): Promise<NestedRepoReport> {
  const report: NestedRepoReport = {
    removed: [],
    removedPreexisting: [],
    kept: [],
    trackedShapes: [],
    problems: [],
  };
  const problem = (line: string) => {
    if (report.problems.length < 20) report.problems.push(line);
  };
  const seen = new Set(before.seen);
  for (const n of await findNested(worktree, problem)) {
    const target = n.shaped ? join(n.rel, 'HEAD') : n.rel;
    if (n.shaped && tracked.has(target)) {
      report.trackedShapes.push(n.rel);
      continue;
    }
    const prints = Object.hasOwn(before.keep, n.rel) ? before.keep[n.rel] : undefined;
    if (n.dir && prints?.includes(await gitDirFingerprint(join(worktree, n.rel)))) {
      report.kept.push(n.rel);
      continue;
    }
    if (await removeAgentPath(join(worktree, target), problem, target)) {
      report.removed.push(target);
      if (seen.has(n.rel)) report.removedPreexisting.push(target);
    }
  }
  report.removed.sort();
  report.kept.sort();
  return report;
}

/** A directory's entries; one the agent closed (ours again after the take-back) is opened for its owner first. */
async function readdirOpening(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EACCES') throw e;
    await openDirsForOwner(dir, false);
    return readdir(dir, { withFileTypes: true });
  }
}

/**
 * Removes a path the agent made, whatever it is (a link is removed, not followed). A directory the agent left
 * without write permission (ours again after the take-back) is opened for its owner and removed then.
 */
async function removeAgentPath(path: string, problem: (l: string) => void, shown: string): Promise<boolean> {
  try {
    await rm(path, { recursive: true, force: true });
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') {
      problem(`${shown}: ${code ?? String(e)}`);
      return false;
    }
  }
  try {
    // The directory it sits in may be closed too (the agent's `chmod 0555 sub`).
    await openDirsForOwner(dirname(path), false);
    await openDirsForOwner(path);
    await rm(path, { recursive: true, force: true });
    return true;
  } catch (e) {
    problem(`${shown}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return false;
  }
}

/** chmod u+rwx on every directory at (and below) `path` that this process owns (links are not followed). */
async function openDirsForOwner(path: string, below = true): Promise<void> {
  const self = process.getuid?.() ?? 0;
  const stack = [path];
  while (stack.length > 0) {
    const p = stack.pop()!;
    const st = await lstat(p).catch(() => undefined);
    if (!st?.isDirectory()) continue;
    if (st.uid === self && (st.mode & 0o700) !== 0o700) await chmod(p, (st.mode & 0o7777) | 0o700);
    if (!below) return;
    const names = await readdir(p).catch(() => [] as string[]);
    for (const n of names) stack.push(join(p, n));
  }
}
