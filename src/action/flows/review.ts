/**
 * `flow: review`: one review of a pull request's head, posted by the action, never by the agent. The head is
 * fetched as data (`refs/pull/<n>/head`; the action runs nothing of it), the agent is shown the diff and the pull
 * request as approved and answers in a file (review-file.ts); the action places each comment on the diff
 * (github/review-diff.ts), makes every text publishable (review-text.ts) and posts one review in one request. A
 * head the token's identity already reviewed gets no second review; an answer that is missing or broken, or an
 * agent that crashed, still gets a review saying what happened.
 */
import { Git } from '../../git/git.js';
import { hasStatus } from '../../github/client.js';
import { commentMarker, createComment } from '../../github/comments.js';
import { getPull, type PullInfo } from '../../github/pulls.js';
import { linesByPath, placeComments, type DiffFile } from '../../github/review-diff.js';
import { listPullFiles, ownReviews, postReview, reviewMarker, type OwnReview } from '../../github/reviews.js';
import { reviewFocus } from '../../github/trigger.js';
import { buildTask } from '../../github/task.js';
import { statusLine } from '../../domain/status.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import type { BranchPlan } from '../branch.js';
import { ended, writeJobSummary } from '../phases/report.js';
import type { ActionResult, AtAdmit, AtPrepare, Admitted, Budgeted } from '../run-record.js';
import type { AnswerFile } from './answer-file.js';
import { agentOutputs, isEnd, openAnswerRun, runForAnswer, type ReadyRun } from './answer-run.js';
import { REVIEW_FILE, REVIEW_FILE_SHAPE, reviewFileSchema, type ReviewAnswer } from './review-file.js';
import type { ActionStatus, RunResult } from '../../run/types.js';
import { MAX_REVIEW_FILES, notShownLines, reviewInput } from './review-input.js';
import {
  composeReview,
  type NotReviewed,
  type ReviewFacts,
  type SinceLast,
  type Speaker,
} from './review-text.js';
import type { Task } from '../../domain/types.js';

/** The pull request a review run reviews, checked before anything is acknowledged or installed. */
export interface ReviewTarget {
  pull: PullInfo;
  fork: boolean;
  /** The action's last complete review of an earlier head: the new one says what changed since. */
  last?: OwnReview;
}

async function skipped(r: AtAdmit, why: string, reviewId?: number): Promise<ActionResult> {
  r.log.info(`Nothing to do: ${neutralize(why)}`);
  await writeJobSummary(r, `## gemini-run: ${statusLine('skipped')}\n\nNothing to do: ${neutralize(why)}.\n`);
  const end = ended('skipped');
  return reviewId === undefined
    ? end
    : { ...end, outputs: { ...end.outputs, 'review-id': String(reviewId) } };
}

/**
 * Whether the pull request gets a review now: open, not a fork's unless the workflow allows forks (and then only
 * with the agent isolated), and not already reviewed at its head by the token's identity.
 */
export async function reviewTarget(r: AtAdmit & Admitted): Promise<ReviewTarget | ActionResult> {
  const number = r.trigger.number;
  if (number === undefined) return skipped(r, 'a review needs a pull request');
  const pull = await getPull(r.client, r.repo, number);
  if (pull.state !== 'open') return skipped(r, `pull request #${number} is ${pull.state}`);
  const fork = pull.headRepo !== `${r.repo.owner}/${r.repo.repo}`;
  if (fork && (!r.inputs.allowForkReview || !r.privilege)) {
    const why = !r.inputs.allowForkReview
      ? "its head is in another repository (a fork), and this workflow does not set 'allow-fork-review'"
      : "a fork's code is reviewed only with the agent isolated ('isolation: user')";
    await createComment(
      r.client,
      r.repo,
      number,
      `${commentMarker('refused')}\ngemini-run did not review this pull request: ${why}.`,
    ).catch((e: unknown) => r.log.warning(`Could not comment on #${number}: ${getErrorMessage(e)}`));
    r.log.info(`Refused: ${why}`);
    return ended('refused');
  }
  const self = await r.self();
  const own = self ? await ownReviews(r.client, r.repo, number, self) : [];
  const done = own.find((o) => o.complete && o.head === pull.headSha);
  if (done)
    return skipped(
      r,
      `gemini-run already reviewed ${pull.headSha.slice(0, 12)}, the head of #${number}`,
      done.id,
    );
  const last = own.filter((o) => o.complete).at(-1);
  return { pull, fork, ...(last ? { last } : {}) };
}

/** The commits and files since the last review, read from the fetched head's history (as data, hooks off). */
async function sinceLast(
  worktree: string,
  last: OwnReview | undefined,
  head: string,
): Promise<SinceLast | undefined> {
  if (!last) return undefined;
  const git = Git.forUntrusted(worktree);
  const since: SinceLast = { from: last.head, to: head };
  if (!(await git.tryRevParse(`${last.head}^{commit}`)) || !(await git.isAncestor(last.head, head)))
    return since;
  const log = await git.output(['log', '--format=%s', '--reverse', `${last.head}..${head}`]);
  const files = await git.output(['diff', '--name-only', '-z', last.head, head]);
  return { ...since, commits: log.split('\n').filter(Boolean), files: files.split('\0').filter(Boolean) };
}

/** What the review is of: the head fetched, GitHub's files of its diff, what the task holds of them. */
interface Reviewed {
  head: string;
  files: DiffFile[];
  notReviewed: NotReviewed;
  since?: SinceLast;
}

/** The task: the pull request as approved, the focus a comment asked for, the diff and the answer's file. */
async function reviewTask(r: AtPrepare, t: ReviewTarget, diff: string, notShown: string[]): Promise<Task> {
  const focus = reviewFocus(r.trigger.instruction) ?? r.trigger.instruction;
  const instruction = `Review pull request #${t.pull.number}.${focus ? ` Focus asked for: ${focus}` : ''}`;
  const { task } = await buildTask(r.client, r.repo, { ...r.trigger, instruction }, r.approval);
  return { ...task, review: { diff, notShown, answerFile: REVIEW_FILE, shape: REVIEW_FILE_SHAPE } };
}

async function prepareReview(
  r: AtPrepare,
  t: ReviewTarget,
): Promise<{ ready: ReadyRun; task: Task; reviewed: Reviewed } | ActionResult> {
  const plan: BranchPlan = {
    branch: `${r.inputs.branchPrefix}review-${t.pull.number}`,
    base: t.pull.baseRef,
    source: `refs/pull/${t.pull.number}/head`,
  };
  const ready = await openAnswerRun(r, plan, REVIEW_FILE);
  if (isEnd(ready)) return ready;
  const head = ready.workspace.baseSha;
  if (head !== t.pull.headSha)
    r.log.info(`The pull request moved to ${head.slice(0, 12)} since the event: that head is reviewed.`);
  const listed = await listPullFiles(r.client, r.repo, t.pull.number, MAX_REVIEW_FILES);
  const input = reviewInput(listed.files, listed.more);
  const since = await sinceLast(r.ctx.workspace, t.last, head);
  return {
    ready,
    task: await reviewTask(r, t, input.diff, notShownLines(input.notReviewed)),
    reviewed: { head, files: listed.files, notReviewed: input.notReviewed, ...(since ? { since } : {}) },
  };
}

/** Posts the review; a review GitHub refuses whole (a comment it will not place) goes again without line comments. */
async function post(
  r: AtPrepare,
  number: number,
  head: string,
  facts: ReviewFacts,
): Promise<{ id: number; htmlUrl: string; comments: number }> {
  // The run's own publishing (admit): every text of the review passes it.
  const s: Speaker = r;
  const draft = composeReview(facts, s);
  const body = `${reviewMarker(head, draft.complete)}\n${draft.body}`;
  try {
    const posted = await postReview(r.client, r.repo, number, {
      commitId: head,
      event: draft.event,
      body,
      comments: draft.comments,
    });
    return { ...posted, comments: draft.comments.length };
  } catch (e) {
    // A line GitHub will not place, or a verdict it will not take (changes requested on the token's own pull
    // request): the review goes again as a comment with everything in its summary.
    if (!hasStatus(e, 422) || (draft.comments.length === 0 && draft.event === 'COMMENT')) throw e;
    const refused = oneLine(getErrorMessage(e));
    r.log.warning(
      `GitHub refused the review (${neutralize(refused)}): posting it as a comment, all in its summary.`,
    );
    const why = 'GitHub refused the review with it on its line';
    const placement = {
      inline: [],
      outside: [
        ...facts.placement.inline.map((i) => ({ comment: i.comment, why })),
        ...facts.placement.outside,
      ],
    };
    const again = composeReview({ ...facts, placement, refused }, s);
    const posted = await postReview(r.client, r.repo, number, {
      commitId: head,
      event: again.event,
      body: `${reviewMarker(head, again.complete)}\n${again.body}`,
      comments: [],
    });
    return { ...posted, comments: 0 };
  }
}

/** The job summary and the outputs of a review posted. */
async function reported(
  r: AtPrepare,
  o: {
    status: ActionStatus;
    result: RunResult;
    posted: { id: number; htmlUrl: string; comments: number };
    answer: AnswerFile<ReviewAnswer>;
    number: number;
    head: string;
  },
): Promise<ActionResult> {
  const { status, result, posted, answer } = o;
  await writeJobSummary(
    r,
    r.publish(
      `## gemini-run review: ${statusLine(status)}\n\n[Review](${posted.htmlUrl}) of \`${o.head.slice(0, 12)}\` on #${o.number}: ${posted.comments} comment(s) on lines${answer.kind === 'problem' ? `; incomplete: ${answer.what}` : ''}.\n`,
    ),
  );
  return agentOutputs(r, status, result, {
    'review-id': String(posted.id),
    'review-comments': String(posted.comments),
  });
}

/** The review run after acknowledgement: prepare, the agent, its answer read, one review posted. */
export async function reviewPullRequest(r: AtPrepare & Budgeted, t: ReviewTarget): Promise<ActionResult> {
  const number = t.pull.number;
  const prepared = await prepareReview(r, t);
  if (isEnd(prepared)) return prepared;
  const { head, files, notReviewed, since } = prepared.reviewed;
  // A fork's author wrote the code the agent reads: it reaches the model and nothing else.
  const network = t.fork ? 'none' : r.inputs.network;
  const run = { task: prepared.task, network, answer: { name: REVIEW_FILE, schema: reviewFileSchema } };
  return runForAnswer(r, prepared.ready, run, async (result, answer) => {
    const placement =
      answer.kind === 'read'
        ? placeComments(answer.value.comments, linesByPath(files), r.inputs.maxReviewComments)
        : { inline: [], outside: [] };
    const finished = result.status === 'finished';
    const facts: ReviewFacts = {
      headSha: head,
      answer,
      ...(finished
        ? {}
        : { ended: { status: result.status, ...(result.message ? { message: result.message } : {}) } }),
      finalAnswer: result.transcript.finalAnswer,
      placement,
      mayApprove: r.inputs.reviewMayApprove,
      notReviewed,
      ...(since ? { since } : {}),
      runUrl: r.runUrl,
    };
    if (answer.kind === 'problem') r.log.warning(`The review is incomplete: ${neutralize(answer.what)}`);
    const posted = await post(r, number, head, facts);
    r.log.info(`Posted review ${posted.id} with ${posted.comments} comment(s) on lines: ${posted.htmlUrl}`);
    return reported(r, {
      status: finished ? 'finished' : result.status,
      result,
      posted,
      answer,
      number,
      head,
    });
  });
}
