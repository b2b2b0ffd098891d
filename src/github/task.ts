/**
 * From a run trigger to the agent's Task, reading GitHub: the issue (or PR) title and body as they were when
 * someone with write access approved the run (from the payload), and only the comments that existed, unedited,
 * at that moment: anyone can edit an issue or comment once the run is queued.
 */
import type { Task } from '../domain/types.js';
import { isBotUser, type GitHubClient, type RepoRef } from './client.js';
import { hasOwnMarker } from './comments.js';
import { minimizedCommentIds } from './minimized.js';
import { listReviewComments } from './pulls.js';
import { addTally, emptyTally, visibleText, type HiddenTally } from '../markdown/visible.js';
import type { RunTrigger } from './trigger.js';

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

/** The comments that belong in the task, and how many were left out for being created or edited after the trigger. */
interface History {
  entries: HistoryEntry[];
  leftOut: number;
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
  const number = trigger.number;
  if (number === undefined) {
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
  const { approved, isPullRequest, url } = await approvedSource(client, repo, trigger, number);
  const at = approved.at;
  const history = await issueHistory(client, repo, number, trigger.commentId, at);
  if (isPullRequest) {
    const review = await reviewHistory(client, repo, number, trigger.reviewCommentId, at);
    history.entries.push(...review.entries);
    history.leftOut += review.leftOut;
  }
  const hidden = emptyTally();
  const { shown, minimizedUnchecked } = await withoutMinimized(client, history.entries, hidden);

  const title = visibleText(approved.title, hidden) || `#${number}`;
  const body = visibleText(approved.body, hidden);
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
        number,
        ...(url ? { url } : {}),
      },
    },
    leftOut: history.leftOut,
    hidden,
    ...(minimizedUnchecked !== undefined ? { minimizedUnchecked } : {}),
  };
}

/** What was approved: from the payload, or (a dispatch naming an issue) the issue as it is now. */
async function approvedSource(
  client: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
  number: number,
): Promise<{ approved: NonNullable<RunTrigger['approved']>; isPullRequest: boolean; url?: string }> {
  if (trigger.approved) {
    return {
      approved: trigger.approved,
      isPullRequest: trigger.isPullRequest,
      ...(trigger.url !== undefined ? { url: trigger.url } : {}),
    };
  }
  // A dispatch naming an issue: the dispatcher approved the issue as it is now.
  const { data: issue } = await client.rest.issues.get({ ...repo, issue_number: number });
  return {
    approved: { title: issue.title, body: issue.body ?? '' },
    isPullRequest: trigger.isPullRequest || Boolean(issue.pull_request),
    url: issue.html_url,
  };
}

/** The issue's (or PR's) human comments at the trigger, all pages, the triggering comment left out. */
async function issueHistory(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  triggerCommentId: number | undefined,
  at: string | undefined,
): Promise<History> {
  const raw = await client.paginate(client.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  const history: History = { entries: [], leftOut: 0 };
  for (const c of raw) {
    if (c.id === triggerCommentId || isBotUser(c.user) || hasOwnMarker(c.body)) continue;
    if (!existedAtTrigger({ createdAt: c.created_at, updatedAt: c.updated_at }, at)) {
      history.leftOut++;
      continue;
    }
    history.entries.push({
      author: c.user?.login ?? 'ghost',
      body: c.body ?? '',
      at: c.created_at,
      nodeId: c.node_id,
    });
  }
  return history;
}

/** A PR's human inline review comments at the trigger, each with its file and line, the triggering one left out. */
async function reviewHistory(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  triggerReviewCommentId: number | undefined,
  at: string | undefined,
): Promise<History> {
  const history: History = { entries: [], leftOut: 0 };
  for (const c of await listReviewComments(client, repo, number)) {
    if (c.id === triggerReviewCommentId) continue;
    if (isBotUser({ login: c.author, type: c.authorType }) || hasOwnMarker(c.body)) continue;
    if (!existedAtTrigger(c, at)) {
      history.leftOut++;
      continue;
    }
    const where = c.line === null ? `\`${c.path}\`` : `\`${c.path}\` line ${c.line}`;
    history.entries.push({ author: c.author, body: c.body, at: c.createdAt, nodeId: c.nodeId, where });
  }
  return history;
}

/**
 * The history without the comments a maintainer hid, sanitised and in time order; `hidden` counts what went.
 * When GraphQL cannot say which are hidden, every comment stays and `minimizedUnchecked` says why.
 */
async function withoutMinimized(
  client: GitHubClient,
  history: HistoryEntry[],
  hidden: HiddenTally,
): Promise<{ shown: HistoryEntry[]; minimizedUnchecked?: string }> {
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
      const text = visibleText(h.body, hidden);
      return { ...h, body: h.where && text ? `On ${h.where}:\n${text}` : text };
    });
  // ISO timestamps sort as strings; the sort is stable, so equal times keep API order.
  shown.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { shown, ...(minimizedUnchecked !== undefined ? { minimizedUnchecked } : {}) };
}
