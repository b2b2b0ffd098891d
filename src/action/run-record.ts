/**
 * One action run as one record: each phase of the pipeline (run-action.ts) reads what the phases before it
 * found and adds its own part. The tracking comment, the publish and the report read it; nothing is handed back
 * through out-parameters or turned into a string and parsed again.
 */
import type { AuthConfig, Task } from '../domain/types.js';
import type { CliProfile } from '../gemini/cli-profile.js';
import type { SavedCredentials } from '../git/credentials.js';
import type { GitHubClient, RepoRef } from '../github/client.js';
import type { GitHubSession } from '../github/session.js';
import type { CommitIdentity } from '../github/identity.js';
import type { RunTrigger } from '../github/trigger.js';
import type { Approval } from '../github/approval.js';
import type { SessionRecord } from './pr-text.js';
import type { CiFix } from './ci-fix.js';
import type { Privilege } from '../isolation/privilege.js';
import type { OAuthTokenSource } from '../proxy/oauth-token.js';
import type { runAgent } from '../run/engine.js';
import type { ActionStatus, RunResult } from '../run/types.js';
import type { Logger } from '../util/log.js';
import type { Publisher } from './publishing.js';
import type { BranchPlan, prepareWorktree } from './branch.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import type { prepareVertex } from '../host/model-access.js';
import type { ActionOutputs } from './outputs.js';
import type { Deferred } from './deferral.js';
import type { Reservation } from './spend-ledger.js';
import type { PublishOutcome } from './publish.js';
import type { Redactor } from './redact.js';
import type { TrackingComment } from './tracking-comment.js';
import type { TranscriptStore } from './transcript-store.js';

/** Everything the pipeline needs from its host: the action (core) or the demo (plain streams). */
export interface ActionIo {
  log: Logger;
  /** Mask a secret in the log as soon as it is known. */
  mask(secret: string): void;
  saveState(
    key: 'runDir' | 'worktree' | 'savedCredentials' | 'sandbox' | 'tracking' | 'workspace' | 'egress',
    value: string,
  ): void;
  writeJobSummary(markdown: string): Promise<void>;
  /** Where transcripts are kept between runs (a workflow artifact, or a local directory on self-hosted runners). */
  transcriptStore(o: { token: string; repo: RepoRef }): TranscriptStore;
  /** The process environment the action runs in (source of the allow-listed variables). */
  env: NodeJS.ProcessEnv;
}

/** Which gemini runs: its path and the profile of its version. */
export interface GeminiBinary {
  path: string;
  profile: CliProfile;
}

/**
 * What the pipeline runs that is heavy or outside: the engine and how gemini is found. The action passes the
 * real ones; a test passes a stub engine that returns a RunResult and runs every path in seconds.
 */
export interface PipelineDeps {
  runAgent: typeof runAgent;
  /** Checks the gemini the inputs name before anything else happens (its version), without installing it. */
  checkGemini(inputs: ActionInputs, env: NodeJS.ProcessEnv, log: Logger): Promise<GeminiCheck>;
  /** Installs (or finds in the tool cache) the gemini `checkGemini` accepted. */
  installGemini(check: GeminiCheck, toolCache: string, log: Logger): Promise<GeminiBinary>;
  /** The pipeline's clock (epoch ms): when a deferral is due, when an approval was made. */
  now(): number;
  /**
   * Milliseconds per second of GitHub's back-off (a retry-after, the retry plugin's 1 s, 4 s, 9 s after a 5xx).
   * Default 1000; tests make it small so a retried request is exercised without waiting 14 s.
   */
  githubBackoffMs?: number;
}

/** The gemini the inputs name, checked: a path that ran, or a version to install. */
export type GeminiCheck = { kind: 'path'; binary: GeminiBinary } | { kind: 'install'; profile: CliProfile };

/** How a run ended when it ends early: the outputs and the step's failure, if it fails. */
export interface ActionResult {
  outputs: ActionOutputs;
  /** Set when the step must fail: the one-line reason. */
  failure?: string;
}

/** The host and how secrets are kept out of everything the run writes. */
export interface Basics {
  inputs: ActionInputs;
  ctx: ActionContext;
  io: ActionIo;
  deps: PipelineDeps;
  log: Logger;
  redactor: Redactor;
  /** Masks a secret in the log and redacts it from everything published. */
  mask(secret: string): void;
  /** The step's one session with GitHub; undefined without a token (the preflight refuses such a run). */
  github: GitHubSession | undefined;
  now(): Date;
}

/** interpret: the run the event asks for, and of whom, as its payload says (admit settles it as `trigger`). */
export interface Triggered {
  requested: RunTrigger;
}

/** preflight: every local check passed. */
export interface Checked {
  auth: AuthConfig;
  model: string | undefined;
  privilege: Exclude<Privilege, 'none'> | undefined;
  gemini: GeminiCheck;
  userSettings: Record<string, unknown>;
}

/** admit: the actor may run it, and how the run speaks on GitHub (publisher.ts: the rules of its texts). */
export interface Admitted extends Publisher {
  /** The session's token (github/session.ts), for git's push and the artifact store. */
  token: string;
  /** The session's client for this run: a rate limit is waited out within the run's own time. */
  client: GitHubClient;
  repo: RepoRef;
  runUrl: string;
  /** The token's own login, asked once: only comments it wrote are ours to update or resume from. */
  self(): Promise<string | undefined>;
  /** Writes the marked comment on the issue (or PR) of the trigger; best effort. */
  tellIssue(text: string): Promise<void>;
  /** The trigger as admission settled it (a CI fix learns its pull request and task only here). */
  trigger: RunTrigger;
  /** What a writer approved (github/approval.ts): made here for an event, carried for a later run of the work. */
  approval: Approval;
  /** `fix-ci`: the fix run's attempt and failure, for its record and its tracking comment. */
  ciFix?: CiFix;
}

/** acknowledge: the person sees the run was picked up. */
export interface Acknowledged {
  tracking: TrackingComment | undefined;
}

/** budget: what the run may spend of the repository's `max-daily-tokens` today (absent: no cap). */
export interface Budgeted {
  dailyBudget?: Reservation;
}

/** prepare: what the agent is asked, where it works, what it continues. */
export interface Prepared {
  oauth: OAuthTokenSource | undefined;
  vertex: Awaited<ReturnType<typeof prepareVertex>>;
  binary: GeminiBinary;
  task: Task;
  plan: BranchPlan;
  runDir: string;
  workspace: Awaited<ReturnType<typeof prepareWorktree>>;
  store: TranscriptStore;
  previousSummary: string;
  /** The previous run's session record on the pull request, when every check of its origin passed. */
  previousRecord?: SessionRecord;
  resume: Parameters<typeof runAgent>[0]['resume'];
  /** The checkout's credential as it was moved away for the run (given back after publishing). */
  savedCredentials: SavedCredentials;
}

/** work: how the agent's run ended; everything it opened is closed again. */
export interface Worked {
  /** As the engine returned it (publish settles the commits: `result`). */
  engineResult: RunResult;
  /** Who the commits the action makes are by (the pushing token's identity, or the inputs'). */
  identity: CommitIdentity;
}

/** publish: the commits settled (scrubbed) and where they went. */
export interface Published {
  /** The engine's result with the commits as published (scrubbed, or re-created signed). */
  result: RunResult;
  /** How the run ended once published: the engine's status, or `no-changes`, `publish-failed`. */
  runStatus: ActionStatus;
  summaryBody: string;
  published: PublishOutcome | undefined;
  outDir: string;
  artifactName: string;
}

/** defer: the status the step reports (`deferred` when `on-quota: defer` deferred the run, else `runStatus`). */
export interface Settled {
  status: ActionStatus;
  deferral?: Deferred;
}

/** The record as each phase finds it: everything the phases before it added. */
export type AtAdmit = Basics & Triggered & Checked;
export type AtPrepare = AtAdmit & Admitted & Acknowledged;
export type AtWork = AtPrepare & Budgeted & Prepared;
export type AtPublish = AtWork & Worked;
export type AtDefer = AtPublish & Published;
export type AtReport = AtDefer & Settled;
