/**
 * The sweep, the scheduled side of `on-quota: defer` (a `schedule` run, or a `workflow_dispatch` without a task
 * under `on-quota: defer`: a trigger kind of github/trigger.ts): it finds the repository's open issues and pull requests with the deferred label, keeps those
 * whose deferral record — in the action's own comment, nobody else's — is due, and resumes the oldest of them, at
 * most `max-resumes`, each as its own run of the pipeline in the same session. The label comes off and the record
 * is cleared before a resumed run starts, so a deferral is resumed once; a person who removed the label cancelled
 * it, and an issue edited while it waited is not run as edited.
 */
import type { GitHubClient, RepoRef } from '../../github/client.js';
import { findMarkedComment, upsertMarkedComment } from '../../github/comments.js';
import {
  getIssue,
  lastLabelledBy,
  openIssuesLabelled,
  removeLabel,
  type IssueInfo,
} from '../../github/issues.js';
import { carryApproval, type Approved } from '../../github/approval.js';
import { recordOriginProblem } from '../../github/record-origin.js';
import type { RunTrigger } from '../../github/trigger.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import { runUrlOf } from '../context.js';
import {
  DEFERRAL_MARKER,
  deferralRecordOf,
  dueDeferrals,
  resumeTrigger,
  type DeferralRecord,
} from '../deferral.js';
import { publisherFor } from '../publishing.js';
import type { ActionResult, Basics } from '../run-record.js';
import { ended, writeJobSummary } from './report.js';

interface Found {
  item: IssueInfo;
  record: DeferralRecord;
}

/** The labelled items whose record is the action's own and names them; the others are said and left. */
async function deferredItems(r: Basics, client: GitHubClient, self: string): Promise<Found[]> {
  const { repo, origin } = r.ctx;
  const { log } = r;
  const label = r.inputs.deferredLabel;
  const found: Found[] = [];
  for (const i of await openIssuesLabelled(client, repo, label)) {
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
    found.push({ item: i, record });
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
  const by = await lastLabelledBy(client, repo, number, label);
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
      : await getIssue(client, repo, approved.number);
  return carryApproval(client, repo, approved, {
    title: of.title,
    body: of.body,
    instruction: record.instruction,
    isPullRequest: of.isPullRequest,
  });
}

/** Ends the deferral before its run: label off, record cleared (so it is resumed once). A refusal says why. */
async function takeDeferral(r: Basics, client: GitHubClient, f: Found, self: string): Promise<Approved> {
  const { item } = f;
  const { repo } = r.ctx;
  const carried = await carriedApproval(client, repo, f);
  await removeLabel(client, repo, item.number, r.inputs.deferredLabel);
  const text =
    carried.kind === 'refused'
      ? `gemini-run did not resume this deferred run: ${carried.why}, and only what a writer approved is run. Re-trigger it to run it as it is now.`
      : `▶️ gemini-run resumed this deferred run after the quota reset ([run](${runUrlOf(r.ctx)})).`;
  const body = publisherFor(r, item.number).publish(text);
  await upsertMarkedComment(client, repo, item.number, DEFERRAL_MARKER, body, self);
  return carried;
}

/** The due deferrals, the token's login, and the session's client; or the step's end when there is nothing to do. */
async function dueOnes(
  r: Basics,
): Promise<{ due: Found[]; self: string; client: GitHubClient } | ActionResult> {
  const { log } = r;
  if (!r.github)
    return ended('misconfigured', "No GitHub token: set the 'github-token' input to resume deferred runs.");
  const { client } = r.github;
  const label = r.inputs.deferredLabel;
  let self: string;
  let found: Found[];
  try {
    self = await r.github.identity();
    found = await log.group(`Looking for deferred runs (label ${label})`, () =>
      deferredItems(r, client, self),
    );
  } catch (e) {
    const why = oneLine(getErrorMessage(e));
    log.warning(`Could not look for deferred runs: ${why}`);
    return ended('skipped');
  }
  const { due, waiting, nextAt } = dueDeferrals(found, r.now(), r.inputs.maxResumes);
  if (due.length) return { due, self, client };
  const later = waiting
    ? `${waiting} wait(s) for the quota; the next reset is at ${nextAt}`
    : 'none is deferred';
  log.info(`Nothing to resume: ${later}.`);
  await writeJobSummary(r, `## gemini-run: nothing to resume\n\n${later}.\n`);
  return ended('skipped');
}

/**
 * Resumes the due deferrals, each as a run of the pipeline (`run`, from its preflight on) with the trigger its
 * record makes and the approval it carries, checked again.
 */
export async function sweep(
  r: Basics,
  run: (requested: RunTrigger) => Promise<ActionResult>,
): Promise<ActionResult> {
  const { log } = r;
  const found = await dueOnes(r);
  if ('outputs' in found) return found;
  const { due, self, client } = found;
  const results: ActionResult[] = [];
  for (const f of due) {
    log.info(
      `Resuming #${f.item.number} (deferral ${f.record.attempt}, the quota reset at ${f.record.resetAt})`,
    );
    const taken = await takeDeferral(r, client, f, self).catch((e: unknown): Approved => ({
      kind: 'refused',
      why: `its deferral could not be taken: ${oneLine(getErrorMessage(e))}`,
    }));
    if (taken.kind === 'refused') {
      log.warning(`Not resuming #${f.item.number}: ${neutralize(taken.why)}.`);
      continue;
    }
    results.push(await run(resumeTrigger(f.record, f.item, self, taken.approval)));
  }
  // The step fails with the first run that failed; else it is the last run's.
  return results.find((x) => x.failure) ?? results.at(-1) ?? ended('skipped');
}
