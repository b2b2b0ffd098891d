/**
 * The report as one self-contained HTML page: the headline figures, every chart of charts.ts drawn by Chart.js
 * (inlined: the page needs no network, and its Content-Security-Policy allows none), and tables of the statuses,
 * failure causes, pull requests and every run, with links to GitHub.
 *
 * Text from GitHub or an artifact is HTML-escaped; the chart data travels as JSON in a non-executed script element
 * with every `<` escaped, so no value can close it. Links go only to pages of the repository's own GitHub server.
 * After drawing, the page marks each chart `data-rendered` (or `data-error`), and the body `data-charts` with how
 * many were drawn: what a headless browser checks.
 */
import { chartLibrarySource } from './chart-library.js';
import { chartsOf, type ChartSpec } from './charts.js';
import type { Report, ReportRun } from './model.js';
import { formatDuration, formatNumber, gaps, notCounted, ownUrl } from './text.js';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** JSON inside `<script type="application/json">`: nothing in it can end the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** An ISO time to the minute, as people read it. */
function minute(iso: string): string {
  return escapeHtml(iso.replace('T', ' ').slice(0, 16));
}

function a(text: string, url: string | null | undefined, serverUrl: string): string {
  const own = ownUrl(url, serverUrl);
  return own ? `<a href="${escapeHtml(own)}">${escapeHtml(text)}</a>` : escapeHtml(text);
}

/** Colours that mean the same on every chart: statuses, pull request states. */
const COLOURS: Record<string, string> = {
  finished: '#2da44e',
  'no-changes': '#4ac26b',
  deferred: '#bf8700',
  refused: '#57606a',
  skipped: '#afb8c1',
  'timed-out': '#fb8500',
  crashed: '#cf222e',
  'quota-exhausted': '#8250df',
  'auth-failed': '#a40e26',
  'budget-exceeded': '#d4a72c',
  'daily-budget-exceeded': '#9a6700',
  'model-unavailable': '#0969da',
  'publish-failed': '#e16f24',
  misconfigured: '#6e7781',
  stopped: '#953800',
  'no summary': '#d0d7de',
  'in progress': '#54aeff',
  merged: '#8250df',
  closed: '#cf222e',
  open: '#2da44e',
  unknown: '#d0d7de',
  // The failed runs' line, drawn over bars of every colour.
  failed: '#1f2328',
};

const PAGE_SCRIPT = `
(function () {
  var palette = ['#0969da', '#2da44e', '#bf8700', '#8250df', '#cf222e', '#1b7c83', '#e16f24', '#6e7781', '#bf3989', '#4ac26b'];
  var colours = JSON.parse(document.getElementById('report-colours').textContent);
  var specs = JSON.parse(document.getElementById('report-charts').textContent);
  function colour(name, i) { return colours[name] || palette[i % palette.length]; }
  function config(s) {
    var base = { animation: false, responsive: true, maintainAspectRatio: false,
      plugins: { legend: { display: s.kind === 'pie' || s.series.length > 1 || !!s.line } } };
    if (s.kind === 'pie') {
      return { type: 'pie', data: { labels: s.labels, datasets: [{ data: s.series[0].values,
        backgroundColor: s.labels.map(colour) }] }, options: base };
    }
    var stacked = s.kind === 'stacked-bar';
    var datasets = s.series.map(function (x, i) {
      return { type: 'bar', label: x.name, data: x.values, backgroundColor: colour(stacked ? x.name : s.id, i),
        stack: stacked ? 'runs' : undefined, order: 2 };
    });
    if (s.line) datasets.push({ type: 'line', label: s.line.name, data: s.line.values,
      borderColor: colour(s.line.name, 0), backgroundColor: colour(s.line.name, 0), order: 1, pointRadius: 2 });
    base.indexAxis = s.kind === 'hbar' ? 'y' : 'x';
    var valueAxis = { beginAtZero: true, stacked: stacked, title: { display: true, text: s.unit } };
    var categoryAxis = { stacked: stacked };
    base.scales = s.kind === 'hbar' ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis };
    return { type: 'bar', data: { labels: s.labels, datasets: datasets }, options: base };
  }
  var drawn = 0;
  specs.forEach(function (s) {
    var figure = document.getElementById('chart-' + s.id);
    if (s.labels.length === 0) { figure.setAttribute('data-rendered', 'empty'); return; }
    try {
      new Chart(figure.querySelector('canvas'), config(s));
      figure.setAttribute('data-rendered', 'chart');
      drawn++;
    } catch (e) {
      figure.setAttribute('data-error', String(e));
      console.error('chart ' + s.id + ': ' + e);
    }
  });
  document.body.setAttribute('data-charts', String(drawn));
})();
`;

const STYLE = `
:root { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #1f2328; }
body { margin: 0 auto; max-width: 1200px; padding: 24px; }
h1 { font-size: 24px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; }
.window { color: #59636e; margin: 0 0 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0; }
.card { border: 1px solid #d1d9e0; border-radius: 6px; padding: 12px 16px; min-width: 140px; }
.card b { display: block; font-size: 22px; }
.note { background: #ddf4ff; border-left: 4px solid #0969da; padding: 8px 12px; margin: 16px 0; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 16px; }
figure { margin: 0; border: 1px solid #d1d9e0; border-radius: 6px; padding: 12px; }
figcaption { font-weight: 600; margin-bottom: 8px; }
.box { position: relative; height: 300px; }
.empty { color: #59636e; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid #d1d9e0; padding: 4px 6px; text-align: left; vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.scroll { overflow-x: auto; }
`;

function figure(c: ChartSpec): string {
  const body =
    c.labels.length === 0
      ? '<p class="empty">Nothing to show in this window.</p>'
      : `<div class="box"><canvas role="img" aria-label="${escapeHtml(c.title)}"></canvas></div>`;
  return `<figure id="chart-${c.id}"><figcaption>${escapeHtml(c.title)}</figcaption>${body}</figure>`;
}

function tableHtml(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  numeric: number[] = [],
): string {
  const th = head
    .map((h, i) => `<th${numeric.includes(i) ? ' class="n"' : ''}>${escapeHtml(h)}</th>`)
    .join('');
  const trs = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => `<td${numeric.includes(i) ? ' class="n"' : ''}>${c}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table><thead><tr>${th}</tr></thead><tbody>\n${trs}\n</tbody></table></div>`;
}

function runCells(run: ReportRun, serverUrl: string): string[] {
  const e = escapeHtml;
  const issue = run.issue
    ? `${a(`#${run.issue.number}`, run.issue.url, serverUrl)}${run.issue.title ? ` ${e(run.issue.title)}` : ''}`
    : '';
  const pr = run.pullRequest
    ? `${a(`#${run.pullRequest.number}`, run.pullRequest.url, serverUrl)} ${e(run.pullRequest.state)}`
    : '';
  const status = run.statusFrom === 'engine' ? `${run.label} (agent's, older summary)` : run.label;
  return [
    a(run.attempt > 1 ? `${run.id} (attempt ${run.attempt})` : String(run.id), run.url, serverUrl),
    minute(run.createdAt),
    e(run.workflow.split('/').pop() ?? run.workflow),
    e(run.event),
    e(status),
    e(run.conclusion ?? ''),
    run.tokens === null ? '' : formatNumber(run.tokens),
    run.durationMs === null ? '' : e(formatDuration(run.durationMs)),
    e(run.via ?? ''),
    issue,
    pr,
    run.timeToPullRequestMs === null ? '' : e(formatDuration(run.timeToPullRequestMs)),
    e(run.message ?? run.note ?? ''),
  ];
}

function cards(r: Report): string {
  const card = (value: string, what: string) =>
    `<div class="card"><b>${escapeHtml(value)}</b>${escapeHtml(what)}</div>`;
  const prs = r.pullRequests;
  return `<section class="cards">${[
    card(formatNumber(r.totals.runs), 'runs'),
    card(formatNumber(r.totals.failed), 'failed'),
    card(formatNumber(r.totals.tokens), 'tokens'),
    card(
      String(prs.list.length),
      `pull requests (${prs.byState.merged} merged, ${prs.byState.closed} closed, ${prs.byState.open} open)`,
    ),
    card(
      r.timeToPullRequest.runs ? formatDuration(r.timeToPullRequest.p50Ms) : '–',
      'median time from trigger to pull request',
    ),
  ].join('')}</section>`;
}

export function renderHtml(r: Report): string {
  const charts = chartsOf(r);
  const server = r.serverUrl;
  const g = gaps(r);
  const title = `gemini-run report: ${r.repo}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>gemini-run report: ${a(r.repo, `${server}/${r.repo}`, server)}</h1>
<p class="window">Runs of ${r.workflows.map((w) => escapeHtml(w.path)).join(', ')} created from ${minute(r.window.since)} to ${minute(r.window.until)} UTC.</p>
${cards(r)}
${g.length ? `<p class="note">Counted without a status, tokens or pull request (nothing is guessed): ${escapeHtml(g.join('; '))}.</p>` : ''}
${notCounted(r) ? `<p class="note">${escapeHtml(notCounted(r))}</p>` : ''}
<section class="charts">
${charts.map(figure).join('\n')}
</section>
<h2>Statuses</h2>
${tableHtml(
  ['status', 'runs'],
  r.statuses.map((s) => [escapeHtml(s.label), String(s.runs)]),
  [1],
)}
<h2>Failure causes</h2>
${tableHtml(
  ['cause', 'runs', 'most common message'],
  r.failureCauses.map((c) => [escapeHtml(c.label), String(c.runs), escapeHtml(c.example ?? '')]),
  [1],
)}
<h2>Pull requests (${r.pullRequests.list.length})</h2>
${tableHtml(
  ['pull request', 'title', 'state', 'runs'],
  r.pullRequests.list.map((p) => [
    a(`#${p.number}`, p.url, server),
    escapeHtml(p.title ?? ''),
    escapeHtml(p.state),
    String(p.runs),
  ]),
  [3],
)}
<h2>Runs (${r.runs.length})</h2>
${tableHtml(
  [
    'run',
    'started (UTC)',
    'workflow',
    'event',
    'status',
    'conclusion',
    'tokens',
    'duration',
    'trigger',
    'issue',
    'pull request',
    'to pull request',
    'message',
  ],
  r.runs.map((run) => runCells(run, server)),
  [6, 7, 11],
)}
<script type="application/json" id="report-charts">${scriptJson(charts)}</script>
<script type="application/json" id="report-colours">${scriptJson(COLOURS)}</script>
<script>${chartLibrarySource()}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
