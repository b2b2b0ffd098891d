/**
 * The report's two shapes: what is gathered from GitHub (one `GatheredRun` per workflow run, with what its
 * artifact said or why it said nothing, and the facts of the issues and pull requests it names), and what the
 * report says (`Report`, the `--json` output and the numbers behind the HTML page and the Markdown).
 */
import type { RunSummary } from '../domain/run-summary.js';

/** What became of a run's `run-summary.json`. */
export type SummaryState =
  /** Read (downloaded now or from the cache). */
  | 'read'
  /** The run's artifact expired before it was read (and the cache never had it). */
  | 'expired'
  /** The run has no `gemini-run-<run>-<attempt>` artifact: it ended before the agent ran, or it was deleted. */
  | 'no-artifact'
  /** The artifact holds no run-summary.json (`upload-transcript: false` keeps only a bundle, if anything). */
  | 'no-summary'
  /** The artifact or its run-summary.json could not be read; `note` says why. */
  | 'unreadable'
  /** The run has not finished. */
  | 'in-progress';

/** One workflow run as the REST API lists it. */
export interface WorkflowRunFacts {
  id: number;
  attempt: number;
  workflowPath: string;
  event: string;
  /** `completed`, `in_progress`, `queued`, … */
  status: string;
  /** `success`, `failure`, `cancelled`, … when completed. */
  conclusion: string | null;
  createdAt: string;
  url: string;
  title: string;
}

/** An issue or pull request as the REST API gives it. */
export interface IssueFacts {
  number: number;
  title: string;
  url: string;
  isPullRequest: boolean;
  state: 'open' | 'closed';
  createdAt: string;
  /** For a pull request: when it was merged. */
  mergedAt: string | null;
}

export interface GatheredRun {
  run: WorkflowRunFacts;
  summaryState: SummaryState;
  summary?: RunSummary;
  /** Why the summary is `unreadable`. */
  note?: string;
}

export interface Gathered {
  repo: string;
  /** The web server (`https://github.com`), for links. */
  serverUrl: string;
  since: string;
  until: string;
  workflows: { path: string; name: string }[];
  runs: GatheredRun[];
  /** Workflow runs left out: their job never started (conclusion `skipped`, the workflow's own `if:`). */
  notStarted: number;
  /** Issues and pull requests by number; a number the API does not know (deleted) is absent. */
  issues: Map<number, IssueFacts>;
}

export type PullState = 'merged' | 'closed' | 'open' | 'unknown';

export interface ReportRun {
  id: number;
  attempt: number;
  url: string;
  workflow: string;
  event: string;
  createdAt: string;
  /** The UTC day of `createdAt` (YYYY-MM-DD). */
  day: string;
  /** The workflow run's conclusion (null while it runs). */
  conclusion: string | null;
  summary: SummaryState;
  note?: string;
  /** The run's final status (the `status` output); from a version 1 summary, the engine's; null without a summary. */
  status: string | null;
  statusFrom: 'outcome' | 'engine' | null;
  /** The status, or what stands in for it in the figures when there is no summary (`no summary`, `in progress`). */
  label: string;
  failed: boolean;
  tokens: number | null;
  durationMs: number | null;
  via: string | null;
  /** When the trigger happened: the summary's time, else the workflow run's creation (the event's time). */
  triggeredAt: string;
  issue: { number: number; title: string | null; url: string | null; isPullRequest: boolean } | null;
  pullRequest: {
    number: number;
    url: string;
    title: string | null;
    operation: 'created' | 'updated';
    state: PullState;
  } | null;
  /** For a run that opened its pull request: from the trigger to the pull request's creation. */
  timeToPullRequestMs: number | null;
  ciFixAttempt: number | null;
  deferred: boolean;
  resumed: boolean;
  /** The run's one-line message (why it ended so), capped. */
  message: string | null;
}

export interface Count {
  label: string;
  runs: number;
}

export interface Report {
  reportVersion: 1;
  repo: string;
  serverUrl: string;
  generatedAt: string;
  window: { since: string; until: string; days: string[] };
  workflows: { path: string; name: string }[];
  totals: {
    runs: number;
    finished: number;
    inProgress: number;
    failed: number;
    tokens: number;
    /** What became of the summaries: each state and how many runs. */
    summaries: Record<SummaryState, number>;
    /** Summaries written before version 2: their status is the engine's, their trigger and pull request unknown. */
    olderSummaries: number;
    /** Workflow runs not counted at all: their job never started (the workflow's own `if:`). */
    notStarted: number;
  };
  /** Runs per status (the label), most first. */
  statuses: Count[];
  perDay: {
    day: string;
    runs: number;
    failed: number;
    byStatus: Record<string, number>;
    tokens: number;
    pullRequestsOpened: number;
    ciFixRuns: number;
    deferred: number;
    resumed: number;
  }[];
  tokens: {
    total: number;
    /** Runs whose tokens are known. */
    runs: number;
    mean: number;
    p50: number;
    p90: number;
    max: number;
    buckets: Count[];
  };
  pullRequests: {
    /** Distinct pull requests the runs opened or updated, by state now. */
    byState: Record<PullState, number>;
    opened: number;
    list: { number: number; url: string; title: string | null; state: PullState; runs: number }[];
  };
  timeToPullRequest: { runs: number; p50Ms: number; p90Ms: number; maxMs: number; buckets: Count[] };
  failureCauses: { label: string; runs: number; example: string | null }[];
  ciFix: { runs: number; pullRequests: number; byAttempt: Count[] };
  deferrals: { deferred: number; resumed: number };
  /** Every run, newest first. */
  runs: ReportRun[];
}
