/**
 * From a GitHub event to a decision (run or skip) and from a run decision to the agent's Task.
 *
 * `interpretEvent` is pure: it validates the payload with zod and decides. `buildTask` takes the issue (or PR)
 * title and body from the payload, as they were when someone with write access approved the run, and only the
 * comments that existed, unedited, at that moment: anyone can edit an issue or comment once the run is queued.
 */
import { z } from 'zod';
import type { Task } from '../domain/types.js';
import { UserError } from '../util/errors.js';
import { isBotUser, type GitHubClient, type RepoRef } from './client.js';
import { hasOwnMarker } from './comments.js';
import { minimizedCommentIds } from './minimized.js';
import { listReviewComments } from './pulls.js';
import {
  addTally,
  emptyTally,
  sanitizeCode,
  sanitizeUserText,
  sanitizeUserTextCounted,
  type HiddenTally,
} from './sanitize.js';

export type TriggerVia = 'label' | 'comment' | 'dispatch' | 'assign' | 'review-comment' | 'review';

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
}

export type Trigger = { kind: 'skip'; reason: string } | RunTrigger;

export interface TriggerSettings {
  triggerLabel: string;
  triggerPhrase: string;
  /** The action's `prompt` input; when set it is the instruction whatever the event. */
  prompt?: string;
  /** `trigger-assignee`: assigning an issue to this login starts a run; empty turns the trigger off. */
  triggerAssignee?: string;
}

const userSchema = z.object({ login: z.string(), type: z.string().nullish() });

const issueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  user: userSchema.nullish(),
  html_url: z.string().optional(),
  updated_at: z.string().optional(),
  // Present (an object with URLs) when the "issue" is a pull request.
  pull_request: z.object({}).loose().nullish(),
});

const issuesEventSchema = z.object({
  action: z.string(),
  label: z.object({ name: z.string() }).optional(),
  assignee: userSchema.nullish(),
  issue: issueSchema,
  sender: userSchema,
});

const commentSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  user: userSchema,
  created_at: z.string().optional(),
});

const issueCommentEventSchema = z.object({
  action: z.string(),
  comment: commentSchema.extend({ html_url: z.string().optional() }),
  issue: issueSchema,
  sender: userSchema,
});

const pullRequestSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string().optional(),
  updated_at: z.string().optional(),
});

const reviewCommentEventSchema = z.object({
  action: z.string(),
  comment: commentSchema.extend({
    path: z.string(),
    line: z.number().int().nullish(),
    original_line: z.number().int().nullish(),
    diff_hunk: z.string().nullish(),
  }),
  pull_request: pullRequestSchema,
  sender: userSchema,
});

const reviewEventSchema = z.object({
  action: z.string(),
  review: z.object({
    id: z.number().int(),
    body: z.string().nullish(),
    user: userSchema,
    submitted_at: z.string().nullish(),
  }),
  pull_request: pullRequestSchema,
  sender: userSchema,
});

const workflowDispatchEventSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).nullish(),
  sender: userSchema.optional(),
});

function parsePayload<T>(event: string, schema: z.ZodType<T>, payload: unknown): T {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new UserError(
      `The ${event} event payload is not a JSON object; is GITHUB_EVENT_PATH the event's file?`,
    );
  }
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') || '(root)';
  const missing = issue ? valueAt(payload, issue.path) == null : true;
  throw new UserError(
    `The ${event} event payload is broken: ${path} is ${missing ? 'missing' : 'invalid'}` +
      ` (${parsed.error.issues.length} problem${parsed.error.issues.length === 1 ? '' : 's'}); is GITHUB_EVENT_PATH the event's file?`,
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/**
 * The instruction after the trigger phrase, or undefined when the comment does not start with it. The phrase must
 * open the (sanitised) comment and be followed by whitespace or the end, so `/gemini-foo` and quoted replies do
 * not trigger. Case-insensitive, like `startsWith()` in a workflow's `if:`, so the job the workflow started is not
 * then skipped here over a capital letter.
 */
export function matchTriggerPhrase(text: string, phrase: string): string | undefined {
  const trimmedPhrase = phrase.trim();
  if (!trimmedPhrase) return undefined;
  const m = new RegExp(`^${escapeRegExp(trimmedPhrase)}(?=\\s|$)`, 'i').exec(text.trimStart());
  if (!m) return undefined;
  return text.trimStart().slice(m[0].length).trim();
}

function who(user: { login: string } | null | undefined): string {
  return user?.login ?? 'an unknown user';
}

export function interpretEvent(name: string, payload: unknown, settings: TriggerSettings): Trigger {
  const prompt = sanitizeUserText(settings.prompt);
  switch (name) {
    case 'issues': {
      const e = parsePayload(name, issuesEventSchema, payload);
      if (e.action === 'assigned') return interpretAssigned(e, settings, prompt);
      if (e.action !== 'labeled')
        return { kind: 'skip', reason: `issues event action '${e.action}' does not start a run` };
      if (!e.label)
        throw new UserError('The issues event payload is broken: label is missing for a labeled action.');
      if (e.label.name.toLowerCase() !== settings.triggerLabel.trim().toLowerCase()) {
        return {
          kind: 'skip',
          reason: `label '${e.label.name}' is not the trigger label '${settings.triggerLabel}'`,
        };
      }
      if (isBotUser(e.sender))
        return { kind: 'skip', reason: `the label was added by a bot (${who(e.sender)})` };
      return issueRun(e, prompt, 'label');
    }
    case 'issue_comment': {
      const e = parsePayload(name, issueCommentEventSchema, payload);
      if (e.action !== 'created') {
        return { kind: 'skip', reason: `issue_comment event action '${e.action}' does not start a run` };
      }
      if (hasOwnMarker(e.comment.body))
        return { kind: 'skip', reason: 'the comment was written by gemini-run' };
      if (isBotUser(e.comment.user))
        return { kind: 'skip', reason: `the comment is by a bot (${who(e.comment.user)})` };
      const hidden = emptyTally();
      const rest = matchTriggerPhrase(
        sanitizeUserTextCounted(e.comment.body, hidden),
        settings.triggerPhrase,
      );
      if (rest === undefined) {
        return {
          kind: 'skip',
          reason: `the comment does not start with the trigger phrase '${settings.triggerPhrase}'`,
        };
      }
      return {
        kind: 'run',
        actor: e.comment.user.login,
        number: e.issue.number,
        isPullRequest: Boolean(e.issue.pull_request),
        instruction: prompt || rest,
        via: 'comment',
        commentId: e.comment.id,
        ...(e.issue.html_url ? { url: e.issue.html_url } : {}),
        approved: approvedIssue(e.issue, e.comment.created_at),
        ...hiddenIn(prompt ? undefined : hidden),
      };
    }
    case 'workflow_dispatch': {
      const e = parsePayload(name, workflowDispatchEventSchema, payload);
      const inputs = e.inputs ?? {};
      const instruction = prompt || sanitizeUserText(typeof inputs.prompt === 'string' ? inputs.prompt : '');
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
    case 'pull_request_review_comment': {
      const e = parsePayload(name, reviewCommentEventSchema, payload);
      if (e.action !== 'created') {
        return { kind: 'skip', reason: `${name} event action '${e.action}' does not start a run` };
      }
      const c = e.comment;
      const hidden = emptyTally();
      const refused = skipComment(c.body, c.user, settings.triggerPhrase, hidden);
      if (typeof refused === 'object') return refused;
      const line = c.line ?? c.original_line ?? undefined;
      return {
        kind: 'run',
        actor: c.user.login,
        number: e.pull_request.number,
        isPullRequest: true,
        instruction: prompt || refused,
        via: 'review-comment',
        reviewCommentId: c.id,
        anchor: {
          path: c.path,
          ...(line !== undefined ? { line } : {}),
          ...(c.diff_hunk ? { diffHunk: sanitizeCode(c.diff_hunk, hidden) } : {}),
        },
        ...(e.pull_request.html_url ? { url: e.pull_request.html_url } : {}),
        approved: approvedIssue(e.pull_request, c.created_at),
        ...hiddenIn(hidden),
      };
    }
    case 'pull_request_review': {
      const e = parsePayload(name, reviewEventSchema, payload);
      if (e.action !== 'submitted') {
        return { kind: 'skip', reason: `${name} event action '${e.action}' does not start a run` };
      }
      const r = e.review;
      const hidden = emptyTally();
      const refused = skipComment(r.body ?? '', r.user, settings.triggerPhrase, hidden);
      if (typeof refused === 'object') return refused;
      return {
        kind: 'run',
        actor: r.user.login,
        number: e.pull_request.number,
        isPullRequest: true,
        instruction: prompt || refused,
        via: 'review',
        ...(e.pull_request.html_url ? { url: e.pull_request.html_url } : {}),
        approved: approvedIssue(e.pull_request, r.submitted_at ?? undefined),
        ...hiddenIn(prompt ? undefined : hidden),
      };
    }
    default:
      return {
        kind: 'skip',
        reason: `event '${name}' is not supported (use issues: labeled or assigned, issue_comment, pull_request_review_comment, pull_request_review or workflow_dispatch)`,
      };
  }
}

/** The instruction after the trigger phrase, or the reason a comment or review body does not start a run. */
function skipComment(
  body: string,
  user: z.infer<typeof userSchema>,
  phrase: string,
  hidden: HiddenTally,
): string | { kind: 'skip'; reason: string } {
  if (hasOwnMarker(body)) return { kind: 'skip', reason: 'the comment was written by gemini-run' };
  if (isBotUser(user)) return { kind: 'skip', reason: `the comment is by a bot (${who(user)})` };
  const rest = matchTriggerPhrase(sanitizeUserTextCounted(body, hidden), phrase);
  if (rest === undefined) {
    return { kind: 'skip', reason: `the comment does not start with the trigger phrase '${phrase}'` };
  }
  return rest;
}

/** The trigger's `hidden` field: present only when something was removed. */
function hiddenIn(tally: HiddenTally | undefined): { hidden?: HiddenTally } {
  return tally && Object.values(tally).some((n) => n > 0) ? { hidden: tally } : {};
}

/** `issues: assigned` to the configured login; the person who assigned it is the one whose access counts. */
function interpretAssigned(
  e: z.infer<typeof issuesEventSchema>,
  settings: TriggerSettings,
  prompt: string,
): Trigger {
  const wanted = settings.triggerAssignee?.trim().toLowerCase();
  if (!wanted) return { kind: 'skip', reason: "issues assigned: no 'trigger-assignee' is configured" };
  if (e.assignee?.login.toLowerCase() !== wanted) {
    return {
      kind: 'skip',
      reason: `the issue was assigned to ${who(e.assignee)}, not the trigger assignee '${settings.triggerAssignee}'`,
    };
  }
  if (isBotUser(e.sender))
    return { kind: 'skip', reason: `the issue was assigned by a bot (${who(e.sender)})` };
  return issueRun(e, prompt, 'assign');
}

/** A run on the issue of an `issues` event, started by its sender; the task is the issue as the payload has it. */
function issueRun(e: z.infer<typeof issuesEventSchema>, prompt: string, via: 'label' | 'assign'): Trigger {
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

/** A title for a task with no issue: the first line of the instruction, cut at a word near 72 characters. */
export function titleFromInstruction(instruction: string): string {
  const first =
    instruction
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? 'gemini-run task';
  const plain = first.replace(/^#+\s*/, '');
  if (plain.length <= 72) return plain;
  const cut = plain.slice(0, 72);
  const space = cut.lastIndexOf(' ');
  return `${(space > 40 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

interface HistoryEntry {
  author: string;
  /** The comment's text as written (sanitised once it is known not to be minimized). */
  body: string;
  at: string;
  nodeId: string;
  /** For an inline review comment: where it sits. */
  where?: string;
}

/**
 * True when a comment existed, as it reads now, at the trigger: created and last edited no later than `at`.
 * Without a trigger time (a dispatch) every comment counts. Pure; exported for tests.
 */
export function existedAtTrigger(
  c: { createdAt: string; updatedAt?: string },
  at: string | undefined,
): boolean {
  if (at === undefined) return true;
  const limit = Date.parse(at);
  if (!Number.isFinite(limit)) return true;
  const latest = Math.max(Date.parse(c.createdAt), Date.parse(c.updatedAt ?? c.createdAt));
  return !(latest > limit);
}

export interface BuiltTask {
  task: Task;
  /** Comments left out because they were created or edited after the trigger. */
  leftOut: number;
  /** What was removed because GitHub does not show it (hidden markup, invisible characters, minimized comments). */
  hidden: HiddenTally;
  /**
   * Why the comments could not be checked for minimized ones (GitHub's GraphQL did not answer); they were kept.
   * Absent when the check ran.
   */
  minimizedUnchecked?: string;
}

/**
 * The agent's Task for a run trigger: the issue's (or PR's) title and body as approved, and its human comments
 * as they stood at the trigger. Comments by bots, by this action (our marker), the triggering comment itself (it
 * is the instruction), every comment created or edited after the trigger, and every comment a maintainer hid
 * (minimized) are left out; on a PR the inline review comments join the history, each with its file and line.
 * All text is what GitHub shows a reader (`sanitize.ts`), and `hidden` counts what was removed.
 *
 * When GitHub cannot say which comments are minimized (GraphQL refused, an old GHES), the comments are kept and
 * `minimizedUnchecked` says why (the action warns): the person who started the run approved the thread as it
 * stood, and leaving every comment out would change the task more than one folded comment can.
 */
export async function buildTask(
  client: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
): Promise<BuiltTask> {
  if (trigger.number === undefined) {
    return {
      task: {
        title: titleFromInstruction(trigger.instruction),
        instruction: trigger.instruction,
        comments: [],
        source: { kind: 'dispatch' },
      },
      leftOut: 0,
      hidden: emptyTally(),
    };
  }
  let approved = trigger.approved;
  let isPullRequest = trigger.isPullRequest;
  let url = trigger.url;
  if (!approved) {
    // A dispatch naming an issue: the dispatcher approved the issue as it is now.
    const { data: issue } = await client.rest.issues.get({ ...repo, issue_number: trigger.number });
    approved = { title: issue.title, body: issue.body ?? '' };
    isPullRequest ||= Boolean(issue.pull_request);
    url = issue.html_url;
  }
  const at = approved.at;
  let leftOut = 0;
  const raw = await client.paginate(client.rest.issues.listComments, {
    ...repo,
    issue_number: trigger.number,
    per_page: 100,
  });
  const history: HistoryEntry[] = [];
  for (const c of raw) {
    if (c.id === trigger.commentId || isBotUser(c.user) || hasOwnMarker(c.body)) continue;
    if (!existedAtTrigger({ createdAt: c.created_at, updatedAt: c.updated_at }, at)) {
      leftOut++;
      continue;
    }
    history.push({
      author: c.user?.login ?? 'ghost',
      body: c.body ?? '',
      at: c.created_at,
      nodeId: c.node_id,
    });
  }
  if (isPullRequest) {
    const reviews = await listReviewComments(client, repo, trigger.number);
    for (const c of reviews) {
      if (c.id === trigger.reviewCommentId) continue;
      if (isBotUser({ login: c.author, type: c.authorType }) || hasOwnMarker(c.body)) continue;
      if (!existedAtTrigger(c, at)) {
        leftOut++;
        continue;
      }
      const where = c.line === null ? `\`${c.path}\`` : `\`${c.path}\` line ${c.line}`;
      history.push({ author: c.author, body: c.body, at: c.createdAt, nodeId: c.nodeId, where });
    }
  }
  const hidden = emptyTally();
  let minimizedUnchecked: string | undefined;
  let minimized = new Set<string>();
  if (history.length > 0) {
    try {
      minimized = await minimizedCommentIds(
        client,
        history.map((h) => h.nodeId),
      );
    } catch (error) {
      minimizedUnchecked = error instanceof Error ? error.message : String(error);
    }
  }
  hidden.minimizedComments = history.filter((h) => minimized.has(h.nodeId)).length;
  const shown = history
    .filter((h) => !minimized.has(h.nodeId))
    .map((h) => {
      const text = sanitizeUserTextCounted(h.body, hidden);
      return { ...h, body: h.where && text ? `On ${h.where}:\n${text}` : text };
    });
  // ISO timestamps sort as strings; the sort is stable, so equal times keep API order.
  shown.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));

  const title = sanitizeUserTextCounted(approved.title, hidden) || `#${trigger.number}`;
  const body = sanitizeUserTextCounted(approved.body, hidden);
  if (trigger.hidden) addTally(hidden, trigger.hidden);
  const instruction = trigger.instruction || body || title;
  return {
    task: {
      title,
      instruction,
      ...(trigger.instruction && body ? { body } : {}),
      comments: shown.filter((h) => h.body !== '').map(({ author, body: text }) => ({ author, body: text })),
      ...(trigger.anchor ? { anchor: trigger.anchor } : {}),
      source: {
        kind: isPullRequest ? 'pull_request' : 'issue',
        number: trigger.number,
        ...(url ? { url } : {}),
      },
    },
    leftOut,
    hidden,
    ...(minimizedUnchecked !== undefined ? { minimizedUnchecked } : {}),
  };
}
