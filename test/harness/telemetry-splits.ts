/**
 * Telemetry files cut at byte boundaries, for the scanner's split checks: a small file with everything tricky, the
 * cut positions a unit test samples (test/unit/gemini-telemetry.test.ts) where test/integration/telemetry-splits.test.ts
 * tries every one, and the facts the product's parser and the probe's oracle must agree on
 * (test/unit/telemetry-differential.test.ts).
 */
import { TelemetryScanner, type TelemetryEvent } from '../../src/gemini/telemetry.js';
import type { OtelLogEvent } from '../../src/probe/otel.js';
import { logRecord, metrics, quotaError, span } from '../bench/lib.js';

/** The scanner fed `buf` cut at `cuts` (ascending), as the follower hands reads over. */
export function scanAll(buf: Buffer, cuts: number[] = [], maxObjectBytes?: number): TelemetryEvent[] {
  const s = new TelemetryScanner(maxObjectBytes === undefined ? undefined : { maxObjectBytes });
  const out: TelemetryEvent[] = [];
  let prev = 0;
  for (const c of [...cuts, buf.length]) {
    out.push(...s.push(buf.subarray(prev, c)));
    prev = c;
  }
  return out;
}

/** The small file's records, each as the CLI writes it. */
function smallFileRecords(): string[] {
  const at = Date.UTC(2026, 11, 2, 12, 0, 0);
  return [
    logRecord('gemini_cli.config', at, { model: 'gemini-2.5-flash', weird: '{"}\\"{{ ünï 😀' }),
    logRecord('gemini_cli.user_prompt', at + 10, { prompt_length: 3, prompt_id: 'p1' }),
    span(at + 11, 1),
    logRecord('gemini_cli.api_response', at + 20, {
      model: 'gemini-2.5-flash',
      duration_ms: 30,
      input_token_count: 100,
      output_token_count: 7,
      cached_content_token_count: 2,
      total_token_count: 107,
      role: 'main',
    }),
    logRecord('gemini_cli.tool_call', at + 30, {
      function_name: 'read_file',
      success: true,
      duration_ms: 5,
      note: '}}}"',
    }),
    metrics(at + 31, 1),
    logRecord('gemini_cli.conversation_finished', at + 40, { approvalMode: 'yolo', turnCount: 2 }),
    logRecord('gemini_cli.conversation_finished', at + 90, { approvalMode: 'yolo', turnCount: 3 }),
    quotaError(at + 100),
    logRecord('gemini_cli.flash_fallback', at + 110, {}),
  ];
}

/** A small file with everything tricky: braces/quotes/escapes in strings, multi-byte UTF-8, noise edges. */
export function smallFile(): Buffer {
  return Buffer.from(smallFileRecords().join(''));
}

/**
 * The cuts a unit test tries on the small file (a few hundred of its ~16,000): every cut next to a byte that
 * changes the scanner's state in a way a split could break (a backslash, a brace, a byte of a multi-byte
 * character), each record's edges, and an even sample of the rest.
 */
export function sampledCuts(buf: Buffer): number[] {
  const edges = new Set<number>();
  let at = 0;
  for (const r of smallFileRecords()) {
    at += Buffer.byteLength(r);
    for (let d = -2; d <= 2; d++) edges.add(at + d);
  }
  const tricky = (b: number | undefined): boolean =>
    b !== undefined && (b >= 0x80 || b === 0x5c || b === 0x7b || b === 0x7d);
  const cuts: number[] = [];
  for (let cut = 1; cut < buf.length; cut++) {
    if (edges.has(cut) || cut % 53 === 0 || tricky(buf[cut - 1]) || tricky(buf[cut])) cuts.push(cut);
  }
  return cuts;
}

/** The facts both parsers must agree on, one line per event. */
type Fact = string;

/** The oracle's records in the product's vocabulary (the idle edge is the first conversation_finished of a turn). */
export function oracleFacts(events: OtelLogEvent[]): Fact[] {
  const out: Fact[] = [];
  let awaitingIdle = false;
  const n = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
  for (const e of events) {
    const a = e.attributes;
    switch (e.name) {
      case 'gemini_cli.user_prompt':
        awaitingIdle = true;
        out.push(`turn-started ${e.at}`);
        break;
      case 'gemini_cli.conversation_finished':
        if (awaitingIdle) out.push(`idle ${e.at}`);
        awaitingIdle = false;
        break;
      case 'gemini_cli.tool_call':
        out.push(`tool-call ${e.at} ${String(a.function_name)} ${String(a.success)}`);
        break;
      case 'gemini_cli.api_response':
        out.push(
          `api-response ${e.at} ${String(a.model)} ${n(a.input_token_count)}/${n(a.output_token_count)}/${n(a.total_token_count)}`,
        );
        break;
      case 'gemini_cli.api_error':
        out.push(`api-error ${e.at} ${n(a.status_code ?? a['http.status_code'])}`);
        break;
      case 'gemini_cli.flash_fallback':
        out.push(`flash-fallback ${e.at}`);
        break;
      case 'gemini_cli.config':
        out.push(`config ${e.at}`);
        break;
      case 'gemini_cli.startup_stats':
        out.push(`startup ${e.at}`);
        break;
    }
  }
  return out;
}

export function productFacts(events: TelemetryEvent[]): Fact[] {
  return events.map((e) => {
    switch (e.kind) {
      case 'tool-call':
        return `tool-call ${e.at} ${e.name} ${e.success}`;
      case 'api-response':
        return `api-response ${e.at} ${e.model} ${e.inputTokens}/${e.outputTokens}/${e.totalTokens}`;
      case 'api-error':
        return `api-error ${e.at} ${e.statusCode ?? 0}`;
      default:
        return `${e.kind} ${e.at}`;
    }
  });
}

/** The product's scanner fed the file in `chunk`-byte reads, as the follower hands it over. */
export function scanInChunks(bytes: Buffer, chunk: number): TelemetryEvent[] {
  const scanner = new TelemetryScanner();
  const events: TelemetryEvent[] = [];
  for (let i = 0; i < bytes.length; i += chunk) events.push(...scanner.push(bytes.subarray(i, i + chunk)));
  return events;
}
