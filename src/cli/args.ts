/**
 * The shape every `gemini-run` command shares: a module exporting a Command, node:util parseArgs for flags,
 * and two kinds of failure — bad usage (exit 2, one line + a pointer to --help) and a UserError (exit 1, one
 * line). Commands write through `io` so tests can run them in-process against memory streams.
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { z } from 'zod';
import { UserError } from '../util/errors.js';
import { withGivenValue } from '../domain/value-schemas.js';

export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Command {
  name: string;
  /** One line for `gemini-run --help`. */
  summary: string;
  /** The whole `--help` text: synopsis, options, examples. */
  usage: string;
  /** Resolves to the exit code. Throws UsageError (→ 2) or UserError (→ 1) for the user's mistakes. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** Bad command-line usage: exit code 2. */
export class UsageError extends UserError {
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

/** A flag's string through the schema the action's input uses too; its first problem becomes a UsageError. */
export function flagValue<T>(schema: z.ZodType<T, string>, value: string, command: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new UsageError(withGivenValue(r.error.issues[0]?.message ?? 'invalid value', value), command);
  return r.data;
}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed<O extends Options> {
  values: { [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
  help: boolean;
}

/**
 * parseArgs with `--help`/`-h` added, strict flags, and its errors turned into one-line UsageErrors (node's
 * messages are multi-line and mention internals such as "ERR_PARSE_ARGS_UNKNOWN_OPTION").
 */
export function parseCommandArgs<O extends Options>(
  command: string,
  argv: string[],
  options: O,
  opts: { maxPositionals?: number } = {},
): Parsed<O> {
  let result;
  try {
    result = parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(describeParseError(error), command);
  }
  const values = result.values as Record<string, string | boolean | undefined>;
  const help = values.help === true;
  delete values.help;
  const max = opts.maxPositionals ?? 0;
  if (!help && result.positionals.length > max) {
    const extra = result.positionals[max];
    throw new UsageError(`unexpected argument '${extra ?? ''}'`, command);
  }
  return { values: values as Parsed<O>['values'], positionals: result.positionals, help };
}

/**
 * Flags that only work together, checked together, before anything runs: a flag that means nothing without
 * another (`needs`), and flags of two different jobs of one command (`excludes`), which would otherwise be
 * half-ignored — a setup that installs into the caller's home when the host step was meant.
 */
export interface FlagRule {
  flag: string;
  needs?: string;
  excludes?: readonly string[];
  /** Why, after the rule's own words: what the flag is for. */
  because?: string;
}

export function checkFlagRules(
  command: string,
  values: Record<string, unknown>,
  rules: readonly FlagRule[],
): void {
  const given = (f: string) => values[f] !== undefined && values[f] !== false;
  for (const rule of rules) {
    if (!given(rule.flag)) continue;
    const why = rule.because ? ` (${rule.because})` : '';
    if (rule.needs && !given(rule.needs))
      throw new UsageError(`--${rule.flag} works only with --${rule.needs}${why}`, command);
    const clash = rule.excludes?.find(given);
    if (clash) throw new UsageError(`--${rule.flag} does not go with --${clash}${why}`, command);
  }
}

function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown) return `unknown option '${unknown[1]}'`;
  const missing = /Option '([^']+)' argument missing/.exec(message);
  if (missing) return `option '${missing[1]?.replace(/^-\w, /, '')}' needs a value`;
  const noValue = /Option '([^']+)' does not take an argument/.exec(message);
  if (noValue) return `option '${noValue[1]?.replace(/^-\w, /, '')}' takes no value`;
  return message.split('\n')[0] ?? message;
}

/** A person watches stdout (a terminal that can redraw a line): progress is a live status line there. */
export function wantsStatusLine(io: Pick<CliIO, 'stdout' | 'env'>): boolean {
  return io.stdout.isTTY === true && io.env.TERM !== 'dumb';
}

export function write(stream: NodeJS.WritableStream, text: string): void {
  stream.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Fixed-width text table; the last column is never padded. */
export function renderTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * Pure: text as lines of at most `width` characters, broken at spaces; a word longer than a line (a path, a
 * URL) is cut where the line ends, so no line is ever wider.
 */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    while (word.length > width) {
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    line = word;
  }
  if (line || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * Reads lines from a stream one at a time across several prompts (login asks again after a wrong code).
 * `next()` resolves to undefined at end of input.
 */
export function createLineReader(stream: NodeJS.ReadableStream): {
  next(): Promise<string | undefined>;
  close(): void;
} {
  const rl = createInterface({ input: stream, crlfDelay: Infinity, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async next() {
      const r = await lines.next();
      return r.done ? undefined : r.value;
    },
    close() {
      rl.close();
    },
  };
}

/**
 * The operator's Gemini home (the parent of `.gemini`), as the CLI itself resolves it: `--home`, else
 * GEMINI_CLI_HOME, else HOME.
 */
export function geminiHomeFrom(flag: string | undefined, env: NodeJS.ProcessEnv): string {
  const home = flag || env.GEMINI_CLI_HOME || env.HOME;
  if (!home) throw new UserError('cannot tell which Gemini home to use: pass --home <dir> or set HOME');
  return resolve(home);
}
