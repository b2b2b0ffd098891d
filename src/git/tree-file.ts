/**
 * A file as it is in commits of a repository the action owns (the vault), read from the object database: never
 * from a checkout, so no link is followed and nothing the agent left in a worktree takes part.
 */
import { readObjects } from './commit-objects.js';
import { Git } from './git.js';

/**
 * The bytes of `path` in each of `commits` that has it as a regular file no larger than `maxBytes`, by commit
 * (a link, a folder, a missing path, an unknown commit or a larger file: absent).
 */
export async function fileInCommits(
  repo: string,
  commits: readonly string[],
  path: string,
  maxBytes: number,
): Promise<Map<string, Buffer>> {
  const git = Git.forUntrusted(repo);
  const wanted = [...new Set(commits)];
  const found = new Map<string, Buffer>();
  if (wanted.length === 0 || /[\n\0]/.test(path)) return found;
  // The tree entry's mode and size first: a link's blob is its target, not a file, and a large one is not read.
  const small: { commit: string; sha: string }[] = [];
  for (const commit of wanted) {
    const entry = await git
      .output(['ls-tree', '-z', '--long', '--full-tree', commit, '--', path])
      .catch(() => '');
    const m = /^100(?:644|755) blob ([0-9a-f]+) +(\d+)\t/.exec(entry);
    if (m && Number(m[2]) <= maxBytes) small.push({ commit, sha: m[1]! });
  }
  const blobs = await readObjects(
    repo,
    small.map((s) => s.sha),
  );
  for (const { commit, sha } of small) {
    const blob = blobs.get(sha);
    if (blob) found.set(commit, blob);
  }
  return found;
}
