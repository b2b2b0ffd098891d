/**
 * Repositories the agent left inside the worktree. A later workflow step that runs git in a subdirectory finds the
 * nearest repository going up: a `sub/.git` (a directory, a `gitdir:` file pointing anywhere, a link) or a
 * directory that is itself shaped like a repository (`HEAD` beside `objects/` and `refs/`, or beside a
 * `commondir` file) comes before the workspace's own `.git`, and its config (`core.fsmonitor`, an alias, a hook
 * path) runs with the job's environment. Git never tracks a path named `.git`, so every nested one is the agent's
 * (or an earlier agent's, on a reused workspace): it goes, whole. A repository-shaped directory loses its `HEAD`
 * (without it git does not take the directory for a repository), unless the run's own tree tracks that `HEAD`: a
 * fixture of the repository's (libgit2's test repositories), or something the agent committed for review.
 *
 * The walk reads directory entries only (no link is followed, no git runs in what it finds) and runs after every
 * process of the agent has ended.
 */
import type { Dirent } from 'node:fs';
import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Entries visited at most: far beyond a checkout with its dependencies, and a bound on a planted maze. */
const MAX_ENTRIES = 2_000_000;

export interface NestedRepoReport {
  /** Worktree-relative paths removed: `sub/.git`, or `dir/HEAD` of a repository-shaped directory. */
  removed: string[];
  /** Repository-shaped directories left because their HEAD is tracked (relative, `.` for none). */
  trackedShapes: string[];
  /** What could not be walked or removed, one line each (bounded). */
  problems: string[];
}

/** Whether a directory's entries make git take it for a repository (setup.c is_git_directory). Pure. */
function looksLikeGitDir(entries: readonly Dirent[]): boolean {
  const by = new Map(entries.map((e) => [e.name, e]));
  const head = by.get('HEAD');
  if (!head || head.isDirectory()) return false;
  if (by.has('commondir')) return true;
  return Boolean(by.get('objects')?.isDirectory() && by.get('refs')?.isDirectory());
}

/**
 * Removes every nested `.git` below `worktree` (the top-level one is left: the rebuild made it) and the `HEAD` of
 * every untracked repository-shaped directory. `tracked` holds the worktree-relative paths the run's tree tracks.
 */
export async function removeNestedRepositories(
  worktree: string,
  tracked: ReadonlySet<string>,
): Promise<NestedRepoReport> {
  const report: NestedRepoReport = { removed: [], trackedShapes: [], problems: [] };
  const problem = (line: string) => {
    if (report.problems.length < 20) report.problems.push(line);
  };
  const stack: string[] = [''];
  let visited = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const dir = rel === '' ? worktree : join(worktree, rel);
    const entries = await readdirOpening(dir).catch((e: unknown) => {
      problem(`${rel || '.'}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      return undefined;
    });
    if (!entries) continue;
    visited += entries.length;
    if (visited > MAX_ENTRIES) {
      problem(`stopped after ${MAX_ENTRIES} entries`);
      break;
    }
    if (rel !== '' && looksLikeGitDir(entries)) {
      const head = join(rel, 'HEAD');
      if (tracked.has(head)) report.trackedShapes.push(rel);
      else if (await removeAgentPath(join(worktree, head), problem, head)) report.removed.push(head);
    }
    for (const e of entries) {
      const child = rel === '' ? e.name : join(rel, e.name);
      if (e.name === '.git') {
        if (rel === '') continue;
        if (await removeAgentPath(join(worktree, child), problem, child)) report.removed.push(child);
        continue;
      }
      // Dirent types come from the directory itself: a link to a directory is a link, never entered.
      if (e.isDirectory()) stack.push(child);
    }
  }
  report.removed.sort();
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
