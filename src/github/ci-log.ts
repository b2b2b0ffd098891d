/**
 * A failed job's log cut to what a person would read first: the failing step's last lines and the lines that look
 * like errors elsewhere, without ANSI colours or the runner's timestamps, within fixed bounds. It reads the log as
 * it streams, in memory bounded by the bounds and not by the log (a 50 MB log costs what a 50 KB one does).
 *
 * GitHub's job log is one text: each line starts with an ISO timestamp; a step's output opens with
 * `##[group]Run <what>` (an action's inputs and a script's text follow, up to `##[endgroup]`), and a step that fails
 * ends with `##[error]Process completed with exit code N.` or the action's own `##[error]` line.
 */

export interface LogBounds {
  /** Lines kept of the job at most (the failing step's tail plus error lines elsewhere). */
  maxLines: number;
  /** Bytes kept of the job at most (UTF-8). */
  maxBytes: number;
  /** Lines of the failing step's end shown. */
  tailLines: number;
  /** Error lines from elsewhere in the log shown at most (the first ones: an early error is the usual cause). */
  errorLines: number;
  /** A longer line is cut to this many characters. */
  lineChars: number;
}

export const JOB_LOG_BOUNDS: LogBounds = {
  maxLines: 200,
  maxBytes: 16 * 1024,
  tailLines: 120,
  errorLines: 60,
  lineChars: 400,
};

export interface ReducedLog {
  /** The step whose end is shown (`Run npm test`), when the log names one. */
  step?: string;
  /** Lines of that step worth reading (not blank, not debug); `lines` shows the last of them. */
  stepLines: number;
  /** The lines kept, in log order, each with its 1-based line number in the log. */
  lines: { n: number; text: string }[];
  /** The first line that looks like an error (the failure's signature), when there is one. */
  firstError?: string;
  /** Lines in the log in all (the rest of them is left out as a matter of course). */
  totalLines: number;
  /** A bound was hit: lines that looked like they matter were left out, or cut short. */
  boundsHit: boolean;
}

const TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks) the runner passes through.
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const GROUP = /^##\[group\](.*)$/;
const RUNNER_ERROR = /^##\[error\]/;
/** What tools print when something failed, across the usual ecosystems (kept short: false positives cost lines). */
const ERROR_LIKE =
  /^##\[error\]|\b(?:error|Error|ERROR)\b[:\s[]|\bFAIL(?:ED|URE)?\b|\bfailed\b|✗|×|\bpanic:|Traceback \(most recent call last\)|\bnpm ERR!|\bAssertionError\b|\bexpected .* (?:to|but)\b/;
const NOISE = /^##\[(?:debug|endgroup)\]/;
/** Every line ERROR_LIKE can match contains one of these: a cheap test first, as most lines match neither. */
const ERROR_HINT = /rr|RR|ail|AIL|✗|×|pani|Trace|xpected/;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** One log line as a person reads it: no timestamp, no colour, no control characters. */
function undecorated(raw: string): string {
  const text = raw.replace(TIMESTAMP, '');
  // Most lines have no escape or control character: test once rather than rewrite twice.
  CONTROL.lastIndex = 0;
  return (CONTROL.test(text) ? text.replace(ANSI, '').replace(CONTROL, '') : text).trimEnd();
}

/** The runner's own line after a failed script: true of every failure, so no failure's signature. */
const EXIT_CODE = /^##\[error\]Process completed with exit code \d+\.?$/;

/** Streams a job log in and keeps what `JOB_LOG_BOUNDS` allows of it. */
export class LogReducer {
  private partial = '';
  private partialCut = false;
  private lineCut = false;
  private n = 0;
  /** The step being read: its name, its first error-like line, its line count and last lines (a ring). */
  private current: Step = { tail: [], lines: 0 };
  /** The failing step, frozen at its first `##[error]` line. */
  private failing: Step | undefined;
  private errors: Line[] = [];
  private moreErrors = false;
  private firstError: string | undefined;

  constructor(private readonly bounds: LogBounds = JOB_LOG_BOUNDS) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      if (nl < 0) break;
      this.appendPartial(chunk.slice(start, nl));
      this.line(this.partial);
      this.partial = '';
      this.partialCut = false;
      start = nl + 1;
    }
    this.appendPartial(chunk.slice(start));
  }

  end(): ReducedLog {
    if (this.partial !== '') this.line(this.partial);
    this.partial = '';
    return this.compose(this.failing ?? this.current);
  }

  /** A line longer than the bound is cut while it streams: a log of one 50 MB line must not be held whole. */
  private appendPartial(piece: string): void {
    if (this.partialCut) return;
    const room = this.bounds.lineChars * 4 - this.partial.length;
    if (piece.length > room) {
      this.partial += piece.slice(0, Math.max(room, 0));
      this.partialCut = true;
    } else this.partial += piece;
  }

  private line(raw: string): void {
    this.n += 1;
    const full = undecorated(raw);
    const long = full.length > this.bounds.lineChars;
    if (long || this.partialCut) this.lineCut = true;
    const text = long ? `${full.slice(0, this.bounds.lineChars)}…` : full;
    const group = GROUP.exec(text);
    if (group) {
      const name = group[1]?.trim();
      this.current = { ...(name ? { name } : {}), tail: [], lines: 0 };
      return;
    }
    if (text === '' || NOISE.test(text)) return;
    const step = this.current;
    const entry = { n: this.n, text };
    step.lines += 1;
    step.tail.push(entry);
    if (step.tail.length > this.bounds.tailLines) step.tail.shift();
    if (ERROR_HINT.test(text) && ERROR_LIKE.test(text)) {
      if (!EXIT_CODE.test(text)) {
        this.firstError ??= text;
        step.firstError ??= text;
      }
      if (this.errors.length < this.bounds.errorLines) this.errors.push(entry);
      else this.moreErrors = true;
    }
    if (RUNNER_ERROR.test(text) && !this.failing) this.failing = { ...step, tail: [...step.tail] };
  }

  private compose(chosen: Step): ReducedLog {
    const inTail = new Set(chosen.tail.map((l) => l.n));
    const elsewhere = this.errors.filter((l) => !inTail.has(l.n));
    // The failing step's end matters most, but never all of the room: errors elsewhere keep a quarter of it.
    const budget = { lines: this.bounds.maxLines, bytes: this.bounds.maxBytes };
    const tailBudget = elsewhere.length
      ? { lines: Math.floor(budget.lines * 0.75), bytes: Math.floor(budget.bytes * 0.75) }
      : { ...budget };
    let boundsHit = this.moreErrors || this.lineCut;
    const tailKept: Line[] = [];
    for (let i = chosen.tail.length - 1; i >= 0; i--) {
      const l = chosen.tail[i] as Line;
      if (!take(tailBudget, l)) {
        boundsHit = true;
        break;
      }
      tailKept.unshift(l);
    }
    budget.lines -= tailKept.length;
    budget.bytes -= tailKept.reduce((sum, l) => sum + lineBytes(l), 0);
    const errorsKept: Line[] = [];
    for (const l of elsewhere) {
      if (!take(budget, l)) {
        boundsHit = true;
        break;
      }
      errorsKept.push(l);
    }
    // The failing step's own first error names the failure better than an earlier one elsewhere.
    const firstError = (chosen.firstError ?? this.firstError)?.replace(RUNNER_ERROR, '');
    return {
      ...(chosen.name ? { step: chosen.name } : {}),
      stepLines: chosen.lines,
      lines: [...errorsKept, ...tailKept].sort((a, b) => a.n - b.n),
      ...(firstError ? { firstError } : {}),
      totalLines: this.n,
      boundsHit,
    };
  }
}

type Line = { n: number; text: string };

interface Step {
  name?: string;
  firstError?: string;
  /** Lines of the step (the ones worth reading), of which `tail` holds the last. */
  lines: number;
  tail: Line[];
}

function lineBytes(l: Line): number {
  return Buffer.byteLength(l.text) + 1;
}

/** Takes `l` out of `budget` when it fits. */
function take(budget: { lines: number; bytes: number }, l: Line): boolean {
  const b = lineBytes(l);
  if (budget.lines < 1 || b > budget.bytes) return false;
  budget.lines -= 1;
  budget.bytes -= b;
  return true;
}
