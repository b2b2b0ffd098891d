/**
 * A minimal reader for the CLI's telemetry outfile, kept inside the probe suite on purpose: the probes check
 * the CLI's behaviour, so they must not depend on the product's own telemetry reader (which they would then
 * also be testing). The file is pretty-printed JSON objects back to back (not JSONL), appended to forever.
 */

export interface OtelLogEvent {
  name: string;
  /** ms epoch, from attributes["event.timestamp"]. */
  at: number;
  attributes: Record<string, unknown>;
}

/** Splits concatenated JSON values; a torn trailing object (the writer is mid-append) is left out. Pure. */
export function splitConcatenatedJson(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0 && start >= 0) {
        try {
          out.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // a record we cannot read is skipped, like the CLI's own loaders do
        }
        start = -1;
      }
    }
  }
  return out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The log records (events) of a telemetry file, in file order. Spans and metric batches are dropped. Pure. */
export function parseOtelEvents(text: string): OtelLogEvent[] {
  const events: OtelLogEvent[] = [];
  for (const obj of splitConcatenatedJson(text)) {
    if (!isRecord(obj) || !isRecord(obj.attributes) || !('hrTime' in obj)) continue;
    const name = obj.attributes['event.name'];
    if (typeof name !== 'string') continue;
    const ts = obj.attributes['event.timestamp'];
    events.push({ name, at: typeof ts === 'string' ? Date.parse(ts) : NaN, attributes: obj.attributes });
  }
  return events;
}
