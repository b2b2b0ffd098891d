/**
 * The paths the run's commits changed, read in the vault (never in the agent's repository). The run's commits here
 * are every commit of HEAD that no trusted tip reaches (the run's base, the base branch, the run branch as it
 * was): a commit the agent brought in from elsewhere — another branch, a fork's pull request ref — is the run's
 * doing, since the pull request would carry it. Each counts against its parent, so a file changed and changed
 * back still counts, and a rename counts on both sides (`--no-renames`: a deletion and an addition), a mode
 * change too. A merge counts only what it did not take from a trusted parent: merging the base branch in brings
 * the base's changes, which are not the run's.
 */
import { listCommits } from './commits.js';
import { Git } from './git.js';

const nulList = (out: string) => out.split('\0').filter((p) => p !== '');

async function changedBetween(git: Git, from: string, to: string): Promise<Set<string>> {
  const out = await git.output(['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to]);
  return new Set(nulList(out));
}

async function changedBy(git: Git, sha: string): Promise<Set<string>> {
  const out = await git.output([
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-only',
    '--no-commit-id',
    '--root',
    sha,
  ]);
  return new Set(nulList(out));
}

/**
 * The union of the paths each of the run's commits (base..head, none a trusted tip reaches) changed. `trusted`:
 * tips whose history is not the run's; unknown ids are skipped.
 */
export async function pathsTouched(
  repo: string,
  base: string,
  head: string,
  trusted: readonly string[],
): Promise<string[]> {
  const git = Git.forUntrusted(repo);
  const commits = await listCommits(repo, base, head, trusted);
  const isTrusted = async (sha: string) => {
    for (const tip of trusted) if (await git.isAncestor(sha, tip).catch(() => false)) return true;
    return false;
  };
  const touched = new Set<string>();
  for (const c of commits) {
    const [first, ...others] = c.parents;
    if (first === undefined || others.length === 0) {
      for (const p of await changedBy(git, c.sha)) touched.add(p);
      continue;
    }
    // With a trusted parent, what differs from every trusted parent; else what differs from the first (an
    // untrusted parent is one of the run's commits, counted on its own).
    const parents = [];
    for (const p of c.parents) if (await isTrusted(p)) parents.push(p);
    if (parents.length === 0) parents.push(first);
    let own: Set<string> | undefined;
    for (const parent of parents) {
      const differs = await changedBetween(git, parent, c.sha);
      own = own ? new Set([...own].filter((p) => differs.has(p))) : differs;
    }
    for (const p of own ?? []) touched.add(p);
  }
  return [...touched].sort();
}

/** Lines added and removed per path between two commits (`binary` for a binary file), for the paths asked. */
export async function diffStat(
  repo: string,
  base: string,
  head: string,
  paths: readonly string[],
): Promise<Map<string, { added: number; removed: number } | 'binary'>> {
  const out = await Git.forUntrusted(repo).output([
    'diff',
    '--numstat',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    base,
    head,
  ]);
  const wanted = new Set(paths);
  const stat = new Map<string, { added: number; removed: number } | 'binary'>();
  for (const record of nulList(out)) {
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(record);
    if (!m?.[3] || !wanted.has(m[3])) continue;
    stat.set(m[3], m[1] === '-' ? 'binary' : { added: Number(m[1]), removed: Number(m[2]) });
  }
  return stat;
}
