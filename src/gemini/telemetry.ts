/**
 * Reads the Gemini CLI telemetry outfile (GEMINI_TELEMETRY_TARGET=local) as it grows and turns the few log
 * records the engine cares about into typed events.
 *
 * The file is NOT JSONL: every span, log record and metric batch is `JSON.stringify(x, null, 2) + "\n"`,
 * appended back to back. Most of its bytes are spans and metric batches (20–50 KB each, carrying the system
 * prompt) that we never need, so the scanner walks bytes, finds object boundaries with a small state machine
 * that survives chunk boundaries, and only JSON.parses an object whose bytes contain
 * `"event.name": "gemini_cli.<one we want>"`. Memory is bounded by the largest single object (capped).
 */
import { z } from 'zod';
import type { Usage, ModelUsage } from '../domain/types.js';
import type { AgentFilePolicy } from '../util/agent-file.js';
import { AGENT_JSON_BOUNDS, parseBoundedJson } from '../util/bounded-json.js';
import { FileFollower, followUntilAborted } from '../util/file-follower.js';

export type TelemetryEvent =
  | { kind: 'turn-started'; at: number; promptId?: string }
  | { kind: 'idle'; at: number; promptId?: string }
  | { kind: 'tool-call'; at: number; name: string; success: boolean; durationMs: number }
  | {
      kind: 'api-response';
      at: number;
      model: string;
      inputTokens: number;
      outputTokens: number;
      cachedTokens: number;
      totalTokens: number;
      durationMs: number;
      /** `main` for the agent's own calls; utility calls (router, summarizer) carry another role. */
      role?: string;
    }
  | {
      kind: 'api-error';
      at: number;
      model?: string;
      statusCode?: number;
      message: string;
      terminalQuota: boolean;
      auth: boolean;
      /** The request was aborted by us (the single-Escape interrupt), not failed by the server. */
      cancelled: boolean;
    }
  | { kind: 'flash-fallback'; at: number }
  | { kind: 'config'; at: number; model?: string }
  | { kind: 'startup'; at: number };

/** Event names we parse; everything else is skipped without JSON.parse. */
const WANTED = new Set([
  'user_prompt',
  'conversation_finished',
  'tool_call',
  'api_response',
  'api_error',
  'flash_fallback',
  'config',
  'startup_stats',
]);

const MARKER = Buffer.from('"event.name": "gemini_cli.');
/** Objects larger than this are skipped unread; wanted log records are ~2–5 KB. */
const DEFAULT_MAX_OBJECT_BYTES = 8 * 1024 * 1024;

const QUOTE = 0x22;
/** A top-level object's closing line: the only `}` at column 0 in pretty-printed output. */
const BOUNDARY = Buffer.from('\n}\n');
/** A top-level object's first key: nested objects indent their keys by 4+ spaces. */
const OBJECT_START = Buffer.from('{\n  "');

const num = z.coerce.number().catch(0);
const logRecordSchema = z.object({
  hrTime: z.tuple([z.number(), z.number()]).optional(),
  attributes: z
    .object({
      'event.name': z.string(),
      'event.timestamp': z.string().optional(),
    })
    .catchall(z.unknown()),
});

/**
 * Splits the byte stream into top-level objects and yields events. Pure: feed it buffers split anywhere and
 * it produces the same events as one big buffer.
 *
 * Boundaries come from the serialisation itself: `JSON.stringify(x, null, 2)` indents every nested line, and
 * a JSON string can never hold a raw newline, so `\n}\n` occurs exactly where a top-level object ends —
 * whatever braces, quotes or escapes its strings contain. That lets a native `indexOf` find boundaries at
 * memory speed instead of a byte-by-byte state machine. Only objects carrying the event-name marker of an
 * event we use are decoded and parsed; a torn object (a writer killed mid-record) merges with the next one
 * and is cut off where the last top-level object before the marker opens.
 */
export class TelemetryScanner {
  /** Bytes since the last boundary: the torn trailing object (copied; the caller may reuse its buffer). */
  private carry: Buffer = Buffer.alloc(0);
  /** The current object outgrew maxObjectBytes: skip to the next boundary. */
  private discarding = false;
  private awaitingIdle = false;
  private currentPromptId: string | undefined;
  private readonly maxObjectBytes: number;
  /** Objects that failed to parse (torn by a crash, or a schema surprise). */
  skipped = 0;

  constructor(opts: { maxObjectBytes?: number } = {}) {
    this.maxObjectBytes = opts.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
  }

  /** Bytes held for a torn trailing object. */
  get bufferedBytes(): number {
    return this.discarding ? 0 : this.carry.length;
  }

  push(chunk: Buffer): TelemetryEvent[] {
    const events: TelemetryEvent[] = [];
    if (chunk.length === 0) return events;
    let start = 0;
    if (this.carry.length > 0) {
      // Close the carried object without copying the whole chunk: its boundary is the first one, possibly
      // straddling the last two carried bytes.
      const tail = Math.min(2, this.carry.length);
      const head = Buffer.concat([this.carry.subarray(this.carry.length - tail), chunk.subarray(0, 2)]);
      const k = head.indexOf(BOUNDARY);
      // e may be -1 or -2 here: the boundary's newline was carried.
      const straddles = k !== -1 && k < tail;
      const e = straddles ? k - tail : chunk.indexOf(BOUNDARY);
      if (!straddles && e === -1) {
        this.keep(Buffer.concat([this.carry, chunk]));
        return events;
      }
      if (this.discarding) this.discarding = false;
      else this.finishObject(Buffer.concat([this.carry, chunk.subarray(0, e + 2)]), events);
      start = e + 3;
    }
    for (let e = chunk.indexOf(BOUNDARY, start); e !== -1; e = chunk.indexOf(BOUNDARY, start)) {
      this.finishObject(chunk.subarray(start, e + 2), events);
      start = e + 3;
    }
    this.carry = Buffer.alloc(0);
    if (start < chunk.length) this.keep(Buffer.from(chunk.subarray(start)));
    return events;
  }

  /** Holds a torn trailing object; past the cap only its last bytes, to find where it ends. */
  private keep(rest: Buffer): void {
    if (this.discarding || rest.length > this.maxObjectBytes) {
      if (!this.discarding) this.skipped++;
      this.discarding = true;
      this.carry = Buffer.from(rest.subarray(Math.max(0, rest.length - 2)));
    } else {
      this.carry = rest;
    }
  }

  private finishObject(obj: Buffer, events: TelemetryEvent[]): void {
    const m = obj.indexOf(MARKER);
    if (m === -1) return;
    const nameStart = m + MARKER.length;
    const nameEnd = obj.indexOf(QUOTE, nameStart);
    if (nameEnd === -1) return;
    const name = obj.toString('latin1', nameStart, nameEnd);
    if (!WANTED.has(name)) return;
    const top = obj.lastIndexOf(OBJECT_START, m);
    const from = top === -1 ? 0 : top;
    // The same cap whether or not the object arrived in one read, so every split gives the same events.
    if (obj.length - from > this.maxObjectBytes) {
      this.skipped++;
      return;
    }
    // Bounded in values and nesting too (util/bounded-json.ts): the agent can append to this file.
    const parsed = parseBoundedJson(obj.subarray(from), {
      ...AGENT_JSON_BOUNDS,
      maxBytes: this.maxObjectBytes,
    });
    if (!parsed.ok) {
      this.skipped++;
      return;
    }
    const ev = this.toEvent(parsed.value);
    if (ev) events.push(ev);
  }

  private toEvent(raw: unknown): TelemetryEvent | undefined {
    const rec = logRecordSchema.safeParse(raw);
    if (!rec.success) {
      this.skipped++;
      return undefined;
    }
    const a = rec.data.attributes;
    const ts = a['event.timestamp'] ? Date.parse(a['event.timestamp']) : NaN;
    const hr = rec.data.hrTime;
    const at = Number.isFinite(ts) ? ts : hr ? hr[0] * 1000 + Math.floor(hr[1] / 1e6) : 0;
    const str = (k: string): string | undefined => (typeof a[k] === 'string' ? a[k] : undefined);
    switch (a['event.name']) {
      case 'gemini_cli.user_prompt': {
        this.awaitingIdle = true;
        this.currentPromptId = str('prompt_id');
        return { kind: 'turn-started', at, promptId: this.currentPromptId };
      }
      case 'gemini_cli.conversation_finished': {
        // It re-fires whenever history changes while idle (e.g. an info item): only the first edge after
        // the turn's user_prompt is the turn ending.
        if (!this.awaitingIdle) return undefined;
        this.awaitingIdle = false;
        return { kind: 'idle', at, promptId: this.currentPromptId };
      }
      case 'gemini_cli.tool_call':
        return {
          kind: 'tool-call',
          at,
          name: str('function_name') ?? 'unknown',
          success: a['success'] === true || a['success'] === 'true',
          durationMs: num.parse(a['duration_ms']),
        };
      case 'gemini_cli.api_response':
        return {
          kind: 'api-response',
          at,
          model: str('model') ?? 'unknown',
          inputTokens: num.parse(a['input_token_count']),
          outputTokens: num.parse(a['output_token_count']),
          cachedTokens: num.parse(a['cached_content_token_count']),
          totalTokens: num.parse(a['total_token_count']),
          durationMs: num.parse(a['duration_ms']),
          role: str('role'),
        };
      case 'gemini_cli.api_error': {
        const status = a['status_code'] ?? a['http.status_code'];
        const statusCode =
          typeof status === 'number' ? status : typeof status === 'string' ? Number(status) : NaN;
        const message = str('error.message') ?? str('error') ?? 'API error';
        const cls = classifyApiError(Number.isFinite(statusCode) ? statusCode : undefined, message);
        return {
          kind: 'api-error',
          at,
          model: str('model') ?? str('model_name'),
          statusCode: Number.isFinite(statusCode) ? statusCode : undefined,
          message,
          ...cls,
          // live (Escape during a hanging request): "exception AbortError: This operation was aborted …".
          cancelled: /AbortError|operation was aborted/i.test(message),
        };
      }
      case 'gemini_cli.flash_fallback':
        return { kind: 'flash-fallback', at };
      case 'gemini_cli.config':
        return { kind: 'config', at, model: str('model') };
      case 'gemini_cli.startup_stats':
        return { kind: 'startup', at };
      default:
        return undefined;
    }
  }
}

/**
 * Decides whether an API error is a wall the run cannot get past today (daily quota) or an auth failure,
 * following the CLI's own `classifyGoogleError`: QuotaFailure PerDay/Daily, QUOTA_EXHAUSTED, or a retry
 * delay above 300 s are terminal; other 429s are retried by the CLI itself.
 */
export function classifyApiError(
  statusCode: number | undefined,
  message: string,
): { terminalQuota: boolean; auth: boolean } {
  const m = message;
  let terminalQuota =
    /exhausted your daily quota/i.test(m) ||
    /daily quota/i.test(m) ||
    /QUOTA_EXHAUSTED|INSUFFICIENT_G1_CREDITS_BALANCE/.test(m) ||
    /"quotaId"\s*:\s*"[^"]*(PerDay|Daily)/i.test(m) ||
    /Usage limit reached/i.test(m);
  if (!terminalQuota) {
    const delays = [...m.matchAll(/retry in ([\d.]+)\s*s|"retryDelay"\s*:\s*"([\d.]+)s"/gi)];
    terminalQuota = delays.some((d) => Number(d[1] ?? d[2]) > 300);
  }
  const auth =
    statusCode === 401 ||
    statusCode === 403 ||
    /\bUNAUTHENTICATED\b|\bPERMISSION_DENIED\b|invalid_grant|API key not valid/i.test(m);
  return { terminalQuota, auth };
}

/**
 * Follows a telemetry file by byte position (util/file-follower.ts). The file may not exist yet (the CLI creates
 * it at start-up); a file that shrinks or is replaced is read again from the start.
 */
export class TelemetryReader {
  private readonly follower: FileFollower;
  private scanner: TelemetryScanner;

  constructor(
    readonly file: string,
    private readonly opts: { chunkBytes?: number; maxObjectBytes?: number; policy?: AgentFilePolicy } = {},
  ) {
    this.follower = new FileFollower(file, {
      ...(opts.chunkBytes !== undefined ? { chunkBytes: opts.chunkBytes } : {}),
      ...(opts.policy ? { policy: opts.policy } : {}),
    });
    this.scanner = new TelemetryScanner({ maxObjectBytes: opts.maxObjectBytes });
  }

  /** Bytes consumed so far. */
  get offset(): number {
    return this.follower.offset;
  }

  /** Reads only the bytes appended since the last call. Concurrent calls are serialised. */
  async poll(): Promise<TelemetryEvent[]> {
    const events: TelemetryEvent[] = [];
    await this.follower.read(
      (chunk) => {
        for (const ev of this.scanner.push(chunk)) events.push(ev);
      },
      () => {
        this.scanner = new TelemetryScanner({ maxObjectBytes: this.opts.maxObjectBytes });
      },
    );
    return events;
  }

  close(): Promise<void> {
    return this.follower.close();
  }
}

/**
 * Calls onEvents with every new batch of events until the signal aborts. fs.watch on the directory gives
 * millisecond latency on Linux; the short poll covers file systems where watch events are lost or absent.
 * A last read runs after the abort so records flushed at shutdown are not missed.
 */
export async function followTelemetry(
  file: string,
  onEvents: (events: TelemetryEvent[]) => void,
  opts: { signal: AbortSignal; pollMs?: number; reader?: TelemetryReader; policy?: AgentFilePolicy },
): Promise<void> {
  const reader = opts.reader ?? new TelemetryReader(file, opts.policy ? { policy: opts.policy } : {});
  try {
    await followUntilAborted(
      file,
      async () => {
        const events = await reader.poll();
        if (events.length > 0) onEvents(events);
      },
      { signal: opts.signal, pollMs: opts.pollMs ?? 50 },
    );
  } finally {
    if (!opts.reader) await reader.close();
  }
}

/**
 * Totals from telemetry. `durationMs` is the span from the first turn start (or first event) to the last
 * event. A model that first serves after a `flash-fallback` is marked as a fallback model.
 */
export function summarizeUsage(events: readonly TelemetryEvent[]): Usage {
  const models = new Map<string, ModelUsage>();
  // A model counts as a utility one while every response it gave carried a non-main role (e.g. the router).
  const servedMain = new Set<string>();
  let fallbackSeen = false;
  let turns = 0;
  let toolCalls = 0;
  let first: number | undefined;
  let last: number | undefined;
  for (const ev of events) {
    if (ev.kind === 'config' || ev.kind === 'startup') continue;
    if (ev.kind === 'turn-started') {
      turns++;
      if (first === undefined) first = ev.at;
    }
    if (first === undefined) first = ev.at;
    last = last === undefined ? ev.at : Math.max(last, ev.at);
    if (ev.kind === 'tool-call') toolCalls++;
    else if (ev.kind === 'flash-fallback') fallbackSeen = true;
    else if (ev.kind === 'api-response') {
      let m = models.get(ev.model);
      if (!m) {
        m = {
          model: ev.model,
          requests: 0,
          inputTokens: 0,
          outputTokens: 0,
          cachedTokens: 0,
          totalTokens: 0,
          fallback: fallbackSeen,
        };
        models.set(ev.model, m);
      }
      m.requests++;
      if (ev.role === undefined || ev.role === 'main') servedMain.add(ev.model);
      m.inputTokens += ev.inputTokens;
      m.outputTokens += ev.outputTokens;
      m.cachedTokens += ev.cachedTokens;
      m.totalTokens += ev.totalTokens;
    }
  }
  const list = [...models.values()].map((m) => (servedMain.has(m.model) ? m : { ...m, utility: true }));
  return {
    models: list,
    totalTokens: list.reduce((s, m) => s + m.totalTokens, 0),
    toolCalls,
    turns,
    durationMs: first !== undefined && last !== undefined ? Math.max(0, last - first) : 0,
  };
}
