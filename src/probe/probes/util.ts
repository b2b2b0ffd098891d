import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { OtelLogEvent } from '../otel.js';
import { PROBE_MODEL } from '../context.js';

/** A session id that is unique and recognisable in file names (its first 8 characters name the file). */
export function probeSessionId(tag: string): string {
  return `${tag.slice(0, 8).padEnd(8, 'x')}-${randomUUID()}`;
}

/** The project's spawn posture: yolo, per-session trust, a lab-minted session id, a pinned model. */
export function postureArgs(sessionId?: string): string[] {
  const args = ['--approval-mode', 'yolo', '--skip-trust', '-m', PROBE_MODEL];
  if (sessionId) args.push('--session-id', sessionId);
  return args;
}

/** The TUI's input box: the CLI is up and idle enough to take text. */
export const PROMPT_BOX = /Type your message/;

/** Parses JSONL, skipping lines that are not JSON (a torn last line). Pure. */
export function parseJsonLines(text: string): unknown[] {
  const out: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // torn or foreign line
    }
  }
  return out;
}

export async function readJsonLines(path: string): Promise<unknown[]> {
  return parseJsonLines(await readFile(path, 'utf8'));
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short label for a transcript record: header, $set, $rewindTo, or the message type. Pure. */
export function recordKind(r: unknown): string {
  if (!isRecord(r)) return '?';
  if ('$set' in r) return '$set';
  if ('$rewindTo' in r) return '$rewindTo';
  if (typeof r.sessionId === 'string' && typeof r.projectHash === 'string') return 'header';
  return typeof r.type === 'string' ? r.type : '?';
}

/** Collapses runs: [a,a,b] → "a×2 b". Pure. */
export function compact(items: readonly string[]): string {
  const out: string[] = [];
  let prev: string | undefined;
  let n = 0;
  for (const it of [...items, '\u0000']) {
    if (it === prev) {
      n++;
      continue;
    }
    if (prev !== undefined) out.push(n > 1 ? `${prev}×${n}` : prev);
    prev = it;
    n = 1;
  }
  return out.join(' ');
}

/** gemini_cli.* events after the index of `from`, short names. */
export function shortNames(events: readonly OtelLogEvent[]): string[] {
  return events
    .filter((e) => e.name.startsWith('gemini_cli.'))
    .map((e) => e.name.slice('gemini_cli.'.length));
}

/**
 * Splits the event stream into turns, each starting at a user_prompt; events before the first prompt are
 * dropped. Uninteresting bookkeeping events are left out. Pure.
 */
export function turns(events: readonly OtelLogEvent[]): string[][] {
  const keep = new Set([
    'user_prompt',
    'api_request',
    'api_response',
    'api_error',
    'tool_call',
    'conversation_finished',
    'flash_fallback',
  ]);
  const out: string[][] = [];
  for (const name of shortNames(events)) {
    if (name === 'user_prompt') out.push([]);
    if (out.length > 0 && keep.has(name)) out[out.length - 1]?.push(name);
  }
  return out;
}

export function count(items: readonly string[], item: string): number {
  return items.filter((i) => i === item).length;
}

export { setTimeout as sleep } from 'node:timers/promises';

/** First line of a text, shortened for a table cell. */
export function brief(text: string, max = 120): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
