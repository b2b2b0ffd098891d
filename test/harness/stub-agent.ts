/**
 * A stand-in for gemini inside the real engine (EngineDeps.spawn): the engine prepares the agent's home, writes the
 * task into the worktree, admits the sandbox, and after the stand-in ended exports the work as the agent's user,
 * settles the sandbox, folds and takes the commits, all as for gemini; and around it the action opens the sandbox,
 * the model proxy and the network policy. What the stand-in does, it does as gemini's tools would: as the agent's
 * user (the sandbox's runAs), in the environment the engine built for gemini (its proxies, its git identity).
 */
import { join } from 'node:path';
import type { SpawnContext, SpawnOutcome } from '../../src/run/attempt.js';
import type { RunOptions } from '../../src/run/options.js';
import { exec, type ExecResult } from '../../src/util/exec.js';
import type { AgentPlay } from './stub-engine.js';

export interface AgentActs extends Pick<
  AgentPlay,
  'commits' | 'leftovers' | 'status' | 'message' | 'answer'
> {
  /** URLs the agent fetches with curl (through the proxy its environment names), in order. */
  fetch?: string[];
  /** Called while the agent "runs" (after its acts): what a test must see of the run while it is open. */
  during?: (ctx: SpawnContext) => Promise<void>;
}

/** What the stand-in saw: the options the engine ran with, and what each command of the agent printed. */
export interface AgentSeen {
  runs: RunOptions[];
  /** `whoami` as the agent, once per spawn. */
  user: string[];
  fetched: ExecResult[];
}

const SESSION = '5f0c2a1e-0000-4000-8000-00000000a9e7';

/** A shell line that writes `text` to `path` (relative to the worktree), or removes it for null. */
function writeLine(path: string, text: string | null): string {
  const quoted = `'${path.replace(/'/g, `'\\''`)}'`;
  if (text === null) return `rm -f -- ${quoted}`;
  const b64 = Buffer.from(text).toString('base64');
  return `mkdir -p -- "$(dirname -- ${quoted})" && printf '%s' '${b64}' | base64 -d > ${quoted}`;
}

/** The agent's acts as one script: its commits, then what it leaves uncommitted. */
function script(acts: AgentActs): string {
  const lines = ['set -e'];
  for (const [subject, files] of Object.entries(acts.commits ?? {})) {
    lines.push(...Object.entries(files).map(([p, t]) => writeLine(p, t)));
    lines.push(`git add --all && git commit --quiet -m '${subject.replace(/'/g, `'\\''`)}'`);
  }
  lines.push(...Object.entries(acts.leftovers ?? {}).map(([p, t]) => writeLine(p, t)));
  return lines.join('\n');
}

/** Runs `argv` as gemini's tools run: as the agent's user, in the worktree, with exactly gemini's environment. */
function asAgent(ctx: SpawnContext, argv: string[], allowFailure = false): Promise<ExecResult> {
  const env = ctx.envFor(join(ctx.agentRoot, 'telemetry.json'));
  const runAs = ctx.opts.sandbox?.runAs ?? [];
  const [file, ...args] = [
    ...runAs,
    'env',
    '-i',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    ...argv,
  ];
  return exec(file!, args, { cwd: ctx.opts.worktree, allowAllExitCodes: allowFailure, timeoutMs: 30_000 });
}

export function stubAgent(acts: AgentActs, seen: AgentSeen): (ctx: SpawnContext) => Promise<SpawnOutcome> {
  return async (ctx) => {
    seen.runs.push(ctx.opts);
    const startedAt = Date.now();
    seen.user.push((await asAgent(ctx, ['id', '-un'])).stdout.trim());
    await asAgent(ctx, ['sh', '-c', script(acts)]);
    for (const url of acts.fetch ?? []) {
      seen.fetched.push(await asAgent(ctx, ['curl', '-sS', '--max-time', '5', url], true));
    }
    await acts.during?.(ctx);
    return {
      status: acts.status ?? 'finished',
      ...(acts.message ? { message: acts.message } : {}),
      sessionId: SESSION,
      exitCode: 0,
      geminiLifetimeMs: Date.now() - startedAt,
      events: [],
      answer: acts.answer ?? 'Done.',
    };
  };
}
