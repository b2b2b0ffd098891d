import type { ProbeContext } from './context.js';
import type { ProbeProfile } from './expectations.js';

/** What one probe saw. `observed` is one line a person can compare with `expected`. */
export interface ProbeOutcome {
  observed: string;
  pass: boolean;
}

/**
 * One behaviour of the Gemini CLI the project relies on, checked against a real binary. The expectation is that of
 * the profile under test (`ctx.profile`): a text for every version, or a function where a checked version is
 * known to differ; a probe passes when the binary behaves the way its profile says.
 */
export interface Probe {
  /** kebab-case, unique; compat.md names it in its `probe` column. */
  name: string;
  behaviour: string;
  expected: string | ((profile: ProbeProfile) => string);
  /** Upper bound for this probe; the runner kills whatever it started when it is exceeded. Default 30 s. */
  timeoutMs?: number;
  /** Basename of the probe's worktree (the CLI derives its project slug from it). */
  worktreeName?: string;
  run(ctx: ProbeContext): Promise<ProbeOutcome>;
}

export interface ProbeResult {
  name: string;
  behaviour: string;
  expected: string;
  observed: string;
  pass: boolean;
  durationMs: number;
  /** A gemini it started was killed at the probe's deadline (a hang, which a loaded machine can cause). */
  hung?: boolean;
}
