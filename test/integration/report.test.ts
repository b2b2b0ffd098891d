/**
 * `gemini-run report` (issue 43) as a user runs it: `node dist/cli.js report` against the fake GitHub with a month
 * of 200 runs (test/harness/report-world.ts), twice. The JSON is held to a table this file computes from the
 * world's plan; the second report downloads nothing; the Markdown goes through GitHub's renderer (cmark-gfm); the
 * HTML page opens in a real headless Chromium, which must draw every chart (in the DOM, and on a screenshot) and
 * log no error. Every request is held to GitHub's REST description.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/report/model.js';
import { exec, type ExecResult } from '../../src/util/exec.js';
import { openChromium } from '../harness/chromium.js';
import { assertConformsToGitHub } from '../harness/openapi-check.js';
import { decodePng, ink } from '../harness/png.js';
import { reportWorld, type ExpectedRun, type ReportWorld } from '../harness/report-world.js';

const ROOT = join(import.meta.dirname, '../..');
const RUNS = 200;

let world: ReportWorld;
let tmp: string;
let cold: { result: ExecResult; report: Report; requests: number; blobs: number };
let warm: { result: ExecResult; report: Report; requests: string[]; blobs: number };

function report(
  args: string[],
  env: Record<string, string> = world.env(join(tmp, 'cache')),
): Promise<ExecResult> {
  return exec(process.execPath, [join(ROOT, 'dist/cli.js'), 'report', ...args], {
    env: { ...env, HOME: tmp, PATH: process.env.PATH ?? '' },
    cwd: tmp,
    allowAllExitCodes: true,
    timeoutMs: 120_000,
  });
}

const blobReads = () =>
  world.services.calls.filter((c) => c.service === 'blob' && c.op.startsWith('get')).length;

beforeAll(async () => {
  world = await reportWorld({ runs: RUNS });
  tmp = await mkdtemp(join(tmpdir(), 'gemini-run-report-'));
  const args = (out: string) => ['acme/widgets', '--since', '30d', '--out', out, '--json'];
  const r1 = await report(args('out'));
  cold = {
    result: r1,
    report: JSON.parse(r1.stdout) as Report,
    requests: world.github.requests.length,
    blobs: blobReads(),
  };
  const r2 = await report(args('again'));
  warm = {
    result: r2,
    report: JSON.parse(r2.stdout) as Report,
    requests: world.github.requests.slice(cold.requests).map((q) => `${q.method} ${q.path}`),
    blobs: blobReads() - cold.blobs,
  };
}, 300_000);

afterAll(async () => {
  await world?.[Symbol.asyncDispose]();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// ---- the table, computed from the plan -------------------------------------------------------------------------

const count = <T>(xs: readonly T[], f: (x: T) => boolean) => xs.filter(f).length;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
/** Nearest rank, as the report documents: the value at rank ⌈q·n⌉. */
const rank = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.ceil(q * s.length) - 1]! : 0;
};
const tally = (labels: readonly string[]) => {
  const t: Record<string, number> = {};
  for (const l of labels) t[l] = (t[l] ?? 0) + 1;
  return t;
};
const dayOf = (iso: string) => iso.slice(0, 10);
const cause = (e: ExpectedRun) => (e.statusFrom ? e.label : `no summary (workflow ${e.conclusion})`);

describe('gemini-run report over a month of 200 workflow runs', () => {
  it('runs and says what it did, on stderr; the JSON on stdout', () => {
    expect(cold.result.exitCode, cold.result.stderr).toBe(0);
    const runs = world.expected.length;
    expect(cold.result.stderr).toMatch(
      new RegExp(
        `^${runs} runs of \\.github/workflows/gemini-run\\.yml; summaries: \\d+ downloaded, 0 from the cache`,
        'm',
      ),
    );
    expect(cold.result.stderr).toContain(
      `${world.notStarted} workflow run(s) whose job never started (conclusion skipped) are not counted`,
    );
    expect(world.notStarted).toBeGreaterThan(0);
    expect(cold.result.stderr).toMatch(/Wrote .*out\/report\.html, .*out\/report\.md, .*out\/report\.json/);
  });

  it('the JSON equals the table computed from the runs as they were made', () => {
    const e = world.expected;
    const r = cold.report;
    const tokens = e.map((x) => x.tokens).filter((t): t is number => t !== null);
    expect(r.totals).toEqual({
      runs: e.length,
      finished: e.length - 1,
      inProgress: 1,
      failed: count(e, (x) => x.failed),
      tokens: sum(tokens),
      summaries: {
        read: count(e, (x) => x.summary === 'read'),
        expired: count(e, (x) => x.summary === 'expired'),
        'no-artifact': count(e, (x) => x.summary === 'no-artifact'),
        'no-summary': count(e, (x) => x.summary === 'no-summary'),
        unreadable: count(e, (x) => x.summary === 'unreadable'),
        'in-progress': 1,
      },
      olderSummaries: count(e, (x) => x.statusFrom === 'engine'),
      notStarted: world.notStarted,
    });
    expect(e.length + world.notStarted).toBe(RUNS);
    // The world has every kind of gap the report must say.
    for (const n of Object.values(r.totals.summaries)) expect(n).toBeGreaterThan(0);
    expect(Object.fromEntries(r.statuses.map((s) => [s.label, s.runs]))).toEqual(
      tally(e.map((x) => x.label)),
    );

    const days = r.window.days;
    expect(days.length).toBeGreaterThanOrEqual(30);
    expect(r.perDay).toEqual(
      days.map((day) => {
        const on = e.filter((x) => dayOf(x.createdAt) === day);
        return {
          day,
          runs: on.length,
          failed: count(on, (x) => x.failed),
          byStatus: tally(on.map((x) => x.label)),
          tokens: sum(on.map((x) => x.tokens ?? 0)),
          pullRequestsOpened: count(on, (x) => x.pull?.operation === 'created'),
          ciFixRuns: count(on, (x) => x.ciFixAttempt !== null),
          deferred: count(on, (x) => x.deferred),
          resumed: count(on, (x) => x.resumed),
        };
      }),
    );

    expect(r.tokens).toMatchObject({
      total: sum(tokens),
      runs: tokens.length,
      mean: Math.round(sum(tokens) / tokens.length),
      p50: rank(tokens, 0.5),
      p90: rank(tokens, 0.9),
      max: Math.max(...tokens),
    });
    expect(sum(r.tokens.buckets.map((b) => b.runs))).toBe(tokens.length);

    const pulls = new Map<number, string>();
    for (const x of e) if (x.pull) pulls.set(x.pull.number, x.pull.state);
    expect(r.pullRequests.byState).toEqual({
      merged: 0,
      closed: 0,
      open: 0,
      unknown: 0,
      ...tally([...pulls.values()]),
    });
    expect(r.pullRequests.opened).toBe(
      new Set(e.filter((x) => x.pull?.operation === 'created').map((x) => x.pull!.number)).size,
    );
    expect(r.pullRequests.byState.merged).toBeGreaterThan(0);
    expect(r.pullRequests.byState.closed).toBeGreaterThan(0);

    const toPr = e.map((x) => x.timeToPullRequestMs).filter((t): t is number => t !== null);
    expect(r.timeToPullRequest).toMatchObject({
      runs: toPr.length,
      p50Ms: rank(toPr, 0.5),
      p90Ms: rank(toPr, 0.9),
      maxMs: Math.max(...toPr),
    });

    const failed = e.filter((x) => x.failed);
    expect(Object.fromEntries(r.failureCauses.map((c) => [c.label, c.runs]))).toEqual(
      tally(failed.map(cause)),
    );

    const fixes = e.filter((x) => x.ciFixAttempt !== null);
    expect(r.ciFix.runs).toBe(fixes.length);
    expect(Object.fromEntries(r.ciFix.byAttempt.map((c) => [c.label, c.runs]))).toEqual(
      tally(fixes.map((x) => `attempt ${x.ciFixAttempt}`)),
    );
    expect(r.deferrals).toEqual({
      deferred: count(e, (x) => x.deferred),
      resumed: count(e, (x) => x.resumed),
    });
    expect(fixes.length * r.deferrals.deferred * r.deferrals.resumed).toBeGreaterThan(0);

    // Every run, newest first, each as planned.
    const byTime = [...e].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
    expect(
      r.runs.map((x) => ({
        id: x.id,
        attempt: x.attempt,
        createdAt: x.createdAt,
        conclusion: x.conclusion,
        summary: x.summary,
        label: x.label,
        statusFrom: x.statusFrom,
        failed: x.failed,
        tokens: x.tokens,
        issue: x.issue?.number ?? null,
        pull: x.pullRequest && {
          number: x.pullRequest.number,
          operation: x.pullRequest.operation,
          state: x.pullRequest.state,
        },
        timeToPullRequestMs: x.timeToPullRequestMs,
        ciFixAttempt: x.ciFixAttempt,
        deferred: x.deferred,
        resumed: x.resumed,
        message: x.message,
      })),
    ).toEqual(byTime);
  });

  it('a second report over the same month downloads nothing: every summary comes from the cache', () => {
    expect(warm.result.exitCode, warm.result.stderr).toBe(0);
    const read =
      cold.report.totals.summaries.read +
      cold.report.totals.summaries['no-summary'] +
      cold.report.totals.summaries.unreadable;
    expect(warm.result.stderr).toContain(`summaries: 0 downloaded, ${read} from the cache`);
    expect(warm.blobs).toBe(0);
    expect(warm.requests.filter((q) => q.includes('/zip'))).toEqual([]);
    // The listings only: workflows and their files, the runs (2 pages), the artifacts, the issues.
    expect(warm.requests.length).toBeLessThanOrEqual(12);
    expect({
      ...warm.report,
      generatedAt: '',
      window: { ...warm.report.window, since: '', until: '' },
    }).toEqual({
      ...cold.report,
      generatedAt: '',
      window: { ...cold.report.window, since: '', until: '' },
    });
  });

  it('a window GitHub will not list whole (its cap on a filtered listing) is read in halves, to the same report', async () => {
    world.github.filteredRunsCap = 64;
    try {
      const r = await report(['acme/widgets', '--since', '30d', '--out', 'halves', '--json']);
      expect(r.exitCode, r.stderr).toBe(0);
      const halved = JSON.parse(r.stdout) as Report;
      expect(halved.runs).toEqual(cold.report.runs);
      expect(halved.perDay).toEqual(cold.report.perDay);
    } finally {
      world.github.filteredRunsCap = 1000;
    }
  });

  it('large artifacts are read by ranges, never whole; the re-run attempt is the one read', () => {
    expect(world.largeArtifacts).toBeGreaterThan(0);
    const ranged = world.services.calls.filter((c) => c.op === 'get-range');
    expect(ranged.length).toBeGreaterThanOrEqual(world.largeArtifacts);
    expect(ranged.every((c) => c.status === 206)).toBe(true);
    const reRuns = world.expected.filter((x) => x.attempt === 2 && x.summary === 'read');
    expect(reRuns.length).toBeGreaterThan(0);
  });

  it('missing and expired artifacts are counted and said, in the output and the Markdown', async () => {
    const s = cold.report.totals.summaries;
    expect(cold.result.stderr).toContain(`${s.expired} run(s) whose artifact expired before it was read`);
    const md = await readFile(join(tmp, 'out/report.md'), 'utf8');
    expect(md).toContain(`${s['no-artifact']} run(s) without an artifact`);
    expect(md).toContain(`${s.expired} run(s) whose artifact expired`);
  });

  it("every request is one GitHub's REST description allows", () => {
    expect(world.github.unexpected).toEqual([]);
    assertConformsToGitHub(world.github.requests);
  });
});

describe('the Markdown, as GitHub renders it (cmark-gfm)', () => {
  let md: string;
  let html: string;
  beforeAll(async () => {
    md = await readFile(join(tmp, 'out/report.md'), 'utf8');
    // --unsafe: any raw HTML that got through would come out as HTML here, where the check sees it.
    html = (
      await exec(
        'cmark-gfm',
        ['--unsafe', '-e', 'table', '-e', 'autolink', '-e', 'strikethrough', '-e', 'tagfilter'],
        { input: md },
      )
    ).stdout;
  });

  it('fits an issue body, and its tables have the cells they should', () => {
    expect(md.length).toBeLessThan(65_536);
    const tables = html.match(/<table>[\s\S]*?<\/table>/g) ?? [];
    expect(tables.length).toBeGreaterThanOrEqual(4);
    const runs = tables.at(-1)!;
    const rows = runs.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
    expect(rows.length - 1).toBe(
      Math.min(world.expected.length, md.split('\n').filter((l) => /^\| \[\d+\]\(/.test(l)).length),
    );
    for (const row of rows.slice(1)) expect(row.match(/<td[ >]/g)).toHaveLength(7);
  });

  it('every chart is a mermaid block GitHub draws, its labels and values of one length', () => {
    const blocks = [
      ...html.matchAll(
        /<pre lang="mermaid"><code>([\s\S]*?)<\/code><\/pre>|<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
      ),
    ].map((m) => (m[1] ?? m[2] ?? '').replace(/&quot;/g, '"'));
    expect(blocks).toHaveLength(8);
    for (const b of blocks) {
      if (b.startsWith('pie')) {
        expect(b).toMatch(/^pie title [^\n]+\n(\s+"[^"]+" : \d+\n)+$/);
        continue;
      }
      expect(b).toMatch(
        /^xychart-beta( horizontal)?\n\s+title "[^"]+"\n\s+x-axis \[.*\]\n\s+y-axis "[^"]+"\n\s+bar \[[\d, ]+\]\n(\s+line \[[\d, ]+\]\n)?$/,
      );
      const labels = /x-axis \[(.*)\]/.exec(b)![1]!.split(', ');
      expect(/bar \[(.*)\]/.exec(b)![1]!.split(', ')).toHaveLength(labels.length);
    }
  });

  it("an issue title's markup shows as text: no mention, image, foreign link or cell break", () => {
    const rows = (html.match(/<tr>[\s\S]*?<\/tr>/g) ?? []).filter((r) => r.includes('Fix | the'));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const cells = row.match(/<td[^>]*>[\s\S]*?<\/td>/g) ?? [];
      expect(cells).toHaveLength(7);
      expect(cells[4]).toMatch(
        // A title is plain text: its markdown shows as written, and what GitHub would act on is code.
        /^<td><a href="https:\/\/github\.com\/acme\/widgets\/issues\/\d+">#\d+<\/a> Fix \| the <code>@alice<\/code> &lt;img src=x onerror=alert\(1\)&gt; \[link\]\(<code>https:\/\/evil\.example\/x<\/code>\) `a\|b`<\/td>$/,
      );
    }
    expect(html).not.toMatch(/<img|href="https:\/\/evil|<script/);
    expect(html).not.toMatch(/(^|[^>])@alice/);
  });
});

describe('the HTML page, in a real headless Chromium', () => {
  it('draws every chart (in the DOM and on a screenshot) and logs no error', async () => {
    await using page = await openChromium();
    await page.open(`file://${join(tmp, 'out/report.html')}`);
    const dom = await page.evaluate<{
      charts: string;
      figures: {
        id: string;
        rendered: string | null;
        rect: { x: number; y: number; width: number; height: number };
      }[];
      runsPerDay: { labels: number; total: number };
      tableRows: number;
      images: number;
      evil: number;
      hostile: boolean;
    }>(`(() => {
      const canvas = (id) => document.querySelector('#chart-' + id + ' canvas');
      const runsChart = Chart.getChart(canvas('runs-per-day'));
      const bars = runsChart.data.datasets.filter((d) => d.type === 'bar');
      return {
        charts: document.body.dataset.charts,
        figures: [...document.querySelectorAll('figure')].map((f) => ({
          id: f.id, rendered: f.getAttribute('data-rendered'),
          rect: f.querySelector('canvas').getBoundingClientRect().toJSON() })),
        runsPerDay: { labels: runsChart.data.labels.length,
          total: bars.reduce((s, d) => s + d.data.reduce((a, b) => a + b, 0), 0) },
        tableRows: document.querySelectorAll('h2 + .scroll tbody tr').length,
        images: document.querySelectorAll('img').length,
        evil: document.querySelectorAll('a[href*="evil"]').length,
        hostile: document.body.textContent.includes(${JSON.stringify(world.hostileTitle)}),
      };
    })()`);
    expect(page.errors).toEqual([]);
    expect(dom.figures).toHaveLength(9);
    expect(dom.charts).toBe('9');
    for (const f of dom.figures) expect(f.rendered, f.id).toBe('chart');
    expect(dom.runsPerDay).toEqual({ labels: cold.report.window.days.length, total: world.expected.length });
    expect(dom).toMatchObject({ images: 0, evil: 0, hostile: true });
    expect(dom.tableRows).toBeGreaterThanOrEqual(world.expected.length);
    for (const f of dom.figures) {
      const drawn = ink(decodePng(await page.screenshot(f.rect)));
      expect(drawn.share, f.id).toBeGreaterThan(0.08);
      expect(drawn.colours, f.id).toBeGreaterThan(12);
    }
  });
});

describe('the command refuses what it cannot do, in one line', () => {
  it('without a token, with a bad window, and where no workflow uses gemini-run', async () => {
    const env = world.env(join(tmp, 'cache'));
    const noToken = await report(['acme/widgets'], { ...env, GITHUB_TOKEN: '' });
    expect(noToken.exitCode).toBe(1);
    expect(noToken.stderr.trim()).toBe(
      "gemini-run report: No GitHub token: set GITHUB_TOKEN (or GH_TOKEN) to a token that can read the repository's Actions, issues and pull requests.",
    );
    const badSince = await report(['acme/widgets', '--since', 'last week']);
    expect(badSince.exitCode).toBe(2);
    expect(badSince.stderr).toMatch(
      /^gemini-run report: --since must be a span back from now \(30d, 12h, 2w\) or a date/,
    );
    const unknown = await report(['acme/widgets', '--workflow', 'nightly.yml']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr.trim()).toBe(
      "gemini-run report: acme/widgets has no workflow 'nightly.yml' (its workflows: .github/workflows/gemini-run.yml, .github/workflows/ci.yml).",
    );
    const plain = await report(['acme/plain']);
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr.trim()).toBe(
      "gemini-run report: No workflow of acme/plain uses gemini-run (looked for 'uses: <owner>/gemini-run@<ref>' in 1 workflow file(s)): name it with --workflow FILE.",
    );
    const ci = await report(['acme/widgets', '--workflow', 'ci.yml', '--since', '1d', '--out', 'ci']);
    expect(ci.exitCode, ci.stderr).toBe(0);
    expect(ci.stderr).toMatch(
      /^\d+ runs of \.github\/workflows\/ci\.yml; summaries: 0 downloaded, 0 from the cache/m,
    );
  });
});
