import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createStreamLogger } from '../../util/log.js';
import { buildReport } from '../../report/aggregate.js';
import { defaultCacheDir, diskCache } from '../../report/cache.js';
import { gather } from '../../report/gather.js';
import { renderHtml } from '../../report/html.js';
import { renderMarkdown } from '../../report/markdown.js';
import { terminalProgress } from '../../report/progress.js';
import { gaps, notCounted } from '../../report/text.js';
import { sinceSchema } from '../../report/window.js';
import { flagValue, parseCommandArgs, UsageError, write, type CliIO, type Command } from '../args.js';
import { gitHubFromEnv } from '../github-env.js';

const USAGE = `usage: gemini-run report <owner/repo> [--since 30d] [--workflow FILE] [--out DIR] [--json] [--cache DIR]

What gemini-run's runs on a repository cost and achieved. Reads them through GitHub's REST API — the workflow
runs, the run-summary.json of each run's artifact, the pull requests they opened (merged, closed or open) and
the issues they served — and writes into --out:
  report.html  one self-contained page: charts (runs per day by status, tokens per run and per day, time from
               trigger to pull request, pull request outcomes, failure causes, CI fixes and deferrals) and a
               table of every run with links
  report.md    the same figures as Markdown (tables, mermaid charts GitHub draws) for a job summary or an issue
  report.json  the numbers behind both
Runs whose artifact expired or was never uploaded are counted and said, never guessed. Downloaded summaries are
kept by artifact id (--cache), so a second report over the same runs downloads nothing new.

Options:
  --since <span|date>  the window's start: 30d (default), 12h, 2w, or a date (2026-11-01, UTC); it ends now
  --workflow <file>    the workflow to read (gemini-run.yml, its path or id); default: every workflow whose
                       file uses gemini-run
  --out <dir>          where the files go (default ./gemini-run-report)
  --json               also print the numbers as JSON on stdout
  --cache <dir>        where downloaded summaries are kept (default $XDG_CACHE_HOME/gemini-run/report, else
                       ~/.cache/gemini-run/report)
  -h, --help           show this help

Environment:
  GITHUB_TOKEN (or GH_TOKEN)  a token that reads the repository's Actions, issues and pull requests
                              (actions: read, issues: read, pull-requests: read; contents: read without --workflow)
  GITHUB_API_URL              the API (default https://api.github.com; GitHub Enterprise Server: its /api/v3)
  GITHUB_SERVER_URL           where links point (default: the API's server)

Examples:
  GITHUB_TOKEN=$(gh auth token) gemini-run report acme/widgets
  gemini-run report acme/widgets --since 7d --workflow gemini-run.yml --out weekly --json > weekly.json
`;

const OPTIONS = {
  since: { type: 'string' },
  workflow: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  cache: { type: 'string' },
} as const;

export const reportCommand: Command = {
  name: 'report',
  summary: "what the repository's runs cost and achieved: an HTML page with charts, Markdown, JSON",
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals, help } = parseCommandArgs('report', argv, OPTIONS, { maxPositionals: 1 });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    const full = positionals[0] ?? '';
    const [owner = '', repo = ''] = full.split('/');
    if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(full))
      throw new UsageError('give the repository as owner/repo', 'report');
    const now = new Date();
    const since = flagValue(sinceSchema(now), values.since ?? '30d', 'report');
    const logger = createStreamLogger({ out: io.stderr, err: io.stderr });
    const gh = gitHubFromEnv(io.env, logger, "the repository's Actions, issues and pull requests");
    const cacheDir = values.cache ? resolve(io.cwd, values.cache) : defaultCacheDir(io.env, gh.apiUrl, full);
    const { gathered, stats } = await gather({
      client: gh.client,
      repo: { owner, repo },
      serverUrl: gh.serverUrl,
      since,
      until: now,
      ...(values.workflow ? { workflow: values.workflow } : {}),
      cache: diskCache(cacheDir),
      progress: terminalProgress(io.stderr, 'Reading run summaries'),
    });
    const report = buildReport(gathered, now);
    const out = resolve(io.cwd, values.out ?? 'gemini-run-report');
    await mkdir(out, { recursive: true });
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const files = {
      'report.html': renderHtml(report),
      'report.md': renderMarkdown(report),
      'report.json': json,
    };
    for (const [name, text] of Object.entries(files)) await writeFile(join(out, name), text);
    const missing = [
      ...gaps(report),
      ...(report.totals.notStarted ? [notCounted(report).replace(/\.$/, '')] : []),
    ];
    write(
      io.stderr,
      `${report.totals.runs} runs of ${gathered.workflows.map((w) => w.path).join(', ')}; summaries: ${stats.downloaded} downloaded, ${stats.fromCache} from the cache (${cacheDir}).${missing.length ? ` Not known: ${missing.join('; ')}.` : ''}`,
    );
    write(
      io.stderr,
      `Wrote ${Object.keys(files)
        .map((f) => join(out, f))
        .join(', ')}`,
    );
    if (values.json) io.stdout.write(json);
    return 0;
  },
};
