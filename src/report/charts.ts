/**
 * The report's figures as chart specifications, one list that the HTML page (Chart.js) and the Markdown (mermaid)
 * both draw, so the two show the same figures from the same numbers. Labels here are ours (days, status words,
 * bucket names): no text from an issue or a summary's message is ever a chart label.
 */
import { IN_PROGRESS, NO_SUMMARY } from './aggregate.js';
import type { Count, Report } from './model.js';

export interface ChartSpec {
  id: string;
  title: string;
  kind: 'stacked-bar' | 'bar' | 'pie' | 'hbar';
  /** The x categories, or the pie's slices. */
  labels: string[];
  series: { name: string; values: number[] }[];
  /** A line over the bars (the failed runs of each day). */
  line?: { name: string; values: number[] };
  /** What the y axis counts. */
  unit: string;
  /** Drawn only on the HTML page (a bar per run does not fit a Markdown chart). */
  htmlOnly?: boolean;
}

function fromCounts(counts: readonly Count[]): { labels: string[]; values: number[] } {
  return { labels: counts.map((c) => c.label), values: counts.map((c) => c.runs) };
}

/** Runs counted by category, as bars. */
function bars(id: string, title: string, counts: readonly Count[]): ChartSpec {
  const { labels, values } = fromCounts(counts);
  return { id, title, kind: 'bar', labels, series: [{ name: 'runs', values }], unit: 'runs' };
}

/** A pie's slices: only those with runs (an empty slice says nothing and some renderers refuse it). */
function pie(id: string, title: string, counts: readonly Count[]): ChartSpec {
  const some = fromCounts(counts.filter((c) => c.runs > 0));
  return {
    id,
    title,
    kind: 'pie',
    labels: some.labels,
    series: [{ name: 'runs', values: some.values }],
    unit: 'runs',
  };
}

/** Statuses in the order the legend shows them: the most common first, then what stands in for a status. */
function statusOrder(r: Report): string[] {
  const labels = r.statuses.map((s) => s.label);
  const stand = [NO_SUMMARY, IN_PROGRESS];
  return [...labels.filter((l) => !stand.includes(l)), ...labels.filter((l) => stand.includes(l))];
}

export function chartsOf(r: Report): ChartSpec[] {
  const days = r.perDay.map((d) => d.day);
  const withTokens = [...r.runs].reverse().filter((run) => run.tokens !== null);
  const fixes = r.ciFix.byAttempt.map((c) => ({ label: `CI fix ${c.label}`, runs: c.runs }));
  const waits = [
    { label: 'deferred', runs: r.deferrals.deferred },
    { label: 'resumed', runs: r.deferrals.resumed },
  ];
  return [
    {
      id: 'runs-per-day',
      title: 'Runs per day, by status',
      kind: 'stacked-bar',
      labels: days,
      series: statusOrder(r).map((status) => ({
        name: status,
        values: r.perDay.map((d) => d.byStatus[status] ?? 0),
      })),
      line: { name: 'failed', values: r.perDay.map((d) => d.failed) },
      unit: 'runs',
    },
    pie('statuses', 'Runs by status', r.statuses),
    {
      id: 'tokens-per-day',
      title: 'Tokens per day',
      kind: 'bar',
      labels: days,
      series: [{ name: 'tokens', values: r.perDay.map((d) => d.tokens) }],
      unit: 'tokens',
    },
    {
      id: 'tokens-per-run',
      title: 'Tokens per run',
      kind: 'bar',
      labels: withTokens.map((run) => `#${run.id}`),
      series: [{ name: 'tokens', values: withTokens.map((run) => run.tokens ?? 0) }],
      unit: 'tokens',
      htmlOnly: true,
    },
    bars('tokens-per-run-spread', 'Runs by tokens spent', r.tokens.buckets),
    bars('time-to-pull-request', 'Time from trigger to pull request', r.timeToPullRequest.buckets),
    pie(
      'pull-request-outcomes',
      'Pull requests by outcome',
      (['merged', 'closed', 'open', 'unknown'] as const).map((s) => ({
        label: s,
        runs: r.pullRequests.byState[s],
      })),
    ),
    {
      id: 'failure-causes',
      title: 'Most common failure causes',
      kind: 'hbar',
      labels: r.failureCauses.slice(0, 10).map((c) => c.label),
      series: [{ name: 'runs', values: r.failureCauses.slice(0, 10).map((c) => c.runs) }],
      unit: 'runs',
    },
    bars('ci-fix-and-deferrals', 'CI-fix attempts and deferrals', [...fixes, ...waits]),
  ];
}
