/**
 * The Gemini CLI chat recording, record by record: what a line says and how to read the file's lines.
 *
 * File: `<home>/.gemini/tmp/<slug>/chats/session-<yyyy-MM-ddTHH-mm>-<sid8>.jsonl`, one JSON record per line:
 * a metadata header, message records (`id`), `{"$set": {...}}` metadata patches and `{"$rewindTo": id}`.
 * 0.61.0 also writes each tool result as a `user` record of functionResponse parts (compat.md "0.61.0 — row by
 * row", fixtures/gemini-0.61.0/); the fold (transcript-fold.ts) leaves those out.
 */
import { z } from 'zod';
import type { TranscriptMessage, TranscriptToolCall } from '../domain/types.js';
import { openAgentFile, type AgentFilePolicy } from '../util/agent-file.js';
import { parseBoundedJson } from '../util/bounded-json.js';
import { normalizeToolName } from './tools.js';

const toolCallSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.string().catch('unknown'),
    args: z.record(z.string(), z.unknown()).optional().catch(undefined),
    description: z.string().optional().catch(undefined),
  })
  .loose();

const num = z.number().catch(0);
const tokensSchema = z
  .object({ input: num, output: num, cached: num, thoughts: num, tool: num, total: num })
  .partial()
  .transform((t) => ({
    input: t.input ?? 0,
    output: t.output ?? 0,
    cached: t.cached ?? 0,
    thoughts: t.thoughts ?? 0,
    tool: t.tool ?? 0,
    total: t.total ?? 0,
  }));

const messageSchema = z
  .object({
    id: z.string(),
    timestamp: z.string().optional().catch(undefined),
    type: z.string().catch('unknown'),
    content: z.unknown(),
    model: z.string().optional().catch(undefined),
    tokens: tokensSchema.nullable().optional().catch(undefined),
    toolCalls: z.array(z.unknown()).optional().catch(undefined),
  })
  .loose();

type RawMessage = z.infer<typeof messageSchema>;

/** Text of a message's content: gemini content is a string; user content is a Part array. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) =>
        p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string'
          ? (p as { text: string }).text
          : '',
      )
      .join('');
  }
  if (content && typeof content === 'object' && typeof (content as { text?: unknown }).text === 'string') {
    return (content as { text: string }).text;
  }
  return '';
}

export type RawLine = string | Buffer;

/** The folded type of a tool-result `user` record (0.61.0); left out of the result. */
export const TOOL_RESULT_TYPE = 'tool-result';

function toMessage(raw: RawMessage): TranscriptMessage {
  const calls: TranscriptToolCall[] = [];
  for (const c of raw.toolCalls ?? []) {
    const tc = toolCallSchema.safeParse(c);
    if (!tc.success) continue;
    calls.push({
      id: tc.data.id,
      name: tc.data.name,
      kind: normalizeToolName(tc.data.name),
      status: tc.data.status,
      ...(tc.data.args ? { args: tc.data.args } : {}),
      ...(tc.data.description !== undefined ? { description: tc.data.description } : {}),
    });
  }
  return {
    id: raw.id,
    type: raw.type === 'user' && isToolResultContent(raw.content) ? TOOL_RESULT_TYPE : raw.type,
    text: contentText(raw.content),
    toolCalls: calls,
    ...(raw.timestamp !== undefined ? { timestamp: raw.timestamp } : {}),
    ...(raw.model !== undefined ? { model: raw.model } : {}),
    ...(raw.tokens ? { tokens: raw.tokens } : {}),
  };
}

/**
 * One line of a session transcript as a message, or undefined when it is not one (torn, another record, or too
 * large to parse: then `onTooLarge` hears of it). Tool output is cut before the bounded parse (util/bounded-json.ts).
 */
export function parseTranscriptLine(line: RawLine, onTooLarge?: () => void): TranscriptMessage | undefined {
  let parsed = parseBoundedJson(typeof line === 'string' ? line : stripToolOutput(line));
  // The cut went wrong: parse the line as written.
  if (!parsed.ok && parsed.why === 'invalid' && typeof line !== 'string') parsed = parseBoundedJson(line);
  if (!parsed.ok) {
    if (parsed.why === 'too-large') onTooLarge?.();
    return undefined;
  }
  const m = messageSchema.safeParse(parsed.value);
  return m.success ? toMessage(m.data) : undefined;
}

const RESULT_KEY = Buffer.from('"result":[{"functionResponse":');
const DISPLAY_KEY = Buffer.from(',"resultDisplay":');
/** 0.61.0's tool-result `user` record: its content is the tool output again. */
const RESPONSE_CONTENT_KEY = Buffer.from('"content":[{"functionResponse":');
const RESPONSE_CONTENT_STUB = Buffer.from('"content":[{"functionResponse":{}}]');

/** A `user` record whose content is only function responses: a tool result, not something a person said. */
function isToolResultContent(content: unknown): boolean {
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((p) => p !== null && typeof p === 'object' && 'functionResponse' in p)
  );
}

/**
 * Cuts the tool output out of a gemini record before it is decoded and parsed: `toolCalls[].result` (the
 * functionResponse parts) and `resultDisplay` hold whole files and command outputs — most of a transcript's
 * bytes — and the fold keeps neither. Keys are found by the CLI's serialisation (`"result":[{"functionResponse":`
 * and `,"resultDisplay":`), and 0.61.0's tool-result records' `"content":[{"functionResponse":` becomes a stub;
 * values are skipped with a string-aware scan. Any surprise returns the line as is.
 */
export function stripToolOutput(line: Buffer): Buffer {
  const keys = [RESULT_KEY, DISPLAY_KEY, RESPONSE_CONTENT_KEY];
  const at = keys.map((k) => line.indexOf(k));
  if (at.every((i) => i === -1)) return line;
  const keep: Buffer[] = [];
  let pos = 0;
  // Every occurrence: a `$set.messages` snapshot (0.61.0) carries the output of every tool of the session.
  for (;;) {
    let which = -1;
    for (let k = 0; k < keys.length; k++) {
      if (at[k]! !== -1 && at[k]! < pos) at[k] = line.indexOf(keys[k]!, pos);
      if (at[k]! !== -1 && (which === -1 || at[k]! < at[which]!)) which = k;
    }
    if (which === -1) break;
    const keyStart = at[which]!;
    if (which === 2) {
      // A tool-result record: keep its shape (so it is still known for one), not its output.
      const end = skipValue(line, keyStart + '"content":'.length);
      if (end === -1) return line;
      keep.push(line.subarray(pos, keyStart), RESPONSE_CONTENT_STUB);
      pos = end;
      continue;
    }
    // For resultDisplay the leading comma goes with it; for result the trailing one does.
    const isResult = which === 0;
    const valueEnd = skipValue(line, keyStart + (isResult ? '"result":'.length : DISPLAY_KEY.length));
    if (valueEnd === -1) return line;
    let cutEnd = valueEnd;
    if (isResult) {
      if (line[valueEnd] !== 0x2c) return line;
      cutEnd = valueEnd + 1;
    }
    keep.push(line.subarray(pos, keyStart));
    pos = cutEnd;
  }
  keep.push(line.subarray(pos));
  return Buffer.concat(keep);
}

/** Index just past the JSON value starting at i, or -1. */
export function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x22) return skipString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    let j = i;
    while (j < b.length) {
      const x = b[j]!;
      if (x === 0x22) {
        j = skipString(b, j);
        if (j === -1) return -1;
        continue;
      }
      if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return -1;
  }
  // number, true, false, null
  let j = i;
  while (j < b.length && b[j] !== 0x2c && b[j] !== 0x7d && b[j] !== 0x5d) j++;
  return j < b.length ? j : -1;
}

/** Index just past the string whose opening quote is at i, or -1. */
function skipString(b: Buffer, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = b.indexOf(0x22, from);
    if (q === -1) return -1;
    let k = q - 1;
    while (b[k] === 0x5c) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** `$rewindTo` as the CLI's loader applies it: that id and everything after it go (everything, if unknown). */
export function rewindHistory(history: Map<string, unknown>, id: string): void {
  if (!history.has(id)) {
    history.clear();
    return;
  }
  let dropping = false;
  for (const key of [...history.keys()]) {
    if (key === id) dropping = true;
    if (dropping) history.delete(key);
  }
}

/**
 * Longest transcript line read, in bytes. The CLI's longest lines carry tool output (a file read, a command's
 * output, 0.61.0's history snapshot with every output of the session), tens of MB at most; a longer line is
 * skipped unbuffered. Memory is bounded by this, whatever the agent appends.
 */
const MAX_TRANSCRIPT_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Calls `onLine(buf, start, end)` for each line of the file (no newline), streaming over one reused buffer grown
 * only for a line longer than it, up to `maxLineBytes`: a longer line is read past without being held, and
 * `onOversized` hears of it. A torn last line is passed too. The file is the agent's: opened as
 * util/agent-file.ts checks it, and read no further than the policy's bound.
 */
export async function forEachLine(
  file: string,
  policy: AgentFilePolicy,
  onLine: (buf: Buffer, start: number, end: number) => void,
  opts: { maxLineBytes?: number; onOversized?: () => void } = {},
): Promise<void> {
  const maxLine = opts.maxLineBytes ?? MAX_TRANSCRIPT_LINE_BYTES;
  const { fh } = await openAgentFile(file, policy);
  let total = 0;
  try {
    let buf = Buffer.allocUnsafe(Math.min(1024 * 1024, maxLine));
    let have = 0;
    // Inside a line longer than maxLine: everything up to its newline is dropped as it is read.
    let skipping = false;
    for (;;) {
      if (have === buf.length) {
        if (buf.length >= maxLine) {
          skipping = true;
          have = 0;
        } else {
          const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxLine));
          buf.copy(bigger, 0, 0, have);
          buf = bigger;
        }
      }
      const want = Math.min(buf.length - have, policy.maxBytes - total);
      const { bytesRead } = want > 0 ? await fh.read(buf, have, want, null) : { bytesRead: 0 };
      if (bytesRead === 0) break;
      total += bytesRead;
      const end = have + bytesRead;
      const view = buf.subarray(0, end);
      let start = 0;
      if (skipping) {
        const nl = view.indexOf(0x0a);
        if (nl === -1) {
          have = 0;
          continue;
        }
        skipping = false;
        opts.onOversized?.();
        start = nl + 1;
      }
      // The carried partial line holds no newline: search the new bytes only.
      for (let nl = view.indexOf(0x0a, Math.max(have, start)); nl !== -1; nl = view.indexOf(0x0a, start)) {
        if (nl > start) onLine(view, start, nl);
        start = nl + 1;
      }
      buf.copyWithin(0, start, end);
      have = end - start;
    }
    if (skipping) opts.onOversized?.();
    else if (have > 0) onLine(buf, 0, have);
  } finally {
    await fh.close();
  }
}
