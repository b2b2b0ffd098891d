/**
 * The live tracking comment: one marked comment on the issue or PR, posted when the run is accepted and edited
 * with what the engine sees (turns, tool calls, tokens, elapsed time) until the run ends with its status and PR.
 *
 * Edits are serialized (never two in flight) and spaced at least `intervalMs` apart (default 10 s): GitHub's
 * secondary rate limits count content-creating requests per minute, and a person reading the issue gains
 * nothing from faster edits. A failed edit is logged and the next one tries again; it never fails the run.
 */
import { z } from 'zod';
import { adviceFor, statusIcon } from '../domain/status.js';
import { formatDuration } from '../run/report.js';
import type { RunEvent, ToolKind } from '../domain/types.js';
import { getErrorMessage } from '../util/errors.js';
import { shorten } from '../util/untrusted-text.js';
import type { Logger } from '../util/log.js';
import type { GitHubClient, RepoRef } from '../github/client.js';
import { describeReset, quotaReset } from '../domain/quota.js';
import { commentMarker, updateComment, upsertMarkedComment } from '../github/comments.js';
import { codeSpan } from '../markdown/publish.js';

export const TRACKING_MARKER = commentMarker('progress');
const DEFAULT_TRACKING_INTERVAL_MS = 10_000;
/** Tool calls listed in the comment; older ones are counted, not listed. */
const MAX_LISTED_TOOLS = 15;

export interface TrackingTool {
  name: string;
  kind: ToolKind;
  target?: string;
  ok?: boolean;
  /** Seen completed (telemetry) before its start (transcript tail). */
  awaitingStart?: boolean;
}

/** What the comment shows. `final` is set once the run ended (or the post step found it unfinished). */
export interface TrackingView {
  mode: string;
  runUrl: string;
  startedAt: number;
  turns: number;
  tokens: number;
  tools: TrackingTool[];
  toolCount: number;
  /** Per tool name: calls seen completed but not started, and started but not completed. */
  unstarted?: Record<string, number>;
  unfinished?: Record<string, number>;
  /** Requests of the agent the network policy refused so far (src/host/egress.ts); absent while none. */
  blocked?: number;
  /** The model API's latest error since its last answer (a retry may still succeed): shown while working. */
  apiError?: string;
  /** A quota wall the CLI waits out by itself (a per-minute 429): when the model may answer again (ISO). */
  quotaWait?: { scope: string; resetAt: string };
  final?: { status: string; prUrl?: string; note?: string };
  /** What the run is for, when it is not the issue's task as such (a CI fix): shown under the status line. */
  purpose?: string;
}

/** Pure: the comment's markdown (without the marker). */
export function renderTracking(v: TrackingView, now: number): string {
  const out: string[] = [];
  const elapsed = formatDuration(now - v.startedAt);
  if (v.final) {
    out.push(`**gemini-run** ${statusIcon(v.final.status)} \`${v.final.status}\` after ${elapsed}`);
    if (v.final.note) out.push('', v.final.note);
    if (v.final.prUrl) out.push('', `Pull request: ${v.final.prUrl}`);
  } else {
    out.push(`**gemini-run** is working… (${elapsed} so far)`);
    // The model may answer the CLI's next retry; until then the person sees why nothing moves.
    if (v.quotaWait)
      out.push(
        '',
        `⏳ Waiting for quota (${v.quotaWait.scope}): the model API asked to wait; it resumes at ${describeReset({ ...v.quotaWait, scope: 'unknown', source: 'retry-delay' }, new Date(now))}.`,
      );
    else if (v.apiError)
      out.push('', `⚠️ The model API failed a call: ${codeSpan(inlineCode(v.apiError).slice(0, 200))}`);
  }
  if (v.purpose) out.push('', v.purpose);
  out.push(
    '',
    `Mode: ${v.mode} · Turns: ${v.turns} · Tool calls: ${v.toolCount} · Tokens: ${v.tokens.toLocaleString('en-US')}${v.blocked ? ` · Blocked: ${v.blocked}` : ''}`,
    '',
    `[Job run](${v.runUrl})`,
  );
  if (v.tools.length > 0) {
    out.push('', '<details><summary>Tool calls</summary>', '');
    const hidden = v.toolCount - v.tools.length;
    if (hidden > 0) out.push(`- … ${hidden} earlier`);
    for (const t of v.tools) {
      const mark = t.ok === undefined ? '' : t.ok ? ' ✓' : ' ✗';
      const target = t.target ? ` ${codeSpan(shorten(inlineCode(t.target), 120))}` : '';
      out.push(`- ${t.kind} ${codeSpan(inlineCode(t.name))}${target}${mark}`);
    }
    out.push('', '</details>');
  }
  return out.join('\n');
}

/**
 * Text the agent chose (a shell command, a path) made fit for one code span (codeSpan): no backtick to close it
 * and no line break to end the list item, so it cannot become a mention, a link or HTML in the comment.
 */
function inlineCode(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  return text.replace(/`/g, "'").replace(/[\s\u0000-\u001f\u007f]+/g, ' ');
}

/** Pure: folds one engine event into the view. */
export function applyRunEvent(v: TrackingView, e: RunEvent, at = Date.now()): TrackingView {
  switch (e.type) {
    case 'turn-started':
      return { ...v, turns: v.turns + 1 };
    case 'model-response': {
      const { apiError: _, quotaWait: __, ...answered } = v;
      return { ...answered, tokens: v.tokens + e.totalTokens };
    }
    case 'api-error': {
      const { quotaWait: _, ...rest } = v;
      const apiError = e.statusCode ? `HTTP ${e.statusCode}: ${e.message}` : e.message;
      // A 429 the CLI retries by itself is a wait, not a failure: the person sees until when.
      if (e.statusCode === 429 && !e.terminalQuota) {
        const { scope, resetAt } = quotaReset(e.message, new Date(at), 'per-minute');
        return { ...rest, apiError, quotaWait: { scope, resetAt } };
      }
      return { ...rest, apiError };
    }
    case 'tool-started': {
      // Telemetry reports a completion without a call id and may beat the transcript tail's start (0.42.0
      // flushes in 50 ms): a start that answers an earlier unstarted completion is the same call.
      if ((v.unstarted?.[e.name] ?? 0) > 0) {
        const i = v.tools.findIndex((t) => t.name === e.name && t.awaitingStart);
        const tools = v.tools.slice();
        if (i >= 0) {
          const { awaitingStart: _, ...done } = tools[i]!;
          tools[i] = { ...done, ...(e.detail ? { target: e.detail } : {}) };
        }
        return { ...v, tools, unstarted: bump(v.unstarted, e.name, -1) };
      }
      const tools = [...v.tools, { name: e.name, kind: e.kind, ...(e.detail ? { target: e.detail } : {}) }];
      return {
        ...v,
        tools: tools.slice(-MAX_LISTED_TOOLS),
        toolCount: v.toolCount + 1,
        unfinished: bump(v.unfinished, e.name, 1),
      };
    }
    case 'tool-completed': {
      if ((v.unfinished?.[e.name] ?? 0) > 0) {
        const i = v.tools.findIndex((t) => t.name === e.name && t.ok === undefined && !t.awaitingStart);
        const tools = v.tools.slice();
        if (i >= 0) tools[i] = { ...tools[i]!, ok: e.ok };
        return { ...v, tools, unfinished: bump(v.unfinished, e.name, -1) };
      }
      const tools = [...v.tools, { name: e.name, kind: e.kind, ok: e.ok, awaitingStart: true }];
      return {
        ...v,
        tools: tools.slice(-MAX_LISTED_TOOLS),
        toolCount: v.toolCount + 1,
        unstarted: bump(v.unstarted, e.name, 1),
      };
    }
    default:
      return v;
  }
}

function bump(counts: Record<string, number> | undefined, name: string, by: number): Record<string, number> {
  return { ...counts, [name]: (counts?.[name] ?? 0) + by };
}

/** What the post step needs to finish a comment the main step left working. */
export interface TrackingState {
  commentId: number;
  owner: string;
  repo: string;
  view: TrackingView;
}

const trackingStateSchema = z.object({
  commentId: z.number().int().positive(),
  owner: z.string().min(1),
  repo: z.string().min(1),
  view: z.looseObject({
    mode: z.string(),
    runUrl: z.string(),
    startedAt: z.number(),
    turns: z.number(),
    tokens: z.number(),
    toolCount: z.number(),
    blocked: z.number().optional(),
    tools: z.array(z.looseObject({ name: z.string(), kind: z.string() })),
  }),
});

export class TrackingComment {
  private view: TrackingView;
  private commentId: number | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private lastEditAt = 0;
  private finished = false;

  private constructor(
    private readonly o: {
      client: GitHubClient;
      repo: RepoRef;
      number: number;
      log: Logger;
      intervalMs: number;
      now: () => number;
      /** Called with the state after each successful write ('' once finished). */
      saveState: (value: string) => void;
    },
    view: TrackingView,
  ) {
    this.view = view;
  }

  /**
   * Posts (or, on a re-run, takes over) the marked comment. Undefined when GitHub refused: the run goes on
   * without it.
   */
  static async start(o: {
    client: GitHubClient;
    repo: RepoRef;
    number: number;
    author: string | undefined;
    mode: string;
    runUrl: string;
    purpose?: string;
    log: Logger;
    intervalMs?: number;
    now?: () => number;
    saveState: (value: string) => void;
  }): Promise<TrackingComment | undefined> {
    const now = o.now ?? Date.now;
    const view: TrackingView = {
      mode: o.mode,
      runUrl: o.runUrl,
      startedAt: now(),
      turns: 0,
      tokens: 0,
      tools: [],
      toolCount: 0,
      ...(o.purpose ? { purpose: o.purpose } : {}),
    };
    const t = new TrackingComment(
      {
        client: o.client,
        repo: o.repo,
        number: o.number,
        log: o.log,
        intervalMs: o.intervalMs ?? DEFAULT_TRACKING_INTERVAL_MS,
        now,
        saveState: o.saveState,
      },
      view,
    );
    try {
      const c = await upsertMarkedComment(
        o.client,
        o.repo,
        o.number,
        TRACKING_MARKER,
        renderTracking(view, now()),
        o.author,
      );
      t.commentId = c.id;
      t.lastEditAt = now();
      t.save();
      o.log.info(`Tracking the run in ${c.htmlUrl}`);
      return t;
    } catch (e) {
      o.log.warning(`Could not post the tracking comment: ${getErrorMessage(e)}`);
      return undefined;
    }
  }

  /** Feeds one engine event; an edit follows within the interval. */
  onEvent(e: RunEvent): void {
    if (this.finished) return;
    const next = applyRunEvent(this.view, e);
    if (next === this.view) return;
    this.view = next;
    this.schedule();
  }

  /** The count of the agent's requests the network policy refused so far; an edit follows within the interval. */
  setBlocked(total: number): void {
    if (this.finished || total === (this.view.blocked ?? 0)) return;
    this.view = { ...this.view, blocked: total };
    this.schedule();
  }

  /** The last edit: status, PR link, and the final counts. Waits for an edit in flight first. */
  async finish(
    final: NonNullable<TrackingView['final']>,
    totals?: { tokens?: number; turns?: number },
  ): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.view = {
      ...this.view,
      final,
      ...(totals?.tokens !== undefined ? { tokens: Math.max(this.view.tokens, totals.tokens) } : {}),
      ...(totals?.turns !== undefined ? { turns: Math.max(this.view.turns, totals.turns) } : {}),
    };
    await this.enqueue();
    this.o.saveState('');
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastEditAt + this.o.intervalMs - this.o.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // An edit started (or ended) since this was scheduled: keep the spacing from that one.
      if (this.o.now() < this.lastEditAt + this.o.intervalMs) return this.schedule();
      this.lastEditAt = this.o.now();
      void this.enqueue();
    }, wait);
    this.timer.unref();
  }

  /** Queues one edit behind the one in flight, so edits never overlap and land in order. */
  private enqueue(): Promise<void> {
    this.inFlight = this.inFlight.then(() => this.edit());
    return this.inFlight;
  }

  private async edit(): Promise<void> {
    if (this.commentId === undefined) return;
    const body = `${TRACKING_MARKER}\n${renderTracking(this.view, this.o.now())}`;
    try {
      await updateComment(this.o.client, this.o.repo, this.commentId, body);
      this.save();
    } catch (e) {
      this.o.log.warning(`Could not update the tracking comment: ${getErrorMessage(e)}`);
    } finally {
      this.lastEditAt = this.o.now();
    }
  }

  private save(): void {
    if (this.commentId === undefined || this.finished) return;
    const state: TrackingState = {
      commentId: this.commentId,
      owner: this.o.repo.owner,
      repo: this.o.repo.repo,
      view: this.view,
    };
    this.o.saveState(JSON.stringify(state));
  }
}

/**
 * The post step's part: a comment the main step left working is finished as stopped. Returns false when the
 * state is not ours to act on.
 */
export async function finishAbandoned(
  client: GitHubClient,
  stateText: string,
  now: number,
): Promise<boolean> {
  if (!stateText) return false;
  let state: TrackingState;
  try {
    state = trackingStateSchema.parse(JSON.parse(stateText)) as TrackingState;
  } catch {
    return false;
  }
  const view: TrackingView = {
    ...state.view,
    final: {
      status: 'stopped',
      note: adviceFor('stopped'),
    },
  };
  await updateComment(
    client,
    { owner: state.owner, repo: state.repo },
    state.commentId,
    `${TRACKING_MARKER}\n${renderTracking(view, now)}`,
  );
  return true;
}
