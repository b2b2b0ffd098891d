import { withTempDir } from '../util/fs.js';
import { Git } from './git.js';
import { buildPushConfigEnv, pushBaseEnv } from './push.js';

/**
 * Fetches one branch of `url` into `refs/remotes/origin/<branch>` of the worktree. Returns the fetched sha, or
 * undefined when the branch does not exist.
 *
 * Like the push, the fetch does not run in the worktree: on a reused (self-hosted) workspace its config and
 * hooks may be an earlier agent's, and the token must meet none of them. An empty bare repository fetches,
 * with the global config ignored, the token in this one command's environment, and the worktree's object store
 * as its own (GIT_OBJECT_DIRECTORY), so the objects land where they are needed; the worktree then only gets a
 * ref update, with hooks off.
 */
export async function fetchBranch(o: {
  worktree: string;
  url: string;
  branch: string;
  /** The ref to fetch in place of `refs/heads/<branch>` (a pull request's `refs/pull/<n>/head`). */
  ref?: string;
  token?: string;
}): Promise<string | undefined> {
  const work = Git.forUntrusted(o.worktree);
  const { objects, format } = await work.objectStore();
  return withTempDir('gemini-run-fetch-', async (dir) => {
    const clean = Git.create(dir, pushBaseEnv(process.env));
    await clean.run(['init', '--quiet', '--bare', `--object-format=${format}`, dir]);
    const env = { ...buildPushConfigEnv(o.url, o.token), GIT_OBJECT_DIRECTORY: objects };
    const r = await clean.run(
      [
        'fetch',
        '--quiet',
        '--no-tags',
        '--no-write-fetch-head',
        o.url,
        `+${o.ref ?? `refs/heads/${o.branch}`}:refs/heads/fetched`,
      ],
      { allowAllExitCodes: true, env, timeoutMs: 5 * 60_000 },
    );
    if (r.exitCode !== 0) return undefined;
    const ref = await clean.run(['rev-parse', '--verify', '--quiet', 'refs/heads/fetched^{commit}'], {
      allowAllExitCodes: true,
      env: { GIT_OBJECT_DIRECTORY: objects },
    });
    const sha = ref.exitCode === 0 ? ref.stdout.trim() : '';
    if (!sha) return undefined;
    await work.run(['update-ref', `refs/remotes/origin/${o.branch}`, sha]);
    return sha;
  });
}
