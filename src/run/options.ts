/** What a caller hands the engine for one run (kept apart from the engine so the mode runners can read it too). */
import type { ApprovalMode, AuthConfig, ResumeSource, RunEvent, RunMode, Task } from '../domain/types.js';
import type { CliProfile } from '../gemini/cli-profile.js';
import type { ModelEndpoint } from '../gemini/spawn.js';
import type { GitIdentity } from '../git/commits.js';
import type { Vault } from '../git/vault.js';
import type { AgentSandbox } from '../isolation/sandbox.js';
import type { Logger } from '../util/log.js';
import type { ServedTokens } from '../proxy/usage-meter.js';

/** What the model proxy saw of the model API (src/proxy/upstream-health.ts), as one-line messages. */
export interface ModelHealth {
  /** The first call that failed (no answer, or a 5xx): shown as a warning and in the progress. */
  firstFailure?: string;
  /** The model API is given up for unavailable: the run stops, `model-unavailable`. */
  down?: string;
  /** The latest 429 (a quota the model API asks to wait for), and how many there were: each new one is shown. */
  quotaWait?: { message: string; count: number };
}

export interface RunOptions {
  /** The checked-out repository the agent works in (its commits stay there). */
  worktree: string;
  task: Task;
  auth: AuthConfig;
  geminiPath: string;
  /** What differs in the CLI at geminiPath (src/gemini/cli-profile.ts); default 0.42.0's. */
  cliProfile?: CliProfile;
  /** undefined = Auto. */
  model?: string;
  approvalMode: ApprovalMode;
  mode: RunMode;
  /** Bound on the agent's work, from the spawn. */
  timeoutMs: number;
  /** A private directory for this run: the Gemini home, TMPDIR, telemetry, the pane script. */
  runDir: string;
  /** Where allow-listed variables (PATH, proxies, ...) are copied from. Never passed through whole. */
  sourceEnv: NodeJS.ProcessEnv;
  resume?: ResumeSource;
  skillsDir?: string;
  gitIdentity?: GitIdentity;
  log: Logger;
  onEvent?: (e: RunEvent) => void;
  /** Heartbeat period; default 30000; 0 turns it off. */
  heartbeatMs?: number;
  /** How long to wait for gemini to exit after /quit before killing it; default 10000. */
  graceMs?: number;
  /** How long to wait for the idle edge after the timeout's Escape; default 15000. */
  escapeGraceMs?: number;
  tmuxPath?: string;
  /** Message of the engine's commit of uncommitted work. */
  leftoverMessage?: string;
  /**
   * The agent's own user and directory. When given, gemini and everything it starts run as that user, its home,
   * TMPDIR and telemetry live in the sandbox's directory, and every process of the user ends before the engine
   * touches the worktree again. Without it the agent runs as this process's user (`isolation: none`).
   */
  sandbox?: AgentSandbox;
  /**
   * The action's own repository (src/git/vault.ts): the agent's commits are fetched into it from a bundle its
   * user wrote, and listed there. Without it (the toolkit's `run` on the operator's own repository, where the
   * agent is the operator's user) they are read from the worktree.
   */
  vault?: Vault;
  /** The loopback model proxy that holds the credential; gemini gets its URL and a placeholder. */
  modelEndpoint?: ModelEndpoint;
  /** `network: restricted`: the forward proxy the agent's HTTPS_PROXY / HTTP_PROXY name (src/host/egress.ts). */
  egressProxy?: string;
  /** The workflow's own Gemini settings (src/gemini/user-settings.ts), already without the product's keys. */
  userSettings?: Record<string, unknown>;
  /** Extensions installed into the run's home (src/gemini/extensions.ts). */
  extensions?: readonly string[];
  /** Token budget of the run (src/run/budget.ts); 0 or absent: none. */
  maxTokens?: number;
  /**
   * Called once when the timeout or the budget stops the agent, before it is told to stop: the model proxy then
   * refuses every further call, so nothing the CLI sends by itself afterwards is answered.
   */
  fenceModel?: () => void;
  /** The model proxy's view of the upstream; read on every tick (src/run/model-watch.ts). */
  modelHealth?: () => ModelHealth;
  /** What the model proxy served so far (src/proxy/usage-meter.ts); read on every tick by the budget. */
  modelUsage?: () => ServedTokens;
}
