/** What a run of the engine hands back: the contract between the engine, the action and the CLI. */
import type { FoldedTranscript, RunMode, Usage } from '../domain/types.js';
import type { ServedTokens } from '../proxy/usage-meter.js';
import type { RefusalReason } from '../proxy/forward-proxy.js';

export { ENGINE_STATUSES, type ActionStatus, type EngineStatus } from '../domain/status.js';
import type { EngineStatus, FailedPart } from '../domain/status.js';

export interface CommitInfo {
  sha: string;
  subject: string;
}

export interface RunResult {
  status: EngineStatus;
  /** Why it ended that way, in one line (the server's own message for auth and quota walls). */
  message?: string;
  /** What failed, when the run ended on a failure that is not the agent's work (the workspace, GitHub, …). */
  failedPart?: FailedPart;
  mode: RunMode;
  sessionId: string;
  model?: string;
  transcriptPath?: string;
  transcript: FoldedTranscript;
  usage: Usage;
  exitCode: number | null;
  startedAt: string;
  durationMs: number;
  /** How long the gemini process itself lived (for the run-overhead benchmark). */
  geminiLifetimeMs: number;
  /** Last screen lines (interactive) or stderr tail (headless), for crash reports. */
  lastScreen?: string[];
  baseSha: string;
  headSha: string;
  commits: CommitInfo[];
  filesChanged: string[];
  /** Uncommitted work was committed by the engine after the agent stopped. */
  leftoverCommitted: boolean;
  /** The run's token budget (`max-tokens`), when it had one. */
  maxTokens?: number;
  /**
   * Calls the model proxy refused because they were not model calls (files, caches, tuning, …): how many, and
   * the first few as `METHOD /path` (shortened, plain characters only). Absent when there were none.
   */
  refusedCalls?: { count: number; first: string[] };
  /**
   * What the model proxy served (its own count off every answer's usage, the agent's direct calls included) and
   * how many model calls it refused at the token limit. Absent without a proxy. `usage.totalTokens` is never lower
   * than `served.tokens`.
   */
  served?: ServedTokens;
  /** What `network` restricted or none refused the agent (src/host/egress.ts). Absent under `open`. */
  egress?: EgressSummary;
  /** The host's local services' sockets for an isolated agent (src/isolation/local-services.ts). */
  localServices?: LocalServicesSummary;
}

export interface LocalServicesSummary {
  /** Sockets hidden from the agent in its mount namespace. */
  hidden: number;
  /** Sockets it could still reach, because this host gave no way to hide them (`unavailable` says why). */
  reachable: string[];
  unavailable?: string;
  /** Abstract sockets bound on the host: within its reach wherever it runs. */
  abstract: string[];
}

export interface EgressSummary {
  mode: 'restricted' | 'none';
  /**
   * Hosts the forward proxy refused: as shown (plain host names only), port, how often, first time (ISO), and why
   * (a name not allowed, one that resolves inside the runner, a Host header naming another host).
   */
  blocked: { host: string; port: number; count: number; first: string; why: RefusalReason }[];
  /** Packets of direct connections (raw TCP, UDP/DNS, IPv6, other loopback ports) the packet filter refused. */
  droppedPackets: number;
  /**
   * Where those direct connections went: address, port, and attempts (each source port once), most tried first,
   * at most 20. Empty when the host's iptables lacks the hashlimit match (the count above still holds).
   */
  droppedTo: { address: string; port: number; count: number }[];
}
