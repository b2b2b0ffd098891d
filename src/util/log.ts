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
}

/** A fresh stop-commands token: 16 random bytes, never reused, so nothing printed before can end a block. */
export function stopCommandsToken(): string {
  return randomBytes(16).toString('hex');
}

export function createStreamLogger(
  opts: { out?: NodeJS.WritableStream; err?: NodeJS.WritableStream; debug?: boolean; prefix?: string } = {},
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
  return {
    info: (m) => void out.write(lines(m)),
    warning: (m) => void err.write(lines(m, 'warning: ')),
    error: (m) => void err.write(lines(m, 'error: ')),
    debug: (m) => {
      if (opts.debug) out.write(lines(m, 'debug: '));
    },
    group: async (title, fn) => {
      out.write(`${prefix}== ${neutralize(title)}\n`);
      return fn();
    },
    untrusted: (label, text) => {
      out.write(lines(label));
      // Inside the runner's stop-commands block `::` lines are text; outside one, `| ` keeps them so.
      for (const l of stopCommandsBlock(text, stopCommandsToken).slice(1, -1))
        out.write(`${prefix}  | ${l}\n`);
    },
  };
}

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
