/**
 * The engine's options for a test (`runAgent(runOptions({ repo, runDir, … }))`): what every test names (its work
 * repository and run dir) plus what it cares about; everything else is the same for all: a local task, an API key,
 * the pinned gemini, yolo, interactive, a minute, the test identity, no heartbeat.
 */
import type { Task } from '../../src/domain/types.js';
import type { RunOptions } from '../../src/run/options.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { GEMINI_BIN, TEST_GIT_IDENTITY } from './gemini-launcher.js';

export interface TestRunOptions extends Partial<Omit<RunOptions, 'worktree' | 'sourceEnv'>> {
  /** The work repository: the agent's worktree, and the environment the run starts from. */
  repo: { dir: string; env: NodeJS.ProcessEnv };
  runDir: string;
  /** The fake model API the CLI talks to (GOOGLE_GEMINI_BASE_URL). */
  modelUrl?: string;
  /** More environment on top of the repository's. */
  env?: NodeJS.ProcessEnv;
}

export const TEST_TASK: Task = {
  title: 'Test task',
  instruction: 'Do the scripted thing.',
  comments: [],
  source: { kind: 'local' },
};

export function runOptions({ repo, runDir, modelUrl, env, ...rest }: TestRunOptions): RunOptions {
  return {
    worktree: repo.dir,
    runDir,
    task: TEST_TASK,
    auth: { kind: 'api-key', apiKey: 'fake-key' },
    geminiPath: GEMINI_BIN,
    model: 'gemini-2.5-flash',
    approvalMode: 'yolo',
    mode: 'interactive',
    timeoutMs: 60_000,
    sourceEnv: {
      ...repo.env,
      ...(modelUrl === undefined ? {} : { GOOGLE_GEMINI_BASE_URL: modelUrl }),
      ...env,
    },
    gitIdentity: TEST_GIT_IDENTITY,
    log: createMemoryLogger(),
    heartbeatMs: 0,
    ...rest,
  };
}
