/**
 * The engine's spawnAgent phase: the task goes into the worktree, gemini runs (the mode runner, or a stand-in), and
 * whatever happens the worktree is cleaned of what we put there, the agent's work is committed and bundled by its
 * own user, every process of that user ends and its telemetry is copied out, before anything it wrote is read.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  installSkills,
  removeContextFile,
  removeInstalledSkills,
  writeContextFile,
} from '../../gemini/context-file.js';
import { buildEnv } from '../../gemini/spawn.js';
import { exportWork, type ExportResult } from '../../git/export.js';
import { AGENT_FILE_LIMITS, AgentFileRefused, copyAgentFile } from '../../util/agent-file.js';
import { getErrorMessage } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { guardProcessExit } from '../../util/process.js';
import { neutralize } from '../../util/untrusted-text.js';
import type { SpawnContext, SpawnOutcome } from '../attempt.js';
import type { AtSpawn, Spawned } from '../engine-record.js';
import { watchModel } from '../model-watch.js';
import { withQuotaDetail } from '../walls.js';

const DEFAULT_LEFTOVER_MESSAGE =
  'gemini-run: commit work the agent left uncommitted\n\nThe agent stopped with uncommitted changes; gemini-run committed them so nothing is lost.';

/** The model API could not be reached before gemini started: no spawn, whose retries would only hide it. */
function modelDownAtStart(message: string, log: Logger): SpawnOutcome {
  // The step says it as its one error line; here, only that gemini was never started.
  log.info(`model-unavailable: ${message}; gemini was not started`);
  return {
    status: 'model-unavailable',
    message,
    sessionId: '',
    exitCode: null,
    geminiLifetimeMs: 0,
    events: [],
  };
}

/** What the mode runner is given: the run's options, its home, and how each spawn's environment is built. */
function spawnContext(r: AtSpawn): SpawnContext {
  const { opts, home, progress, budget } = r;
  const sandbox = opts.sandbox;
  return {
    opts,
    home,
    runId: r.runId,
    progress,
    taskText: r.taskText,
    agentRoot: r.agentRoot,
    overBudget: () => budget.exceeded(progress.tokens, opts.modelUsage?.()),
    modelDown: watchModel(opts, progress),
    transcriptOf: r.transcriptOf,
    agentFile: r.agentFile,
    envFor: (telemetryFile) =>
      buildEnv({
        home,
        auth: opts.auth,
        telemetryFile,
        tmpDir: r.tmpDir,
        sourceEnv: r.agentEnv,
        ...(opts.gitIdentity ? { gitIdentity: opts.gitIdentity } : {}),
        ...(opts.modelEndpoint ? { modelEndpoint: opts.modelEndpoint } : {}),
        ...(opts.egressProxy ? { egressProxy: opts.egressProxy } : {}),
        ...(sandbox
          ? { agentUser: { name: sandbox.user.name, home: home.root, worktree: opts.worktree } }
          : {}),
      }),
  };
}

/** The task in the worktree, gemini started unless the model is already known down, and how it ended. */
async function taskThenSpawn(r: AtSpawn, installed: string[]): Promise<SpawnOutcome> {
  const { opts } = r;
  await writeContextFile(opts.worktree, opts.task);
  if (opts.skillsDir) installed.push(...(await installSkills(opts.skillsDir, opts.worktree)));
  await opts.sandbox?.admit();
  const ctx = spawnContext(r);
  r.progress.startHeartbeat(opts.heartbeatMs ?? 30_000);
  const downAtStart = ctx.modelDown();
  return downAtStart !== undefined ? modelDownAtStart(downAtStart, r.log) : r.deps.spawn(ctx);
}

/**
 * What the agent left uncommitted is committed, and its commits bundled, by the agent's own user: nothing of ours
 * runs git in a repository the agent could write (src/git/export.ts).
 */
function exportAgentWork(r: AtSpawn): Promise<ExportResult> {
  const { opts, home } = r;
  const sandbox = opts.sandbox;
  return exportWork({
    worktree: opts.worktree,
    runAs: sandbox?.runAs ?? [],
    home: sandbox ? home.root : (opts.sourceEnv.HOME ?? home.root),
    path: opts.sourceEnv.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    base: r.baseSha,
    bundle: r.bundleFile,
    ...(opts.gitIdentity ? { identity: opts.gitIdentity } : {}),
    message: opts.leftoverMessage ?? DEFAULT_LEFTOVER_MESSAGE,
  });
}

/**
 * Every process of the agent user ends, and its files become ours, before we read anything it wrote. The telemetry
 * stays with the run dir (post-mortems, the artifact); the sandbox's directory goes.
 */
async function settleSandbox(r: AtSpawn): Promise<void> {
  const sandbox = r.opts.sandbox;
  if (!sandbox) return;
  await sandbox.settle();
  for (const name of await readdir(r.agentRoot).catch(() => [] as string[])) {
    if (/^telemetry(-\d+)?\.json$/.test(name)) {
      await copyAgentFile(
        join(r.agentRoot, name),
        join(r.opts.runDir, name),
        r.agentFile(AGENT_FILE_LIMITS.telemetry),
      ).catch((e: unknown) => {
        if (e instanceof AgentFileRefused) r.log.warning(`skipped ${e.message}`);
      });
    }
  }
}

export async function spawnAgent(r: AtSpawn): Promise<Spawned> {
  const { opts, log } = r;
  const sandbox = opts.sandbox;
  const skills: string[] = [];
  let outcome: SpawnOutcome;
  let exported: ExportResult;
  // A cancelled job must not leave the agent's processes behind, whatever they did to leave our process tree.
  const releaseGuard = sandbox ? guardProcessExit(() => sandbox.reapSync()) : undefined;
  try {
    outcome = await taskThenSpawn(r, skills);
  } finally {
    // The context file and copied skills leave the worktree before anything is committed.
    await removeContextFile(opts.worktree).catch((e: unknown) =>
      log.warning(`removing the context file: ${getErrorMessage(e)}`),
    );
    await removeInstalledSkills(opts.worktree, skills).catch(() => undefined);
    exported = await exportAgentWork(r);
    await settleSandbox(r);
    releaseGuard?.();
    r.progress.stopHeartbeat();
  }
  const settled = withQuotaDetail(
    r.budget.settle(outcome, r.progress.tokens, opts.modelUsage?.()),
    opts.modelHealth?.().quotaWait,
  );
  // The message can quote the CLI's screen or stderr: someone else's text, kept on this line.
  log.info(`gemini ended: ${settled.status}${settled.message ? ` (${neutralize(settled.message)})` : ''}`);
  return { outcome: settled, exported };
}
