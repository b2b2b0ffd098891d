import { Git } from './git.js';
import { buildPushConfigEnv } from './push.js';

/**
 * Fetches one branch of `url` into `refs/remotes/origin/<branch>` of the worktree, the token given to git the
 * same way as for a push (this command's environment only). Runs before the agent starts, while the worktree's
 * config is still the checkout's. Returns the fetched sha, or undefined when the branch does not exist.
 */
export async function fetchBranch(o: {
  worktree: string;
  url: string;
  branch: string;
  token?: string;
}): Promise<string | undefined> {
  const git = Git.create(o.worktree);
  const ref = `refs/remotes/origin/${o.branch}`;
  const r = await git.run(
    ['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', o.url, `+refs/heads/${o.branch}:${ref}`],
    {
      allowAllExitCodes: true,
      env: buildPushConfigEnv(o.url, o.token),
      timeoutMs: 5 * 60_000,
    },
  );
  if (r.exitCode !== 0) return undefined;
  return git.tryRevParse(ref);
}
