/**
 * The logging seam. The action backs it with @actions/core (groups, masking); the CLI and tests back it
 * with plain streams. Domain code takes a Logger and never imports @actions/core.
 *
 * Every message is the logger's to make safe: each line goes through guardLines (util/untrusted-text.ts), so
 * a CR or a `::command` that reached a message cannot become a workflow command. Call sites still
 * `neutralize` a field of someone else's text they splice into a line, so it stays on that line.
 */
import { randomBytes } from 'node:crypto';
import { guardLines, neutralize, stopCommandsBlock } from './untrusted-text.js';

export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  /** Runs fn inside a collapsible group; nested groups are flattened. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Prints text someone else wrote (a screen, the CLI's stderr, the agent's words) under `label`, as a block
   * in which the runner reads no workflow command; control characters are shown as escapes.
   */
  untrusted(label: string, text: string): void;
  /**
   * A live status line (turn, current tool, tokens, elapsed), redrawn in place where the output is a terminal;
   * undefined clears it. Absent where there is no terminal (the job log, a pipe): there, progress is plain lines.
   */
  status?(line: string | undefined): void;
}

/** A fresh stop-commands token: 16 random bytes, never reused, so nothing printed before can end a block. */
export function stopCommandsToken(): string {
  return randomBytes(16).toString('hex');
}

export function createStreamLogger(
  opts: {
    out?: NodeJS.WritableStream;
    err?: NodeJS.WritableStream;
    debug?: boolean;
    prefix?: string;
    /** `out` is a terminal a person watches: keep a status line at its bottom (Logger.status). */
    statusLine?: boolean;
  } = {},
): Logger {
  const out = opts.out ?? process.stdout;
  const err = opts.err ?? process.stderr;
  const prefix = opts.prefix ?? '';
  // Each line carries the prefix (a CLI run inside a workflow step is read for commands too).
  const lines = (m: string, tag = '') =>
    guardLines(m)
      .split('\n')
      .map((l, i) => `${prefix}${i === 0 ? tag : ''}${l}\n`)
      .join('');
  let status: string | undefined;
  // A line printed while the status line shows: the status line is cleared, the line printed, the status redrawn.
  const say = (stream: NodeJS.WritableStream, text: string): void => {
    if (status === undefined) return void stream.write(text);
    out.write(CLEAR_LINE);
    stream.write(text);
    out.write(status);
  };
  const logger: Logger = {
    info: (m) => say(out, lines(m)),
    warning: (m) => say(err, lines(m, 'warning: ')),
    error: (m) => say(err, lines(m, 'error: ')),
    debug: (m) => {
      if (opts.debug) say(out, lines(m, 'debug: '));
    },
    group: async (title, fn) => {
      say(out, `${prefix}== ${neutralize(title)}\n`);
      return fn();
    },
    untrusted: (label, text) => {
      // Inside the runner's stop-commands block `::` lines are text; outside one, `| ` keeps them so.
      const block = stopCommandsBlock(text, stopCommandsToken)
        .slice(1, -1)
        .map((l) => `${prefix}  | ${l}\n`);
      say(out, lines(label) + block.join(''));
    },
  };
  if (!opts.statusLine) return logger;
  return {
    ...logger,
    status: (line) => {
      if (status !== undefined) out.write(CLEAR_LINE);
      const width = Math.max(20, ((out as { columns?: number }).columns ?? 80) - 1);
      // Never wider than the terminal: a wrapped status line could not be cleared in place.
      status = line === undefined ? undefined : [...`${prefix}${neutralize(line)}`].slice(0, width).join('');
      if (status !== undefined) out.write(status);
    },
  };
}

/** Back to the start of the line, and the line erased (ANSI: CR, then EL 2). */
const CLEAR_LINE = '\r\x1b[2K';

/** A logger that records lines; for tests. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => void lines.push(m),
    warning: (m) => void lines.push(`warning: ${m}`),
    error: (m) => void lines.push(`error: ${m}`),
    debug: (m) => void lines.push(`debug: ${m}`),
    group: async (title, fn) => {
      lines.push(`== ${title}`);
      return fn();
    },
    untrusted: (label, text) => {
      lines.push(label, ...text.split('\n').map((l) => `  | ${l}`));
    },
  };
}
