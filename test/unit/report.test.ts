/**
 * `gemini-run report`'s pure parts: which workflow runs the action, the window, the aggregation's rules for what a
 * summary does not say, the renderings' bounds and escaping, the zip reader's pieces and the cache's files. The
 * whole command against a month of runs is test/integration/report.test.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../src/domain/run-summary.js';
import { buildReport, daysBetween, percentile } from '../../src/report/aggregate.js';
import { gitHubFromEnv } from '../../src/cli/github-env.js';
import { diskCache } from '../../src/report/cache.js';
import { usesGeminiRun } from '../../src/report/github-runs.js';
import { escapeHtml, renderHtml } from '../../src/report/html.js';
import { MARKDOWN_BUDGET, renderMarkdown } from '../../src/report/markdown.js';
import type { Gathered, GatheredRun, IssueFacts } from '../../src/report/model.js';
import { terminalProgress } from '../../src/report/progress.js';
import { sinceSchema } from '../../src/report/window.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { entryContents, zipDirectory, ZipError } from '../../src/util/zip.js';
import { writeZip } from '../harness/zip.js';

const NOW = new Date('2026-12-06T12:00:00Z');

describe('which workflow runs gemini-run', () => {
  it.each([
    '      - uses: acme/gemini-run@v1',
    '    - uses: "acme/gemini-run@0123456789abcdef0123456789abcdef01234567"  # v1.2',
    "        uses: 'Some-Org/gemini-run/report@main'",
  ])('%s: yes', (line) => expect(usesGeminiRun(`jobs:\n  a:\n    steps:\n${line}\n`)).toBe(true));

  it.each([
    '      - uses: acme/gemini-run-fork@v1',
    '      # - uses: acme/gemini-run@v1',
    '      - run: echo "uses: acme/gemini-run@v1"',
    '      - uses: acme/gemini-run',
  ])('%s: no', (line) => expect(usesGeminiRun(`jobs:\n  a:\n    steps:\n${line}\n`)).toBe(false));
});

describe('--since', () => {
  const since = (v: string) => sinceSchema(NOW).safeParse(v);
  it.each([
    ['30d', '2026-11-06T12:00:00.000Z'],
    ['12h', '2026-12-06T00:00:00.000Z'],
    ['2w', '2026-11-22T12:00:00.000Z'],
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2026-11-01T08:30:00+02:00', '2026-11-01T06:30:00.000Z'],
  ])('%s is %s', (v, at) => expect(since(v).data?.toISOString()).toBe(at));

  it.each(['last week', '30', '2026-13-45', '2027-01-01', '401d'])('%s is refused in one line', (v) => {
    const r = since(v);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/^--since must be /);
  });
});

describe('percentiles and days', () => {
  it('nearest rank: the value at rank ⌈q·n⌉', () => {
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(percentile([7], 0.9)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('every UTC day of the window, both ends included', () => {
    expect(daysBetween('2026-11-29T23:00:00Z', '2026-12-02T01:00:00Z')).toEqual([
      '2026-11-29',
      '2026-11-30',
      '2026-12-01',
      '2026-12-02',
    ]);
  });
});

let nextId = 100;
function run(
  o: Partial<GatheredRun> & { at?: string; conclusion?: string | null; status?: string } = {},
): GatheredRun {
  const id = nextId++;
  return {
    run: {
      id,
      attempt: 1,
      workflowPath: '.github/workflows/gemini-run.yml',
      event: 'issues',
      status: o.status ?? 'completed',
      conclusion: o.conclusion === undefined ? 'success' : o.conclusion,
      createdAt: o.at ?? '2026-12-05T10:00:00Z',
      url: `https://github.com/acme/widgets/actions/runs/${id}`,
      title: 'run',
    },
    summaryState: o.summaryState ?? (o.summary ? 'read' : 'no-artifact'),
    ...(o.summary ? { summary: o.summary } : {}),
  };
}

function summary(o: Partial<RunSummary> = {}): RunSummary {
  return {
    status: 'finished',
    startedAt: '2026-12-05T10:00:10Z',
    durationMs: 60_000,
    usage: { totalTokens: 1000 },
    ...o,
  };
}

const v2 = (status: string, more: Partial<RunSummary> = {}): RunSummary =>
  summary({
    schemaVersion: 2,
    outcome: { status, conclusion: status === 'finished' ? 'success' : 'failure' },
    run: { repo: 'acme/widgets', id: 1, attempt: 1, url: 'https://github.com/acme/widgets/actions/runs/1' },
    trigger: {
      event: 'issues',
      via: 'label',
      at: '2026-12-05T09:59:00Z',
      issue: { number: 1, isPullRequest: false },
    },
    pullRequest: null,
    endedAt: '2026-12-05T10:01:10Z',
    ...more,
  });

function gathered(runs: GatheredRun[], issues: IssueFacts[] = []): Gathered {
  return {
    repo: 'acme/widgets',
    serverUrl: 'https://github.com',
    since: '2026-12-04T00:00:00Z',
    until: '2026-12-06T00:00:00Z',
    workflows: [{ path: '.github/workflows/gemini-run.yml', name: 'gemini-run' }],
    runs,
    notStarted: 0,
    issues: new Map(issues.map((i) => [i.number, i])),
  };
}

const pull = (number: number, o: Partial<IssueFacts> = {}): IssueFacts => ({
  number,
  title: `PR ${number}`,
  url: `https://github.com/acme/widgets/pull/${number}`,
  isPullRequest: true,
  state: 'open',
  createdAt: '2026-12-05T10:30:00Z',
  mergedAt: null,
  ...o,
});

describe('the aggregation says what a summary says, and no more', () => {
  it('a version 1 summary: the status is the engine’s (said so), no trigger time, issue or pull request', () => {
    const r = buildReport(
      gathered([run({ summary: summary({ status: 'timed-out', message: 'slow\nsecond line' }) })]),
      NOW,
    );
    expect(r.runs[0]).toMatchObject({
      status: 'timed-out',
      statusFrom: 'engine',
      failed: true,
      issue: null,
      pullRequest: null,
      timeToPullRequestMs: null,
      triggeredAt: '2026-12-05T10:00:00Z',
      message: 'slow',
    });
    expect(r.totals.olderSummaries).toBe(1);
  });

  it('runs without a summary have no status, tokens or pull request; their workflow conclusion says failed or not', () => {
    const r = buildReport(
      gathered([
        run({ conclusion: 'failure' }),
        run({ conclusion: 'success', summaryState: 'expired' }),
        run({ conclusion: 'cancelled', summaryState: 'no-summary' }),
        run({ status: 'in_progress', conclusion: null, summaryState: 'in-progress' }),
      ]),
      NOW,
    );
    expect(r.runs.map((x) => [x.label, x.failed, x.tokens])).toEqual([
      ['in progress', false, null],
      ['no summary', true, null],
      ['no summary', false, null],
      ['no summary', true, null],
    ]);
    expect(r.failureCauses.map((c) => c.label)).toEqual([
      'no summary (workflow cancelled)',
      'no summary (workflow failure)',
    ]);
    expect(r.totals).toMatchObject({ runs: 4, finished: 3, inProgress: 1, tokens: 0 });
  });

  it('a status a newer version writes fails when its run failed', () => {
    const r = buildReport(
      gathered([run({ conclusion: 'failure', summary: v2('daily-budget-exceeded') })]),
      NOW,
    );
    expect(r.runs[0]).toMatchObject({ label: 'daily-budget-exceeded', statusFrom: 'outcome', failed: true });
    expect(r.failureCauses).toEqual([{ label: 'daily-budget-exceeded', runs: 1, example: null }]);
  });

  it('pull requests: state from GitHub (merged, closed, open, gone), time to one the run opened', () => {
    const r = buildReport(
      gathered(
        [
          run({
            summary: v2('finished', {
              pullRequest: { number: 2, url: 'https://github.com/acme/widgets/pull/2', operation: 'created' },
            }),
          }),
          run({
            summary: v2('finished', {
              pullRequest: { number: 2, url: 'https://github.com/acme/widgets/pull/2', operation: 'updated' },
            }),
          }),
          run({
            summary: v2('finished', {
              pullRequest: { number: 3, url: 'https://github.com/acme/widgets/pull/3', operation: 'created' },
            }),
          }),
          run({
            summary: v2('timed-out', {
              pullRequest: { number: 4, url: 'https://github.com/acme/widgets/pull/4', operation: 'created' },
            }),
          }),
        ],
        [pull(2, { state: 'closed', mergedAt: '2026-12-05T12:00:00Z' }), pull(3, { state: 'closed' })],
      ),
      NOW,
    );
    expect(r.pullRequests.byState).toEqual({ merged: 1, closed: 1, open: 0, unknown: 1 });
    expect(r.pullRequests.opened).toBe(3);
    expect(r.pullRequests.list.map((p) => [p.number, p.runs])).toEqual([
      [4, 1],
      [3, 1],
      [2, 2],
    ]);
    // From the trigger (09:59) to the pull request's creation (10:30); unknown where GitHub does not have it.
    expect(r.runs.map((x) => x.timeToPullRequestMs)).toEqual([null, 31 * 60_000, null, 31 * 60_000]);
    expect(r.timeToPullRequest).toMatchObject({ runs: 2, p50Ms: 31 * 60_000 });
  });

  it('CI fixes, deferrals and resumed runs', () => {
    const r = buildReport(
      gathered([
        run({ summary: v2('finished', { ciFix: { attempt: 2 } }) }),
        run({ summary: v2('deferred', { deferral: { attempt: 1, resetAt: '2026-12-06T00:00:00Z' } }) }),
        run({ summary: v2('finished', { trigger: { event: 'schedule', via: 'resume' } }) }),
      ]),
      NOW,
    );
    expect(r.ciFix).toEqual({ runs: 1, pullRequests: 1, byAttempt: [{ label: 'attempt 2', runs: 1 }] });
    expect(r.deferrals).toEqual({ deferred: 1, resumed: 1 });
    expect(r.perDay.find((d) => d.day === '2026-12-05')).toMatchObject({
      runs: 3,
      ciFixRuns: 1,
      deferred: 1,
      resumed: 1,
    });
  });
});

describe('the renderings', () => {
  const hostile = 'bad | row </script><script>alert(1)</script> <!-- hidden --> @everyone\n| x | y |';
  const many = gathered(
    Array.from({ length: 3000 }, (_, i) =>
      run({
        at: `2026-12-05T${String(i % 24).padStart(2, '0')}:00:00Z`,
        summary: v2('crashed', { message: hostile }),
      }),
    ),
  );
  const report = buildReport(many, NOW);

  it('the Markdown stays under an issue body’s limit, and says how many runs it leaves out', () => {
    const md = renderMarkdown(report);
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_BUDGET);
    const shown = md.split('\n').filter((l) => l.startsWith('| [')).length;
    expect(shown).toBeGreaterThan(50);
    expect(md).toContain(`${3000 - shown} older run(s) are left out here`);
  });

  it("someone else's text stays in its cell: one line, every pipe escaped, no comment or mention", () => {
    const md = renderMarkdown(
      buildReport(gathered([run({ summary: v2('crashed', { message: hostile }) })]), NOW),
    );
    const row = md.split('\n').find((l) => l.startsWith('| [') && l.includes('bad'))!;
    expect(row.split(/(?<!\\)\|/)).toHaveLength(9); // 7 cells between 8 pipes
    expect(md).not.toContain('| x | y |');
    expect(md).not.toContain('<!--');
    expect(md).not.toMatch(/(^|[^`])@everyone/); // only inside a code span
  });

  it('the HTML page: no value can close the script element or add markup', () => {
    const html = renderHtml(report);
    expect(html.match(/<script/g)).toHaveLength(4);
    expect(html.match(/<\/script>/g)).toHaveLength(4);
    expect(html.includes('<!-- hidden')).toBe(false);
    expect(html.includes(escapeHtml('</script><script>alert(1)</script>'))).toBe(true);
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });
});

describe('the zip reader, by pieces', () => {
  const zip = writeZip({ 'transcript.jsonl': 'x'.repeat(5000), 'run-summary.json': '{"status":"finished"}' });

  it('finds the directory from the last bytes, and asks for more when it starts before them', () => {
    const whole = zipDirectory(zip);
    expect('entries' in whole && whole.entries.map((e) => e.name)).toEqual([
      'transcript.jsonl',
      'run-summary.json',
    ]);
    const tail = zip.subarray(zip.length - 40);
    const partial = zipDirectory(tail, zip.length - 40);
    expect(partial).toEqual({ readFrom: expect.any(Number) });
    const from = (partial as { readFrom: number }).readFrom;
    const again = zipDirectory(zip.subarray(from), from);
    expect('entries' in again).toBe(true);
  });

  it('reads one entry from its local header, says when the bytes end too soon, and bounds its size', () => {
    const dir = zipDirectory(zip) as { entries: { name: string; localOffset: number }[] };
    const entry = dir.entries.find((e) => e.name === 'run-summary.json')! as Parameters<
      typeof entryContents
    >[1];
    expect(entryContents(zip.subarray(entry.localOffset), entry, 1024)?.toString()).toBe(
      '{"status":"finished"}',
    );
    expect(
      entryContents(zip.subarray(entry.localOffset, entry.localOffset + 40), entry, 1024),
    ).toBeUndefined();
    expect(() => entryContents(zip.subarray(entry.localOffset), entry, 10)).toThrow(ZipError);
  });

  it('refuses what is not a zip, and zip64', () => {
    expect(() => zipDirectory(Buffer.from('not a zip at all, not even close'))).toThrow(ZipError);
    const z64 = Buffer.from(zip);
    z64.writeUInt32LE(0xffffffff, z64.length - 6);
    expect(() => zipDirectory(z64)).toThrow(/zip64/);
  });
});

describe('the summary cache', () => {
  it('keeps what an artifact held by its id; a damaged or foreign file is as good as none', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gemini-run-report-cache-'));
    try {
      const cache = diskCache(join(dir, 'c'));
      expect(await cache.get(1)).toBeUndefined();
      await cache.put(1, { kind: 'summary', text: '{"a":1}' });
      await cache.put(2, { kind: 'none' });
      expect(await cache.get(1)).toEqual({ kind: 'summary', text: '{"a":1}' });
      expect(await cache.get(2)).toEqual({ kind: 'none' });
      await writeFile(join(dir, 'c', '3.json'), '{"artifact": 4, "noRunSummary": true}');
      await writeFile(join(dir, 'c', '5.json'), '{"artifact": 5, "runSum');
      expect(await cache.get(3)).toBeUndefined();
      expect(await cache.get(5)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the command around it', () => {
  it('GitHub from the environment: the token, the API, and the server links point at (GitHub Enterprise Server too)', () => {
    const log = createMemoryLogger();
    const at = (env: NodeJS.ProcessEnv) => {
      const gh = gitHubFromEnv(env, log, 'the repository');
      return [gh.apiUrl, gh.serverUrl];
    };
    expect(at({ GH_TOKEN: 't' })).toEqual(['https://api.github.com', 'https://github.com']);
    expect(at({ GITHUB_TOKEN: 't', GITHUB_API_URL: 'https://ghe.example.com/api/v3/' })).toEqual([
      'https://ghe.example.com/api/v3',
      'https://ghe.example.com',
    ]);
    expect(
      at({
        GITHUB_TOKEN: 't',
        GITHUB_API_URL: 'http://127.0.0.1:9',
        GITHUB_SERVER_URL: 'https://github.com/',
      }),
    ).toEqual(['http://127.0.0.1:9', 'https://github.com']);
    expect(() => at({})).toThrow(
      /^No GitHub token: set GITHUB_TOKEN \(or GH_TOKEN\) to a token that can read the repository\.$/,
    );
  });

  it('the progress bar: drawn in place on a terminal, nothing elsewhere', () => {
    const stream = (isTTY: boolean) => {
      const chunks: string[] = [];
      return {
        isTTY,
        chunks,
        write: (c: string) => chunks.push(c) > 0,
      } as unknown as NodeJS.WritableStream & {
        isTTY: boolean;
        chunks: string[];
      };
    };
    const tty = stream(true);
    const bar = terminalProgress(tty, 'Reading');
    bar.start(4);
    for (let i = 0; i < 4; i++) bar.tick();
    bar.done();
    expect(tty.chunks[0]).toBe(`\rReading [${'-'.repeat(30)}] 0/4`);
    expect(tty.chunks.at(-2)).toBe(`\rReading [${'#'.repeat(30)}] 4/4`);
    expect(tty.chunks.at(-1)).toBe('\n');
    const pipe = stream(false);
    const quiet = terminalProgress(pipe, 'Reading');
    quiet.start(2);
    quiet.tick();
    quiet.done();
    expect(pipe.chunks).toEqual([]);
  });
});
