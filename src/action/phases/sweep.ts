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
import { carryApproval, type Approved } from '../github/approval.js';
import { recordOriginProblem, type RunOrigin } from '../github/record-origin.js';
import { neutralize } from '../util/untrusted-text.js';
import {
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
  origin: RunOrigin,
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
    if (!comment || !record || record.number !== i.number || record.repo.toLowerCase() !== here) {
      log.info(`#${i.number} has the label but no deferral record of gemini-run's: not resumed.`);
      continue;
    }
    const why =
      (await recordOriginProblem(client, repo, {
        runId: record.runId,
        commentUpdatedAt: comment.updatedAt,
        origin,
      })) ?? (await labelProblem(client, repo, i.number, label, self));
    if (why) {
      log.info(`#${i.number}: its deferral record is not trusted: ${neutralize(why)}. Not resumed.`);
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

/**
 * Why the deferred label on an issue is not the action's own, or undefined: the last time it was put on, it must
 * have been by the action's identity (which does so only when it defers). A person who removed it cancelled the
 * deferral for good: a triage user who puts it back (they may label, not start runs) resumes nothing.
 */
async function labelProblem(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
  self: string,
): Promise<string | undefined> {
  const events = await client.paginate(client.rest.issues.listEvents, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  const last = events
    .filter(
      (e) => e.event === 'labeled' && 'label' in e && e.label?.name?.toLowerCase() === label.toLowerCase(),
    )
    .at(-1);
  const by = last?.actor?.login;
  if (!by) return `the issue's events do not say who put on the label ${label}`;
  return by.toLowerCase() === self.toLowerCase()
    ? undefined
    : `the label ${label} was put on by ${by}, not by gemini-run (${self}): a removed label cancels a deferral for good`;
}

/**
 * The approval the record carries, checked again: the approver still has write access and the approved text (the
 * issue, or the instruction) is what it was. A refusal is why not.
 */
async function carriedApproval(client: GitHubClient, repo: RepoRef, f: Found): Promise<Approved> {
  const { item, record } = f;
  const approved = record.approval;
  // A deferred CI fix reads no approved text again (its task is the CI evidence in the approved session), as the
  // fix itself did not: only the approver is checked.
  if (record.ciFix) return carryApproval(client, repo, approved);
  // The approval is of the item it was made on; a run that moved to its pull request carries the issue's.
  const of =
    approved.number === undefined || approved.number === item.number
      ? item
      : await client.rest.issues.get({ ...repo, issue_number: approved.number }).then(({ data }) => ({
          title: data.title,
          body: data.body,
          isPullRequest: data.pull_request != null,
        }));
  return carryApproval(client, repo, approved, {
    title: of.title,
    body: of.body ?? '',
    instruction: record.instruction,
    isPullRequest: of.isPullRequest,
  });
}

/** Ends the deferral before its run: label off, record cleared (so it is resumed once). A refusal says why. */
async function takeDeferral(
  client: GitHubClient,
  repo: RepoRef,
  f: Found,
  o: { label: string; self: string; runUrl: string },
): Promise<Approved> {
  const { item } = f;
  const carried = await carriedApproval(client, repo, f);
  await client.rest.issues.removeLabel({ ...repo, issue_number: item.number, name: o.label });
  const text =
    carried.kind === 'refused'
      ? `gemini-run did not resume this deferred run: ${carried.why}, and only what a writer approved is run. Re-trigger it to run it as it is now.`
      : `▶️ gemini-run resumed this deferred run after the quota reset ([run](${o.runUrl})).`;
  await upsertMarkedComment(client, repo, item.number, DEFERRAL_MARKER, text, o.self);
  return carried;
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
      deferredItems(client, repo, label, self, ctx.origin, log),
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
    const taken = await takeDeferral(client, repo, f, { label, self, runUrl: runUrlOf(ctx) }).catch(
      (e: unknown): Approved => ({
        kind: 'refused',
        why: `its deferral could not be taken: ${oneLine(getErrorMessage(e))}`,
      }),
    );
    if (taken.kind === 'refused') {
      log.warning(`Not resuming #${f.item.number}: ${neutralize(taken.why)}.`);
      continue;
    }
    results.push(
      await runAction(
        inputs,
        ctx,
        io,
        deps,
        undefined,
        resumeTrigger(f.record, f.item, self, taken.approval),
      ),
    );
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
