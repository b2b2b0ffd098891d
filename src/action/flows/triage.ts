/**
 * `flow: triage`: a new issue (or one a writer asks `/gemini triage` of) gets labels from the repository's own
 * set. The agent is shown the issue as approved and the labels (the action lists them: the agent never needs the
 * token), works in a read-only sense (nothing it changes is kept) with `network: none` when isolated, and answers in a file
 * (triage-file.ts); the action adds only labels that exist, at most `max-triage-labels`, never removes one, and
 * says on the issue what it did, in one comment of its own (updated by a later triage of the same issue).
 */
import { commentMarker, findMarkedComment, upsertMarkedComment } from '../../github/comments.js';
import { addLabels, getIssue, labelsOn, repositoryLabels, type RepoLabel } from '../../github/issues.js';
import { buildTask } from '../../github/task.js';
import { statusLine } from '../../domain/status.js';
import { getErrorMessage } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import { defaultBranch } from '../../github/issues.js';
import type { BranchPlan } from '../branch.js';
import { ended, writeJobSummary } from '../phases/report.js';
import type { ActionResult, Admitted, AtAdmit, AtPrepare, Budgeted } from '../run-record.js';
import {
  agentOutputs,
  isEnd,
  openAnswerRun,
  runForAnswer,
  type AnswerRunSpec,
  type ReadyRun,
} from './answer-run.js';
import {
  planLabels,
  TRIAGE_FILE,
  TRIAGE_FILE_SHAPE,
  triageComment,
  triageFileSchema,
  triageCommentOfRun,
  triageStopped,
  triageUnderWay,
  type TriageAnswer,
} from './triage-file.js';

/** The marker of the triage's own comment on an issue: an issue with one (the action's own) was triaged. */
export const TRIAGE_MARKER = commentMarker('triage');
/** Labels shown to the agent at most: a repository with more is said in the log. */
const MAX_REPO_LABELS = 200;

export async function triageIssue(r: AtPrepare & Budgeted): Promise<ActionResult> {
  const number = r.trigger.number;
  if (number === undefined) return ended('skipped');
  const issue = await getIssue(r.client, r.repo, number);
  if (issue.isPullRequest) return ended('skipped');
  const self = await r.self();
  const labels = await repositoryLabels(r.client, r.repo, MAX_REPO_LABELS);
  if (labels.length === 0) {
    r.log.info('The repository has no labels: nothing to triage with.');
    await writeJobSummary(
      r,
      `## gemini-run triage: ${statusLine('skipped')}\n\nThe repository has no labels.\n`,
    );
    return ended('skipped');
  }
  const plan: BranchPlan = {
    branch: `${r.inputs.branchPrefix}triage-${number}`,
    base: await defaultBranch(r.client, r.repo),
  };
  const ready = await openAnswerRun(r, plan, TRIAGE_FILE);
  if (isEnd(ready)) return ready;
  const { task } = await buildTask(r.client, r.repo, r.trigger, r.approval);
  const max = r.inputs.maxTriageLabels;
  const triage = { labels, max, answerFile: TRIAGE_FILE, shape: TRIAGE_FILE_SHAPE };
  // The agent needs nothing but the issue and the labels: isolated, it reaches the model and nothing else (a
  // network policy needs the agent's own user: under `isolation: none` the input's stands).
  const run = {
    task: { ...task, triage },
    network: r.privilege ? ('none' as const) : r.inputs.network,
    answer: { name: TRIAGE_FILE, schema: triageFileSchema },
  };
  // The claim: said on the issue before the agent starts, and replaced by the outcome (or the error) after.
  await upsertMarkedComment(r.client, r.repo, number, TRIAGE_MARKER, triageUnderWay(r.runUrl, r), self);
  try {
    return await triageRun(r, ready, run, { number, labels, max, self });
  } catch (error) {
    await upsertMarkedComment(
      r.client,
      r.repo,
      number,
      TRIAGE_MARKER,
      triageStopped(r.runUrl, r),
      self,
    ).catch((e: unknown) =>
      r.log.warning(`Could not say on #${number} that the triage stopped: ${getErrorMessage(e)}`),
    );
    throw error;
  }
}

/**
 * An issue's own `issues: opened` run and a sweep's run may meet on a new issue: a run nobody asked for (`implicit`)
 * that finds another run's triage comment leaves the issue. A re-run of the same run goes on, and so does a writer's
 * `/gemini triage`.
 */
export async function triagedByAnotherRun(r: AtAdmit & Admitted): Promise<boolean> {
  const number = r.trigger.number;
  if (!r.trigger.implicit || number === undefined) return false;
  const self = await r.self();
  const other = self && (await findMarkedComment(r.client, r.repo, number, TRIAGE_MARKER, self));
  if (!other || triageCommentOfRun(other.body, r.runUrl)) return false;
  r.log.info(
    `#${number} has gemini-run's triage comment already (${other.htmlUrl}): another run triaged it or is triaging it. A writer's '${r.inputs.triggerPhrase} triage' triages it again.`,
  );
  return true;
}

async function triageRun(
  r: AtPrepare & Budgeted,
  ready: ReadyRun,
  run: AnswerRunSpec<TriageAnswer>,
  o: { number: number; labels: RepoLabel[]; max: number; self: string | undefined },
): Promise<ActionResult> {
  const { number, labels, max } = o;
  return runForAnswer(r, ready, run, async (result, answer) => {
    const labelPlan =
      answer.kind === 'read'
        ? planLabels(answer.value.labels ?? [], labels, await labelsOn(r.client, r.repo, number), max)
        : undefined;
    if (labelPlan?.add.length) await addLabels(r.client, r.repo, number, labelPlan.add);
    const finished = result.status === 'finished';
    const body = triageComment(
      {
        answer,
        plan: labelPlan,
        max,
        finalAnswer: result.transcript.finalAnswer,
        ...(finished ? {} : { ended: `the agent's run ended ${statusLine(result.status)}` }),
        runUrl: r.runUrl,
      },
      r,
    );
    await upsertMarkedComment(r.client, r.repo, number, TRIAGE_MARKER, body, o.self);
    const added = labelPlan?.add ?? [];
    r.log.info(
      `Triage of #${number}: ${added.length ? `added ${neutralize(added.join(', '))}` : 'no label added'}.`,
    );
    const status = finished ? 'finished' : result.status;
    await writeJobSummary(r, `## gemini-run triage: ${statusLine(status)}\n\n${body}\n`);
    return agentOutputs(r, status, result, { 'labels-applied': added.join(',') });
  });
}
