/**
 * Live progress: each tool call and model response as a log line when it happens, and a heartbeat with
 * elapsed time, turns and tokens. Both modes feed it RunEvents; telemetry events are translated here.
 */
import type { TelemetryEvent } from '../gemini/telemetry.js';
import { normalizeToolName } from '../gemini/tools.js';
import { parseTranscriptLine } from '../gemini/transcript-parse.js';
import type { AgentFilePolicy } from '../util/agent-file.js';
import { LineFollower } from '../util/file-follower.js';
import type { Logger } from '../util/log.js';
import { neutralize, shorten } from '../util/untrusted-text.js';
import { formatDuration } from './report.js';
import type { RunEvent } from '../domain/types.js';

/** Telemetry → the mode-independent RunEvent vocabulary (config/startup carry nothing for progress). */
export function telemetryToRunEvents(ev: TelemetryEvent): RunEvent[] {
  switch (ev.kind) {
    case 'turn-started':
      return [{ type: 'turn-started', at: ev.at }];
    case 'idle':
      return [{ type: 'idle', at: ev.at }];
    case 'tool-call':
      return [
        {
          type: 'tool-completed',
          name: ev.name,
          kind: normalizeToolName(ev.name),
          ok: ev.success,
          durationMs: ev.durationMs,
        },
      ];
    case 'api-response':
      return [
        {
          type: 'model-response',
          model: ev.model,
          inputTokens: ev.inputTokens,
          outputTokens: ev.outputTokens,
          totalTokens: ev.totalTokens,
          durationMs: ev.durationMs,
        },
      ];
    case 'api-error':
      return [
        {
          type: 'api-error',
          message: ev.message,
          terminalQuota: ev.terminalQuota,
          ...(ev.statusCode !== undefined ? { statusCode: ev.statusCode } : {}),
          ...(ev.model !== undefined ? { model: ev.model } : {}),
        },
      ];
    case 'flash-fallback':
      return [{ type: 'fallback' }];
    default:
      return [];
  }
}

const seconds = (ms: number | undefined): string =>
  ms === undefined ? '' : ` (${(ms / 1000).toFixed(1)} s)`;

/**
 * One log line per event worth showing; undefined for the rest. Exported for tests. Every name, target and
 * message in an event came from the CLI, the model or the agent: each is neutralised onto this one line.
 */
export function describeEvent(e: RunEvent): string | undefined {
  const n = (s: string) => neutralize(s, 300);
  switch (e.type) {
    case 'started':
      return `gemini started: session ${n(e.sessionId)}${e.model ? `, model ${n(e.model)}` : ''}`;
    case 'turn-started':
      return 'turn started';
    case 'tool-started':
      return `tool ${n(e.name)} [${n(e.kind)}]${e.detail ? `: ${n(e.detail)}` : ''}`;
    case 'tool-completed':
      return `tool ${n(e.name)} [${n(e.kind)}] ${e.ok ? 'ok' : 'FAILED'}${seconds(e.durationMs)}`;
    case 'model-response':
      return `model ${n(e.model)}: ${e.inputTokens} in / ${e.outputTokens} out tokens${seconds(e.durationMs)}`;
    case 'api-error':
      return `API error${e.statusCode ? ` ${e.statusCode}` : ''}${e.terminalQuota ? ' (terminal quota)' : ''}: ${n(e.message.replace(/\s+/g, ' '))}`;
    case 'fallback':
      return `model fallback${e.toModel ? ` to ${n(e.toModel)}` : ''}`;
    case 'idle':
      return 'turn finished (idle)';
    case 'completed':
      return e.ok ? 'completed' : `completed with error: ${n(e.error ?? 'unknown')}`;
    default:
      return undefined;
  }
}

/**
 * How long a tool's completion line waits for its start line. In interactive mode the completion comes from
 * telemetry (flushed within 50 ms) and the start, with the arguments, from the session file, which the CLI may
 * write a moment later: the log reads in order when the completion waits for it.
 */
const HOLD_COMPLETION_MS = 1500;

export class Progress {
  turns = 0;
  tokens = 0;
  toolCalls = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Per tool name: starts logged whose completion is not yet logged. */
  private readonly open = new Map<string, number>();
  /** Completions logged before their start could be: each waits (bounded) for a start of its name. */
  private held: { name: string; line: string; timer: NodeJS.Timeout }[] = [];
  /** The end of a turn, told after the tool completions that came before it (held above). */
  private afterHeld: string[] = [];

  constructor(
    private readonly log: Logger,
    private readonly onEvent: ((e: RunEvent) => void) | undefined,
    private readonly startedAt: number,
  ) {}

  emit(e: RunEvent): void {
    if (e.type === 'turn-started') this.turns++;
    else if (e.type === 'model-response') this.tokens += e.totalTokens;
    else if (e.type === 'tool-completed') this.toolCalls++;
    if (e.type === 'tool-started') this.tool = e.name;
    else if (e.type === 'tool-completed' || e.type === 'idle' || e.type === 'completed')
      this.tool = undefined;
    this.logInOrder(e);
    if (this.statusShown) this.drawStatus();
    try {
      this.onEvent?.(e);
    } catch (err) {
      // A listener's bug must not end the run.
      this.log.debug(`onEvent listener threw: ${String(err)}`);
    }
  }

  private logInOrder(e: RunEvent): void {
    const line = describeEvent(e);
    if (!line) return;
    if (e.type === 'tool-completed' && e.id === undefined) {
      const open = this.open.get(e.name) ?? 0;
      if (open === 0) {
        const timer = setTimeout(() => this.release(e.name), HOLD_COMPLETION_MS);
        timer.unref();
        this.held.push({ name: e.name, line, timer });
        return;
      }
      this.open.set(e.name, open - 1);
    }
    if ((e.type === 'idle' || e.type === 'completed') && this.held.length > 0) {
      this.afterHeld.push(line);
      return;
    }
    this.log.info(line);
    if (e.type === 'tool-started') {
      if (this.held.some((h) => h.name === e.name)) this.release(e.name);
      else this.open.set(e.name, (this.open.get(e.name) ?? 0) + 1);
    }
  }

  /** Logs the oldest held completion of `name`, after whatever is logged already. */
  private release(name: string): void {
    const i = this.held.findIndex((h) => h.name === name);
    if (i < 0) return;
    const [h] = this.held.splice(i, 1);
    if (!h) return;
    clearTimeout(h.timer);
    this.log.info(h.line);
    if (this.held.length === 0) this.flushAfterHeld();
  }

  private flushAfterHeld(): void {
    for (const line of this.afterHeld.splice(0)) this.log.info(line);
  }

  /**
   * Logs every held completion, oldest first, then what waited behind them: the engine calls this before it
   * says the agent is idle, so the log never tells the end of a turn before the tools of that turn.
   */
  releaseAll(): void {
    for (const h of this.held) {
      clearTimeout(h.timer);
      this.log.info(h.line);
    }
    this.held = [];
    this.flushAfterHeld();
  }

  /** The tool running now, as far as the events tell (for the status line). */
  private tool: string | undefined;
  private statusShown = false;

  /** The status line: turn, the tool running (or what the agent waits on), tokens, elapsed. */
  statusLine(now = Date.now()): string {
    const doing = this.tool ? `tool ${this.tool}` : this.turns === 0 ? 'starting' : 'thinking';
    return `▸ turn ${this.turns} · ${doing} · ${this.tokens.toLocaleString('en-US')} tokens · ${this.toolCalls} tool call(s) · ${formatDuration(now - this.startedAt)}`;
  }

  private drawStatus(): void {
    this.log.status?.(this.statusLine());
  }

  heartbeatLine(now = Date.now()): string {
    return `… working: ${formatDuration(now - this.startedAt)} elapsed, ${this.turns} turn(s), ${this.tokens} tokens, ${this.toolCalls} tool call(s)`;
  }

  /**
   * Where the log has a status line (a terminal), it is kept current every second instead of heartbeat lines;
   * elsewhere a heartbeat line every `everyMs`.
   */
  startHeartbeat(everyMs: number): void {
    this.stopHeartbeat();
    if (this.log.status) {
      this.statusShown = true;
      this.drawStatus();
      this.timer = setInterval(() => this.drawStatus(), 1000);
      this.timer.unref();
      return;
    }
    if (everyMs <= 0) return;
    this.timer = setInterval(() => this.log.info(this.heartbeatLine()), everyMs);
    this.timer.unref();
  }

  /** The end of the run's progress: no more heartbeats, and a completion still waiting for its start is logged. */
  stopHeartbeat(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.releaseAll();
    if (this.statusShown) this.log.status?.(undefined);
    this.statusShown = false;
  }
}

/** A short, one-line account of a tool call's arguments for the log (the command, the path, the pattern). */
export function toolArgsDetail(args: unknown): string | undefined {
  if (!args || typeof args !== 'object') return undefined;
  const a = args as Record<string, unknown>;
  for (const key of [
    'command',
    'file_path',
    'dir_path',
    'absolute_path',
    'path',
    'pattern',
    'url',
    'query',
  ]) {
    const v = a[key];
    if (typeof v === 'string' && v.trim() !== '') return shorten(v, 200);
  }
  return undefined;
}

const MAX_TAIL_READ = 8 * 1024 * 1024;

/**
 * Follows the session transcript for what telemetry lacks: each tool call's arguments. Reads only appended
 * bytes (util/file-follower.ts); a record re-appended with more tool calls (the CLI updates records that way)
 * reports only new ids. Records are read with the transcript's own schema (gemini/transcript-parse.ts).
 */
export class TranscriptToolTail {
  private readonly lines: LineFollower;
  private readonly seen = new Set<string>();

  constructor(locate: () => Promise<string | undefined>, policy?: AgentFilePolicy) {
    this.lines = new LineFollower(locate, {
      maxBytesPerRead: MAX_TAIL_READ,
      maxLineBytes: MAX_TAIL_READ,
      ...(policy ? { policy } : {}),
    });
  }

  async poll(): Promise<RunEvent[]> {
    let lines: string[];
    try {
      lines = await this.lines.readLines();
    } catch {
      return [];
    }
    const out: RunEvent[] = [];
    for (const line of lines) {
      if (!line.includes('"toolCalls"')) continue;
      for (const c of parseTranscriptLine(line)?.toolCalls ?? []) {
        if (this.seen.has(c.id)) continue;
        this.seen.add(c.id);
        const detail = toolArgsDetail(c.args) ?? c.description;
        out.push({
          type: 'tool-started',
          id: c.id,
          name: c.name,
          kind: c.kind,
          ...(detail ? { detail } : {}),
        });
      }
    }
    return out;
  }

  /** The transcript as it was when the CLI deleted it (0.61.0 does at exit when nothing is resumable). */
  keepIfDeleted(dest: string): Promise<boolean> {
    return this.lines.keepIfUnlinked(dest);
  }

  close(): Promise<void> {
    return this.lines.close();
  }
}
