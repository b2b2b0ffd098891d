/**
 * The Gemini CLI chat recording: where it lives for a worktree, how to fold it, and how to put a saved one
 * back for `--resume`.
 *
 * File: `<home>/.gemini/tmp/<slug>/chats/session-<yyyy-MM-ddTHH-mm>-<sid8>.jsonl`, one JSON record per line:
 * a metadata header, message records (`id`), `{"$set": {...}}` metadata patches and `{"$rewindTo": id}`.
 * Updates re-append a whole record with the same id, so the fold follows the CLI's own loader: last writer
 * wins by id, position of first occurrence; `$rewindTo` drops that id and everything after (all if unknown).
 *
 * The fold is of what the run did, not of what the model will remember. 0.61.0 differs from 0.42.0 in two
 * ways (compat.md "0.61.0 — row by row", fixtures/gemini-0.61.0/): its `$set` may carry `messages`, a snapshot
 * of the model's history that its loader puts in place of everything before (written at start with a
 * `<session_context>` preamble, after a cancel rolled the turn back, after compression); and each tool result
 * is also a `user` record of functionResponse parts. Every message of a snapshot was recorded as its own record
 * first (synthetic ones included), so the fold ignores snapshots — a timed-out turn's tool calls stay in the
 * summary — and drops the tool-result records, whose output the gemini record already carries: the same
 * script folds to the same messages on both versions.
 */
import { lstat, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { FoldedTranscript, TranscriptMessage, TranscriptToolCall } from '../domain/types.js';
import {
  AGENT_FILE_LIMITS,
  copyAgentFile,
  openAgentFile,
  ownerUids,
  ownFile,
  readAgentFileChunks,
  type AgentFilePolicy,
} from '../util/agent-file.js';
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
function contentText(content: unknown): string {
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

type RawLine = string | Buffer;

interface Entry {
  /** The latest copy, not parsed (nor even decoded) yet. */
  line?: RawLine;
  /** The copy before it, used if the latest turns out torn or invalid. */
  fallback?: RawLine | TranscriptMessage;
  /** The parsed latest copy. */
  msg?: TranscriptMessage;
}

const ID_PREFIX = Buffer.from('{"id":"');

/** Raw lines wait this many message lines before being parsed: re-appends come within a few lines. */
const PARSE_WINDOW = 64;

/** The folded type of a tool-result `user` record (0.61.0); left out of the result. */
const TOOL_RESULT_TYPE = 'tool-result';

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

/** One line of a session transcript as a message, or undefined when it is not one (torn, or another record). */
export function parseTranscriptLine(line: RawLine): TranscriptMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(typeof line === 'string' ? line : stripToolOutput(line).toString('utf8'));
  } catch {
    if (typeof line === 'string') return undefined;
    try {
      json = JSON.parse(line.toString('utf8')); // the cut went wrong: parse the line as written
    } catch {
      return undefined;
    }
  }
  const m = messageSchema.safeParse(json);
  return m.success ? toMessage(m.data) : undefined;
}

const RESULT_KEY = Buffer.from('"result":[{"functionResponse":');
const DISPLAY_KEY = Buffer.from(',"resultDisplay":');
/** 0.61.0's tool-result `user` record: its content is the tool output again. */
const RESPONSE_CONTENT_KEY = Buffer.from('"content":[{"functionResponse":');
const RESPONSE_CONTENT_STUB = Buffer.from('"content":[{"functionResponse":{}}]');
const SET_MESSAGES_PREFIX = Buffer.from('{"$set":{"messages":');

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
function skipValue(b: Buffer, i: number): number {
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
function rewindHistory(history: Map<string, unknown>, id: string): void {
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
 * Incremental fold; feed it lines in file order. Most message lines are superseded by a later copy with the
 * same id (tool calls and tokens arrive as re-appends), so a message line is held raw — its id read from the
 * `{"id":"…"` prefix (the CLI's key order) without parsing — and parsed only once it has sat PARSE_WINDOW
 * lines without being replaced. Parsed messages keep only what the summary needs (no tool results or
 * thoughts), which bounds memory by the conversation, not by the file.
 */
class TranscriptFolder {
  private entries = new Map<string, Entry>();
  private pending: string[] = [];
  private meta: Record<string, unknown> = {};
  badLines = 0;

  line(line: string): void {
    if (line.startsWith('{"id":"')) {
      const end = line.indexOf('"', 7);
      // An id with escapes or an unterminated prefix goes the slow way.
      if (end > 7 && line.charCodeAt(end - 1) !== 0x5c) {
        this.setRaw(line.slice(7, end), line);
        return;
      }
    }
    const trimmed = line.trim();
    if (trimmed === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(trimmed);
    } catch {
      // A torn last line (the CLI was killed mid-append) or a corrupt one: the CLI's loader skips it too.
      this.badLines++;
      return;
    }
    if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
      this.badLines++;
      return;
    }
    const r = rec as Record<string, unknown>;
    if ('$rewindTo' in r) {
      this.rewindTo(String(r['$rewindTo']));
    } else if ('$set' in r) {
      const set = r['$set'];
      if (set && typeof set === 'object' && !Array.isArray(set)) {
        // A history snapshot (0.61.0) is the model's memory, not the run's record: see the file comment.
        const { messages: _, ...meta } = set as Record<string, unknown>;
        this.meta = { ...this.meta, ...meta };
      }
    } else if (typeof r['id'] === 'string') {
      this.setRaw(r['id'], trimmed);
    } else if (typeof r['sessionId'] === 'string') {
      this.meta = { ...this.meta, ...r };
    } else {
      this.badLines++;
    }
  }

  /**
   * Feeds one line as bytes (`buf[start, end)`, no newline). A message line is copied undecoded; most never
   * need decoding because a later copy supersedes them.
   */
  lineBytes(buf: Buffer, start: number, end: number): void {
    if (
      end - start > 8 &&
      buf.compare(ID_PREFIX, 0, ID_PREFIX.length, start, start + ID_PREFIX.length) === 0
    ) {
      const q = buf.indexOf(0x22, start + ID_PREFIX.length);
      if (q !== -1 && q < end && q > start + ID_PREFIX.length && buf[q - 1] !== 0x5c) {
        this.setRaw(
          buf.toString('utf8', start + ID_PREFIX.length, q),
          Buffer.from(buf.subarray(start, end)),
          true,
        );
        return;
      }
    }
    if (
      end - start > SET_MESSAGES_PREFIX.length &&
      buf.compare(
        SET_MESSAGES_PREFIX,
        0,
        SET_MESSAGES_PREFIX.length,
        start,
        start + SET_MESSAGES_PREFIX.length,
      ) === 0
    ) {
      // A history snapshot can hold every tool output of the session: skip it unparsed, keep the rest of $set.
      const line = buf.subarray(start, end);
      const after = skipValue(line, SET_MESSAGES_PREFIX.length);
      if (after !== -1) {
        const rest = line.toString('utf8', line[after] === 0x2c ? after + 1 : after);
        this.line(`{"$set":{${rest}`);
        return;
      }
    }
    this.line(buf.toString('utf8', start, end));
  }

  private setRaw(sliced: string, line: RawLine, fresh = false): void {
    const old = this.entries.get(sliced);
    // A slice keeps its whole parent string (a 1 MB read) alive; a key lives as long as the fold, so copy it.
    const id = old || fresh ? sliced : Buffer.from(sliced, 'utf8').toString('utf8');
    // Map.set on an existing key keeps its first-seen position, as the CLI's loader does.
    this.entries.set(id, { line, fallback: old ? (old.line ?? old.msg ?? old.fallback) : undefined });
    this.pending.push(id);
    if (this.pending.length > PARSE_WINDOW) {
      const due = this.pending.splice(0, this.pending.length - PARSE_WINDOW);
      for (const d of due) this.resolve(d);
    }
  }

  /** Parses an entry's latest copy; a bad copy falls back to the previous one; none valid drops it. */
  private resolve(id: string): TranscriptMessage | undefined {
    const e = this.entries.get(id);
    if (!e) return undefined;
    if (e.msg) return e.msg;
    let msg = e.line !== undefined ? parseTranscriptLine(e.line) : undefined;
    if (!msg) {
      if (e.line !== undefined) this.badLines++;
      const fb = e.fallback;
      msg =
        fb === undefined
          ? undefined
          : typeof fb === 'string' || Buffer.isBuffer(fb)
            ? parseTranscriptLine(fb)
            : fb;
    }
    if (!msg) {
      this.entries.delete(id);
      return undefined;
    }
    this.entries.set(id, { msg });
    return msg;
  }

  private rewindTo(id: string): void {
    if (!this.entries.has(id)) this.pending = [];
    rewindHistory(this.entries, id);
  }

  result(): FoldedTranscript {
    const messages: TranscriptMessage[] = [];
    const toolCalls: TranscriptToolCall[] = [];
    const tokensByModel: FoldedTranscript['tokensByModel'] = {};
    const models: string[] = [];
    let finalAnswer = '';
    for (const id of [...this.entries.keys()]) {
      const msg = this.resolve(id);
      if (!msg || msg.type === TOOL_RESULT_TYPE) continue;
      messages.push(msg);
      toolCalls.push(...msg.toolCalls);
      if (msg.type !== 'gemini') continue;
      if (msg.text.trim() !== '') finalAnswer = msg.text;
      if (!msg.model) continue;
      if (!models.includes(msg.model)) models.push(msg.model);
      const t = (tokensByModel[msg.model] ??= { input: 0, output: 0, cached: 0, total: 0, messages: 0 });
      t.messages++;
      if (msg.tokens) {
        t.input += msg.tokens.input;
        t.output += msg.tokens.output;
        t.cached += msg.tokens.cached;
        t.total += msg.tokens.total;
      }
    }
    this.pending = [];
    const str = (k: string): string | undefined =>
      typeof this.meta[k] === 'string' ? this.meta[k] : undefined;
    const out: FoldedTranscript = { messages, toolCalls, tokensByModel, finalAnswer, models };
    const sessionId = str('sessionId');
    const startTime = str('startTime');
    const lastUpdated = str('lastUpdated');
    if (sessionId !== undefined) out.sessionId = sessionId;
    if (startTime !== undefined) out.startTime = startTime;
    if (lastUpdated !== undefined) out.lastUpdated = lastUpdated;
    return out;
  }
}

export function emptyTranscript(): FoldedTranscript {
  return { messages: [], toolCalls: [], tokensByModel: {}, finalAnswer: '', models: [] };
}

export function foldTranscript(text: string): FoldedTranscript {
  const f = new TranscriptFolder();
  let start = 0;
  while (start < text.length) {
    let nl = text.indexOf('\n', start);
    if (nl === -1) nl = text.length;
    f.line(text.slice(start, nl));
    start = nl + 1;
  }
  return f.result();
}

/**
 * Calls `onLine(buf, start, end)` for each line of the file (no newline), streaming over one reused buffer grown
 * only for a line longer than it: memory is bounded by the longest line. A torn last line is passed too. The
 * file is the agent's: opened as util/agent-file.ts checks it, and read no further than the policy's bound.
 */
async function forEachLine(
  file: string,
  policy: AgentFilePolicy,
  onLine: (buf: Buffer, start: number, end: number) => void,
): Promise<void> {
  const { fh } = await openAgentFile(file, policy);
  let total = 0;
  try {
    let buf = Buffer.allocUnsafe(1024 * 1024);
    let have = 0;
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const want = Math.min(buf.length - have, policy.maxBytes - total);
      const { bytesRead } = want > 0 ? await fh.read(buf, have, want, null) : { bytesRead: 0 };
      if (bytesRead === 0) break;
      total += bytesRead;
      const end = have + bytesRead;
      const view = buf.subarray(0, end);
      let start = 0;
      // The carried partial line holds no newline: search the new bytes only.
      for (let nl = view.indexOf(0x0a, have); nl !== -1; nl = view.indexOf(0x0a, start)) {
        if (nl > start) onLine(view, start, nl);
        start = nl + 1;
      }
      buf.copyWithin(0, start, end);
      have = end - start;
    }
    if (have > 0) onLine(buf, 0, have);
  } finally {
    await fh.close();
  }
}

/** Folds the file as it streams: memory is bounded by the longest line plus the folded result. */
export async function foldTranscriptFile(
  file: string,
  policy = ownFile(file, AGENT_FILE_LIMITS.transcript),
): Promise<FoldedTranscript> {
  const f = new TranscriptFolder();
  await forEachLine(file, policy, (buf, start, end) => f.lineBytes(buf, start, end));
  return f.result();
}

/** A user message the CLI's loader does not count as resumable (`isIgnoredUserContent`, 0.61.0). */
const IGNORED_USER_TEXT = /^(\/|\?|<session_context>|<hook_context>|$)/;

function resumableRecord(r: Record<string, unknown>): boolean {
  if (r['type'] === 'user') return !IGNORED_USER_TEXT.test(contentText(r['content']).trim());
  if (r['type'] !== 'gemini') return false;
  const many = (k: string) => Array.isArray(r[k]) && (r[k] as unknown[]).length > 0;
  return contentText(r['content']).trim() !== '' || many('toolCalls') || many('thoughts');
}

/**
 * Whether `gemini --resume` can take this session: read the way 0.61.0's loader reads it (a `$set.messages`
 * snapshot replaces the history before it, `$rewindTo` cuts it), at least one message must be resumable.
 * A first turn the timeout cancelled is rolled back to nothing on 0.61.0, which then refuses the session ("No
 * previous sessions found", exit 42); a follow-up starts afresh instead.
 */
export async function transcriptResumable(
  file: string,
  policy = ownFile(file, AGENT_FILE_LIMITS.transcript),
): Promise<boolean> {
  // Per id (in history order) only whether it is resumable: a session file can be hundreds of MB.
  const history = new Map<string, boolean>();
  await forEachLine(file, policy, (buf, start, end) => {
    let r: unknown;
    try {
      // Tool output is cut first; what is left still says whether a record counts.
      r = JSON.parse(stripToolOutput(buf.subarray(start, end)).toString('utf8'));
    } catch {
      return;
    }
    if (!r || typeof r !== 'object' || Array.isArray(r)) return;
    const rec = r as Record<string, unknown>;
    const set = rec['$set'] as Record<string, unknown> | undefined;
    if (set && typeof set === 'object' && Array.isArray(set['messages'])) {
      history.clear();
      for (const m of set['messages'] as unknown[]) {
        if (m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string') {
          history.set((m as { id: string }).id, resumableRecord(m as Record<string, unknown>));
        }
      }
    } else if (typeof rec['$rewindTo'] === 'string') {
      rewindHistory(history, rec['$rewindTo']);
    } else if (typeof rec['id'] === 'string' && typeof rec['type'] === 'string') {
      history.set(rec['id'], resumableRecord(rec));
    }
  });
  return [...history.values()].some(Boolean);
}

/** The CLI's project slug for a directory (projectRegistry.slugify), before collision suffixes. */
export function slugify(dir: string): string {
  return (
    path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

/** The CLI's sanitised session id prefix used in file names. */
function sid8(sessionId: string): string {
  return sessionId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 8);
}

/**
 * `names` in `dir` newest first, by their own mtime (a link's, not its target's). A link or a fifo stays in the
 * list: the read refuses it, and the refusal is what tells the run's log.
 */
async function newestFirst(dir: string, names: string[]): Promise<string[]> {
  const withTime = await Promise.all(
    names.map(async (n) => {
      try {
        const st = await lstat(path.join(dir, n));
        return { n, t: st.isDirectory() ? -1 : st.mtimeMs };
      } catch {
        return { n, t: -1 };
      }
    }),
  );
  return withTime
    .filter((x) => x.t >= 0)
    .sort((a, b) => b.t - a.t || b.n.localeCompare(a.n))
    .map((x) => x.n);
}

// Each field on its own: a malformed start time must not cost the session id.
const HeaderFields = z.object({
  sessionId: z.string().optional().catch(undefined),
  startTime: z.string().optional().catch(undefined),
});

async function readHeader(file: string, policy: AgentFilePolicy): Promise<z.infer<typeof HeaderFields>> {
  const f = await openAgentFile(file, policy);
  let head = '';
  try {
    const parts: Buffer[] = [];
    await readAgentFileChunks(f, 64 * 1024, (c) => void parts.push(Buffer.from(c)), 64 * 1024);
    head = Buffer.concat(parts).toString('utf8');
  } finally {
    await f.fh.close();
  }
  try {
    const parsed = HeaderFields.safeParse(JSON.parse(head.split('\n', 1)[0] ?? ''));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

async function headerSessionId(file: string, policy: AgentFilePolicy): Promise<string | undefined> {
  const none: { sessionId?: string } = {};
  return (await readHeader(file, policy).catch(() => none)).sessionId;
}

/** `yyyy-MM-ddTHH-mm` (UTC), the minute stamp the CLI names session files with. */
function minuteStamp(d: Date): string {
  return d.toISOString().slice(0, 16).replace(/:/g, '-');
}

/** The directories under `dir` that are real directories (no links), by name. */
async function realDirs(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names) {
    const st = await lstat(path.join(dir, n)).catch(() => undefined);
    if (st?.isDirectory()) out.push(n);
  }
  return out;
}

/**
 * Finds the transcript of a session run in `worktree` under the Gemini home `home` (GEMINI_CLI_HOME).
 * Nothing the agent can edit decides where we look — not the CLI's projects.json (worktree path → slug), which
 * the agent could point anywhere: the project dirs are the ones the CLI names for the worktree, its slug
 * (`<slug>`, or `<slug>-<n>` after a collision), and they must be real directories. The file is the one named
 * for the session id whose header names it, else the newest `session-*.jsonl` there (after `/clear` the CLI
 * continues in a new file with a new id, and each run has its own home and worktree, so the newest file is the
 * current epoch). The path is only where to look: the read (util/agent-file.ts) checks the file itself.
 */
export async function locateTranscript(
  home: string,
  worktree: string,
  sessionId: string,
  policy: AgentFilePolicy = {
    root: home,
    uids: ownerUids(undefined),
    maxBytes: AGENT_FILE_LIMITS.transcript,
  },
): Promise<string | undefined> {
  const tmp = path.join(home, '.gemini', 'tmp');
  const base = slugify(path.resolve(worktree));
  const collision = new RegExp(`^${base}-\\d+$`);
  const dirs = (await realDirs(tmp)).filter((d) => d === base || collision.test(d));
  // The slug itself first, then its collision suffixes in order.
  dirs.sort((a, b) => a.length - b.length || a.localeCompare(b));
  const prefix = sid8(sessionId);
  const found: { chats: string; names: string[] }[] = [];
  for (const slug of dirs) {
    const chats = path.join(tmp, slug, 'chats');
    if (!(await lstat(chats).catch(() => undefined))?.isDirectory()) continue;
    const names = (await readdir(chats).catch(() => [] as string[])).filter(
      (n) => n.startsWith('session-') && /\.jsonl?$/.test(n),
    );
    found.push({ chats, names });
    const named = await newestFirst(
      chats,
      names.filter((n) => n.replace(/\.jsonl?$/, '').endsWith(`-${prefix}`)),
    );
    for (const n of named) {
      // The 8-char prefix can collide; the header names the session exactly.
      const id = await headerSessionId(path.join(chats, n), policy);
      if (id === undefined || id === sessionId) return path.join(chats, n);
    }
  }
  for (const { chats, names } of found) {
    const newest = await newestFirst(
      chats,
      names.filter((n) => n.endsWith('.jsonl')),
    );
    if (newest[0]) return path.join(chats, newest[0]);
  }
  return undefined;
}

/**
 * Puts a saved session file where `gemini --resume <id>` run in `worktree` with home `home` (a fresh one, that
 * no agent ran in yet) will find it: `<home>/.gemini/tmp/<slug>/chats/<same file name>`, with the projects.json
 * entry and the `.project_root` ownership markers the CLI's project registry checks. The saved file is read as
 * the policy says (util/agent-file.ts); the restored one is a new file of ours. Returns its path.
 */
export async function restoreTranscript(
  home: string,
  worktree: string,
  transcriptFile: string,
  policy = ownFile(transcriptFile, AGENT_FILE_LIMITS.transcript),
): Promise<string> {
  const geminiDir = path.join(home, '.gemini');
  const abs = path.resolve(worktree);
  // The home is new: its registry is ours to write, with the one project it serves.
  const slug = slugify(abs);
  await mkdir(geminiDir, { recursive: true, mode: 0o700 });
  const registry = path.join(geminiDir, `projects.json.${process.pid}.tmp`);
  await writeFile(registry, JSON.stringify({ projects: { [abs]: slug } }, null, 2));
  await rename(registry, path.join(geminiDir, 'projects.json'));
  for (const dir of [path.join(geminiDir, 'tmp', slug), path.join(geminiDir, 'history', slug)]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dir, '.project_root'), abs);
  }
  const chats = path.join(geminiDir, 'tmp', slug, 'chats');
  await mkdir(chats, { recursive: true, mode: 0o700 });
  let name = path.basename(transcriptFile);
  if (!/^session-.*\.jsonl?$/.test(name)) {
    // The CLI only lists `session-*` files; keep the id prefix so --resume <id> matches by file name. The stamp
    // is the session's own start, the name the CLI gave the file: named for the current minute it would be the
    // very file the resumed CLI starts for itself (its header appended into the history we restore).
    const header = await readHeader(transcriptFile, policy);
    const started = new Date(header.startTime ?? '');
    const own = Number.isNaN(started.getTime()) ? '' : minuteStamp(started);
    const stamp = /^\d{4}-\d\d-\d\dT\d\d-\d\d$/.test(own) ? own : minuteStamp(new Date(Date.now() - 60_000));
    name = `session-${stamp}-${sid8(header.sessionId ?? 'restored')}.jsonl`;
  }
  const dest = path.join(chats, name);
  await copyAgentFile(transcriptFile, dest, policy);
  return dest;
}
