/**
 * The report as GitHub-flavoured Markdown, for a job summary or an issue: the headline figures, each chart as a
 * mermaid block GitHub draws (`xychart-beta` bars and lines, `pie`) with its numbers in a table beside it, the
 * failure causes, and the runs. Someone else's text (issue titles, a run's message) is plain text in its cell
 * (markdown/publish.ts `plainInline`: no mention, foreign link, image or HTML takes effect, pipes escaped); chart labels are ours only. The whole stays under GitHub's 65,536 characters of an issue body.
 */
import { plainInline, type PublishContext } from '../markdown/publish.js';
import type { ChartSpec } from './charts.js';
import { chartsOf } from './charts.js';
import type { Report, ReportRun } from './model.js';
import { formatDuration, formatNumber, gaps, notCounted, ownUrl } from './text.js';

/** Under GitHub's limit on an issue body, with room for a heading the workflow adds. */
export const MARKDOWN_BUDGET = 60_000;

/** Someone else's text as the content of one table cell: plain text, its pipes escaped, nothing live. */
function cellText(text: string, ctx: PublishContext): string {
  return plainInline(text.trim(), ctx, { table: true });
}

function row(cells: readonly (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function table(
  head: readonly string[],
  rows: readonly (readonly (string | number)[])[],
  right: number[] = [],
): string[] {
  const rule = head.map((_, i) => (right.includes(i) ? '---:' : '---'));
  return [row(head), row(rule), ...rows.map(row)];
}

/** A mermaid label: ours only, quotes and brackets never appear in them, but a stray one must not end the string. */
function quoted(label: string): string {
  return `"${label.replace(/["\\[\]]/g, ' ')}"`;
}

function mermaid(lines: readonly string[]): string[] {
  return ['```mermaid', ...lines, '```'];
}

/** A chart as mermaid: bars (a stacked chart as its totals, with its line), or a pie. */
function chartBlock(c: ChartSpec): string[] {
  if (c.labels.length === 0) return [];
  if (c.kind === 'pie') {
    return mermaid([
      `pie title ${c.title}`,
      ...c.labels.map((l, i) => `    ${quoted(l)} : ${c.series[0]?.values[i] ?? 0}`),
    ]);
  }
  const totals = c.labels.map((_, i) => c.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const short = c.labels.map((l) => (/^\d{4}-\d\d-\d\d$/.test(l) ? l.slice(5) : l));
  return mermaid([
    c.kind === 'hbar' ? 'xychart-beta horizontal' : 'xychart-beta',
    `    title ${quoted(c.line ? `${c.title} (bars: ${c.unit}, line: ${c.line.name})` : c.title)}`,
    `    x-axis [${short.map(quoted).join(', ')}]`,
    `    y-axis ${quoted(c.unit)}`,
    `    bar [${totals.join(', ')}]`,
    ...(c.line ? [`    line [${c.line.values.join(', ')}]`] : []),
  ]);
}

function link(text: string, url: string | null, serverUrl: string): string {
  const own = ownUrl(url, serverUrl);
  return own ? `[${text}](${own})` : text;
}

function headline(r: Report): string[] {
  const t = r.totals;
  const prs = r.pullRequests;
  const parts = [
    `**${formatNumber(t.runs)} runs** (${formatNumber(t.failed)} failed${t.inProgress ? `, ${t.inProgress} in progress` : ''})`,
    `**${formatNumber(t.tokens)} tokens**`,
    `**${prs.list.length} pull requests** (${prs.byState.merged} merged, ${prs.byState.closed} closed, ${prs.byState.open} open)`,
  ];
  if (r.timeToPullRequest.runs > 0)
    parts.push(`median time from trigger to pull request **${formatDuration(r.timeToPullRequest.p50Ms)}**`);
  return [parts.join(' · ')];
}

function gapNote(r: Report): string[] {
  const g = gaps(r);
  const skipped = notCounted(r);
  if (g.length === 0 && !skipped) return [];
  return [
    '> [!NOTE]',
    ...(g.length
      ? [`> Counted without a status, tokens or pull request (nothing is guessed): ${g.join('; ')}.`]
      : []),
    ...(g.length && skipped ? ['>'] : []),
    ...(skipped ? [`> ${skipped}`] : []),
    '',
  ];
}

function runRow(run: ReportRun, ctx: PublishContext, serverUrl: string): string[] {
  const issue = run.issue
    ? `${link(`#${run.issue.number}`, run.issue.url, serverUrl)}${run.issue.title ? ` ${cellText(run.issue.title, ctx)}` : ''}`
    : '';
  const pr = run.pullRequest
    ? `${link(`#${run.pullRequest.number}`, run.pullRequest.url, serverUrl)} ${run.pullRequest.state}`
    : '';
  return [
    link(String(run.id), run.url, serverUrl),
    run.createdAt.replace('T', ' ').slice(0, 16),
    run.label,
    run.tokens === null ? '' : formatNumber(run.tokens),
    issue,
    pr,
    run.message ? cellText(run.message, ctx) : run.note ? cellText(run.note, ctx) : '',
  ];
}

function section(title: string, lines: readonly string[]): string[] {
  return [`### ${title}`, '', ...lines, ''];
}

export function renderMarkdown(r: Report): string {
  const [owner = '', repo = ''] = r.repo.split('/');
  const ctx: PublishContext = { serverUrl: r.serverUrl, owner, repo };
  const charts = new Map(chartsOf(r).map((c) => [c.id, c]));
  const chart = (id: string) => chartBlock(charts.get(id)!);
  const head = [
    `## gemini-run report: ${r.repo}, ${r.window.since.slice(0, 10)} to ${r.window.until.slice(0, 10)}`,
    '',
    ...headline(r),
    '',
    ...gapNote(r),
    ...section('Runs per day', [
      ...chart('runs-per-day'),
      '',
      ...table(
        ['day', 'runs', 'failed', 'tokens', 'pull requests opened'],
        r.perDay.map((d) => [d.day, d.runs, d.failed, formatNumber(d.tokens), d.pullRequestsOpened]),
        [1, 2, 3, 4],
      ),
    ]),
    ...section('Statuses', [
      ...chart('statuses'),
      '',
      ...table(
        ['status', 'runs'],
        r.statuses.map((s) => [s.label, s.runs]),
        [1],
      ),
    ]),
    ...section('Tokens', [
      `${formatNumber(r.tokens.total)} tokens over ${r.tokens.runs} runs: per run mean ${formatNumber(r.tokens.mean)}, median ${formatNumber(r.tokens.p50)}, 90th percentile ${formatNumber(r.tokens.p90)}, most ${formatNumber(r.tokens.max)}.`,
      '',
      ...chart('tokens-per-day'),
      '',
      ...chart('tokens-per-run-spread'),
    ]),
    ...section('Time from trigger to pull request', [
      r.timeToPullRequest.runs
        ? `${r.timeToPullRequest.runs} runs opened a pull request: median ${formatDuration(r.timeToPullRequest.p50Ms)}, 90th percentile ${formatDuration(r.timeToPullRequest.p90Ms)}, longest ${formatDuration(r.timeToPullRequest.maxMs)}.`
        : 'No run opened a pull request.',
      '',
      ...chart('time-to-pull-request'),
    ]),
    ...section('Pull requests', [
      `${r.pullRequests.list.length} pull requests opened or updated (${r.pullRequests.opened} opened): ${r.pullRequests.byState.merged} merged, ${r.pullRequests.byState.closed} closed without merging, ${r.pullRequests.byState.open} open${r.pullRequests.byState.unknown ? `, ${r.pullRequests.byState.unknown} not found` : ''}.`,
      '',
      ...chart('pull-request-outcomes'),
    ]),
    ...section('Failure causes', [
      ...(r.failureCauses.length
        ? [
            ...chart('failure-causes'),
            '',
            ...table(
              ['cause', 'runs', 'most common message'],
              r.failureCauses.map((c) => [c.label, c.runs, c.example ? cellText(c.example, ctx) : '']),
              [1],
            ),
          ]
        : ['No run failed.']),
    ]),
    ...section('CI fixes and deferrals', [
      `${r.ciFix.runs} CI-fix runs on ${r.ciFix.pullRequests} pull requests; ${r.deferrals.deferred} runs deferred at a quota wall, ${r.deferrals.resumed} resumed.`,
      '',
      ...chart('ci-fix-and-deferrals'),
    ]),
  ].join('\n');
  return `${head}\n${runsSection(r, ctx, MARKDOWN_BUDGET - head.length)}`;
}

/** The runs, newest first, as many as the budget holds; the rest counted. */
function runsSection(r: Report, ctx: PublishContext, budget: number): string {
  const header = table(
    ['run', 'started (UTC)', 'status', 'tokens', 'issue', 'pull request', 'message'],
    [],
    [3],
  );
  const lines: string[] = [];
  let used = header.join('\n').length + 200;
  for (const run of r.runs) {
    const line = row(runRow(run, ctx, r.serverUrl));
    if (used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = r.runs.length - lines.length;
  return [
    `### Runs (${r.runs.length})`,
    '',
    ...header,
    ...lines,
    '',
    ...(left
      ? [`${left} older run(s) are left out here: the HTML page and the JSON list every run.`, '']
      : []),
  ].join('\n');
}
