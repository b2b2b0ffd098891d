/**
 * The vocabulary every layer shares (auth, task, the agent's events, usage, the transcript's shape). It sits below
 * everything else and imports only its sibling status table, so the Gemini adapter, GitHub and the engine can all speak it without
 * depending on each other; behaviour lives elsewhere.
 */
import type { InterruptedStatus } from './status.js';

export type ApprovalMode = 'yolo' | 'auto_edit' | 'default' | 'plan';
export const APPROVAL_MODES: readonly ApprovalMode[] = ['yolo', 'auto_edit', 'default', 'plan'];

export type RunMode = 'interactive' | 'headless';
export const RUN_MODES: readonly RunMode[] = ['interactive', 'headless'];

/** OAuth credentials as the CLI stores them in `oauth_creds.json` (google-auth-library Credentials). */
export interface OAuthCreds {
  access_token: string;
  refresh_token?: string;
  scope?: string;
  token_type?: string;
  /** ms since epoch */
  expiry_date?: number;
  id_token?: string;
  [key: string]: unknown;
}

/** How gemini authenticates for one run. Exactly one kind. */
export type AuthConfig =
  | {
      kind: 'oauth';
      creds: OAuthCreds;
      account?: string;
      /** A runner-host Gemini home (its `.gemini` parent) the creds came from; refreshed creds are written back. */
      hostHome?: string;
      project?: string;
    }
  | { kind: 'api-key'; apiKey: string }
  | { kind: 'vertex-ai'; project?: string; location?: string };

export type AuthKind = AuthConfig['kind'];

/** What the agent is asked to do. Everything here is user-written text; it only ever travels in the context file. */
export interface Task {
  /** Short title, used for the PR title. */
  title: string;
  /** The instruction: a comment's text after the trigger phrase, a dispatch prompt, or the issue body. */
  instruction: string;
  /** The issue or PR body when the instruction came from a comment. */
  body?: string;
  comments: { author: string; body: string }[];
  /** The review comment's place in the diff, when a review comment started the run. */
  anchor?: { path: string; line?: number; diffHunk?: string };
  /** The workflow's standing instructions (`instructions` input), shown after the task. */
  standingInstructions?: string;
  source: { kind: 'issue' | 'pull_request' | 'dispatch' | 'local'; number?: number; url?: string };
  /**
   * How the previous run on this pull request ended, from its summary's session record, when it stopped in the
   * middle of its work: the agent is told, since a resumed CLI may have dropped that last turn (0.61.0 rolls a
   * cancelled turn back) and a fresh session knows nothing of it.
   */
  previousRun?: { status: InterruptedStatus };
  /**
   * `flow: review`: the agent reviews, it does not change: the pull request's diff, what of it the diff leaves out,
   * and the file it answers in with that file's JSON shape. Nothing it commits is published.
   */
  review?: { diff: string; notShown: string[]; answerFile: string; shape: string };
  /** `flow: triage`: the agent proposes labels of the repository's own set; the action applies them. */
  triage?: {
    labels: { name: string; description: string }[];
    max: number;
    answerFile: string;
    shape: string;
  };
}

/** Where a previous run's conversation can be continued from. */
export interface ResumeSource {
  sessionId: string;
  /** A `session-*.jsonl` file saved from the previous run. */
  transcriptFile: string;
}

/** Normalised tool vocabulary shared by both modes' summaries. */
export type ToolKind =
  | 'read'
  | 'write'
  | 'edit'
  | 'shell'
  | 'glob'
  | 'grep'
  | 'ls'
  | 'webfetch'
  | 'websearch'
  | 'todo'
  | 'memory'
  | 'skill'
  | 'agent'
  | 'plan'
  | 'other';

/** Events both modes produce while the agent works (interactive: telemetry + transcript; headless: stream-json). */
export type RunEvent =
  | { type: 'started'; sessionId: string; model?: string }
  | { type: 'turn-started'; at: number }
  | { type: 'tool-started'; id?: string; name: string; kind: ToolKind; detail?: string }
  | {
      type: 'tool-completed';
      id?: string;
      name: string;
      kind: ToolKind;
      ok: boolean;
      durationMs?: number;
      output?: string;
    }
  | {
      type: 'model-response';
      model: string;
      inputTokens: number;
      outputTokens: number;
      totalTokens: number;
      durationMs?: number;
    }
  | { type: 'text'; text: string }
  | { type: 'api-error'; statusCode?: number; model?: string; message: string; terminalQuota: boolean }
  | { type: 'fallback'; toModel?: string }
  | { type: 'idle'; at: number }
  | { type: 'completed'; ok: boolean; error?: string }
  | { type: 'unknown'; raw: string };

export interface ModelUsage {
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  totalTokens: number;
  /** This model served because of a fallback, not because it was asked for. */
  fallback: boolean;
  /** It only answered the CLI's own utility calls (the model router's classifier), none of the agent's turns. */
  utility?: boolean;
}

export interface Usage {
  models: ModelUsage[];
  totalTokens: number;
  toolCalls: number;
  turns: number;
  durationMs: number;
}

export interface TranscriptToolCall {
  id: string;
  name: string;
  kind: ToolKind;
  status: string;
  args?: Record<string, unknown>;
  description?: string;
}

export interface TranscriptMessage {
  id: string;
  timestamp?: string;
  // `string & {}`: any other type the CLI adds, without swallowing the known ones in the union.
  type: 'user' | 'gemini' | 'info' | 'warning' | 'error' | (string & {});
  text: string;
  model?: string;
  tokens?: { input: number; output: number; cached: number; thoughts: number; tool: number; total: number };
  toolCalls: TranscriptToolCall[];
}

export interface FoldedTranscript {
  sessionId?: string;
  startTime?: string;
  lastUpdated?: string;
  messages: TranscriptMessage[];
  toolCalls: TranscriptToolCall[];
  tokensByModel: Record<
    string,
    { input: number; output: number; cached: number; total: number; messages: number }
  >;
  /** The last gemini message with text. */
  finalAnswer: string;
  /** Models that actually served, in first-seen order. */
  models: string[];
  /** Records too large to read safely (a line past the bound, or too many values): skipped, counted here. */
  skippedRecords?: number;
}
