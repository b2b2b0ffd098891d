/**
 * How the run's commits reach the remote and a pull request (settled, pushed, diverted, bundled, signed), for the
 * publish phase (phases/publish.ts): without destroying anyone's work and without losing the agent's. Never
 * throws for a refused push or PR call: each becomes a `problem` in plain words (what happened, what to do) and the
 * work stays reachable (another branch, or a git bundle).
 */
import { join } from 'node:path';
import { codePath, protectedChangesLine, type ProtectedChange } from '../domain/protected-paths.js';
import { createBundle } from '../git/bundle.js';
import { filesChanged, listCommits, type CommitInfo } from '../git/commits.js';
import { scrubCommits, type IdentityChange } from '../git/scrub.js';
import { Git } from '../git/git.js';
import { PushRejectedError, pushBranch } from '../git/push.js';
import { SignError, signCommits } from '../github/signed-commits.js';
import { commitObjects } from '../git/commit-objects.js';
import type { GitHubClient } from '../github/client.js';
import { applyPullControls, type PullControls } from '../github/pull-controls.js';
import { createOrUpdatePull, type PullInfo, type PullSpec } from '../github/pulls.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { BranchPlan } from './branch.js';
import type { RepoRef } from '../github/client.js';

/** A publishing failure, for the issue comment (what, todo) and the step's one-line failure (headline). */
export interface PublishProblem {
  headline: string;
  what: string;
  todo: string;
}

export interface PublishOutcome {
  /** The branch that holds the commits on the remote (the run branch, or the one they went to instead). */
  pushedTo?: string;
  /** The commit `pushedTo` points at when it is not the vault's head (commits re-created through the API). */
  headSha?: string;
  /** `sign-commits`: each local commit → the one GitHub re-created and signed. */
  signed?: { map: ReadonlyMap<string, string>; unverified: number };
  /** The commits went to another branch than the run's, and why. */
  diverted?: { branch: string; why: 'rewrote' | 'moved' };
  pull?: PullInfo;
  /** This run opened the pull request (false: it updated one that existed, e.g. another run's in a race). */
  opened?: boolean;
  /** Where a person can open the pull request by hand. */
  compareUrl?: string;
  /** A git bundle of the commits (for the artifact) when they could not be pushed. */
  bundle?: string;
  problem?: PublishProblem;
  /** Protected paths the commits change, published anyway (`protected-paths-policy: allow`): said everywhere. */
  protectedAllowed?: readonly ProtectedChange[];
}

export interface PublishInput {
  client: GitHubClient;
  repo: RepoRef;
  serverUrl: string;
  /** The action's own repository holding the run's commits (the vault), never the agent's. */
  repoDir: string;
  originUrl: string;
  token: string;
  plan: BranchPlan;
  /** The run branch's remote tip when the run started (null: it did not exist). */
  startTip: string | null;
  /** Commits the bundle may leave out (the run's base, the remote tips): the receiver has them. */
  known: readonly string[];
  /** A branch name for work that cannot go onto the run branch. */
  divertBranch: string;
  /** Where a bundle is written. */
  outDir: string;
  artifactName: string;
  /**
   * Protected paths the run's commits change, under the `block` policy: then nothing is pushed at all (a pushed
   * branch with a changed workflow runs that workflow on `push`, with the repository's secrets) and the commits
   * go to the bundle only.
   */
  blockedBy?: readonly ProtectedChange[];
  /** Why the commits could not be rewritten before publishing (settleCommits): then nothing is pushed either. */
  unsettled?: string;
  /**
   * `sign-commits`: re-create the commits through GitHub's API so GitHub signs them (`on`: a plain push when
   * that fails, with a warning; `required`: no push at all then).
   */
  sign?: 'off' | 'on' | 'required';
  /** The pull request to open when the run branch has none; built only when needed, with the signed commits' map. */
  pullSpec: (signed: ReadonlyMap<string, string> | undefined) => Omit<PullSpec, 'head' | 'base'>;
  /** Labels, assignees and reviewers added to the pull request, opened or updated. */
  controls?: PullControls;
  log: Logger;
}

/**
 * Before publishing: rewrites the run's own commits (never commits `known` reaches) with `scrub` applied to their
 * messages and `identity` to their author and committer, and lists them. When that fails, `unsettled` says why:
 * the commits are then as the agent left them, and must not be pushed (their messages were not neutralised).
 */
export async function settleCommits(o: {
  /** The action's own repository (the vault): the agent's is never scrubbed or read. */
  repo: string;
  baseSha: string;
  known: readonly string[];
  scrub: ((msg: string) => string) | undefined;
  /** The author and committer a run's commit gets (the leftover commit, all of them under `rewrite-author`). */
  identity?: (sha: string) => IdentityChange | undefined;
  log: Logger;
}): Promise<{ head: string; commits: CommitInfo[]; filesChanged: string[]; unsettled?: string }> {
  const { repo, baseSha, log } = o;
  let unsettled: string | undefined;
  if (o.scrub || o.identity) {
    const scrub = o.scrub ?? ((m: string) => m);
    const identity = o.identity;
    await log
      .group('Neutralising and scrubbing the commit messages', async () => {
        const { rewritten } = await scrubCommits(repo, baseSha, scrub, {
          keep: o.known,
          ...(identity ? { identity } : {}),
        });
        log.info(`${rewritten} commit(s) rewritten`);
      })
      .catch((e: unknown) => {
        unsettled = oneLine(getErrorMessage(e));
        log.warning(`Could not rewrite the run's commits; they are kept as they are: ${unsettled}`);
      });
  }
  const head = await Git.forUntrusted(repo).headSha();
  // The run's own commits: not those a merge brought in from branches that already existed.
  const commits = await listCommits(repo, baseSha, head, o.known);
  return {
    head,
    commits,
    filesChanged: await filesChanged(repo, baseSha, head),
    ...(unsettled === undefined ? {} : { unsettled }),
  };
}

export function compareUrl(serverUrl: string, repo: RepoRef, base: string, head: string): string {
  const ref = (b: string) => b.split('/').map(encodeURIComponent).join('/');
  return `${serverUrl}/${repo.owner}/${repo.repo}/compare/${ref(base)}...${ref(head)}?expand=1`;
}

/** The one line of GitHub's answer to a failed call: status and message, no stack, no headers. */
function describeApiError(error: unknown): string {
  const e = error as { status?: unknown; response?: { data?: { message?: unknown } } };
  const message =
    typeof e.response?.data?.message === 'string' ? e.response.data.message : getErrorMessage(error);
  return oneLine(typeof e.status === 'number' ? `${e.status} ${message}` : message);
}

/**
 * Pushes the commits and opens the pull request. Never throws: a failure it did not foresee still ends with the
 * commits in a bundle and a problem for the issue.
 */
export async function publishWork(o: PublishInput): Promise<PublishOutcome> {
  if (o.blockedBy?.length) {
    const changes = o.blockedBy;
    o.log.warning(
      `The agent's commits change protected paths: ${protectedChangesLine(changes)}. Nothing is pushed.`,
    );
    return keepInBundle(o, (artifact) => blockedProblem(o.plan.branch, changes, artifact));
  }
  if (o.unsettled !== undefined) {
    const why = o.unsettled;
    return keepInBundle(o, (artifact) => unsettledProblem(o.plan.branch, why, artifact));
  }
  try {
    return await pushAndOpen(o);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(getErrorMessage(error));
    o.log.warning(`Publishing failed: ${oneLine(failure.message)}`);
    return bundleInstead(o, failure);
  }
}

async function pushAndOpen(o: PublishInput): Promise<PublishOutcome> {
  const { plan, log } = o;
  const git = Git.forUntrusted(o.repoDir);
  const head = await git.headSha();
  // The run branch only moves forward: work that no longer contains its tip goes elsewhere.
  const rewrote = o.startTip !== null && !(await git.isAncestor(o.startTip, head));
  let target = rewrote ? o.divertBranch : plan.branch;
  let why: 'rewrote' | 'moved' | undefined = rewrote ? 'rewrote' : undefined;
  if (rewrote) {
    log.warning(
      `The agent rewrote the history of ${plan.branch} (its tip ${o.startTip?.slice(0, 12)} is no longer in HEAD): pushing to ${o.divertBranch} instead.`,
    );
  }

  let pushed: Pushed = {};
  const push = async (branch: string) => {
    pushed = await pushTo(o, head, branch);
  };

  let failure: PushRejectedError | Error | undefined;
  try {
    await push(target);
  } catch (error) {
    if (error instanceof PushRejectedError && error.kind === 'moved' && target === plan.branch) {
      log.warning(`${plan.branch} moved on the remote during the run: pushing to ${o.divertBranch} instead.`);
      target = o.divertBranch;
      why = 'moved';
      try {
        await push(target);
      } catch (again) {
        failure = again instanceof Error ? again : new Error(getErrorMessage(again));
      }
    } else {
      failure = error instanceof Error ? error : new Error(getErrorMessage(error));
    }
  }

  if (failure) return bundleInstead(o, failure);

  const outcome: PublishOutcome = { pushedTo: target, ...pushed };
  if (why) {
    outcome.diverted = { branch: target, why };
    outcome.compareUrl = compareUrl(o.serverUrl, o.repo, why === 'moved' ? plan.branch : plan.base, target);
    outcome.problem = divertProblem(plan.branch, target, why, outcome.compareUrl);
    return outcome;
  }
  return openPull(o, outcome);
}

type Pushed = Pick<PublishOutcome, 'headSha' | 'signed'>;

/**
 * The commits onto `branch`: pushed as they are, or (`sign-commits`) re-created through GitHub's API so GitHub
 * signs them. The branch not being where the run expected is a `moved` refusal either way.
 */
function pushTo(o: PublishInput, head: string, branch: string): Promise<Pushed> {
  const { plan, log } = o;
  const sign = o.sign ?? 'off';
  const plainPush = () =>
    pushBranch({
      worktree: o.repoDir,
      remote: o.originUrl,
      url: o.originUrl,
      branch,
      token: o.token,
      // A diverted branch must be new; the run branch is pushed without force (fast-forward only).
      ...(branch === plan.branch ? {} : { force: { expectedSha: null } }),
    });
  if (sign === 'off') return log.group(`Pushing to ${branch}`, async () => (await plainPush(), {}));
  return log.group(`Re-creating the commits on ${branch} through GitHub's API, signed`, async () => {
    try {
      const made = await signCommits({
        client: o.client,
        repo: o.repo,
        source: await commitObjects(o.repoDir, head, o.known),
        head,
        branch,
        exists: branch === plan.branch && o.startTip !== null,
        log,
      });
      if (made.unverified)
        log.warning(
          `GitHub did not report ${made.unverified} of the re-created commits as verified: GitHub signs the commits of a GITHUB_TOKEN or a GitHub App's token.`,
        );
      return { headSha: made.head, signed: { map: made.map, unverified: made.unverified } };
    } catch (thrown) {
      // Reading the commits can fail too (a corrupt vault): as any refusal, never a crash of the publish.
      const error =
        thrown instanceof SignError ? thrown : new SignError('refused', oneLine(getErrorMessage(thrown)));
      // The branch is not where the run expected: the same as a push refused for it.
      if (error.kind === 'moved') throw new PushRejectedError(branch, 'moved', error.message);
      if (sign === 'required') throw new SignRequiredError(error.message);
      log.warning(
        `Could not re-create the commits signed (${error.message}); pushing them unsigned instead.`,
      );
      await plainPush();
      return {};
    }
  });
}

/** The pull request for the pushed run branch: the one the run continues, or one opened (or updated) now. */
async function openPull(o: PublishInput, outcome: PublishOutcome): Promise<PublishOutcome> {
  const { plan, log } = o;
  if (plan.existingPull) {
    outcome.pull = plan.existingPull;
    if (o.controls) await applyPullControls(o.client, o.repo, outcome.pull.number, o.controls, log);
    return outcome;
  }
  try {
    const { pull, created } = await log.group('Opening the pull request', async () => {
      const made = await createOrUpdatePull(o.client, o.repo, {
        head: plan.branch,
        base: plan.base,
        ...o.pullSpec(outcome.signed?.map),
      });
      log.info(
        `${made.created ? 'Opened' : 'Updated'} pull request #${made.pull.number}: ${made.pull.htmlUrl}`,
      );
      return made;
    });
    outcome.pull = pull;
    outcome.opened = created;
    if (o.controls) await applyPullControls(o.client, o.repo, pull.number, o.controls, log);
  } catch (error) {
    const url = compareUrl(o.serverUrl, o.repo, plan.base, plan.branch);
    outcome.compareUrl = url;
    outcome.problem = pullProblem(plan.branch, error, url);
    log.warning(outcome.problem.what);
  }
  return outcome;
}

function bundleInstead(o: PublishInput, failure: Error): Promise<PublishOutcome> {
  return keepInBundle(o, (artifact) => pushProblem(o.plan.branch, failure, artifact));
}

async function keepInBundle(
  o: PublishInput,
  problemOf: (artifact: string | undefined) => PublishProblem,
): Promise<PublishOutcome> {
  const file = join(o.outDir, 'gemini-run.bundle');
  let bundle: string | undefined;
  try {
    await createBundle(o.repoDir, file, o.known);
    bundle = file;
  } catch (e) {
    o.log.warning(`Could not write the commits to a git bundle either: ${getErrorMessage(e)}`);
  }
  const problem = problemOf(bundle ? o.artifactName : undefined);
  o.log.warning(problem.what);
  return { ...(bundle ? { bundle } : {}), problem };
}

/** `sign-commits: required`, and the commits could not be re-created signed: nothing was pushed. */
class SignRequiredError extends Error {
  override readonly name = 'SignRequiredError';
}

/** Exported for tests. */
export function pushProblem(branch: string, failure: Error, artifact: string | undefined): PublishProblem {
  if (failure instanceof SignRequiredError) {
    const keep = artifact
      ? `The commits are in the artifact \`${artifact}\` as \`gemini-run.bundle\` (\`git fetch gemini-run.bundle HEAD:${branch}\`)`
      : 'The commits could not be saved anywhere else';
    return {
      headline: `the commits could not be re-created signed, and sign-commits is 'required': ${failure.message}`,
      what: `Nothing was pushed to \`${branch}\`: \`sign-commits: required\` asks for commits GitHub signs, and re-creating them through GitHub's API failed: ${failure.message}.`,
      todo: `${keep}. Re-run once the cause is fixed, or set \`sign-commits: true\` to push unsigned commits when signing fails.`,
    };
  }
  const kind = failure instanceof PushRejectedError ? failure.kind : 'other';
  const detail = failure instanceof PushRejectedError ? failure.detail : oneLine(failure.message);
  const keep = artifact
    ? `The commits are not lost: they are in the artifact \`${artifact}\` as \`gemini-run.bundle\`; fetch them with \`git fetch gemini-run.bundle HEAD:${branch}\` and push them yourself`
    : 'The commits could not be saved anywhere else; re-run';
  if (kind === 'workflows') {
    return {
      headline: `the push to ${branch} was refused: the agent changed a workflow file and the token lacks the 'workflows' permission`,
      what: `GitHub refused the push to \`${branch}\`: the agent changed a file in \`.github/workflows/\`, and the token the action uses lacks the \`workflows\` permission (${detail}).`,
      todo: `${keep}, or re-run with a token that has the \`workflows\` permission (a GitHub App or a fine-grained token with "Workflows: write").`,
    };
  }
  return {
    headline: `the push to ${branch} failed: ${detail}`,
    what: `The push to \`${branch}\` failed: ${detail}.`,
    todo: `${keep}, or re-run once the cause is fixed.`,
  };
}

/** Exported for tests. */
export function blockedProblem(
  branch: string,
  changes: readonly ProtectedChange[],
  artifact: string | undefined,
): PublishProblem {
  const n = changes.length;
  const names = changes.slice(0, 3).map((c) => codePath(c.path));
  const keep = artifact
    ? `The commits are in the artifact \`${artifact}\` as \`gemini-run.bundle\`: review them (\`git fetch gemini-run.bundle HEAD:${branch}\`) and push them yourself if they are wanted`
    : 'The commits could not be saved anywhere else';
  return {
    headline: `the agent's commits change ${n} protected path${n === 1 ? '' : 's'} (${names.join(', ')}${n > 3 ? ', …' : ''}); nothing was pushed`,
    what: `The agent's commits change protected paths, so nothing was pushed and no pull request was opened or updated (\`protected-paths-policy: block\`): ${protectedChangesLine(changes)}.`,
    todo: `${keep}. To let runs change these paths, re-run with \`protected-paths-policy: allow\` (the pull request then opens with a warning) or leave them out of \`protected-paths\`.`,
  };
}

/** The commits could not be settled (settleCommits): nothing was pushed. */
function unsettledProblem(branch: string, why: string, artifact: string | undefined): PublishProblem {
  const keep = artifact
    ? `The commits are in the artifact \`${artifact}\` as \`gemini-run.bundle\`: review their messages (\`git fetch gemini-run.bundle HEAD:${branch}\`) and push them yourself if they are wanted`
    : 'The commits could not be saved anywhere else';
  return {
    headline: `the run's commits could not be rewritten before the push (${why}); nothing was pushed`,
    what: `The run's commits could not be rewritten (their messages neutralised, their author set) before the push, so nothing was pushed and no pull request was opened or updated: ${why}.`,
    todo: `${keep}, or re-run.`,
  };
}

/** Exported for tests. */
export function pullProblem(branch: string, error: unknown, url: string): PublishProblem {
  const detail = describeApiError(error);
  if (/not permitted to create or approve pull requests/i.test(detail)) {
    return {
      headline: 'GitHub Actions is not permitted to create pull requests in this repository',
      what: `The work is on the branch \`${branch}\`, but GitHub refused to open the pull request: GitHub Actions is not permitted to create or approve pull requests in this repository.`,
      todo: `Open it yourself: ${url}. To let later runs open it, an admin can enable "Allow GitHub Actions to create and approve pull requests" in Settings → Actions → General (of the repository or its organisation).`,
    };
  }
  return {
    headline: `opening the pull request failed: ${detail}`,
    what: `The work is on the branch \`${branch}\`, but opening the pull request failed: ${detail}.`,
    todo: `Open it yourself: ${url}, or re-run.`,
  };
}

/** Exported for tests. */
export function divertProblem(
  branch: string,
  diverted: string,
  why: 'rewrote' | 'moved',
  url: string,
): PublishProblem {
  if (why === 'rewrote') {
    return {
      headline: `the agent rewrote the history of ${branch}; its work is on ${diverted}`,
      what: `The agent rewrote the history of \`${branch}\` (a reset or rebase), and that branch only moves forward, so nobody's commits are lost: the agent's work was pushed to the new branch \`${diverted}\`, and \`${branch}\` was left as it was.`,
      todo: `Compare and keep what you want: ${url}.`,
    };
  }
  return {
    headline: `${branch} moved during the run; the agent's work is on ${diverted}`,
    what: `Someone pushed to \`${branch}\` while the agent worked, so the agent's work was pushed to the new branch \`${diverted}\` instead of overwriting theirs.`,
    todo: `Merge \`${diverted}\` into \`${branch}\` (${url}), or re-run on the updated branch.`,
  };
}
