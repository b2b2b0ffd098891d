/**
 * From a GitHub event to a decision: run (and on what, for whom), sweep (resume the deferred runs that are due) or
 * skip (and why). Pure: one table, keyed by event name, gives each supported event its payload schema and its
 * decision per action; comment-like events (an issue or PR comment, a review comment, a review's body) share one
 * set of checks.
 */
import type { z } from 'zod';
import { UserError } from '../util/errors.js';
import type { Approval } from './approval.js';
import type { CiSource } from './ci-evidence.js';
import { isBotUser } from './client.js';
import { hasOwnMarker } from './comments.js';
import {
  checkSuiteEventSchema,
  issueCommentEventSchema,
  issuesEventSchema,
  parsePayload,
  pullRequestEventSchema,
  reviewCommentEventSchema,
  reviewEventSchema,
  workflowDispatchEventSchema,
  workflowRunEventSchema,
  scheduleEventSchema,
  type userSchema,
} from './event-payload.js';
import { findTriggerPhrase, matchTriggerPhrase } from '../markdown/phrase.js';
import { emptyTally, visibleCode, visibleText, type HiddenTally } from '../markdown/visible.js';

/** What the `prompt` input and other text nobody needs counted reads as on the page. */
const sanitizeUserText = (text: string | null | undefined): string => visibleText(text, emptyTally());

export type TriggerVia =
  | 'label'
  | 'comment'
  | 'dispatch'
  | 'assign'
  | 'review-comment'
  | 'review'
  | 'opened'
  | 'ci-fix'
  /** `flow: review`: a pull request opened, pushed to, reopened or marked ready. */
  | 'pull-request'
  /** A deferred run resumed by a sweep (never from an event's payload: src/action/phases/sweep.ts). */
  | 'resume';

/**
 * The failed CI a `workflow_run` or `check_suite` event names (checked against the API before anything runs): a
 * workflow run's id, or a check suite's.
 */
export interface CiRun extends CiSource {
  /** The workflow's name, or the name of the app whose suite it is. */
  workflow: string;
  branch: string;
  headSha: string;
}

export interface RunTrigger {
  kind: 'run';
  /** Who started the run: the labeller, the commenter or the dispatcher. Their permission is checked. */
  actor: string;
  /** The issue or PR the run works on; absent for a dispatch without an issue. */
  number?: number;
  isPullRequest: boolean;
  /**
   * Sanitised instruction: the comment's text after the trigger phrase, the dispatch prompt or the `prompt`
   * input. Empty means "the issue itself is the task".
   */
  instruction: string;
  via: TriggerVia;
  /** The triggering comment (for a reaction, and to leave it out of the comment history). */
  commentId?: number;
  /** The triggering review comment (left out of the review history; it is the instruction). */
  reviewCommentId?: number;
  /** Where the triggering review comment sits in the diff. */
  anchor?: { path: string; line?: number; diffHunk?: string };
  /** Web URL of the issue or PR. */
  url?: string;
  /**
   * What was approved, from the event payload: the issue's (or PR's) title and body at the trigger, and the
   * trigger's time (the comment's creation; the issue's update time for a label). Absent for a dispatch.
   */
  approved?: { title: string; body: string; at?: string };
  /** What sanitising the instruction (the triggering comment) removed as not shown by GitHub; absent if nothing. */
  hidden?: HiddenTally;
  /** `via: 'ci-fix'`: the failed run. The PR number may be unknown until the API is asked. */
  ciRun?: CiRun;
  /** `via: 'resume'`: the deferrals in a row before this run (a wall again defers it with one more). */
  deferrals?: number;
  /**
   * No human text beyond the approved item's title: a CI fix (and its resumption) is the approved work's session
   * and the CI evidence, nothing anyone wrote since.
   */
  noHumanHistory?: boolean;
  /**
   * A later run of approved work (a CI fix, a resumed deferral): the approval its record carried, already checked
   * again (approval.ts `carryApproval`). Never from an event's payload.
   */
  carried?: Approval;
  /**
   * Started by the item's own event (a pull request pushed to, an issue opened for triage), not by a person asking:
   * a refusal is said in the log only, never on the item (an outside contributor would get it on every push).
   */
  implicit?: true;
  /** A resumed deferral: the instruction as approved (the trigger's own says to continue it), for a new deferral. */
  approvedInstruction?: string;
  /** A resumed deferral of a CI fix: its attempt count and failure, so the loop's bounds still hold. */
  ciFixCarried?: { attempts: number; signature: string; workflow: string; job: string };
}

type Skip = { kind: 'skip'; reason: string };

/**
 * A run that finds its items itself, each then a run of its own: `deferred`, `on-quota: defer`'s other half (the
 * deferred runs that are due; a `schedule`, or a `workflow_dispatch` without a task under `on-quota: defer`);
 * `triage`, `flow: triage`'s sweep (the untriaged open issues; a `schedule`, or a `workflow_dispatch` without an
 * issue), whose runs get `instruction`.
 */
export type SweepTrigger =
  { kind: 'sweep'; of: 'deferred' } | { kind: 'sweep'; of: 'triage'; instruction: string };

export type Trigger = Skip | RunTrigger | SweepTrigger;

export interface TriggerSettings {
  triggerLabel: string;
  triggerPhrase: string;
  /** The action's `prompt` input; when set it is the instruction whatever the event. */
  prompt?: string;
  /** `trigger-assignee`: assigning an issue to this login starts a run; empty turns the trigger off. */
  triggerAssignee?: string;
  /** `trigger-phrase-anywhere`: a comment starts a run when the phrase stands anywhere in it, not only first. */
  phraseAnywhere?: boolean;
  /** `fix-ci`: a failed `workflow_run` or `check_suite` on one of the action's branches starts a fix run. */
  fixCi?: boolean;
  /** `branch-prefix`: the action's own branches. */
  branchPrefix?: string;
  /** `on-quota`: under `defer`, a dispatch without a task sweeps the deferred runs. */
  onQuota?: 'fail' | 'defer';
  /** `flow`: what a run does; each flow has its own events (REVIEW_TRIGGERS for `review`). */
  flow?: 'change' | 'review' | 'triage';
}

/** One event's decision, given its parsed payload, the settings and the sanitised `prompt` input. */
type Decide<E> = (e: E, settings: TriggerSettings, prompt: string) => Trigger;

interface EventTrigger {
  /** The payload actions that can start a run; empty for an event without actions (a dispatch). */
  actions: readonly string[];
  interpret(name: string, payload: unknown, settings: TriggerSettings, prompt: string): Trigger;
}

/** An event whose payload has an `action`: each action that can start a run has its decision; others skip. */
function byAction<E extends { action: string }>(
  schema: z.ZodType<E>,
  decisions: Record<string, Decide<E>>,
): EventTrigger {
  return {
    actions: Object.keys(decisions),
    interpret(name, payload, settings, prompt) {
      const e = parsePayload(name, schema, payload);
      const decide = Object.hasOwn(decisions, e.action) ? decisions[e.action] : undefined;
      if (!decide) return skip(`${name} event action '${e.action}' does not start a run`);
      return decide(e, settings, prompt);
    },
  };
}

/** An event without actions: every payload is decided. */
function always<E>(schema: z.ZodType<E>, decide: Decide<E>): EventTrigger {
  return {
    actions: [],
    interpret: (name, payload, settings, prompt) =>
      decide(parsePayload(name, schema, payload), settings, prompt),
  };
}

/** The events that can start a run. Exported for tests. */
export const TRIGGERS = {
  issues: byAction(issuesEventSchema, { labeled: onLabeled, assigned: onAssigned, opened: onOpened }),
  issue_comment: byAction(issueCommentEventSchema, { created: onIssueComment }),
  pull_request_review_comment: byAction(reviewCommentEventSchema, { created: onReviewComment }),
  pull_request_review: byAction(reviewEventSchema, { submitted: onReview }),
  workflow_dispatch: always(workflowDispatchEventSchema, onDispatch),
  workflow_run: byAction(workflowRunEventSchema, { completed: onWorkflowRun }),
  check_suite: byAction(checkSuiteEventSchema, { completed: onCheckSuite }),
  schedule: always(scheduleEventSchema, () => ({ kind: 'sweep', of: 'deferred' })),
} satisfies Record<string, EventTrigger>;

/**
 * `flow: review`: a pull request opened, pushed to, reopened or marked ready for review (`pull_request`, or
 * `pull_request_target` for forks' pull requests), and a `/gemini review` comment on one. Exported for tests.
 */
export const REVIEW_TRIGGERS = {
  pull_request: byAction(pullRequestEventSchema, {
    opened: onPullRequest,
    synchronize: onPullRequest,
    reopened: onPullRequest,
    ready_for_review: onPullRequest,
  }),
  // A fork's pull request, run with the base repository's secrets: the checkout is the base; its head is data.
  pull_request_target: byAction(pullRequestEventSchema, {
    opened: onPullRequest,
    synchronize: onPullRequest,
    reopened: onPullRequest,
    ready_for_review: onPullRequest,
  }),
  issue_comment: byAction(issueCommentEventSchema, { created: onReviewRequest }),
} satisfies Record<string, EventTrigger>;

/**
 * `flow: triage`: a new issue, a `/gemini triage` comment on one, a dispatch naming one, and the sweep of the
 * untriaged open issues (a `schedule`, a dispatch without an issue). Exported for tests.
 */
export const TRIAGE_TRIGGERS = {
  issues: byAction(issuesEventSchema, { opened: onTriageOpened }),
  issue_comment: byAction(issueCommentEventSchema, { created: onTriageRequest }),
  workflow_dispatch: always(workflowDispatchEventSchema, onTriageDispatch),
  schedule: always(scheduleEventSchema, (_e, _s, prompt) => ({
    kind: 'sweep',
    of: 'triage',
    instruction: prompt,
  })),
} satisfies Record<string, EventTrigger>;

const FLOW_TRIGGERS: Record<'change' | 'review' | 'triage', Record<string, EventTrigger>> = {
  change: TRIGGERS,
  review: REVIEW_TRIGGERS,
  triage: TRIAGE_TRIGGERS,
};

export function interpretEvent(name: string, payload: unknown, settings: TriggerSettings): Trigger {
  const prompt = sanitizeUserText(settings.prompt);
  const table = FLOW_TRIGGERS[settings.flow ?? 'change'];
  const event: EventTrigger | undefined = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!event) return skip(`event '${name}' is not supported (use ${supportedEvents(table)})`);
  return event.interpret(name, payload, settings, prompt);
}

/**
 * The table's events for the unsupported-event message. An event that starts runs on several actions names
 * them; with one, the action goes without saying (a comment is created, a review submitted).
 */
function supportedEvents(table: Record<string, EventTrigger>): string {
  return orList(
    Object.entries(table).map(([name, event]: [string, EventTrigger]) =>
      event.actions.length > 1 ? `${name}: ${orList(event.actions)}` : name,
    ),
  );
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

function skip(reason: string): Skip {
  return { kind: 'skip', reason };
}

type IssuesEvent = z.infer<typeof issuesEventSchema>;

function onLabeled(e: IssuesEvent, settings: TriggerSettings, prompt: string): Trigger {
  if (!e.label)
    throw new UserError('The issues event payload is broken: label is missing for a labeled action.');
  if (e.label.name.toLowerCase() !== settings.triggerLabel.trim().toLowerCase()) {
    return skip(`label '${e.label.name}' is not the trigger label '${settings.triggerLabel}'`);
  }
  if (isBotUser(e.sender)) return skip(`the label was added by a bot (${who(e.sender)})`);
  return issueRun(e, prompt, 'label');
}

/** `issues: assigned` to the configured login; the person who assigned it is the one whose access counts. */
function onAssigned(e: IssuesEvent, settings: TriggerSettings, prompt: string): Trigger {
  const wanted = settings.triggerAssignee?.trim().toLowerCase();
  if (!wanted) return skip("issues assigned: no 'trigger-assignee' is configured");
  if (e.assignee?.login.toLowerCase() !== wanted) {
    return skip(
      `the issue was assigned to ${who(e.assignee)}, not the trigger assignee '${settings.triggerAssignee}'`,
    );
  }
  if (isBotUser(e.sender)) return skip(`the issue was assigned by a bot (${who(e.sender)})`);
  return issueRun(e, prompt, 'assign');
}

/**
 * `issues: opened` whose body holds the trigger phrase (anywhere, outside quotes and code): the issue's author asks
 * for a run, and it is their access that is checked (the sender of an `opened` can be someone else: a person who
 * transferred a stranger's issue in). A transferred issue is no new request at all. Not `edited`: the task is the
 * issue as it was opened, and an edit by its author after approval must not start one.
 */
function onOpened(e: IssuesEvent, settings: TriggerSettings, prompt: string): Trigger {
  if (e.changes?.old_issue)
    return skip(
      `the issue was transferred from ${e.changes.old_issue.html_url ?? 'another repository'}: its text was written for another repository, and nobody here asked for a run`,
    );
  const author = e.issue.user;
  if (!author) return skip('the new issue names no author');
  if (isBotUser(author)) return skip(`the issue was opened by a bot (${who(author)})`);
  const body = sanitizeUserText(e.issue.body ?? '');
  if (findTriggerPhrase(body, settings.triggerPhrase) === undefined)
    return skip(`the new issue's body does not hold the trigger phrase '${settings.triggerPhrase}'`);
  const run = issueRun(e, prompt, 'opened');
  return run.kind === 'run'
    ? {
        ...run,
        actor: author.login,
        approved: approvedIssue(e.issue, e.issue.created_at ?? e.issue.updated_at),
      }
    : run;
}

/** A run on the issue of an `issues` event, started by its sender; the task is the issue as the payload has it. */
function issueRun(e: IssuesEvent, prompt: string, via: 'label' | 'assign' | 'opened'): Trigger {
  return {
    kind: 'run',
    actor: e.sender.login,
    number: e.issue.number,
    isPullRequest: Boolean(e.issue.pull_request),
    instruction: prompt,
    via,
    ...(e.issue.html_url ? { url: e.issue.html_url } : {}),
    approved: approvedIssue(e.issue, e.issue.updated_at),
  };
}

function onIssueComment(
  e: z.infer<typeof issueCommentEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  const hidden = emptyTally();
  const from = commentRun(e.comment.body, e.comment.user, settings, prompt, hidden);
  if (from.kind === 'skip') return from;
  if (e.issue.pull_request && reviewFocus(from.instruction) !== undefined)
    return skip(
      `the comment asks for a review ('${settings.triggerPhrase} review'): the review flow's to run`,
    );
  if (!e.issue.pull_request && TRIAGE_COMMAND.test(from.instruction.trim()))
    return skip(
      `the comment asks for a triage ('${settings.triggerPhrase} triage'): the triage flow's to run`,
    );
  return {
    ...from,
    number: e.issue.number,
    isPullRequest: Boolean(e.issue.pull_request),
    via: 'comment',
    commentId: e.comment.id,
    ...(e.issue.html_url ? { url: e.issue.html_url } : {}),
    approved: approvedIssue(e.issue, e.comment.created_at),
    ...hiddenIn(prompt ? undefined : hidden),
  };
}

function onReviewComment(
  e: z.infer<typeof reviewCommentEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  const c = e.comment;
  const hidden = emptyTally();
  const from = commentRun(c.body, c.user, settings, prompt, hidden);
  if (from.kind === 'skip') return from;
  const line = c.line ?? c.original_line ?? undefined;
  return {
    ...from,
    number: e.pull_request.number,
    isPullRequest: true,
    via: 'review-comment',
    reviewCommentId: c.id,
    anchor: {
      path: c.path,
      ...(line !== undefined ? { line } : {}),
      ...(c.diff_hunk ? { diffHunk: visibleCode(c.diff_hunk, hidden) } : {}),
    },
    ...(e.pull_request.html_url ? { url: e.pull_request.html_url } : {}),
    approved: approvedIssue(e.pull_request, c.created_at),
    // Counted even when the prompt input is the instruction: the diff hunk still reaches the task.
    ...hiddenIn(hidden),
  };
}

function onReview(e: z.infer<typeof reviewEventSchema>, settings: TriggerSettings, prompt: string): Trigger {
  const r = e.review;
  const hidden = emptyTally();
  const from = commentRun(r.body ?? '', r.user, settings, prompt, hidden);
  if (from.kind === 'skip') return from;
  return {
    ...from,
    number: e.pull_request.number,
    isPullRequest: true,
    via: 'review',
    ...(e.pull_request.html_url ? { url: e.pull_request.html_url } : {}),
    approved: approvedIssue(e.pull_request, r.submitted_at ?? undefined),
    ...hiddenIn(prompt ? undefined : hidden),
  };
}

/** A comment's instruction that asks for a triage (flow: triage). */
const TRIAGE_COMMAND = /^triage(?:\s|$)/i;

/** `review` and what follows it on the line (the focus asked for), when an instruction is a review request. */
export function reviewFocus(instruction: string): string | undefined {
  const m = /^review(?:[ \t]+(.*))?$/is.exec(instruction.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

/**
 * A pull request to review (flow: review): its author asks for it, and it is their access that is checked (the
 * sender of `synchronize` is whoever pushed). A draft waits for `ready_for_review` (or a `/gemini review`).
 */
function onPullRequest(
  e: z.infer<typeof pullRequestEventSchema>,
  _s: TriggerSettings,
  prompt: string,
): Trigger {
  const pr = e.pull_request;
  const author = pr.user;
  if (!author) return skip('the pull request names no author');
  if (isBotUser(author)) return skip(`the pull request is by a bot (${who(author)})`);
  if (pr.draft && e.action !== 'ready_for_review')
    return skip('the pull request is a draft: it is reviewed when marked ready, or on a review comment');
  return {
    kind: 'run',
    actor: author.login,
    number: pr.number,
    isPullRequest: true,
    instruction: prompt,
    via: 'pull-request',
    implicit: true,
    ...(pr.html_url ? { url: pr.html_url } : {}),
    approved: approvedIssue(pr, pr.updated_at ?? pr.created_at),
  };
}

/** `/gemini review [focus]` on a pull request (flow: review): the commenter's access is checked. */
function onReviewRequest(
  e: z.infer<typeof issueCommentEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  if (!e.issue.pull_request) return skip('the comment is on an issue: the review flow reviews pull requests');
  const hidden = emptyTally();
  const from = commentRun(e.comment.body, e.comment.user, settings, '', hidden);
  if (from.kind === 'skip') return from;
  const focus = reviewFocus(from.instruction);
  if (focus === undefined)
    return skip(`the comment does not ask for a review ('${settings.triggerPhrase} review')`);
  return {
    ...from,
    instruction: prompt || focus,
    number: e.issue.number,
    isPullRequest: true,
    via: 'comment',
    commentId: e.comment.id,
    ...(e.issue.html_url ? { url: e.issue.html_url } : {}),
    approved: approvedIssue(e.issue, e.comment.created_at),
    ...hiddenIn(prompt ? undefined : hidden),
  };
}

/**
 * A new issue to triage (flow: triage): its author asks for it, as for `issues: opened` in the change flow, and it
 * is their access that is checked; a transferred issue was triaged where it was written.
 */
function onTriageOpened(e: IssuesEvent, _s: TriggerSettings, prompt: string): Trigger {
  if (e.changes?.old_issue) return skip('the issue was transferred from another repository');
  const author = e.issue.user;
  if (!author) return skip('the new issue names no author');
  if (isBotUser(author)) return skip(`the issue was opened by a bot (${who(author)})`);
  const run = issueRun(e, prompt, 'opened');
  return run.kind === 'run'
    ? {
        ...run,
        actor: author.login,
        implicit: true,
        approved: approvedIssue(e.issue, e.issue.created_at ?? e.issue.updated_at),
      }
    : run;
}

/** `/gemini triage` on an issue (flow: triage): the commenter's access is checked. */
function onTriageRequest(
  e: z.infer<typeof issueCommentEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  if (e.issue.pull_request) return skip('the comment is on a pull request: the triage flow labels issues');
  const from = commentRun(e.comment.body, e.comment.user, settings, '', emptyTally());
  if (from.kind === 'skip') return from;
  if (!TRIAGE_COMMAND.test(from.instruction.trim()))
    return skip(`the comment does not ask for a triage ('${settings.triggerPhrase} triage')`);
  return {
    ...from,
    instruction: prompt,
    number: e.issue.number,
    isPullRequest: false,
    via: 'comment',
    commentId: e.comment.id,
    ...(e.issue.html_url ? { url: e.issue.html_url } : {}),
    approved: approvedIssue(e.issue, e.comment.created_at),
  };
}

/**
 * The checks every comment-like trigger shares: not written by gemini-run, not by a bot, and opening with the
 * trigger phrase. Gives the run's author and instruction (the `prompt` input, else the text after the phrase),
 * or the skip; `hidden` counts what sanitising the body removed.
 */
function commentRun(
  body: string,
  user: z.infer<typeof userSchema>,
  settings: TriggerSettings,
  prompt: string,
  hidden: HiddenTally,
): Skip | Pick<RunTrigger, 'kind' | 'actor' | 'instruction'> {
  if (hasOwnMarker(body)) return skip('the comment was written by gemini-run');
  if (isBotUser(user)) return skip(`the comment is by a bot (${who(user)})`);
  const phrase = settings.triggerPhrase;
  const text = visibleText(body, hidden);
  const rest = settings.phraseAnywhere ? findTriggerPhrase(text, phrase) : matchTriggerPhrase(text, phrase);
  if (rest === undefined)
    return skip(
      `the comment does not ${settings.phraseAnywhere ? 'hold' : 'start with'} the trigger phrase '${phrase}'`,
    );
  return { kind: 'run', actor: user.login, instruction: prompt || rest };
}

/**
 * A completed CI run, for `fix-ci`. What the payload alone can settle: a failure (or time-out), on one of the
 * action's branches, whose head is this repository (a fork's head is the fork's to fix). Whether the pull request
 * and the head commit are the action's own is asked of the API at admission (src/action/ci-fix.ts): the event's
 * sender is whoever pushed, never the person to check.
 */
function onWorkflowRun(e: z.infer<typeof workflowRunEventSchema>, settings: TriggerSettings): Trigger {
  const run = e.workflow_run;
  const head = run.head_repository?.full_name ?? 'an unknown repository';
  return ciFailure('workflow_run', settings, {
    conclusion: run.conclusion,
    fork: head.toLowerCase() !== e.repository.full_name.toLowerCase() ? head : undefined,
    branch: run.head_branch ?? '',
    pulls: run.pull_requests ?? [],
    sender: e.sender.login,
    ciRun: {
      source: 'workflow-run',
      id: run.id,
      workflow: run.name || 'workflow',
      branch: run.head_branch ?? '',
      headSha: run.head_sha,
    },
  });
}

/**
 * A completed check suite, for `fix-ci` where CI is not GitHub Actions (an app's checks: Buildkite, CircleCI, a
 * team's own). GitHub Actions' own suites are left to `workflow_run`, which names the workflow and has the logs;
 * GitHub does not start workflows for them anyway. A suite's payload names its head's repository only through its
 * pull requests (a fork's pull request is not listed at all, and the API settles it at admission).
 */
function onCheckSuite(e: z.infer<typeof checkSuiteEventSchema>, settings: TriggerSettings): Trigger {
  const suite = e.check_suite;
  const app = suite.app;
  if (app?.slug === 'github-actions')
    return skip("check_suite: GitHub Actions' own suites are read from workflow_run events");
  const branch = suite.head_branch ?? '';
  const foreign = suite.pull_requests?.find(
    (p) => p.head.ref === branch && p.head.repo && p.head.repo.id !== e.repository.id,
  );
  return ciFailure('check_suite', settings, {
    conclusion: suite.conclusion,
    fork: foreign ? `the repository of pull request #${foreign.number}` : undefined,
    branch,
    pulls: suite.pull_requests ?? [],
    sender: e.sender.login,
    ciRun: {
      source: 'check-suite',
      id: suite.id,
      workflow: app?.name || app?.slug || 'checks',
      branch,
      headSha: suite.head_sha,
    },
  });
}

/** The checks `workflow_run` and `check_suite` share, on the fields both payloads have. */
function ciFailure(
  event: string,
  settings: TriggerSettings,
  f: {
    conclusion: string | null | undefined;
    /** The head's repository when it is not this one. */
    fork: string | undefined;
    branch: string;
    pulls: readonly { number: number; head: { ref: string } }[];
    sender: string;
    ciRun: CiRun;
  },
): Trigger {
  if (!settings.fixCi) return skip(`${event}: 'fix-ci' is not 'true'`);
  const conclusion = f.conclusion ?? 'none';
  const what = event === 'check_suite' ? 'check suite' : 'workflow run';
  if (!FIXABLE.has(conclusion))
    return skip(`the ${what} concluded '${conclusion}', not 'failure' or 'timed_out'`);
  if (f.fork)
    return skip(`the run's head is in another repository (${f.fork}): a fork's failure is the fork's to fix`);
  const prefix = settings.branchPrefix ?? 'gemini-run/';
  if (!prefix || !f.branch.startsWith(prefix))
    return skip(`the run's branch '${f.branch}' is not one of gemini-run's (prefix '${prefix}')`);
  const pull = f.pulls.find((p) => p.head.ref === f.branch);
  return {
    kind: 'run',
    actor: f.sender,
    ...(pull ? { number: pull.number } : {}),
    isPullRequest: true,
    instruction: '',
    via: 'ci-fix',
    ciRun: f.ciRun,
  };
}

const FIXABLE = new Set(['failure', 'timed_out']);

/** The dispatch inputs that name an issue, and all that give a run its task. */
const ISSUE_INPUTS = ['issue', 'issue-number', 'issue_number'];
const DISPATCH_TASK_INPUTS = ['prompt', ...ISSUE_INPUTS];

/** A dispatch's instruction: the action's `prompt`, else the dispatch's own `prompt` input as GitHub shows it. */
function dispatchInstruction(inputs: Record<string, unknown>, prompt: string): string {
  return prompt || sanitizeUserText(typeof inputs.prompt === 'string' ? inputs.prompt : '');
}

function onDispatch(
  e: z.infer<typeof workflowDispatchEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  const inputs = e.inputs ?? {};
  // Neither the action's `prompt` nor any dispatch input gives a task: under `on-quota: defer` that is a sweep.
  if (settings.onQuota === 'defer' && !settings.prompt && !DISPATCH_TASK_INPUTS.some((k) => inputs[k]))
    return { kind: 'sweep', of: 'deferred' };
  const instruction = dispatchInstruction(inputs, prompt);
  const number = parseIssueInput(inputs.issue ?? inputs['issue-number'] ?? inputs.issue_number);
  if (!instruction && number === undefined) {
    throw new UserError(
      "workflow_dispatch needs a task: set the 'prompt' input (or an 'issue' input with its number).",
    );
  }
  return {
    kind: 'run',
    actor: e.sender?.login ?? '',
    ...(number !== undefined ? { number } : {}),
    isPullRequest: false,
    instruction,
    via: 'dispatch',
  };
}

/**
 * A dispatch under `flow: triage`: one naming an issue triages it (the dispatcher approves it, as in the change
 * flow); one without sweeps the untriaged open issues, each run given the prompt (the action's, else the
 * dispatch's).
 */
function onTriageDispatch(
  e: z.infer<typeof workflowDispatchEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  const inputs = e.inputs ?? {};
  if (ISSUE_INPUTS.some((k) => inputs[k])) return onDispatch(e, settings, prompt);
  return { kind: 'sweep', of: 'triage', instruction: dispatchInstruction(inputs, prompt) };
}

function who(user: { login: string } | null | undefined): string {
  return user?.login ?? 'an unknown user';
}

/** The trigger's `hidden` field: present only when something was removed. */
function hiddenIn(tally: HiddenTally | undefined): { hidden?: HiddenTally } {
  return tally && Object.values(tally).some((n) => n > 0) ? { hidden: tally } : {};
}

function approvedIssue(
  issue: { title: string; body?: string | null },
  at: string | undefined,
): NonNullable<RunTrigger['approved']> {
  return { title: issue.title, body: issue.body ?? '', ...(at ? { at } : {}) };
}

function parseIssueInput(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text =
    typeof value === 'string' || typeof value === 'number' ? String(value).trim().replace(/^#/, '') : '';
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    throw new UserError(`The workflow_dispatch 'issue' input must be an issue number, got '${shown}'.`);
  }
  return Number(text);
}
