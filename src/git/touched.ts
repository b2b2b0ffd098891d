/**
 * The paths the run changed, read in the vault (never in the agent's repository), two ways whose union counts:
 *
 * - The result against the trusted tips (the run's base, the base branch as it is now, the run branch as it was):
 *   a path counts when the result's version differs from its version at every one of them. Whatever merges the
 *   agent made, a protected file set back to an old version counts (its parents are the agent's choice, the tips
 *   are not), and merging the base branch in brings its changes, which are not the run's; nor is a person's earlier
 *   change on the run branch.
 * - Each of the run's commits against its parent: every commit of HEAD that no trusted tip reaches (a commit the
 *   agent brought in from elsewhere — another branch, a fork's pull request ref — is the run's doing, since the
 *   pull request would carry it). So a file changed and changed back still counts, a rename counts on both sides
 *   (`--no-renames`: a deletion and an addition), a mode change too. A merge counts what it did not take from a
 *   trusted parent.
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
 * The result's changes against every trusted tip, as a set: a path whose version at `head` differs from its version
 * at each tip (unknown tips, ones the vault never received, are skipped; `base` is always known).
 */
async function netChanges(
  git: Git,
  head: string,
  base: string,
  tips: readonly string[],
): Promise<Set<string>> {
  let net = await changedBetween(git, base, head);
  for (const tip of new Set(tips)) {
    if (tip === base || net.size === 0) continue;
    const differs = await changedBetween(git, tip, head).catch(() => undefined);
    if (differs) net = new Set([...net].filter((p) => differs.has(p)));
  }
  return net;
}

/**
 * The paths the run changed (see the top of this file): the result against the trusted tips, and each of the
 * run's commits (base..head, none a trusted tip reaches) against its parents. `trusted`: tips whose history is
 * not the run's; unknown ids are skipped.
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
  const touched = await netChanges(git, head, base, trusted);
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
