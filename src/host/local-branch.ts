/**
 * The toolkit's publisher: a run on the operator's own repository leaves its commits on a new branch there,
 * their attribution lines scrubbed. The agent runs as the operator's user on it (no vault, no export): this
 * repository is theirs, and what the agent could do to its .git they could too.
 */
import { scrubAttribution } from '../gemini/attribution.js';
import { listCommits } from '../git/commits.js';
import { Git } from '../git/git.js';
import { scrubCommits } from '../git/scrub.js';
import type { CommitInfo, RunResult } from '../run/types.js';
import { UserError } from '../util/errors.js';

/**
 * Who the toolkit's commits are by, as the action's are by its token's bot: an identity of its own, so a host
 * with no git identity (a fresh HOME, a container) still commits, and the agent's work is told apart from the
 * operator's.
 */
export const TOOLKIT_IDENTITY = { name: 'gemini-run', email: 'gemini-run@localhost' } as const;

export interface LocalRepo {
  git: Git;
  /** The repository's top folder, where the agent works. */
  top: string;
}

/** The repository `dir` is in; refused when there is none or it has uncommitted changes. */
export async function openLocalRepo(dir: string): Promise<LocalRepo> {
  const git = Git.create(dir);
  const top = await git.output(['rev-parse', '--show-toplevel']).catch(() => {
    throw new UserError(`${dir} is not a git repository.`);
  });
  if ((await git.statusPorcelain()).length > 0) {
    throw new UserError(
      `${top} has uncommitted changes: commit or stash them first, so the run's commits stay its own.`,
    );
  }
  return { git, top };
}

/** The run's branch, created at HEAD and checked out: the agent commits on it. */
export async function createRunBranch(repo: LocalRepo, branch: string): Promise<void> {
  await repo.git.run(['checkout', '--quiet', '-b', branch]).catch(() => {
    throw new UserError(`Cannot create branch '${branch}': does it exist already?`);
  });
}

/** A kept session's branch, checked out to continue on (its commits are the session's). */
export async function continueOnBranch(repo: LocalRepo, branch: string): Promise<void> {
  await repo.git.run(['checkout', '--quiet', branch]).catch(() => {
    throw new UserError(
      `Cannot continue on branch '${branch}' (the session's): it is gone; name a new one with --branch.`,
    );
  });
}

/** After the run: its commits with attribution lines scrubbed (unless `scrub` is false), as they now stand. */
export async function publishToBranch(
  repo: LocalRepo,
  result: RunResult,
  o: { scrub: boolean },
): Promise<CommitInfo[]> {
  if (!o.scrub || result.commits.length === 0) return result.commits;
  await scrubCommits(repo.top, result.baseSha, scrubAttribution);
  return listCommits(repo.top, result.baseSha, await repo.git.headSha());
}
