import { getErrorMessage } from '../util/errors.js';
import type { CliProfile } from '../gemini/cli-profile.js';
import { PINNED_PROFILE, ProbeContext } from './context.js';
import { probeProfile } from './expectations.js';
import type { Probe, ProbeResult } from './types.js';

export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;

export interface RunProbesOptions {
  gemini: string;
  probes: readonly Probe[];
  tmpRoot?: string;
  /** Whose expectations to check (default: the pinned version's). */
  profile?: CliProfile;
  /** Called after each probe, for progress output. */
  onResult?: (r: ProbeResult) => void;
}

class ProbeTimeout extends Error {}

/** Contexts of probes running right now, so an interrupted `gemini-run probe` can still clean up. */
const active = new Set<ProbeContext>();

/** Stops and removes whatever the running probes started (for a SIGINT handler). */
export async function abortActiveProbes(): Promise<void> {
  await Promise.all([...active].map((c) => c.dispose()));
}

/** Runs one probe in a fresh context, bounded by its timeout; never throws. */
export async function runProbe(
  probe: Probe,
  o: { gemini: string; tmpRoot?: string; profile?: CliProfile },
): Promise<ProbeResult> {
  const started = Date.now();
  const timeoutMs = probe.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const profile = o.profile ? probeProfile(o.profile) : PINNED_PROFILE;
  const expected = typeof probe.expected === 'string' ? probe.expected : probe.expected(profile);
  const base = { name: probe.name, behaviour: probe.behaviour, expected };
  let ctx: ProbeContext | undefined;
  let timer: NodeJS.Timeout | undefined;
  let observed: string;
  let pass: boolean;
  try {
    ctx = await ProbeContext.create({
      gemini: o.gemini,
      deadline: started + timeoutMs,
      tmpRoot: o.tmpRoot,
      worktreeName: probe.worktreeName,
      profile,
    });
    active.add(ctx);
    const running = probe.run(ctx);
    // The loser of the race settles later (its processes are killed by dispose); keep it from going unhandled.
    running.catch(() => undefined);
    const outcome = await Promise.race([
      running,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new ProbeTimeout(`timed out after ${timeoutMs} ms`)),
          timeoutMs + 2000,
        );
      }),
    ]);
    observed = outcome.observed;
    pass = outcome.pass;
  } catch (e) {
    observed = `error: ${getErrorMessage(e).split('\n')[0]}`;
    pass = false;
  } finally {
    if (timer) clearTimeout(timer);
  }
  const hung = ctx?.cutAtDeadline === true;
  if (hung) observed += ' [gemini was still running at the deadline and was killed: it hung]';
  const problems = ctx ? await ctx.dispose() : [];
  if (ctx) active.delete(ctx);
  if (problems.length > 0) {
    observed += ` [cleanup: ${problems.join('; ')}]`;
    pass = false;
  }
  return { ...base, observed, pass, durationMs: Date.now() - started, ...(hung ? { hung } : {}) };
}

/** Runs probes one after another (each starts real processes; the machine has few cores). */
export async function runProbes(o: RunProbesOptions): Promise<ProbeResult[]> {
  const results: ProbeResult[] = [];
  for (const probe of o.probes) {
    const r = await runProbe(probe, o);
    results.push(r);
    o.onResult?.(r);
  }
  return results;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The drift table, as markdown (it is also what compat.md's "Known drift" records). Pure. */
export function renderDriftTable(results: readonly ProbeResult[], pinned: string): string {
  const lines = [
    `| probe | behaviour | expected (${pinned}) | observed | result |`,
    '|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${cell(r.name)} | ${cell(r.behaviour)} | ${cell(r.expected)} | ${cell(r.observed)} | ${r.pass ? 'pass' : '**DRIFT**'} |`,
    ),
  ];
  const drift = results.filter((r) => !r.pass).length;
  lines.push('', `${results.length - drift} of ${results.length} probes pass; ${drift} drifted.`);
  return lines.join('\n');
}
