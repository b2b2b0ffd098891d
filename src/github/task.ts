/**
 * From a run trigger and its approval to the agent's Task, reading GitHub: the issue (or PR) title and body as they
 * were when a person with write access approved the run, and only comments by people with write access that
 * existed, unedited, at that moment: anyone can comment, and anyone can edit once the run is queued. Nothing else
 * decides what human text reaches the agent (approval.ts).
 */
import type { Task } from '../domain/types.js';
import type { Approval } from './approval.js';
import { hasWriteAccess } from './permissions.js';
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

/**
 * The comments that belong in the task, and how many were left out: created or edited after the approval, or by
 * someone without write access.
 */
interface History {
  entries: HistoryEntry[];
  leftOut: number;
  byNonWriters: number;
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
  /** Comments left out because they were created or edited after the approval. */
  leftOut: number;
  /** Comments left out because their authors have no write access: nobody approved their text. */
  byNonWriters: number;
  /** What was removed because GitHub does not show it (hidden markup, invisible characters, minimized comments). */
  hidden: HiddenTally;
  /**
   * Why the comments could not be checked for minimized ones (GitHub's GraphQL did not answer); they were kept.
   * Absent when the check ran.
   */
  minimizedUnchecked?: string;
}

/**
 * The agent's Task for a run trigger and its approval: the issue's (or PR's) title and body as approved, and the
 * comments of people with write access as they stood at the approval. Comments by bots, by this action (our
 * marker), the triggering comment itself (it is the instruction), every comment created or edited after the
 * approval, every comment by someone without write access and every comment a maintainer hid (minimized) are left
 * out; on a PR the inline review comments join the history, each with its file and line. A CI fix reads no human
 * text at all: its task is the approved work's session and the CI evidence. All text is what GitHub shows a reader
 * (markdown/visible.ts), and `hidden` counts what was removed.
 *
 * When GitHub cannot say which comments are minimized (GraphQL refused, an old GHES), the comments are kept and
 * `minimizedUnchecked` says why (the action warns): the person who started the run approved the thread as it
 * stood, and leaving every comment out would change the task more than one folded comment can.
 */
export async function buildTask(
  client: GitHubClient,
  repo: RepoRef,
  trigger: RunTrigger,
  approval: Approval,
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
      byNonWriters: 0,
      hidden: emptyTally(),
    };
  }
  const approved = trigger.approved;
  if (!approved) throw new Error(`the trigger on #${number} carries no approved text`);
  const { isPullRequest, url } = trigger;
  const history: History = { entries: [], leftOut: 0, byNonWriters: 0 };
  if (!trigger.noHumanHistory) {
    const writers = writerCheck(client, repo);
    merge(history, await issueHistory(client, repo, number, trigger.commentId, approval.at, writers));
    if (isPullRequest)
      merge(
        history,
        await reviewHistory(client, repo, number, trigger.reviewCommentId, approval.at, writers),
      );
  }
  const hidden = emptyTally();
  const { shown, minimizedUnchecked } = await withoutMinimized(client, history.entries, hidden);

  const title = visibleText(approved.title, hidden) || `#${number}`;
  const body = trigger.noHumanHistory ? '' : visibleText(approved.body, hidden);
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
    byNonWriters: history.byNonWriters,
    hidden,
    ...(minimizedUnchecked !== undefined ? { minimizedUnchecked } : {}),
  };
}

function merge(into: History, more: History): void {
  into.entries.push(...more.entries);
  into.leftOut += more.leftOut;
  into.byNonWriters += more.byNonWriters;
}

/** Whether a login has write access, asked once per login. */
function writerCheck(client: GitHubClient, repo: RepoRef): (login: string) => Promise<boolean> {
  const known = new Map<string, Promise<boolean>>();
  return (login) => {
    const key = login.toLowerCase();
    let answer = known.get(key);
    if (!answer) known.set(key, (answer = hasWriteAccess(client, repo, login)));
    return answer;
  };
}

/** The issue's (or PR's) writers' comments at the approval, all pages, the triggering comment left out. */
async function issueHistory(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  triggerCommentId: number | undefined,
  at: string,
  isWriter: (login: string) => Promise<boolean>,
): Promise<History> {
  const raw = await client.paginate(client.rest.issues.listComments, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  const history: History = { entries: [], leftOut: 0, byNonWriters: 0 };
  for (const c of raw) {
    if (c.id === triggerCommentId || isBotUser(c.user) || hasOwnMarker(c.body)) continue;
    if (!existedAtTrigger({ createdAt: c.created_at, updatedAt: c.updated_at }, at)) {
      history.leftOut++;
      continue;
    }
    if (!(await isWriter(c.user?.login ?? ''))) {
      history.byNonWriters++;
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

/** A PR's writers' inline review comments at the approval, each with its file and line, the triggering one left out. */
async function reviewHistory(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  triggerReviewCommentId: number | undefined,
  at: string,
  isWriter: (login: string) => Promise<boolean>,
): Promise<History> {
  const history: History = { entries: [], leftOut: 0, byNonWriters: 0 };
  for (const c of await listReviewComments(client, repo, number)) {
    if (c.id === triggerReviewCommentId) continue;
    if (isBotUser({ login: c.author, type: c.authorType }) || hasOwnMarker(c.body)) continue;
    if (!existedAtTrigger(c, at)) {
      history.leftOut++;
      continue;
    }
    if (!(await isWriter(c.author))) {
      history.byNonWriters++;
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
