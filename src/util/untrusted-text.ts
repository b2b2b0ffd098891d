/**
 * Text someone else wrote (the agent, the model, an issue's author, the Gemini CLI quoting either) on its way
 * into the job log. The runner reads every line the action prints as a possible workflow command: a line that
 * starts with `::` after leading whitespace (`::error::`, `::add-mask::`, `::stop-commands::`…) and, in the legacy
 * syntax, `##[command]` anywhere in a line. It splits lines on CR as well as LF. So a CR or LF inside an issue
 * title or a tool's command would start a line the attacker wrote entirely.
 *
 * Pure functions only; the loggers (util/log.ts, action/core-logger.ts) apply them. Nothing is dropped silently:
 * each unsafe character becomes a visible escape, so the reader sees that something was there.
 */

/** A field spliced into one of our lines, after neutralising (longer text is cut, with a note). */
const MAX_FIELD_CHARS = 2000;
/** One line of a message or of an untrusted block. */
const MAX_LINE_CHARS = 4000;
/** Lines of one untrusted block. */
const MAX_BLOCK_LINES = 400;

/**
 * C0, DEL, C1 (NEL and the 8-bit CSI among them), the line and paragraph separators, and the invisible
 * format characters that reorder or hide text on screen (bidi embeddings, overrides and isolates, zero-width
 * characters, the BOM). ESC is in C0, so an ANSI sequence shows as `\x1b[31m`.
 */
const UNSAFE_CHARS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/** The legacy command syntax, matched anywhere in a line. */
const LEGACY_COMMAND = /##\[/g;
/** A line the runner would read as a command (JS `\s` covers what .NET's TrimStart trims, NEL aside: escaped). */
const COMMAND_LINE = /^\s*::/;

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

function escapeChar(c: string): string {
  const named = NAMED[c];
  if (named) return named;
  const code = c.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Cuts `text` to `max` characters (never inside a surrogate pair), saying how much was left out. */
function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)} … (${text.length - end} more characters)`;
}

/** Escapes every unsafe character and the legacy command prefix; keeps everything else as it is. */
function escapeAll(text: string): string {
  return text.replace(UNSAFE_CHARS, escapeChar).replace(LEGACY_COMMAND, '##\\[');
}

/**
 * One field of someone else's text, made safe to splice into a line of ours: CR, LF and every other control
 * or invisible character shown as an escape (`\r`, `\x1b`, `\u2028`), `##[` broken, cut at `max` characters.
 * The result is always one line.
 */
export function neutralize(text: string, max = MAX_FIELD_CHARS): string {
  return cap(escapeAll(text), max);
}

/**
 * A whole message about to be printed: each line (split on LF or CRLF: the message's own line breaks) gets
 * {@link neutralize}d, a lone CR included, and a line that would read as a `::command` is prefixed with `\`.
 * The loggers pass every message through this, so no call site can print a command by mistake.
 */
export function guardLines(message: string, max = MAX_LINE_CHARS): string {
  return message
    .split(/\r?\n/)
    .map((line) => {
      const safe = neutralize(line, max);
      return COMMAND_LINE.test(safe) ? `\\${safe}` : safe;
    })
    .join('\n');
}

/**
 * The lines that print `text` as a block the runner does not read commands from: `::stop-commands::<token>`,
 * the text (each line neutralised, `::` lines left as they are: inside the block they are text), and
 * `::<token>::`. `newToken` is asked again until the token occurs nowhere in the block, so the text cannot end it.
 */
export function stopCommandsBlock(text: string, newToken: () => string): string[] {
  const all = text.split(/\r?\n/);
  if (all.length > 1 && all[all.length - 1] === '') all.pop();
  const lines = all.slice(0, MAX_BLOCK_LINES).map((l) => neutralize(l, MAX_LINE_CHARS));
  if (all.length > MAX_BLOCK_LINES) lines.push(`… (${all.length - MAX_BLOCK_LINES} more lines)`);
  let token = newToken();
  while (lines.some((l) => l.includes(token))) token = newToken();
  return [`::stop-commands::${token}`, ...lines, `::${token}::`];
}

/**
 * The first line of `text`, at most `max` characters (whole characters: an emoji is never cut in two), ending in
 * `…` where anything was left out, so a command cut mid-quote does not read as the whole command.
 */
export function shorten(text: string, max: number): string {
  const first = text.split('\n', 1)[0] ?? '';
  const chars = [...first];
  if (chars.length > max) return `${chars.slice(0, max - 1).join('')}…`;
  return first.length < text.trimEnd().length ? `${first} …` : first;
}
