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

/**
 * Commits whatever the agent left uncommitted: tracked changes and new untracked files. `git add -A` honours
 * .gitignore and .git/info/exclude, so the context file (excluded there) never enters the commit.
 * Returns false when there was nothing to commit.
 */
export async function commitLeftovers(
  worktree: string,
  message: string,
  identity?: GitIdentity,
): Promise<boolean> {
  // The agent may have configured a clean filter: `git add` would run it for us.
  const git = await Git.forAgentRepo(worktree);
  await git.run(['add', '--all']);
  const staged = await git.run(['diff', '--cached', '--quiet'], {
    allowAllExitCodes: true,
  });
  if (staged.exitCode === 0) return false;
  if (staged.exitCode !== 1) throw new Error(`git diff --cached failed: ${staged.stderr.trim()}`);
  const env: Record<string, string> = identity
    ? {
        GIT_AUTHOR_NAME: identity.name,
        GIT_AUTHOR_EMAIL: identity.email,
        GIT_COMMITTER_NAME: identity.name,
        GIT_COMMITTER_EMAIL: identity.email,
      }
    : {};
  // The message goes on stdin: it can be long and it is nobody's business in `ps`.
  await git.run(['commit', '--no-verify', '--no-gpg-sign', '--quiet', '--file=-'], {
    input: message.endsWith('\n') ? message : `${message}\n`,
    env,
  });
  return true;
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
