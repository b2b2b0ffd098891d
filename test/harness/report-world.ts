/**
 * A repository with a month of gemini-run runs, for `gemini-run report`: the fake GitHub (workflows, their runs,
 * issues, pull requests merged, closed and open) and the fake Actions services (each run's artifact with its
 * run-summary.json as the action writes it), from a seeded generator. Its runs cover what a report meets: every
 * status, new and updated pull requests, CI fixes, deferrals and resumed runs, runs that end before the agent (no
 * artifact), runs still going, expired artifacts, summaries of version 1, artifacts without a summary (a bundle
 * only), a corrupt summary, re-run attempts, large transcripts (read by ranges), and issue titles that try to break
 * out of a table.
 *
 * Workflow runs whose job never started (the workflow's `if:`) are there too, and not runs of gemini-run.
 *
 * Besides the world, the generator hands back `expected`: what the report should say of each run, derived from the
 * plan with rules of its own (not the report's code), for the tests to compute their tables from.
 */
import { randomBytes } from 'node:crypto';
import type { RunFacts } from '../../src/domain/run-summary.js';
import { FakeGitHub } from './fake-github.js';
import { FakeActionsServices } from './fake-actions.js';
import { writeZip } from './zip.js';

export const OWNER = 'acme';
export const REPO = 'widgets';
export const SERVER = 'https://github.com';
export const TOKEN = 'ghs_reportworldtoken000000000000000000';
export const WORKFLOW = '.github/workflows/gemini-run.yml';
const DAY = 86_400_000;
const MIN = 60_000;

/** What the report should say of one run. */
export interface ExpectedRun {
  id: number;
  attempt: number;
  createdAt: string;
  conclusion: string | null;
  summary: 'read' | 'expired' | 'no-artifact' | 'no-summary' | 'unreadable' | 'in-progress';
  /** The status the report shows, or what stands in for it. */
  label: string;
  statusFrom: 'outcome' | 'engine' | null;
  failed: boolean;
  tokens: number | null;
  issue: number | null;
  pull: { number: number; operation: 'created' | 'updated'; state: 'merged' | 'closed' | 'open' } | null;
  timeToPullRequestMs: number | null;
  ciFixAttempt: number | null;
  deferred: boolean;
  resumed: boolean;
  message: string | null;
}

export interface ReportWorld extends AsyncDisposable {
  github: FakeGitHub;
  services: FakeActionsServices;
  expected: ExpectedRun[];
  /** The hostile issue title some runs serve. */
  hostileTitle: string;
  /** How many artifacts are larger than a whole-archive read (read by ranges). */
  largeArtifacts: number;
  /** Workflow runs whose job never started (conclusion skipped): not in `expected`, not counted by the report. */
  notStarted: number;
  /** The environment `gemini-run report` needs against this world. */
  env(cacheHome: string): Record<string, string>;
}

/** mulberry32: a small seeded generator, so a world is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAILURES = [
  ['timed-out', 'the agent did not finish within 30 minutes'],
  ['crashed', 'the Gemini CLI exited with code 1 while a tool ran'],
  ['quota-exhausted', 'You exceeded your current quota. Please retry in 43.5s.'],
  ['budget-exceeded', 'the run spent 512000 tokens, more than max-tokens (500000)'],
  ['model-unavailable', 'every model call failed: 503 Service Unavailable'],
  ['auth-failed', 'Gemini refused the credentials: API key not valid'],
  ['publish-failed', 'GitHub Actions is not permitted to create or approve pull requests.'],
] as const;

type Scenario =
  | 'new-pr'
  | 'follow-up'
  | 'ci-fix'
  | 'no-changes'
  | 'failure'
  | 'deferred'
  | 'resumed'
  | 'skipped'
  | 'misconfigured'
  | 'cancelled'
  /** The job's `if:` was false: a run of the workflow, not of gemini-run. */
  | 'not-started';

const WEIGHTS: [Scenario, number][] = [
  ['new-pr', 30],
  ['follow-up', 8],
  ['ci-fix', 6],
  ['no-changes', 8],
  ['failure', 16],
  ['deferred', 4],
  ['resumed', 3],
  ['skipped', 17],
  ['misconfigured', 5],
  ['cancelled', 3],
  ['not-started', 6],
];

function pick<T>(rnd: () => number, weighted: readonly [T, number][]): T {
  const total = weighted.reduce((s, [, w]) => s + w, 0);
  let x = rnd() * total;
  for (const [v, w] of weighted) if ((x -= w) < 0) return v;
  return weighted[weighted.length - 1]![0];
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Pull {
  number: number;
  createdAt: number;
  state: 'merged' | 'closed' | 'open';
}

/** The run summary as the action writes it (version 2), or as version 1 did (no facts). */
function summaryJson(o: {
  engineStatus: string;
  facts: RunFacts;
  tokens: number;
  startedAt: number;
  durationMs: number;
  message?: string;
  deferral?: boolean;
  v1: boolean;
}): string {
  const v1 = {
    status: o.engineStatus,
    ...(o.message ? { message: o.message } : {}),
    mode: 'interactive',
    sessionId: '59a5b615-5d0e-4568-a47c-c548122c16b5',
    model: 'gemini-2.5-pro',
    branch: 'gemini-run/issue-1',
    startedAt: new Date(o.startedAt).toISOString(),
    durationMs: o.durationMs,
    exitCode: 0,
    usage: { models: [], totalTokens: o.tokens, toolCalls: 3, turns: 2, durationMs: o.durationMs },
    commits: [],
    filesChanged: [],
    leftoverCommitted: false,
    toolCalls: [],
    finalAnswer: 'Done.',
    ...(o.deferral
      ? {
          deferral: {
            number: 1,
            repo: `${OWNER}/${REPO}`,
            isPullRequest: false,
            resetAt: new Date(o.startedAt + DAY).toISOString(),
            since: new Date(o.startedAt).toISOString(),
            attempt: 1,
            instruction: '',
          },
        }
      : {}),
  };
  return JSON.stringify(o.v1 ? v1 : { ...v1, ...o.facts }, null, 2);
}

/** Text that deflate cannot shrink, so an artifact of it is larger than a whole-archive read. */
function incompressible(bytes: number): string {
  return randomBytes(bytes).toString('base64');
}

export async function reportWorld(o: { runs: number; seed?: number; now?: number }): Promise<ReportWorld> {
  const rnd = random(o.seed ?? 43);
  const now = o.now ?? Date.now();
  const github = new FakeGitHub({ token: TOKEN, serverUrl: SERVER });
  const services = await FakeActionsServices.start();
  await github.start();
  github.addRepo({ owner: OWNER, name: REPO });
  github.serveArtifacts(services);
  github.addWorkflow({
    path: WORKFLOW,
    name: 'gemini-run',
    content:
      'on:\n  issues:\n    types: [labeled]\njobs:\n  run:\n    steps:\n      - uses: actions/checkout@v5\n      - uses: acme/gemini-run@v1\n',
  });
  github.addWorkflow({
    path: '.github/workflows/ci.yml',
    name: 'CI',
    content:
      'on: push\njobs:\n  test:\n    steps:\n      - uses: actions/checkout@v5\n      - run: npm test\n',
  });
  // A repository whose only workflow does not use gemini-run.
  github.addRepo({ owner: OWNER, name: 'plain' });
  github.addWorkflow(
    {
      path: '.github/workflows/ci.yml',
      name: 'CI',
      content: 'on: push\njobs:\n  t:\n    steps:\n      - run: make\n',
    },
    `${OWNER}/plain`,
  );
  const full = `${OWNER}/${REPO}`;
  const hostileTitle = 'Fix | the @alice <img src=x onerror=alert(1)> [link](https://evil.example/x) `a|b`';
  // Run times across the month, oldest first; the newest is still going.
  const times = Array.from({ length: o.runs }, () => now - 29.5 * DAY + rnd() * (29.5 * DAY - 40 * MIN)).sort(
    (a, b) => a - b,
  );
  const pulls: Pull[] = [];
  const expected: ExpectedRun[] = [];
  let largeArtifacts = 0;
  let notStarted = 0;
  for (let i = 0; i < o.runs; i++) {
    const created = times[i]!;
    const id = 7_000_000 + i * 7;
    const attempt = rnd() < 0.03 ? 2 : 1;
    const last = i === o.runs - 1;
    const scenario: Scenario = pick(rnd, WEIGHTS);
    const needsPull = scenario === 'follow-up' || scenario === 'ci-fix';
    const existing = needsPull && pulls.length ? pulls[Math.floor(rnd() * pulls.length)] : undefined;
    const headSha = `${'a'.repeat(32)}${String(i).padStart(8, '0')}`;
    if (scenario === 'not-started' && !last) {
      github.addWorkflowRun({
        id,
        workflowName: 'gemini-run',
        workflowPath: WORKFLOW,
        headBranch: 'main',
        headSha,
        event: 'issues',
        conclusion: 'skipped',
        createdAt: iso(created),
        jobs: [],
      });
      notStarted++;
      continue;
    }
    const s: Scenario = needsPull && !existing ? 'new-pr' : scenario === 'not-started' ? 'skipped' : scenario;
    const durationMs = Math.round((2 + rnd() * 48) * MIN);
    const tokens = Math.round(5_000 + rnd() ** 2 * 1_500_000);
    const triggerAt = created - Math.round(5_000 + rnd() * 20_000);
    const event =
      s === 'ci-fix'
        ? 'workflow_run'
        : s === 'resumed'
          ? 'schedule'
          : s === 'follow-up' || s === 'skipped'
            ? 'issue_comment'
            : 'issues';
    const via =
      s === 'ci-fix' ? 'ci-fix' : s === 'resumed' ? 'resume' : s === 'follow-up' ? 'comment' : 'label';
    const failure = FAILURES[Math.floor(rnd() * FAILURES.length)]!;
    // The issue served: a new one, or the pull request continued.
    const issue = existing
      ? existing.number
      : github.addIssue({
          title: rnd() < 0.05 ? hostileTitle : `Task ${i}: make widget ${i % 17} faster`,
          createdAt: iso(triggerAt - 3_600_000),
        });
    let engineStatus = 'finished';
    let finalStatus = 'finished';
    let message: string | undefined;
    let pull: ExpectedRun['pull'] = null;
    if (s === 'no-changes') finalStatus = 'no-changes';
    if (s === 'failure') {
      engineStatus = failure[0] === 'publish-failed' ? 'finished' : failure[0];
      finalStatus = failure[0];
      message = failure[1];
    }
    if (s === 'deferred') {
      engineStatus = 'quota-exhausted';
      finalStatus = 'deferred';
      message = FAILURES[2][1];
    }
    if (s === 'ci-fix' && rnd() < 0.3) {
      engineStatus = finalStatus = 'timed-out';
      message = FAILURES[0][1];
    }
    const prAt = created + durationMs - Math.round(rnd() * 30_000);
    if (s === 'new-pr' || (s === 'failure' && finalStatus === 'timed-out' && rnd() < 0.5)) {
      const fate = rnd();
      const state = fate < 0.55 ? 'merged' : fate < 0.75 ? 'closed' : 'open';
      const closeAt = iso(Math.min(prAt + Math.round(rnd() * 3 * DAY), now - MIN));
      const number = github.addPull({
        title: `Make widget ${i % 17} faster`,
        head: `gemini-run/issue-${issue}`,
        createdAt: iso(prAt),
        ...(state === 'merged'
          ? { mergedAt: closeAt }
          : state === 'closed'
            ? { state: 'closed', closedAt: closeAt }
            : {}),
      });
      pulls.push({ number, createdAt: prAt, state });
      pull = { number, operation: 'created', state };
    } else if (existing && (s === 'follow-up' || s === 'ci-fix')) {
      pull = { number: existing.number, operation: 'updated', state: existing.state };
    }
    const facts: RunFacts = {
      schemaVersion: 2,
      outcome: {
        status: finalStatus,
        conclusion: ['finished', 'no-changes', 'deferred'].includes(finalStatus) ? 'success' : 'failure',
      },
      run: { repo: full, id, attempt, url: `${SERVER}/${full}/actions/runs/${id}` },
      trigger: {
        event,
        via,
        at: iso(triggerAt),
        issue: { number: issue, isPullRequest: Boolean(existing) },
      },
      pullRequest: pull
        ? { number: pull.number, url: `${SERVER}/${full}/pull/${pull.number}`, operation: pull.operation }
        : null,
      ...(s === 'ci-fix' ? { ciFix: { attempt: 1 + Math.floor(rnd() * 2) } } : {}),
      endedAt: new Date(created + durationMs).toISOString(),
    };
    const noArtifact = s === 'skipped' || s === 'misconfigured' || s === 'cancelled' || last;
    const defect = noArtifact
      ? 'none'
      : pick(rnd, [
          ['ok', 88],
          ['expired', 6],
          ['v1', 3],
          ['bundle', 2],
          ['corrupt', 1],
        ] as const);
    const conclusion = last
      ? null
      : s === 'skipped'
        ? 'success'
        : s === 'misconfigured'
          ? 'failure'
          : s === 'cancelled'
            ? 'cancelled'
            : facts.outcome.conclusion;
    github.addWorkflowRun({
      id,
      workflowName: 'gemini-run',
      workflowPath: WORKFLOW,
      headBranch: 'main',
      headSha,
      event,
      status: last ? 'in_progress' : 'completed',
      conclusion,
      createdAt: iso(created),
      runAttempt: attempt,
      displayTitle: `gemini-run #${issue}`,
      jobs: [],
    });
    if (!noArtifact) {
      const large = rnd() < 0.05;
      if (large) largeArtifacts++;
      const runSummary =
        defect === 'corrupt'
          ? '{"status": "finished", "usage": '
          : summaryJson({
              engineStatus,
              facts,
              tokens,
              startedAt: created + 20_000,
              durationMs,
              ...(message ? { message } : {}),
              deferral: s === 'deferred',
              v1: defect === 'v1',
            });
      const files: Record<string, string> =
        defect === 'bundle'
          ? { 'gemini-run.bundle': 'PACK' }
          : {
              'run-summary.json': runSummary,
              'summary.md': `## gemini-run: ${finalStatus}\n`,
              'transcript.jsonl': large ? incompressible(400_000) : '{"type":"user"}\n',
            };
      const at = created + durationMs + 30_000;
      // A re-run's first attempt left an artifact too: the report reads the latest attempt's.
      if (attempt === 2)
        services.seedArtifact({
          repo: full,
          runId: id,
          name: `gemini-run-${id}-1`,
          zip: writeZip({ 'run-summary.json': '{}' }),
          createdAt: new Date(at - 10 * MIN),
          expiresAt: new Date(now + 30 * DAY),
        });
      services.seedArtifact({
        repo: full,
        runId: id,
        name: `gemini-run-${id}-${attempt}`,
        zip: writeZip(files),
        createdAt: new Date(at),
        expiresAt: new Date(defect === 'expired' ? now - MIN : at + 30 * DAY),
      });
    }
    // A CI run beside it, with an artifact of its own that is not gemini-run's.
    if (i % 10 === 0) {
      const ciId = id + 1;
      github.addWorkflowRun({
        id: ciId,
        workflowName: 'CI',
        workflowPath: '.github/workflows/ci.yml',
        headBranch: 'main',
        headSha: 'b'.repeat(40),
        createdAt: iso(created + 1000),
        jobs: [],
      });
      services.seedArtifact({
        repo: full,
        runId: ciId,
        name: 'coverage',
        zip: writeZip({ 'lcov.info': 'TN:\n' }),
        createdAt: new Date(created + 5 * MIN),
        expiresAt: new Date(now + 30 * DAY),
      });
    }
    const summary: ExpectedRun['summary'] = last
      ? 'in-progress'
      : noArtifact
        ? 'no-artifact'
        : defect === 'expired'
          ? 'expired'
          : defect === 'bundle'
            ? 'no-summary'
            : defect === 'corrupt'
              ? 'unreadable'
              : 'read';
    const read = summary === 'read';
    const v2 = read && defect !== 'v1';
    const label = read ? (v2 ? finalStatus : engineStatus) : last ? 'in progress' : 'no summary';
    const failingStatuses = new Set(FAILURES.map((f) => f[0]));
    expected.push({
      id,
      attempt,
      createdAt: iso(created),
      conclusion,
      summary,
      label,
      statusFrom: read ? (v2 ? 'outcome' : 'engine') : null,
      failed: last
        ? false
        : read
          ? failingStatuses.has(label as (typeof FAILURES)[number][0])
          : conclusion !== 'success',
      tokens: read ? tokens : null,
      issue: v2 ? issue : null,
      pull: v2 ? pull : null,
      // Both times as GitHub and the summary keep them: to the second.
      timeToPullRequestMs:
        v2 && pull?.operation === 'created'
          ? Math.max(0, Date.parse(iso(prAt)) - Date.parse(iso(triggerAt)))
          : null,
      ciFixAttempt: v2 ? (facts.ciFix?.attempt ?? null) : null,
      deferred: read && s === 'deferred',
      resumed: v2 && s === 'resumed',
      message: read ? (message ?? null) : null,
    });
  }
  return {
    github,
    services,
    expected,
    hostileTitle,
    largeArtifacts,
    notStarted,
    env: (cacheHome) => ({
      GITHUB_TOKEN: TOKEN,
      GITHUB_API_URL: github.url,
      GITHUB_SERVER_URL: SERVER,
      XDG_CACHE_HOME: cacheHome,
    }),
    async [Symbol.asyncDispose]() {
      await github.stop();
      await services.stop();
    },
  };
}
