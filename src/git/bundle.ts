import { Git } from './git.js';

/**
 * Writes the commits of HEAD that `exclude` does not reach into a git bundle, so work that could not be pushed
 * still leaves the run (in its artifact). Someone with the repository fetches it with
 * `git fetch <file> HEAD:refs/heads/<branch>`. Hooks and fsmonitor stay off: the agent had the repository.
 */
export async function createBundle(
  worktree: string,
  file: string,
  exclude: readonly string[],
): Promise<void> {
  const git = Git.forUntrusted(worktree);
  await git.run(['bundle', 'create', '--quiet', file, 'HEAD', '--stdin'], {
    input: `${exclude.map((r) => `^${r}`).join('\n')}\n`,
  });
}
