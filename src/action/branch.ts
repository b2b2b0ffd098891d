import { fetchBranch } from '../git/fetch.js';
import { Git } from '../git/git.js';
import type { GitHubClient } from '../github/client.js';
import type { RunTrigger } from '../github/event.js';
import { getPull, type PullInfo } from '../github/pulls.js';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { RepoRef } from './context.js';
import type { ActionInputs } from './inputs.js';

/** Where a run works: its branch, what the PR targets, and whether the branch is ours to force-push. */
export interface BranchPlan {
  branch: string;
  base: string;
  ownBranch: boolean;
  existingPull?: PullInfo;
}

export async function planBranch(
  client: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
  inputs: ActionInputs,
  runId: string,
): Promise<BranchPlan | { refuse: string }> {
  if (trigger.isPullRequest && trigger.number !== undefined) {
    const pull = await getPull(client, repo, trigger.number);
    if (pull.headRepo !== `${repo.owner}/${repo.repo}`) {
      return {
        refuse: `gemini-run cannot push to the branch of pull request #${pull.number}: it lives in another repository (a fork).`,
      };
    }
    return {
      branch: pull.headRef,
      base: pull.baseRef,
      ownBranch: pull.headRef.startsWith(inputs.branchPrefix) && pull.author.endsWith('[bot]'),
      existingPull: pull,
    };
  }
  let base = inputs.baseBranch;
  if (!base) base = (await client.rest.repos.get({ ...repo })).data.default_branch;
  const branch =
    trigger.number !== undefined
      ? `${inputs.branchPrefix}issue-${trigger.number}`
      : `${inputs.branchPrefix}run-${runId}`;
  return { branch, base, ownBranch: true };
}

/**
 * Puts the workspace on the run's branch: continues the branch when origin has it (a re-run, a follow-up), else
 * starts it from the base. Runs before the agent, while the checkout's config can still be trusted.
 */
export async function prepareWorktree(o: {
  worktree: string;
  plan: BranchPlan;
  token: string;
  log: Logger;
}): Promise<{ originUrl: string; baseSha: string; remoteSha: string | null }> {
  const { worktree, plan, token, log } = o;
  const git = Git.create(worktree);
  // The push goes to the URL the checkout configured, read now, before the agent can edit the config.
  const originUrl = await git.remoteUrl('origin');
  if (!originUrl)
    throw new UserError(`The workspace ${worktree} has no 'origin' remote: run actions/checkout first.`);
  // Work already in the tree would be committed as the agent's (nothing-is-lost commits everything left over).
  const dirty = await git.statusPorcelain();
  if (dirty.length > 0) {
    throw new UserError(
      `The workspace has ${dirty.length} uncommitted change(s) before the run (e.g. ${dirty[0]?.path}): run gemini-run right after actions/checkout, or commit or clean them first.`,
    );
  }

  const { baseSha, remoteSha } = await log.group(`Preparing branch ${plan.branch}`, async () => {
    const existing = await fetchBranch({ worktree, url: originUrl, branch: plan.branch, token });
    if (existing) {
      log.info(`Continuing on ${plan.branch} (${existing.slice(0, 12)})`);
      await git.run(['checkout', '--quiet', '-B', plan.branch, existing]);
    } else {
      const baseTip = await fetchBranch({ worktree, url: originUrl, branch: plan.base, token });
      log.info(`Starting ${plan.branch} from ${plan.base}${baseTip ? ` (${baseTip.slice(0, 12)})` : ''}`);
      await git.run(['checkout', '--quiet', '-B', plan.branch, ...(baseTip ? [baseTip] : [])]);
    }
    return { baseSha: await git.headSha(), remoteSha: existing ?? null };
  });
  return { originUrl, baseSha, remoteSha };
}
