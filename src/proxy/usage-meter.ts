/**
 * How many tokens one model answer cost, read off the bytes the model proxy forwards. Every answer of the model
 * APIs carries `usageMetadata` (cumulative in every event of a stream, so the largest total seen is the answer's):
 * - Gemini API and Vertex AI: at the top of each JSON object, `{candidates, usageMetadata, ...}`;
 * - Code Assist: one level down, `{response: {candidates, usageMetadata}, traceId}`;
 * and answers come as one JSON object (`:generateContent`), a stream of `data: {...}` SSE events
 * (`:streamGenerateContent?alt=sse`), or a JSON array of objects (the same stream without `alt=sse`).
 * `:countTokens` answers `{totalTokens}` and no usage: it is free, and counts 0.
 *
 * The reader never holds the answer: it runs a small JSON scanner over each chunk as it goes by (the proxy has
 * already forwarded it) and keeps only its position in the document and the bytes of a `usageMetadata` object
 * while one is open. It decides what is a key as JSON does, so text the model wrote (`"usageMetadata"` inside a
 * string, escaped quotes, a chunk boundary anywhere) cannot pass for usage. Pure; no I/O.
 */
import { z } from 'zod';

const usageSchema = z.object({
  totalTokenCount: z.number().nonnegative().optional(),
  promptTokenCount: z.number().nonnegative().optional(),
  candidatesTokenCount: z.number().nonnegative().optional(),
  thoughtsTokenCount: z.number().nonnegative().optional(),
  toolUsePromptTokenCount: z.number().nonnegative().optional(),
});

/**
 * The tokens one `usageMetadata` stands for: its total, or the sum of its parts when that is larger (a total the
 * API left out). Undefined when it is not a usage object.
 */
export function usageTokens(value: unknown): number | undefined {
  const u = usageSchema.safeParse(value);
  if (!u.success) return undefined;
  const d = u.data;
  const parts =
    (d.promptTokenCount ?? 0) +
    (d.candidatesTokenCount ?? 0) +
    (d.thoughtsTokenCount ?? 0) +
    (d.toolUsePromptTokenCount ?? 0);
  return Math.max(d.totalTokenCount ?? 0, parts);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Keys are remembered only this long: the two that matter are shorter. */
const MAX_KEY = 16;
/** A usage object is a few hundred bytes; a larger one is not read (and the answer counts what it had). */
const MAX_USAGE_BYTES = 64 * 1024;

const USAGE_KEY = 'usageMetadata';
const WRAPPER_KEY = 'response';

function indexOrEnd(chunk: Buffer, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

/** Reads one answer; feed it every chunk in order, then read `tokens`. */
export class AnswerUsage {
  /** The largest usage total seen in this answer so far. */
  tokens = 0;
  /** Containers open in the current document: true for an object, false for an array. */
  private readonly open: boolean[] = [];
  /** The key whose value each open container is (index = depth - 1), where it matters (depth ≤ 2). */
  private readonly keyOf: (string | undefined)[] = [];
  /** A top-level array holds the documents (a stream without `alt=sse`). */
  private inTopArray = false;
  private inString = false;
  private escaped = false;
  /** The string being read is a key at depth ≤ 2: its bytes so far (undefined once too long to matter). */
  private key: number[] | undefined;
  private readingKey = false;
  /** The last key read in the innermost open object (at depth ≤ 2). */
  private lastKey: string | undefined;
  private expectKey = false;
  /** While a usage object is open: its bytes so far and the depth it opened at. */
  private capture: { parts: Buffer[]; size: number; depth: number } | undefined;

  write(chunk: Buffer): void {
    let captureFrom = this.capture ? 0 : -1;
    const n = chunk.length;
    // Inside a string only a quote or a backslash matters: jump to the next one (positions found once each, so
    // a chunk is scanned in linear time however its escapes fall).
    let nextQuote = -1;
    let nextBackslash = -1;
    for (let i = 0; i < n; i++) {
      if (this.inString && !this.escaped && !this.readingKey) {
        if (nextQuote < i) nextQuote = indexOrEnd(chunk, QUOTE, i);
        if (nextBackslash < i) nextBackslash = indexOrEnd(chunk, BACKSLASH, i);
        i = Math.min(nextQuote, nextBackslash);
        if (i >= n) break;
      }
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.endString();
        else if (this.readingKey && this.key) {
          if (this.key.length < MAX_KEY) this.key.push(c);
          else this.key = undefined;
        }
        continue;
      }
      const depth = this.open.length;
      if (depth === 0) {
        // Between documents: SSE framing (`data: `, blank lines), an array's brackets and commas.
        if (c === OPEN_OBJECT) this.openContainer(true);
        else if (c === OPEN_ARRAY && !this.inTopArray) this.inTopArray = true;
        else if (c === CLOSE_ARRAY) this.inTopArray = false;
        continue;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          this.readingKey = this.expectKey && depth <= 2;
          this.key = this.readingKey ? [] : undefined;
          break;
        case COLON:
          this.expectKey = false;
          break;
        case COMMA:
          this.expectKey = this.open[depth - 1] === true;
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY: {
          const isObject = c === OPEN_OBJECT;
          if (isObject && !this.capture && this.isUsagePosition()) {
            this.capture = { parts: [], size: 0, depth: depth + 1 };
            captureFrom = i;
          }
          this.openContainer(isObject);
          break;
        }
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.open.pop();
          this.keyOf.length = Math.min(this.keyOf.length, this.open.length);
          this.expectKey = false;
          this.lastKey = undefined;
          if (this.capture && this.open.length === this.capture.depth - 1) {
            this.endCapture(chunk.subarray(captureFrom, i + 1));
            captureFrom = -1;
          }
          break;
        default:
          break;
      }
    }
    if (this.capture && captureFrom >= 0) this.keep(chunk.subarray(captureFrom));
  }

  private openContainer(isObject: boolean): void {
    const depth = this.open.length;
    // The key this container is the value of, when its parent is an object (depth 0: a document).
    if (depth < 3) this.keyOf[depth] = depth > 0 && this.open[depth - 1] ? this.lastKey : undefined;
    this.open.push(isObject);
    this.expectKey = isObject;
    this.lastKey = undefined;
  }

  /** An object opening now is the value of `usageMetadata` in a document or in its `response`. */
  private isUsagePosition(): boolean {
    const depth = this.open.length;
    if (this.lastKey !== USAGE_KEY || !this.open[depth - 1]) return false;
    return depth === 1 || (depth === 2 && this.keyOf[1] === WRAPPER_KEY);
  }

  private endString(): void {
    this.inString = false;
    if (this.readingKey) {
      this.lastKey = this.key ? String.fromCharCode(...this.key) : undefined;
      this.readingKey = false;
      this.key = undefined;
    }
  }

  private keep(part: Buffer): void {
    const cap = this.capture;
    if (!cap) return;
    cap.size += part.length;
    if (cap.size > MAX_USAGE_BYTES) {
      // Still scanned (for the depth), never parsed.
      cap.parts.length = 0;
      return;
    }
    // A copy: the chunk's memory belongs to the stream.
    cap.parts.push(Buffer.from(part));
  }

  private endCapture(last: Buffer): void {
    this.keep(last);
    const cap = this.capture;
    this.capture = undefined;
    if (!cap || cap.size > MAX_USAGE_BYTES) return;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.concat(cap.parts).toString('utf8'));
    } catch {
      return;
    }
    const tokens = usageTokens(value);
    if (tokens !== undefined && tokens > this.tokens) this.tokens = tokens;
  }
}

/**
 * The `accept-encoding` sent upstream: what the client accepts, less what the usage reader cannot decode (an
 * answer it cannot read is an answer it cannot count). Pure.
 */
export function decodableEncodings(accepted: string | string[] | undefined): string {
  const kept = [accepted ?? '']
    .flat()
    .join(',')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => {
      const [name = '', ...params] = t.toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return ['gzip', 'x-gzip', 'deflate', 'br', 'identity'].includes(name.trim()) && Number(q ?? 1) > 0;
    });
  return kept.length > 0 ? kept.join(', ') : 'identity';
}

/** What the model proxy served one run so far. */
export interface ServedTokens {
  /** Tokens of the answers forwarded, by their `usageMetadata` (an answer cut short counts what it carried). */
  tokens: number;
  /** Model calls that were answered (2xx), whether or not their answer carried usage. */
  answers: number;
  /** Model calls refused because the limit was reached. */
  refusedAtLimit: number;
}

/**
 * The run's served tokens against its one limit: the tokens it may still be served when the proxy starts, the
 * smallest remainder of every budget that applies (`max-tokens` today; a daily cap's remainder is passed the same
 * way). Undefined: no limit.
 */
export class TokenLedger {
  readonly served: ServedTokens = { tokens: 0, answers: 0, refusedAtLimit: 0 };

  constructor(readonly limit: number | undefined) {}

  /** The answers forwarded reached the limit: no further model call is served. */
  get spent(): boolean {
    return this.limit !== undefined && this.served.tokens >= this.limit;
  }

  /** Counts `tokens` more; true exactly when they reached the limit (the first time). */
  add(tokens: number): boolean {
    const before = this.spent;
    this.served.tokens += tokens;
    return !before && this.spent;
  }
}
