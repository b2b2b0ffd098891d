/**
 * The scheduled side of `on-quota: defer`: a `schedule` run (or a `workflow_dispatch` without a task, with
 * `on-quota: defer`) finds the repository's open issues and pull requests with the deferred label, keeps those
 * whose deferral record — in the action's own comment, nobody else's — is due, and resumes the oldest of them, at
 * most `max-resumes`, each as its own run of the pipeline in the same session. The label comes off and the record
 * is cleared before a resumed run starts, so a deferral is resumed once; a person who removed the label cancelled
 * it, and an issue edited while it waited is not run as edited.
 */
import { createGitHubClient, type GitHubClient, type RepoRef } from '../github/client.js';
import { findMarkedComment, tokenIdentity, upsertMarkedComment } from '../github/comments.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { runUrlOf, type ActionContext } from './context.js';
import {
  approvedHash,
  DEFERRAL_MARKER,
  deferralRecordOf,
  dueDeferrals,
  resumeTrigger,
  type DeferralRecord,
} from './deferral.js';
import type { ActionInputs } from './inputs.js';
import { ended, writeJobSummary } from './phases/report.js';
import type { ActionIo, ActionResult, PipelineDeps } from './run-record.js';
import { runAction } from './run-action.js';

/** Whether this event asks for the deferred runs to be resumed rather than for a run of its own. */
export function isResumeSweep(
  ctx: Pick<ActionContext, 'eventName' | 'payload'>,
  inputs: ActionInputs,
): boolean {
  if (ctx.eventName === 'schedule') return true;
  if (ctx.eventName !== 'workflow_dispatch' || inputs.onQuota !== 'defer' || inputs.prompt) return false;
  const given = (ctx.payload as { inputs?: Record<string, unknown> } | null)?.inputs ?? {};
  return !['prompt', 'issue', 'issue-number', 'issue_number'].some((k) => given[k]);
}

interface Item {
  number: number;
  title: string;
  body: string | null | undefined;
  htmlUrl: string;
  isPullRequest: boolean;
}

interface Found {
  item: Item;
  record: DeferralRecord;
}

/** The labelled items whose record is the action's own and names them; the others are said and left. */
async function deferredItems(
  client: GitHubClient,
  repo: RepoRef,
  label: string,
  self: string,
  log: Logger,
): Promise<Found[]> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    labels: label,
    state: 'open',
    per_page: 100,
  });
  const found: Found[] = [];
  for (const i of issues) {
    const comment = await findMarkedComment(client, repo, i.number, DEFERRAL_MARKER, self);
    const record = comment ? deferralRecordOf(comment.body) : undefined;
    const here = `${repo.owner}/${repo.repo}`.toLowerCase();
    if (!record || record.number !== i.number || record.repo.toLowerCase() !== here) {
      log.info(`#${i.number} has the label but no deferral record of gemini-run's: not resumed.`);
      continue;
    }
    const item = {
      number: i.number,
      title: i.title,
      body: i.body,
      htmlUrl: i.html_url,
      isPullRequest: i.pull_request != null,
    };
    found.push({ item, record });
  }
  return found;
}

/** Ends the deferral before its run: label off, record cleared (so it is resumed once), or why not. */
async function takeDeferral(
  client: GitHubClient,
  repo: RepoRef,
  f: Found,
  o: { label: string; self: string; runUrl: string },
): Promise<string | undefined> {
  const { item, record } = f;
  const edited =
    !item.isPullRequest && record.approved && approvedHash(item.title, item.body) !== record.approved;
  await client.rest.issues.removeLabel({ ...repo, issue_number: item.number, name: o.label });
  const text = edited
    ? `gemini-run did not resume this deferred run: the issue was edited while it waited, and an edit is nobody's approval. Re-trigger it to run the issue as it is now.`
    : `▶️ gemini-run resumed this deferred run after the quota reset ([run](${o.runUrl})).`;
  await upsertMarkedComment(client, repo, item.number, DEFERRAL_MARKER, text, o.self);
  return edited ? 'the issue was edited while it waited' : undefined;
}

async function resumeDeferred(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  deps?: PipelineDeps,
): Promise<ActionResult> {
  const { log } = io;
  const token = inputs.githubToken || io.env.GITHUB_TOKEN || '';
  if (!token)
    return ended('misconfigured', "No GitHub token: set the 'github-token' input to resume deferred runs.");
  io.mask(token);
  const client = createGitHubClient(token, ctx.apiUrl, { logger: log });
  const { repo } = ctx;
  const label = inputs.deferredLabel;
  const now = new Date();
  let self: string;
  let found: Found[];
  try {
    self = await tokenIdentity(client);
    found = await log.group(`Looking for deferred runs (label ${label})`, () =>
      deferredItems(client, repo, label, self, log),
    );
  } catch (e) {
    const why = oneLine(getErrorMessage(e));
    log.warning(`Could not look for deferred runs: ${why}`);
    return ended('skipped');
  }
  const { due, waiting, nextAt } = dueDeferrals(found, now, inputs.maxResumes);
  if (!due.length) {
    const later = waiting
      ? `${waiting} wait(s) for the quota; the next reset is at ${nextAt}`
      : 'none is deferred';
    log.info(`Nothing to resume: ${later}.`);
    await writeJobSummary({ io, log }, `## gemini-run: nothing to resume\n\n${later}.\n`);
    return ended('skipped');
  }
  const results: ActionResult[] = [];
  for (const f of due) {
    log.info(
      `Resuming #${f.item.number} (deferral ${f.record.attempt}, the quota reset at ${f.record.resetAt})`,
    );
    const refused = await takeDeferral(client, repo, f, { label, self, runUrl: runUrlOf(ctx) }).catch(
      (e: unknown) => `its deferral could not be taken: ${oneLine(getErrorMessage(e))}`,
    );
    if (refused) {
      log.warning(`Not resuming #${f.item.number}: ${refused}.`);
      continue;
    }
    results.push(await runAction(inputs, ctx, io, deps, undefined, resumeTrigger(f.record, f.item, self)));
  }
  // The step fails with the first run that failed; else it is the last run's.
  return results.find((r) => r.failure) ?? results.at(-1) ?? ended('skipped');
}

/** The action's run for its event: the deferred runs' resumption for a sweep, else the event's own run. */
export function runForEvent(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  deps?: PipelineDeps,
  problem?: string,
): Promise<ActionResult> {
  return !problem && isResumeSweep(ctx, inputs)
    ? resumeDeferred(inputs, ctx, io, deps)
    : runAction(inputs, ctx, io, deps, problem);
}
