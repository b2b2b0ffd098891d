/**
 * The author and committer of the commits the action makes: the `commit-author` / `committer` inputs, else the
 * identity of the token it pushes with (an App's `<slug>[bot]`, the workflow token's github-actions[bot]).
 */
import type { GitHubClient } from '../github/client.js';
import { ACTIONS_BOT, tokenCommitIdentity, type CommitIdentity } from '../github/identity.js';
import { getErrorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { ActionInputs } from './inputs.js';

/** Never throws: a token whose identity GitHub does not name commits as github-actions[bot], with a warning. */
export async function resolveCommitIdentity(r: {
  inputs: Pick<ActionInputs, 'commitAuthor' | 'committer'>;
  client: GitHubClient;
  log: Logger;
}): Promise<CommitIdentity> {
  const { commitAuthor, committer } = r.inputs;
  if (commitAuthor && committer) return { author: commitAuthor, committer };
  const token = await tokenCommitIdentity(r.client).catch((e: unknown) => {
    r.log.warning(
      `Could not ask GitHub whose token this is; committing as github-actions[bot]: ${getErrorMessage(e)}`,
    );
    return ACTIONS_BOT;
  });
  return { author: commitAuthor ?? token, committer: committer ?? token };
}
