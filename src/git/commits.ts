import { Git } from './git.js';

export interface GitIdentity {
  name: string;
  email: string;
}

export interface CommitInfo {
  sha: string;
  parents: string[];
  subject: string;
  /** The full message. */
  message: string;
  authorName: string;
  authorEmail: string;
  /** ISO 8601 with the author's offset. */
  authorDate: string;
}

const FIELD = '%x1f';
const RECORD = '%x1e';

/**
 * Commits in base..head, oldest first (parents before children), leaving out any that `exclude` reaches (other
 * people's commits a merge brought in; unknown ids are skipped).
 */
export async function listCommits(
  worktree: string,
  base: string,
  head: string,
  exclude: readonly string[] = [],
): Promise<CommitInfo[]> {
  const git = Git.forUntrusted(worktree);
  const format = ['%H', '%P', '%an', '%ae', '%aI', '%B'].join(FIELD) + RECORD;
  const out = await git.output(
    [
      'log',
      '--reverse',
      '--topo-order',
      '--no-show-signature',
      `--format=${format}`,
      '--ignore-missing',
      '--stdin',
      '--',
    ],
    { input: `${[head, `^${base}`, ...exclude.map((r) => `^${r}`)].join('\n')}\n` },
  );
  return parseCommitLog(out);
}

export function parseCommitLog(out: string): CommitInfo[] {
  const commits: CommitInfo[] = [];
  for (const record of out.split('\x1e')) {
    const trimmed = record.replace(/^\n/, '');
    if (trimmed === '') continue;
    const [sha = '', parents = '', authorName = '', authorEmail = '', authorDate = '', message = ''] =
      trimmed.split('\x1f');
    commits.push({
      sha,
      parents: parents.split(' ').filter((p) => p !== ''),
      subject: message.split('\n')[0] ?? '',
      message,
      authorName,
      authorEmail,
      authorDate,
    });
  }
  return commits;
}

/** Paths changed between base and head (tree difference; a rename lists both the old and the new path). */
export async function filesChanged(worktree: string, base: string, head: string): Promise<string[]> {
  const git = Git.forUntrusted(worktree);
  const out = await git.output([
    'diff',
    '--name-only',
    '-z',
    '--no-renames',
    '--no-ext-diff',
    base,
    head,
    '--',
  ]);
  return out.split('\0').filter((p) => p !== '');
}
