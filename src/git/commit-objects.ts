/**
 * The run's commits as git objects, read from the vault for re-creating them elsewhere (the Git database API):
 * each commit's tree, parents and exact message, the entries it changes against its first parent, and blob
 * bytes. Everything is read from the object database, never from a checkout, so a symlink is its target and
 * not the file it points at, and nothing the agent left in a worktree takes part.
 */
import { Git } from './git.js';

export interface RawCommit {
  sha: string;
  tree: string;
  parents: string[];
  /** The message exactly as stored (after the header's blank line). */
  message: string;
}

/** One path a commit changes against its first parent (renames are a deletion and an addition). */
export interface TreeChange {
  path: string;
  /** The new mode (`100644`, `100755`, `120000` symlink, `160000` submodule), or the old one when deleted. */
  mode: string;
  /** The new object, or null when the path is deleted. */
  sha: string | null;
  /** The object the path had before (null when added), which the other side already has. */
  oldSha: string | null;
}

const ZERO = /^0+$/;

/** A raw commit object's text → its tree, parents and message. Pure. */
export function parseRawCommit(sha: string, text: string): RawCommit {
  const split = text.indexOf('\n\n');
  const header = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  let tree = '';
  const parents: string[] = [];
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5);
    else if (line.startsWith('parent ')) parents.push(line.slice(7));
  }
  if (!tree) throw new Error(`commit ${sha} has no tree`);
  return { sha, tree, parents, message };
}

/** `git diff-tree -r -z --raw --no-renames` output → the changes. Pure. */
export function parseDiffTreeRaw(out: string): TreeChange[] {
  const fields = out.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(fields[i] ?? '');
    if (!m) continue;
    const path = fields[i + 1] ?? '';
    const [, oldMode, newMode, oldSha, newSha, status] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const deleted = status === 'D';
    changes.push({
      path,
      mode: deleted ? oldMode : newMode,
      sha: deleted || ZERO.test(newSha) ? null : newSha,
      oldSha: ZERO.test(oldSha) ? null : oldSha,
    });
  }
  return changes;
}

/** The commits to re-create and reads of their objects (the shape src/github/signed-commits.ts takes). */
export interface CommitObjects {
  commits: readonly RawCommit[];
  changes(sha: string): readonly TreeChange[];
  treeOf(commit: string): Promise<string>;
  sizes(shas: readonly string[]): Promise<Map<string, number>>;
  read(shas: readonly string[]): Promise<Map<string, Buffer>>;
}

/** The commits of `repo` that `head` has and none of `known` reaches, with what each changes. */
export async function commitObjects(
  repo: string,
  head: string,
  known: readonly string[],
): Promise<CommitObjects> {
  const commits = await readCommits(repo, head, known);
  const changes = new Map<string, TreeChange[]>();
  for (const c of commits) changes.set(c.sha, await changesOf(repo, c));
  return {
    commits,
    changes: (sha) => changes.get(sha) ?? [],
    treeOf: (commit) => Git.forUntrusted(repo).output(['rev-parse', '--verify', `${commit}^{tree}`]),
    sizes: (shas) => objectSizes(repo, shas),
    read: (shas) => readObjects(repo, shas),
  };
}

/**
 * The commits `head` has that none of `known` reaches, parents before children, each with its raw object.
 */
async function readCommits(repo: string, head: string, known: readonly string[]): Promise<RawCommit[]> {
  const git = Git.forUntrusted(repo);
  const list = await git.output(['rev-list', '--reverse', '--topo-order', '--ignore-missing', '--stdin'], {
    input: `${[head, ...known.map((k) => `^${k}`)].join('\n')}\n`,
  });
  const shas = list.split('\n').filter(Boolean);
  const objects = await readObjects(repo, shas);
  return shas.map((sha) => parseRawCommit(sha, objects.get(sha)!.toString('utf8')));
}

/** What `commit` changes against its first parent (or, for a root commit, everything it has). */
async function changesOf(repo: string, commit: RawCommit): Promise<TreeChange[]> {
  const git = Git.forUntrusted(repo);
  const first = commit.parents[0];
  const args = ['diff-tree', '-r', '-z', '--raw', '--no-renames', '--no-commit-id', '--full-index'];
  const out = await git.output(first ? [...args, first, commit.sha] : [...args, '--root', commit.sha]);
  return parseDiffTreeRaw(out);
}

/** Sizes of objects in bytes (`git cat-file --batch-check`). */
async function objectSizes(repo: string, shas: readonly string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  if (shas.length === 0) return sizes;
  const out = await Git.forUntrusted(repo).output(['cat-file', '--batch-check'], {
    input: `${shas.join('\n')}\n`,
  });
  for (const line of out.split('\n')) {
    const m = /^([0-9a-f]+) \w+ (\d+)$/.exec(line);
    if (m) sizes.set(m[1]!, Number(m[2]));
  }
  return sizes;
}

/** The bytes of each object (`git cat-file --batch`): one process for all of them. */
export async function readObjects(repo: string, shas: readonly string[]): Promise<Map<string, Buffer>> {
  const objects = new Map<string, Buffer>();
  if (shas.length === 0) return objects;
  const r = await Git.forUntrusted(repo).run(['cat-file', '--batch'], { input: `${shas.join('\n')}\n` });
  const out = r.stdoutBytes ?? Buffer.from(r.stdout, 'utf8');
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const header = out.subarray(at, eol).toString('utf8');
    const m = /^([0-9a-f]+) \w+ (\d+)$/.exec(header);
    if (!m) throw new Error(`git cat-file: ${header}`);
    const size = Number(m[2]);
    objects.set(m[1]!, out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return objects;
}
