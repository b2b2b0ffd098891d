/**
 * JSON the agent could have written (its transcript, the CLI's telemetry and stream-json, both of which the agent's
 * processes can append to), parsed only once its shape is known to be bounded. `JSON.parse` allocates by what the
 * text holds, not by its length: twenty megabytes of `[0,0,0,…]` are ten million array slots, and a few hundred
 * megabytes exhaust the action's heap. So the text is first scanned without allocating (strings skipped whole,
 * structure counted): more bytes, more nesting or more values than the bounds allow, and the record is refused as
 * `too-large` before anything is built. A refused record is the caller's to skip and count, never a crash.
 *
 * What is parsed is plain data: `JSON.parse` makes a `__proto__` key an own property, never a prototype. Callers
 * that use parsed strings as keys keep them in a `Map` or a null-prototype object (see `recordOf`).
 */

export interface JsonBounds {
  /** Longest text parsed, in bytes (a string is counted in UTF-16 code units). */
  maxBytes: number;
  /** Deepest nesting of arrays and objects. */
  maxDepth: number;
  /** Most values (array elements and object members, approximately: commas and openings). */
  maxValues: number;
}

/**
 * Far above any record the CLI writes once tool output is cut (a model answer is bounded by its output tokens),
 * far below what hurts: the worst-case parse of this much is a few hundred MB of heap.
 */
export const AGENT_JSON_BOUNDS: JsonBounds = { maxBytes: 16 * 1024 * 1024, maxDepth: 64, maxValues: 200_000 };

export type BoundedParse = { ok: true; value: unknown } | { ok: false; why: 'invalid' | 'too-large' };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;

/** Index just past the string whose opening quote is at `i`, or -1 when it does not end. */
function pastString(text: Buffer | string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = typeof text === 'string' ? text.indexOf('"', from) : text.indexOf(QUOTE, from);
    if (q === -1) return -1;
    let k = q - 1;
    while ((typeof text === 'string' ? text.charCodeAt(k) : text[k]) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Whether the text's size, nesting and number of values stay within the bounds. Allocates nothing. */
function withinJsonBounds(text: Buffer | string, b: JsonBounds = AGENT_JSON_BOUNDS): boolean {
  if (text.length > b.maxBytes) return false;
  const str = typeof text === 'string';
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i++) {
    const c = str ? text.charCodeAt(i) : text[i]!;
    if (c === QUOTE) {
      const end = pastString(text, i);
      // Unterminated: JSON.parse refuses it, cheaply.
      if (end === -1) return true;
      i = end - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > b.maxDepth || ++values > b.maxValues) return false;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    } else if (c === COMMA && ++values > b.maxValues) {
      return false;
    }
  }
  return true;
}

/** Parses `text` when it is within the bounds; `too-large` when it is not, `invalid` when it is not JSON. */
export function parseBoundedJson(text: Buffer | string, b: JsonBounds = AGENT_JSON_BOUNDS): BoundedParse {
  if (!withinJsonBounds(text, b)) return { ok: false, why: 'too-large' };
  try {
    return { ok: true, value: JSON.parse(typeof text === 'string' ? text : text.toString('utf8')) };
  } catch {
    return { ok: false, why: 'invalid' };
  }
}

/**
 * An object whose keys come from someone else's data: no prototype, so a key `__proto__`, `constructor` or
 * `toString` is an entry like any other and reading an absent one gives undefined.
 */
export function recordOf<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}
