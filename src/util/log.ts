/**
 * The logging seam. The action backs it with @actions/core (groups, masking); the CLI and tests back it
 * with plain streams. Domain code takes a Logger and never imports @actions/core.
 */
export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  error(message: string): void;
  debug(message: string): void;
  /** Runs fn inside a collapsible group; nested groups are flattened. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
}

export function createStreamLogger(
  opts: { out?: NodeJS.WritableStream; err?: NodeJS.WritableStream; debug?: boolean; prefix?: string } = {},
): Logger {
  const out = opts.out ?? process.stdout;
  const err = opts.err ?? process.stderr;
  const prefix = opts.prefix ?? '';
  return {
    info: (m) => void out.write(`${prefix}${m}\n`),
    warning: (m) => void err.write(`${prefix}warning: ${m}\n`),
    error: (m) => void err.write(`${prefix}error: ${m}\n`),
    debug: (m) => {
      if (opts.debug) out.write(`${prefix}debug: ${m}\n`);
    },
    group: async (title, fn) => {
      out.write(`${prefix}== ${title}\n`);
      return fn();
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
  };
}
