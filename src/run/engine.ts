/**
 * One unattended Gemini run on a worktree, as a short list of phases over one record (engine-record.ts):
 * start → prepareHome (the agent's home and task) → spawnAgent (gemini runs; the worktree cleaned, the work
 * exported, the agent's processes ended) → collect (the transcript) → takeCommits → the result. The walls (timeout, crash, quota,
 * auth, session-id collision) are watched by the mode runners from the start. The engine knows nothing about
 * GitHub. Its promises: it never hangs (every wait is bounded), it never lies about how the run ended, it never
 * loses the agent's work (leftovers are committed), and nothing it starts outlives it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { extend } from '../util/record.js';
import type { AtEnd, EngineDeps, Started } from './engine-record.js';
import { runHeadless } from './headless.js';
import { runInteractive } from './interactive.js';
import { failsStep } from '../domain/status.js';
import type { RunOptions } from './options.js';
import { collect } from './phases/collect.js';
import { prepareHome } from './phases/prepare-home.js';
import { takeCommits } from './phases/take-commits.js';
import { spawnAgent } from './phases/spawn-agent.js';
import type { RunResult } from './types.js';

/**
 * Runs the agent once and reports how it ended. Throws only for setup errors (bad worktree, no tmux). `deps`: a
 * test's stand-in for gemini (the rest of the engine is the real one).
 */
export async function runAgent(opts: RunOptions, deps: Partial<EngineDeps> = {}): Promise<RunResult> {
  const started = await start(opts, deps);
  const ready = extend(started, await prepareHome(started));
  const ran = extend(ready, await spawnAgent(ready));
  const collected = extend(ran, await collect(ran));
  return resultOf(extend(collected, await takeCommits(collected)));
}

async function start(opts: RunOptions, deps: Partial<EngineDeps>): Promise<Started> {
  const startedAt = Date.now();
  await mkdir(opts.runDir, { recursive: true, mode: 0o700 });
  const agentRoot = opts.sandbox?.dir ?? opts.runDir;
  const tmpDir = join(agentRoot, 'tmp');
  await mkdir(tmpDir, { recursive: true, mode: 0o700 });
  return {
    opts,
    deps: { spawn: deps.spawn ?? (opts.mode === 'headless' ? runHeadless : runInteractive) },
    log: opts.log,
    startedAt,
    runId: `${startedAt.toString(36)}-${randomBytes(3).toString('hex')}`,
    agentRoot,
    tmpDir,
  };
}

function resultOf(r: AtEnd): RunResult {
  const { opts, outcome } = r;
  // A run that failed on its own keeps its status (the commit's failure is in the log); one that did not, fails.
  const lost = r.uncommitted !== undefined && !failsStep(outcome.status);
  return {
    status: lost ? 'crashed' : outcome.status,
    ...(lost
      ? { message: r.uncommitted, failedPart: 'workspace' as const }
      : outcome.message !== undefined
        ? { message: outcome.message }
        : {}),
    mode: opts.mode,
    sessionId: outcome.sessionId,
    ...(opts.model !== undefined ? { model: opts.model } : {}),
    ...(r.transcriptPath !== undefined ? { transcriptPath: r.transcriptPath } : {}),
    transcript: r.transcript,
    usage: r.usage,
    exitCode: outcome.exitCode,
    startedAt: new Date(r.startedAt).toISOString(),
    durationMs: Date.now() - r.startedAt,
    geminiLifetimeMs: outcome.geminiLifetimeMs,
    ...(outcome.lastScreen !== undefined ? { lastScreen: outcome.lastScreen } : {}),
    baseSha: r.baseSha,
    headSha: r.headSha,
    commits: r.commits,
    filesChanged: r.filesChanged,
    leftoverCommitted: r.exported.leftoverCommitted,
    ...(r.budget.max > 0 ? { maxTokens: r.budget.max } : {}),
  };
}
