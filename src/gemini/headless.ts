/**
 * Translates `gemini -p --output-format stream-json` stdout into the engine's RunEvents.
 *
 * One compact JSON object per line (init, message, tool_use, tool_result, error, result). Lines may arrive
 * split across reads; gemini may also print plain text warnings, which are skipped. Every line is validated
 * with zod; a line with an unknown `type` becomes `{type:'unknown'}` and is reported once per type (the
 * `onUnknownType` callback and `unknownTypes`) so the caller can log it once; it is never an error.
 * `init.model` is what was asked for (live: `auto-gemini-3` without `-m`); the models that served are in
 * the `result` stats (live: including the router's `gemini-2.5-flash-lite`).
 *
 * The answer: assistant `message` events are deltas. `answer` is the text streamed after the last tool call
 * (the model's closing words), or all text when there were no tool calls — the same rule the CLI's own
 * `--output-format json` applies to `response`, so narration before a tool call ("Let me look…") is not
 * mistaken for the result. `transcriptText` keeps everything.
 */
import { z } from 'zod';
import type { ModelUsage, RunEvent, Usage } from '../domain/types.js';
import { AGENT_JSON_BOUNDS, parseBoundedJson } from '../util/bounded-json.js';
import { BoundedLines } from '../util/bounded-lines.js';
import { classifyApiError } from './telemetry.js';
import { normalizeToolName } from './tools.js';

const errorInfo = z.object({ type: z.string().optional(), message: z.string() }).loose();
const tokenCount = z.number().catch(0);
const modelStats = z
  .object({
    total_tokens: tokenCount,
    input_tokens: tokenCount,
    output_tokens: tokenCount,
    cached: tokenCount,
  })
  .partial()
  .loose();

const streamEventSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('init'),
      timestamp: z.string().optional(),
      session_id: z.string(),
      model: z.string().optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('message'),
      timestamp: z.string().optional(),
      role: z.enum(['user', 'assistant']),
      content: z.string(),
      delta: z.boolean().optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('tool_use'),
      timestamp: z.string().optional(),
      tool_name: z.string(),
      tool_id: z.string(),
      parameters: z.record(z.string(), z.unknown()).optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('tool_result'),
      timestamp: z.string().optional(),
      tool_id: z.string(),
      status: z.string(),
      output: z.string().optional(),
      error: errorInfo.optional(),
    })
    .loose(),
  z
    .object({
      type: z.literal('error'),
      timestamp: z.string().optional(),
      severity: z.string().optional(),
      message: z.string(),
    })
    .loose(),
  z
    .object({
      type: z.literal('result'),
      timestamp: z.string().optional(),
      status: z.string(),
      error: errorInfo.optional(),
      stats: z
        .object({
          total_tokens: tokenCount,
          input_tokens: tokenCount,
          output_tokens: tokenCount,
          cached: tokenCount,
          duration_ms: tokenCount,
          tool_calls: tokenCount,
          models: z.record(z.string(), modelStats).catch({}),
        })
        .partial()
        .loose()
        .optional(),
    })
    .loose(),
]);

export type StreamJsonEvent = z.infer<typeof streamEventSchema>;

/** Lines longer than this are dropped whole (bounded memory on a runaway line). */
const MAX_LINE = 64 * 1024 * 1024;

/** A short, one-line description of a tool call for the log (path, command, pattern). */
function toolDetail(params: Record<string, unknown> | undefined): string | undefined {
  if (!params) return undefined;
  for (const key of ['command', 'file_path', 'dir_path', 'pattern', 'url', 'query', 'path']) {
    const v = params[key];
    if (typeof v === 'string' && v !== '') return v.split('\n', 1)[0]!.slice(0, 200);
  }
  return undefined;
}

export class StreamJsonTranslator {
  /** Text after the last tool call (or all text if none). */
  answer = '';
  /** All assistant text, in order. */
  transcriptText = '';
  sessionId?: string;
  model?: string;
  usage?: Usage;
  resultStatus?: 'success' | 'error';
  error?: string;
  /** Unknown event types seen, each reported once (the caller logs them). */
  readonly unknownTypes: string[] = [];
  /** Lines that were not JSON (warnings the CLI printed) or failed validation. */
  readonly skippedLines: string[] = [];

  /** Non-fatal `error` events with severity warning (loop detected, blocked agent). */
  readonly warnings: string[] = [];
  toolCalls = 0;
  turns = 0;

  private readonly lines = new BoundedLines(MAX_LINE);
  private tooManyValues = 0;
  private readonly toolNames = new Map<string, string>();
  private sawToolCall = false;

  /** onUnknownType is called once per unknown event type, so the caller can log it once. */
  constructor(private readonly opts: { onUnknownType?: (type: string, line: string) => void } = {}) {}

  /** Feeds a chunk of stdout; returns the events of every line it completed. */
  push(chunk: string): RunEvent[] {
    const out: RunEvent[] = [];
    for (const line of this.lines.push(chunk)) this.line(line, out);
    return out;
  }

  /** Flushes a last line without a newline (the process exited). */
  end(): RunEvent[] {
    const out: RunEvent[] = [];
    const rest = this.lines.end();
    if (rest !== undefined && rest.trim() !== '') this.line(rest, out);
    return out;
  }

  /**
   * Lines too large to read (past MAX_LINE, or too many values for util/bounded-json.ts): skipped and counted.
   * The agent's processes can write into gemini's stdout (its /proc/<pid>/fd/1 is theirs to open).
   */
  get oversizedLines(): number {
    return this.lines.dropped + this.tooManyValues;
  }

  /** Translates one line (exported for tests through push). */
  private line(raw: string, out: RunEvent[]): void {
    const line = raw.trim();
    if (line === '') return;
    if (!line.startsWith('{')) {
      this.skip(line);
      return;
    }
    const bounded = parseBoundedJson(line, { ...AGENT_JSON_BOUNDS, maxBytes: MAX_LINE });
    if (!bounded.ok) {
      if (bounded.why === 'too-large') this.tooManyValues++;
      else this.skip(line);
      return;
    }
    const json = bounded.value;
    const parsed = streamEventSchema.safeParse(json);
    if (!parsed.success) {
      const type = json && typeof json === 'object' ? (json as { type?: unknown }).type : undefined;
      const known = ['init', 'message', 'tool_use', 'tool_result', 'error', 'result'];
      if (typeof type === 'string' && !known.includes(type)) {
        if (!this.unknownTypes.includes(type)) {
          this.unknownTypes.push(type);
          this.opts.onUnknownType?.(type, line);
        }
        out.push({ type: 'unknown', raw: line });
      } else {
        // A known type with an unexpected shape: keep it visible, never fatal.
        this.skip(line);
        out.push({ type: 'unknown', raw: line });
      }
      return;
    }
    this.translate(parsed.data, out);
  }

  private skip(line: string): void {
    if (this.skippedLines.length < 100) this.skippedLines.push(line.slice(0, 500));
  }

  private translate(ev: StreamJsonEvent, out: RunEvent[]): void {
    switch (ev.type) {
      case 'init':
        this.sessionId = ev.session_id;
        this.model = ev.model;
        out.push({ type: 'started', sessionId: ev.session_id, ...(ev.model ? { model: ev.model } : {}) });
        return;
      case 'message':
        if (ev.role === 'user') {
          this.turns++;
          out.push({
            type: 'turn-started',
            at: ev.timestamp ? Date.parse(ev.timestamp) || Date.now() : Date.now(),
          });
          return;
        }
        this.transcriptText += ev.content;
        // A non-delta assistant message is a whole message: it replaces the current segment.
        this.answer = ev.delta === false ? ev.content : this.answer + ev.content;
        out.push({ type: 'text', text: ev.content });
        return;
      case 'tool_use': {
        this.toolNames.set(ev.tool_id, ev.tool_name);
        this.sawToolCall = true;
        this.answer = '';
        this.toolCalls++;
        const detail = toolDetail(ev.parameters);
        out.push({
          type: 'tool-started',
          id: ev.tool_id,
          name: ev.tool_name,
          kind: normalizeToolName(ev.tool_name),
          ...(detail !== undefined ? { detail } : {}),
        });
        return;
      }
      case 'tool_result': {
        // tool_result carries no name; ids look like `<tool_name>_<epoch-ms>_<n>` when the use was missed.
        const name = this.toolNames.get(ev.tool_id) ?? ev.tool_id.replace(/_\d+_\d+$/, '');
        const output = ev.output ?? ev.error?.message;
        out.push({
          type: 'tool-completed',
          id: ev.tool_id,
          name,
          kind: normalizeToolName(name),
          ok: ev.status === 'success',
          ...(output !== undefined ? { output } : {}),
        });
        return;
      }
      case 'error': {
        // Non-fatal by design (the CLI goes on or ends with a result line); only severity error is surfaced
        // as an error event, warnings are kept for the summary.
        if (ev.severity === 'warning') {
          this.warnings.push(ev.message);
          return;
        }
        const cls = classifyApiError(undefined, ev.message);
        out.push({ type: 'api-error', message: ev.message, terminalQuota: cls.terminalQuota });
        return;
      }
      case 'result': {
        this.resultStatus = ev.status === 'success' ? 'success' : 'error';
        if (ev.stats) this.usage = usageFromStats(ev.stats, this.turns);
        if (ev.status !== 'success') {
          const message = ev.error?.message ?? 'gemini reported an error';
          this.error = message;
          const cls = classifyApiError(undefined, message);
          if (cls.terminalQuota || /API Error/i.test(message)) {
            out.push({ type: 'api-error', message, terminalQuota: cls.terminalQuota });
          }
          out.push({ type: 'completed', ok: false, error: message });
        } else {
          out.push({ type: 'completed', ok: true });
        }
        return;
      }
    }
  }

  /** Whether any tool ran; with none, `answer` is all streamed text. */
  get hadToolCalls(): boolean {
    return this.sawToolCall;
  }
}

function usageFromStats(
  stats: NonNullable<Extract<StreamJsonEvent, { type: 'result' }>['stats']>,
  turns: number,
): Usage {
  const models: ModelUsage[] = Object.entries(stats.models ?? {}).map(([model, m]) => ({
    model,
    // stream-json stats do not count requests per model.
    requests: 0,
    inputTokens: m.input_tokens ?? 0,
    outputTokens: m.output_tokens ?? 0,
    cachedTokens: m.cached ?? 0,
    totalTokens: m.total_tokens ?? 0,
    fallback: false,
  }));
  return {
    models,
    totalTokens: stats.total_tokens ?? models.reduce((s, m) => s + m.totalTokens, 0),
    toolCalls: stats.tool_calls ?? 0,
    turns,
    durationMs: stats.duration_ms ?? 0,
  };
}
