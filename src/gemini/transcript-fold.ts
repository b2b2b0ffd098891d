/**
 * Folding a session's records into the run's FoldedTranscript (records: transcript-parse.ts). Updates re-append
 * a whole record with the same id, so the fold follows the CLI's own loader: last writer wins by id, position of
 * first occurrence; `$rewindTo` drops that id and everything after (all if unknown).
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
import type { FoldedTranscript, TranscriptMessage, TranscriptToolCall } from '../domain/types.js';
import { AGENT_FILE_LIMITS, ownFile } from '../util/agent-file.js';
import { AGENT_JSON_BOUNDS, parseBoundedJson, recordOf } from '../util/bounded-json.js';
import {
  forEachLine,
  parseTranscriptLine,
  rewindHistory,
  skipValue,
  TOOL_RESULT_TYPE,
  type RawLine,
} from './transcript-parse.js';

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
/**
 * A message line longer than this is parsed at once rather than held raw: the window then holds at most
 * PARSE_WINDOW such lines (and their fallbacks), whatever the agent appends. Real records this long carry tool
 * output, which the parse cuts first, so they parse cheaply.
 */
const HOLD_RAW_BYTES = 256 * 1024;

const SET_MESSAGES_PREFIX = Buffer.from('{"$set":{"messages":');

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
  /** Records too large to read (util/bounded-json.ts, MAX_TRANSCRIPT_LINE_BYTES): skipped and counted. */
  tooLarge = 0;
  private readonly countTooLarge = (): void => void this.tooLarge++;

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
    const parsed = parseBoundedJson(trimmed);
    if (!parsed.ok) {
      // A torn last line (the CLI was killed mid-append) or a corrupt one: the CLI's loader skips it too.
      if (parsed.why === 'too-large') this.tooLarge++;
      else this.badLines++;
      return;
    }
    const rec = parsed.value;
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
        const line = buf.subarray(start, end);
        // Held raw only when small (setRaw parses a long one at once): then it must outlive the reused buffer.
        this.setRaw(
          buf.toString('utf8', start + ID_PREFIX.length, q),
          line.length > HOLD_RAW_BYTES ? line : Buffer.from(line),
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
    // Not decoded at all when it could not be parsed anyway.
    if (end - start > AGENT_JSON_BOUNDS.maxBytes) {
      this.tooLarge++;
      return;
    }
    this.line(buf.toString('utf8', start, end));
  }

  private setRaw(sliced: string, line: RawLine, fresh = false): void {
    const old = this.entries.get(sliced);
    // A slice keeps its whole parent string (a 1 MB read) alive; a key lives as long as the fold, so copy it.
    const id = old || fresh ? sliced : Buffer.from(sliced, 'utf8').toString('utf8');
    const fallback = old ? (old.line ?? old.msg ?? old.fallback) : undefined;
    if (line.length > HOLD_RAW_BYTES) {
      const msg = parseTranscriptLine(line, this.countTooLarge);
      if (!msg) this.badLines++;
      // Map.set on an existing key keeps its first-seen position, as the CLI's loader does.
      this.entries.set(id, msg ? { msg } : { fallback });
      return;
    }
    this.entries.set(id, { line, fallback });
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
    let msg = e.line !== undefined ? parseTranscriptLine(e.line, this.countTooLarge) : undefined;
    if (!msg) {
      if (e.line !== undefined) this.badLines++;
      const fb = e.fallback;
      msg =
        fb === undefined
          ? undefined
          : typeof fb === 'string' || Buffer.isBuffer(fb)
            ? parseTranscriptLine(fb, this.countTooLarge)
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
    // Model names are the agent's text ("__proto__" among them): counted in a Map, never on an object's keys.
    const byModel = new Map<string, FoldedTranscript['tokensByModel'][string]>();
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
      let t = byModel.get(msg.model);
      if (!t) {
        t = { input: 0, output: 0, cached: 0, total: 0, messages: 0 };
        byModel.set(msg.model, t);
        models.push(msg.model);
      }
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
    const tokensByModel = recordOf(byModel);
    const out: FoldedTranscript = { messages, toolCalls, tokensByModel, finalAnswer, models };
    if (this.tooLarge > 0) out.skippedRecords = this.tooLarge;
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
  return { messages: [], toolCalls: [], tokensByModel: recordOf(), finalAnswer: '', models: [] };
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
 * Folds the file as it streams: memory is bounded by the longest line read (MAX_TRANSCRIPT_LINE_BYTES) plus the
 * folded result; a record too large to read is skipped and counted (`skippedRecords`).
 */
export async function foldTranscriptFile(
  file: string,
  policy = ownFile(file, AGENT_FILE_LIMITS.transcript),
): Promise<FoldedTranscript> {
  const f = new TranscriptFolder();
  await forEachLine(file, policy, (buf, start, end) => f.lineBytes(buf, start, end), {
    onOversized: () => void f.tooLarge++,
  });
  return f.result();
}
