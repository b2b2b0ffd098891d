import { fetchBranch } from '../git/fetch.js';
import { createVault, type Vault } from '../git/vault.js';
import { inspectWorkspace, type WorkspaceSnapshot } from '../git/workspace.js';
import { Git } from '../git/git.js';
import type { GitHubClient } from '../github/client.js';
import type { RunTrigger } from '../github/trigger.js';
import { getPull, type PullInfo } from '../github/pulls.js';
import { defaultBranch } from '../github/issues.js';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { RepoRef } from '../github/client.js';
import type { ActionInputs } from './inputs.js';

/** Where a run works: its branch and what the PR targets. The branch only ever moves forward, ours or not. */
export interface BranchPlan {
  branch: string;
  base: string;
  existingPull?: PullInfo;
  /**
   * Where the branch starts when it must be this ref of origin and nothing else (a review's `refs/pull/<n>/head`):
   * fetched as data, and a run whose ref is gone ends there. The branch itself stays local.
   */
  source?: string;
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
      existingPull: pull,
    };
  }
  let base = inputs.baseBranch;
  if (!base) base = await defaultBranch(client, repo);
  const branch =
    trigger.number !== undefined
      ? `${inputs.branchPrefix}issue-${trigger.number}`
      : `${inputs.branchPrefix}run-${runId}`;
  return { branch, base };
}

/**
 * Puts the workspace on the run's branch: continues the branch when origin has it (a re-run, a follow-up), else
 * starts it from the base. Then makes the vault, the action's own repository for the run (src/git/vault.ts).
 *
 * On a self-hosted runner the workspace may be the one an earlier agent worked in. So before any git command
 * runs in it, its `.git` is read as data and must hold only what actions/checkout writes (src/git/workspace.ts),
 * what the rebuild after the run needs is saved into `snapshotDir`, every git command here runs with hooks and
 * fsmonitor off and without secrets in its environment, and the fetch runs outside the worktree (fetchBranch).
 */
export async function prepareWorktree(o: {
  worktree: string;
  plan: BranchPlan;
  token: string;
  log: Logger;
  /** Action-owned: the snapshot of the workspace's `.git` and the vault go here. */
  runDir: string;
}): Promise<{
  originUrl: string;
  baseSha: string;
  remoteSha: string | null;
  knownTips: string[];
  snapshot: WorkspaceSnapshot;
  vault: Vault;
}> {
  const { worktree, plan, token, log } = o;
  const snapshot = await inspectWorkspace(worktree, join(o.runDir, 'workspace-git'));
  const git = Git.forUntrusted(worktree);
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
    const existing = await fetchBranch({
      worktree,
      url: originUrl,
      branch: plan.branch,
      ...(plan.source ? { ref: plan.source } : {}),
      token,
    });
    if (!existing && plan.source) throw new UserError(`Could not fetch ${plan.source} from origin.`);
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
  // Every commit that exists before the agent starts: the scrub never rewrites them, a bundle leaves them out.
  const refs = await git.output(['for-each-ref', '--format=%(objectname)']);
  const knownTips = [...new Set(refs.split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l)))];
  const vault = await createVault({
    worktree,
    dir: join(o.runDir, 'vault.git'),
    objectFormat: snapshot.objectFormat,
  });
  return { originUrl, baseSha, remoteSha, knownTips, snapshot, vault };
}
