/**
 * One run of the engine as one record: each phase (engine.ts) reads what the phases before it found and adds its
 * own part, overwriting nothing (util/record.ts `extend`). The phases are in src/run/phases/.
 */
import type { FoldedTranscript, Usage } from '../domain/types.js';
import type { GeminiHome } from '../gemini/home.js';
import type { ExportResult } from '../git/export.js';
import type { AgentFilePolicy } from '../util/agent-file.js';
import type { Logger } from '../util/log.js';
import type { SpawnContext, SpawnOutcome } from './attempt.js';
import type { TokenBudget } from './budget.js';
import type { RunOptions } from './options.js';
import type { Progress } from './progress.js';
import type { CommitInfo } from './types.js';

/** What runs gemini: the mode runner of the run's mode, or a test's stand-in that plays an agent without it. */
export interface EngineDeps {
  spawn(ctx: SpawnContext): Promise<SpawnOutcome>;
}

/** start: the run's identity, its clock, and where the agent's files go. */
export interface Started {
  opts: RunOptions;
  deps: EngineDeps;
  log: Logger;
  /** Epoch ms. */
  startedAt: number;
  runId: string;
  /** Where gemini's own files go: the sandbox's directory, or the run dir without isolation. */
  agentRoot: string;
  tmpDir: string;
}

/** prepareHome: the agent's home, its task and how what it writes is read; nothing of the agent runs yet. */
export interface HomeReady {
  /** The worktree's HEAD before the agent: the run's commits are the ones after it. */
  baseSha: string;
  home: GeminiHome;
  /** Where the agent's allow-listed variables come from (an agent-readable copy of a CA bundle, when isolated). */
  agentEnv: NodeJS.ProcessEnv;
  /** How a file the agent could write is read (util/agent-file.ts). */
  agentFile: (maxBytes: number) => AgentFilePolicy;
  /** Where the CLI records a session (the restored file when resuming), once it exists. */
  transcriptOf: (sessionId: string) => Promise<string | undefined>;
  taskText: string;
  progress: Progress;
  budget: TokenBudget;
  /** Where the agent's user bundles its commits. */
  bundleFile: string;
}

/** spawnAgent: how gemini ended, and the agent's work committed and bundled by its own user. */
export interface Spawned {
  outcome: SpawnOutcome;
  exported: ExportResult;
}

/** collect: what the run's session file and telemetry say. */
export interface Collected {
  /** The run's own copy of the session file (in the run dir), when there is one it could read. */
  transcriptPath: string | undefined;
  transcript: FoldedTranscript;
  usage: Usage;
}

/** takeCommits: the agent's commits on the action's side (the vault), or in the worktree without one. */
export interface Taken {
  headSha: string;
  commits: CommitInfo[];
  filesChanged: string[];
  /** The agent left work that could not be committed (why, in one line): the run did not keep it. */
  uncommitted?: string;
}

/** The record as each phase finds it. */
export type AtPrepareHome = Started;
export type AtSpawn = Started & HomeReady;
export type AtCollect = AtSpawn & Spawned;
export type AtTake = AtCollect & Collected;
export type AtEnd = AtTake & Taken;
