/**
 * What the engine gives a mode runner (headless or interactive) and how a runner spends its attempts: each
 * attempt starts from a fresh telemetry file and session id, and a session-id collision earns one more try.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentFilePolicy } from '../util/agent-file.js';
import type { Usage, TranscriptToolCall } from '../domain/types.js';
import type { GeminiHome } from '../gemini/home.js';
import { newSessionId, type SpecOptions } from '../gemini/spawn.js';
import type { TelemetryEvent } from '../gemini/telemetry.js';
import { neutralize } from '../util/untrusted-text.js';
import type { RunOptions } from './options.js';
import type { Progress } from './progress.js';
import type { EngineStatus } from './types.js';

/** What one mode runner hands back to the engine. */
export interface SpawnOutcome {
  status: EngineStatus;
  message?: string;
  sessionId: string;
  exitCode: number | null;
  lastScreen?: string[];
  geminiLifetimeMs: number;
  /** Telemetry of the last spawn (the run's usage comes from it). */
  events: TelemetryEvent[];
  /** Headless: the stream's own totals and answer, used when telemetry or the transcript lack them. */
  usage?: Usage;
  answer?: string;
  toolCalls?: TranscriptToolCall[];
  /** A copy of the session file the CLI deleted at exit (src/run/progress.ts TranscriptToolTail). */
  keptTranscript?: string;
}

/** What the engine gives a mode runner. */
export interface SpawnContext {
  opts: RunOptions;
  home: GeminiHome;
  runId: string;
  progress: Progress;
  /** The environment of one spawn, with its own telemetry file. */
  envFor(telemetryFile: string): Record<string, string>;
  /** The rendered task (headless sends it on stdin). */
  taskText: string;
  /** Where gemini's own files go: the sandbox's directory, or the run dir without isolation. */
  agentRoot: string;
  /** True once the run spent more tokens than its budget: the mode runner stops the agent as at a timeout. */
  overBudget(): boolean;
  /** The model API was given up for unavailable (src/run/model-watch.ts): its message, else undefined. */
  modelDown(): string | undefined;
  /** Where the CLI records the session (the restored file when resuming), once it exists. */
  transcriptOf(sessionId: string): Promise<string | undefined>;
  /** How a file the agent could write is read (util/agent-file.ts): under agentRoot, owned by it or us. */
  agentFile(maxBytes: number): AgentFilePolicy;
}

/** What both mode runners start each spawn attempt with: a fresh telemetry file and the session to use. */
export async function prepareSpawn(
  ctx: SpawnContext,
  attempt: number,
): Promise<{
  telemetryFile: string;
  sessionId: string;
  spec: SpecOptions;
}> {
  const { opts } = ctx;
  // A retry (session-id collision) gets its own file, so the first attempt's edges cannot end the second.
  const telemetryFile = join(ctx.agentRoot, attempt === 0 ? 'telemetry.json' : `telemetry-${attempt}.json`);
  await rm(telemetryFile, { force: true });
  const sessionId = opts.resume ? opts.resume.sessionId : newSessionId();
  return {
    telemetryFile,
    sessionId,
    spec: {
      geminiPath: opts.geminiPath,
      worktree: opts.worktree,
      ...(opts.resume ? { resumeSessionId: sessionId } : { sessionId }),
      ...(opts.model !== undefined ? { model: opts.model } : {}),
      approvalMode: opts.approvalMode,
      env: ctx.envFor(telemetryFile),
      ...(opts.sandbox ? { runAs: opts.sandbox.runAs } : {}),
    },
  };
}

/** How one spawn ended: with an outcome, or refused by a session-id collision the walls allow a retry for. */
export type Attempt = { kind: 'done'; outcome: SpawnOutcome } | { kind: 'retry'; message: string };

/** Runs spawns until one is done; the walls decide how many retries a collision earns (`sessionRetries`). */
export async function runAttempts(
  ctx: SpawnContext,
  spawnOnce: (ctx: SpawnContext, attempt: number) => Promise<Attempt>,
): Promise<SpawnOutcome> {
  for (let attempt = 0; ; attempt++) {
    const r = await spawnOnce(ctx, attempt);
    if (r.kind === 'done') return r.outcome;
    ctx.opts.log.warning(
      `gemini refused the session id (${neutralize(r.message)}); retrying once with a fresh id`,
    );
  }
}
