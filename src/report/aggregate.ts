/**
 * From what was gathered to what the report says: pure, so every figure of the HTML page, the Markdown and the JSON
 * comes from one place and a test can hold it to a table it computes itself.
 *
 * Nothing is guessed: a run without a summary has no status, tokens or pull request (it is counted under what
 * became of its summary); a version 1 summary's status is the engine's (said so), its trigger and pull request
 * unknown. Percentiles are nearest-rank: the value at rank ⌈q·n⌉ of the n values in ascending order.
 */
import { STATUS, failsStep, type Status } from '../domain/status.js';
import type {
  Count,
  Gathered,
  GatheredRun,
  IssueFacts,
  PullState,
  Report,
  ReportRun,
  SummaryState,
} from './model.js';

const DAY_MS = 86_400_000;
const MAX_MESSAGE = 300;

/** Conclusions of a workflow run that failed (the step failed, or the job was stopped). */
const FAILED_CONCLUSIONS = new Set(['failure', 'cancelled', 'timed_out', 'startup_failure']);

const TOKEN_BUCKETS: readonly { label: string; below: number }[] = [
  { label: '< 10k', below: 10_000 },
  { label: '10k–50k', below: 50_000 },
  { label: '50k–100k', below: 100_000 },
  { label: '100k–250k', below: 250_000 },
  { label: '250k–500k', below: 500_000 },
  { label: '500k–1M', below: 1_000_000 },
  { label: '≥ 1M', below: Infinity },
];

const MINUTE = 60_000;
const TIME_BUCKETS: readonly { label: string; below: number }[] = [
  { label: '< 5 min', below: 5 * MINUTE },
  { label: '5–15 min', below: 15 * MINUTE },
  { label: '15–30 min', below: 30 * MINUTE },
  { label: '30–60 min', below: 60 * MINUTE },
  { label: '1–2 h', below: 120 * MINUTE },
  { label: '2–6 h', below: 360 * MINUTE },
  { label: '≥ 6 h', below: Infinity },
];

/** What stands for the status of a run without one. */
export const NO_SUMMARY = 'no summary';
export const IN_PROGRESS = 'in progress';

function dayOf(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/** Every UTC day from `since`'s to `until`'s. */
export function daysBetween(since: string, until: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${dayOf(since)}T00:00:00Z`); t <= Date.parse(until); t += DAY_MS)
    days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** Nearest-rank percentile of ascending `sorted` (0 for none). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

function bucketed(values: readonly number[], buckets: readonly { label: string; below: number }[]): Count[] {
  const out = buckets.map((b) => ({ label: b.label, runs: 0 }));
  for (const v of values) out[buckets.findIndex((b) => v < b.below)]!.runs++;
  return out;
}

function isKnown(status: string): status is Status {
  return Object.hasOwn(STATUS, status);
}

function failedRun(status: string | null, conclusion: string | null): boolean {
  if (status !== null && isKnown(status)) return failsStep(status);
  return conclusion !== null && FAILED_CONCLUSIONS.has(conclusion);
}

function pullState(facts: IssueFacts | undefined): PullState {
  if (!facts) return 'unknown';
  if (facts.mergedAt) return 'merged';
  return facts.state === 'closed' ? 'closed' : 'open';
}

function firstLine(text: string | undefined): string | null {
  const line = text?.split(/\r?\n/, 1)[0]?.trim();
  if (!line) return null;
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}

/** One run as the report shows it. */
function reportRun(g: GatheredRun, issues: ReadonlyMap<number, IssueFacts>): ReportRun {
  const { run, summary: s } = g;
  const status = s?.outcome?.status ?? s?.status ?? null;
  const statusFrom = s?.outcome ? 'outcome' : s ? 'engine' : null;
  const label = status ?? (g.summaryState === 'in-progress' ? IN_PROGRESS : NO_SUMMARY);
  const triggeredAt = s?.trigger?.at ?? run.createdAt;
  const issueRef = s?.trigger?.issue;
  const issueFacts = issueRef ? issues.get(issueRef.number) : undefined;
  const pr = s?.pullRequest ?? null;
  const prFacts = pr ? issues.get(pr.number) : undefined;
  const created = pr?.operation === 'created' && prFacts ? Date.parse(prFacts.createdAt) : undefined;
  return {
    id: run.id,
    attempt: run.attempt,
    url: run.url,
    workflow: run.workflowPath,
    event: run.event,
    createdAt: run.createdAt,
    day: dayOf(run.createdAt),
    conclusion: run.conclusion,
    summary: g.summaryState,
    ...(g.note ? { note: g.note } : {}),
    status,
    statusFrom,
    label,
    failed: g.summaryState === 'in-progress' ? false : failedRun(status, run.conclusion),
    tokens: s ? s.usage.totalTokens : null,
    durationMs: s ? s.durationMs : null,
    via: s?.trigger?.via ?? null,
    triggeredAt,
    issue: issueRef
      ? {
          number: issueRef.number,
          title: issueFacts?.title ?? null,
          url: issueFacts?.url ?? null,
          isPullRequest: issueRef.isPullRequest,
        }
      : null,
    pullRequest: pr
      ? {
          number: pr.number,
          url: pr.url,
          title: prFacts?.title ?? null,
          operation: pr.operation,
          state: pullState(prFacts),
        }
      : null,
    timeToPullRequestMs: created === undefined ? null : Math.max(0, created - Date.parse(triggeredAt)),
    ciFixAttempt: s?.ciFix?.attempt ?? null,
    deferred: s?.deferral !== undefined || s?.outcome?.status === 'deferred',
    resumed: s?.trigger?.via === 'resume',
    message: firstLine(s?.message),
  };
}

function countBy<T>(items: readonly T[], key: (t: T) => string): Count[] {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m]
    .map(([label, runs]) => ({ label, runs }))
    .sort((a, b) => b.runs - a.runs || (a.label < b.label ? -1 : 1));
}

/** A message with its numbers folded, so the same cause with other figures counts as one. */
function messageKey(m: string): string {
  return m.replace(/\d+(\.\d+)?/g, 'N').toLowerCase();
}

/** A failed run's cause: its status, or without a summary the workflow run's conclusion. */
function causeOf(r: ReportRun): string {
  return r.status ?? `${NO_SUMMARY} (workflow ${r.conclusion ?? 'unknown'})`;
}

function failureCauses(runs: readonly ReportRun[]): Report['failureCauses'] {
  const failed = runs.filter((r) => r.failed);
  return countBy(failed, causeOf).map(({ label, runs: n }) => {
    const messages = failed
      .filter((r) => causeOf(r) === label)
      .map((r) => r.message)
      .filter((m): m is string => m !== null);
    const top = countBy(messages, messageKey)[0];
    return {
      label,
      runs: n,
      example: top ? (messages.find((m) => messageKey(m) === top.label) ?? null) : null,
    };
  });
}

function perDay(days: readonly string[], runs: readonly ReportRun[]): Report['perDay'] {
  return days.map((day) => {
    const on = runs.filter((r) => r.day === day);
    const byStatus: Record<string, number> = {};
    for (const r of on) byStatus[r.label] = (byStatus[r.label] ?? 0) + 1;
    return {
      day,
      runs: on.length,
      failed: on.filter((r) => r.failed).length,
      byStatus,
      tokens: on.reduce((sum, r) => sum + (r.tokens ?? 0), 0),
      pullRequestsOpened: on.filter((r) => r.pullRequest?.operation === 'created').length,
      ciFixRuns: on.filter((r) => r.ciFixAttempt !== null).length,
      deferred: on.filter((r) => r.deferred).length,
      resumed: on.filter((r) => r.resumed).length,
    };
  });
}

function pullRequests(runs: readonly ReportRun[]): Report['pullRequests'] {
  const byNumber = new Map<number, Report['pullRequests']['list'][number]>();
  for (const r of runs) {
    const pr = r.pullRequest;
    if (!pr) continue;
    const known = byNumber.get(pr.number);
    if (known) known.runs++;
    else
      byNumber.set(pr.number, { number: pr.number, url: pr.url, title: pr.title, state: pr.state, runs: 1 });
  }
  const list = [...byNumber.values()].sort((a, b) => b.number - a.number);
  const byState: Record<PullState, number> = { merged: 0, closed: 0, open: 0, unknown: 0 };
  for (const p of list) byState[p.state]++;
  const opened = new Set(
    runs.filter((r) => r.pullRequest?.operation === 'created').map((r) => r.pullRequest!.number),
  );
  return { byState, opened: opened.size, list };
}

function spread(values: readonly number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return { sorted, p50: percentile(sorted, 0.5), p90: percentile(sorted, 0.9), max: sorted.at(-1) ?? 0 };
}

export function buildReport(g: Gathered, now: Date): Report {
  const runs = g.runs
    .map((r) => reportRun(r, g.issues))
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
  const days = [...new Set([...daysBetween(g.since, g.until), ...runs.map((r) => r.day)])].sort();
  const summaries: Record<SummaryState, number> = {
    read: 0,
    expired: 0,
    'no-artifact': 0,
    'no-summary': 0,
    unreadable: 0,
    'in-progress': 0,
  };
  for (const r of runs) summaries[r.summary]++;
  const tokens = runs.map((r) => r.tokens).filter((t): t is number => t !== null);
  const t = spread(tokens);
  const total = tokens.reduce((a, b) => a + b, 0);
  const toPr = spread(runs.map((r) => r.timeToPullRequestMs).filter((v): v is number => v !== null));
  const fixes = runs.filter((r) => r.ciFixAttempt !== null);
  return {
    reportVersion: 1,
    repo: g.repo,
    serverUrl: g.serverUrl,
    generatedAt: now.toISOString(),
    window: { since: g.since, until: g.until, days },
    workflows: g.workflows,
    totals: {
      runs: runs.length,
      finished: runs.length - summaries['in-progress'],
      inProgress: summaries['in-progress'],
      failed: runs.filter((r) => r.failed).length,
      tokens: total,
      summaries,
      olderSummaries: runs.filter((r) => r.statusFrom === 'engine').length,
      notStarted: g.notStarted,
    },
    statuses: countBy(runs, (r) => r.label),
    perDay: perDay(days, runs),
    tokens: {
      total,
      runs: tokens.length,
      mean: tokens.length ? Math.round(total / tokens.length) : 0,
      p50: t.p50,
      p90: t.p90,
      max: t.max,
      buckets: bucketed(tokens, TOKEN_BUCKETS),
    },
    pullRequests: pullRequests(runs),
    timeToPullRequest: {
      runs: toPr.sorted.length,
      p50Ms: toPr.p50,
      p90Ms: toPr.p90,
      maxMs: toPr.max,
      buckets: bucketed(toPr.sorted, TIME_BUCKETS),
    },
    failureCauses: failureCauses(runs),
    ciFix: {
      runs: fixes.length,
      pullRequests: new Set(fixes.map((r) => r.pullRequest?.number ?? r.issue?.number)).size,
      byAttempt: countBy(fixes, (r) => `attempt ${r.ciFixAttempt}`).sort((a, b) =>
        a.label.localeCompare(b.label, 'en', { numeric: true }),
      ),
    },
    deferrals: {
      deferred: runs.filter((r) => r.deferred).length,
      resumed: runs.filter((r) => r.resumed).length,
    },
    runs,
  };
}
