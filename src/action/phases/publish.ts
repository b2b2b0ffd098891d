/**
 * The publish phase: the agent's commits, in the vault, are settled (attribution scrubbed from the commits no
 * branch reached before) and pushed, and the pull request opened or updated. What cannot be published as planned
 * is kept somewhere (another branch, the bundle in the artifact) with a problem for the report to tell.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { scrubAttribution } from '../../gemini/attribution.js';
import { neutraliseCommitMessage } from '../../github/commit-message.js';
import {
  protectedIn,
  protectedChangesLine,
  protectedRules,
  type ProtectedChange,
} from '../../domain/protected-paths.js';
import { contextFileNamesAt } from '../../gemini/context-names.js';
import { Git } from '../../git/git.js';
import { listRemoteRefs } from '../../git/push.js';
import type { IdentityChange } from '../../git/scrub.js';
import { diffStat, pathsTouched } from '../../git/touched.js';
import { renderSummary } from '../../run/report.js';
import type { ActionStatus, RunResult } from '../../run/types.js';
import { getErrorMessage } from '../../util/errors.js';
import { prBody, prTitle } from '../pr-text.js';
import { publishWork, settleCommits, type PublishOutcome } from '../publish.js';
import type { AtPublish, Published } from '../run-record.js';

/**
 * What already existed outside the run: never rewritten, never counted, never bundled. The remote's tips are
 * asked now, so a commit someone pushed (and the agent fetched) during the run counts too.
 */
function knownCommits(r: AtPublish, remoteTips: Map<string, string>): string[] {
  return [...new Set([...r.workspace.knownTips, ...remoteTips.values()])];
}

/**
 * Who each of the run's commits is by: the run's committer always (the agent names no committer that reaches the
 * remote), and the run's author too for the commit the action made of the agent's leftovers and, under
 * `rewrite-author` (the default), for the agent's own; without it they keep the author the agent gave.
 */
function identityOf(r: AtPublish): (sha: string) => IdentityChange {
  const { author, committer } = r.identity;
  const leftover = r.engineResult.leftoverCommitted ? r.engineResult.headSha : undefined;
  return (sha) => (r.inputs.rewriteAuthor || sha === leftover ? { author, committer } : { committer });
}

/**
 * What the run's commit messages become: attribution lines out (`scrub-attribution`), then what GitHub and CI
 * systems would act on made inert, whatever the inputs say.
 */
function messageOf(r: AtPublish): (message: string) => string {
  return (m) => neutraliseCommitMessage(r.inputs.scrubAttribution ? scrubAttribution(m) : m);
}

/**
 * Whether the run leaves anything to publish: commits of its own, or a branch moved to work that already exists on
 * the remote (a branch merged in, or a commit identical to one another run pushed a moment before: the same change,
 * message, author and second). A branch moved back, into its own history, leaves nothing.
 */
async function hasWork(r: AtPublish, result: RunResult): Promise<boolean> {
  if (result.commits.length > 0) return true;
  const start = r.workspace.baseSha;
  if (result.headSha === start) return false;
  return !(await Git.forUntrusted(r.workspace.vault.dir).isAncestor(result.headSha, start));
}

function remoteTipsOf(r: AtPublish): Promise<Map<string, string>> {
  return listRemoteRefs({ url: r.workspace.originUrl, token: r.token }).catch((e: unknown) => {
    r.log.warning(`Could not list the remote's refs: ${getErrorMessage(e)}`);
    return new Map<string, string>();
  });
}

/**
 * The protected paths the run changed (src/git/touched.ts), with their net diff stat. Trusted: the run's base, the
 * run branch as it was and the base branch as it is now (merging it in is not the run's change). The defaults
 * protect the context files the CLI loads for the repository before and after the run, in every directory.
 */
async function protectedChanges(
  r: AtPublish,
  result: RunResult,
  remoteTips: Map<string, string>,
): Promise<ProtectedChange[]> {
  const setting = r.inputs.protectedPaths;
  if (!setting.defaults && setting.globs.length === 0) return [];
  const repo = r.workspace.vault.dir;
  const { baseSha, remoteSha } = r.workspace;
  const baseTip = remoteTips.get(`refs/heads/${r.plan.base}`);
  const trusted = [baseSha, ...(remoteSha ? [remoteSha] : []), ...(baseTip ? [baseTip] : [])];
  const names = setting.defaults ? await contextFileNamesAt(repo, [...trusted, result.headSha]) : [];
  const rules = protectedRules(setting, names);
  const paths = protectedIn(await pathsTouched(repo, baseSha, result.headSha, trusted), rules);
  if (paths.length === 0) return [];
  const stat = await diffStat(repo, baseSha, result.headSha, paths);
  return paths.map((path) => ({ path, ...(stat.has(path) ? { stat: stat.get(path) } : {}) }));
}

async function settled(
  r: AtPublish,
  known: string[],
): Promise<{ result: RunResult; unsettled: string | undefined }> {
  const ran = r.engineResult;
  if (ran.commits.length === 0) return { result: ran, unsettled: undefined };
  const { head, commits, filesChanged, unsettled } = await settleCommits({
    repo: r.workspace.vault.dir,
    baseSha: r.workspace.baseSha,
    known,
    scrub: messageOf(r),
    identity: identityOf(r),
    log: r.log,
  });
  return { result: { ...ran, headSha: head, commits, filesChanged }, unsettled };
}

/** The result with each commit named by its signed re-creation (`sign-commits`), when there is one. */
function asSigned(result: RunResult, signed: ReadonlyMap<string, string> | undefined): RunResult {
  if (!signed?.size) return result;
  return { ...result, commits: result.commits.map((c) => ({ ...c, sha: signed.get(c.sha) ?? c.sha })) };
}

/** A finished run whose work is kept but in no pull request ended `publish-failed`: its outputs name no PR. */
function statusOf(result: RunResult, published: PublishOutcome): ActionStatus {
  return result.status === 'finished' && !published.pull ? 'publish-failed' : result.status;
}

/** Above the summary (job summary, the PR's summary comment) when `allow` let protected changes through. */
function protectedWarning(allowed: readonly ProtectedChange[]): string {
  if (allowed.length === 0) return '';
  return `> [!CAUTION]\n> ⚠ This run changes protected paths (\`protected-paths-policy: allow\`): ${protectedChangesLine(allowed)}. Review them before merging.\n\n`;
}

export async function publish(r: AtPublish): Promise<Published> {
  const { ctx, task, trigger, plan } = r;
  const outDir = join(ctx.runnerTemp, `gemini-run-output-${ctx.runId}-${ctx.runAttempt}`);
  await mkdir(outDir, { recursive: true });
  const artifactName = `gemini-run-${ctx.runId}-${ctx.runAttempt}`;
  const remoteTips = await remoteTipsOf(r);
  const known = knownCommits(r, remoteTips);
  const { result, unsettled } = await settled(r, known);
  const work = await hasWork(r, result);
  // Whatever moved the branch, commits of the run's own or not: a head taken from a fork's pull request has none.
  const touched = work ? await protectedChanges(r, result, remoteTips) : [];
  const allowed = r.inputs.protectedPathsPolicy === 'allow' ? touched : [];
  const summaryOf = (res: RunResult) =>
    protectedWarning(allowed) + renderSummary(res, { task, publishOn: r.publishOn });
  const summaryBody = summaryOf(result);
  const base = { result, summaryBody, outDir, artifactName };
  if (!work) {
    return {
      ...base,
      runStatus: result.status === 'finished' ? 'no-changes' : result.status,
      published: undefined,
    };
  }
  const published = await publishWork({
    client: r.client,
    repo: r.repo,
    serverUrl: ctx.serverUrl,
    repoDir: r.workspace.vault.dir,
    originUrl: r.workspace.originUrl,
    token: r.token,
    plan,
    startTip: r.workspace.remoteSha,
    known: [r.workspace.baseSha, ...known],
    ...(r.inputs.protectedPathsPolicy === 'block' ? { blockedBy: touched } : {}),
    ...(unsettled === undefined ? {} : { unsettled }),
    divertBranch: `${plan.branch}-run-${ctx.runId}${ctx.runAttempt === '1' ? '' : `-${ctx.runAttempt}`}`,
    outDir,
    artifactName,
    sign: r.inputs.signCommits,
    pullSpec: (signed) => ({
      // A title is plain text (no markup to neutralise), and the task's, not the agent's.
      title: r.scrubbed(prTitle(task)),
      body: r.publish(
        prBody({
          task,
          result: asSigned(result, signed),
          summary: summaryOf(asSigned(result, signed)),
          closes: trigger.isPullRequest ? undefined : trigger.number,
          runUrl: r.runUrl,
          on: r.publishOn,
          protectedChanges: allowed,
        }),
      ),
      draft: r.inputs.draft || result.status !== 'finished',
    }),
    controls: {
      labels: r.inputs.labels,
      assignees: r.inputs.assignees,
      reviewers: r.inputs.reviewers,
      teamReviewers: r.inputs.teamReviewers,
    },
    log: r.log,
  });
  // Signed commits are GitHub's re-creations: the summary and the run record name those, not the vault's.
  const shown = asSigned(result, published.signed?.map);
  return {
    ...base,
    result: shown,
    summaryBody: shown === result ? summaryBody : summaryOf(shown),
    runStatus: statusOf(result, published),
    published: { ...published, ...(allowed.length ? { protectedAllowed: allowed } : {}) },
  };
}
