/**
 * Workflow runs as the CI-fix evidence reads them: a run's jobs (GET …/actions/runs/{run_id}/jobs, latest attempt),
 * a job's log (GET …/actions/jobs/{job_id}/logs answers 302 to a signed URL that needs no token, as GitHub's does),
 * and a check run's annotations (GET …/check-runs/{id}/annotations). A job's id is its check run's id, as on GitHub.
 * And another CI's check suites: a suite's check runs (GET …/check-suites/{id}/check-runs) with their output, whose
 * annotations the same route serves.
 */
import { fail } from './http.js';
import { paginate, REPO, route, wrappedPage, type Ctx, type Route } from './route.js';
import { apiRepoUrl, fakeSha, htmlRepoUrl, nodeId, userJson } from './shapes.js';
import type { GitHubState, StoredRepo } from './state.js';
import { recordRun, type FakeRunRecord } from './workflows.js';

export type JobConclusion = 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out';

export interface FakeAnnotation {
  path: string;
  startLine: number;
  level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
}

export interface FakeJob {
  name: string;
  conclusion: JobConclusion;
  steps: { name: string; conclusion: JobConclusion }[];
  /** The log's text, or a source of its chunks (a log of many megabytes need not exist whole). */
  log: string | (() => Iterable<string>);
  annotations?: FakeAnnotation[];
}

/** A workflow run: its jobs (for the CI-fix evidence) and its row in the workflow's history (workflows.ts). */
export interface FakeWorkflowRun extends FakeRunRecord {
  jobs: FakeJob[];
}

/** A check run another CI (an app) reported: no log, an output instead. */
export interface FakeCheckRun {
  name: string;
  conclusion: JobConclusion;
  output: { title?: string; summary?: string; text?: string };
  annotations?: FakeAnnotation[];
}

export interface FakeCheckSuite {
  id: number;
  /** The app whose suite it is (`circleci-checks`, `buildkite`). */
  app: { slug: string; name: string };
  headBranch: string;
  headSha: string;
  runs: FakeCheckRun[];
}

interface StoredJob extends FakeJob {
  id: number;
  run: FakeWorkflowRun;
  repo: StoredRepo;
}

interface StoredCheckRun extends FakeCheckRun {
  id: number;
  suite: FakeCheckSuite;
  repo: StoredRepo;
}

interface Runs {
  jobs: Map<number, StoredJob>;
  runs: Map<string, StoredJob[]>;
  checkRuns: Map<number, StoredCheckRun>;
  suites: Map<string, StoredCheckRun[]>;
}

/** The runs of one fake, by repository; kept beside the fake's state so only tests that add runs pay for them. */
const RUNS = new WeakMap<GitHubState, Runs>();

function runsOf(s: GitHubState): Runs {
  let r = RUNS.get(s);
  if (!r) RUNS.set(s, (r = { jobs: new Map(), runs: new Map(), checkRuns: new Map(), suites: new Map() }));
  return r;
}

/** A completed check suite of `repo` with its check runs; returns the check runs' ids. */
export function addCheckSuite(s: GitHubState, repo: StoredRepo, suite: FakeCheckSuite): number[] {
  const all = runsOf(s);
  // Check run ids of another app are far from workflow jobs' (run id × 100), as GitHub's ids never collide.
  const stored = suite.runs.map((r, i) => ({ ...r, id: 9_000_000 + suite.id * 100 + i + 1, suite, repo }));
  for (const r of stored) all.checkRuns.set(r.id, r);
  all.suites.set(`${repo.owner}/${repo.name}#${suite.id}`.toLowerCase(), stored);
  return stored.map((r) => r.id);
}

export function addWorkflowRun(s: GitHubState, repo: StoredRepo, run: FakeWorkflowRun): number[] {
  const { jobs: _jobs, ...row } = run;
  recordRun(s, repo, row);
  const all = runsOf(s);
  const stored = run.jobs.map((j, i) => ({ ...j, id: run.id * 100 + i + 1, run, repo }));
  for (const j of stored) all.jobs.set(j.id, j);
  all.runs.set(`${repo.owner}/${repo.name}#${run.id}`.toLowerCase(), stored);
  return stored.map((j) => j.id);
}

/** The job log a signed URL names, or undefined (a wrong or missing signature is GitHub's 403 from the blob host). */
export function jobLogAt(s: GitHubState, path: string, query: URLSearchParams): Iterable<string> | undefined {
  const m = /^\/_blobs\/job-logs\/(\d+)$/.exec(path);
  const job = m ? runsOf(s).jobs.get(Number(m[1])) : undefined;
  if (!job || query.get('sig') !== signature(job.id)) return undefined;
  return typeof job.log === 'string' ? [job.log] : job.log();
}

function signature(jobId: number): string {
  return fakeSha(`signed-log:${jobId}`).slice(0, 16);
}

const STEP_TIME = '2026-12-04T10:00:00Z';

function jobJson(s: GitHubState, j: StoredJob): Record<string, unknown> {
  const api = apiRepoUrl(s, j.repo);
  return {
    id: j.id,
    node_id: nodeId('CheckRun', j.id),
    run_id: j.run.id,
    run_url: `${api}/actions/runs/${j.run.id}`,
    run_attempt: 1,
    head_sha: j.run.headSha,
    head_branch: j.run.headBranch,
    workflow_name: j.run.workflowName,
    name: j.name,
    url: `${api}/actions/jobs/${j.id}`,
    html_url: `${htmlRepoUrl(s, j.repo)}/actions/runs/${j.run.id}/job/${j.id}`,
    status: 'completed',
    conclusion: j.conclusion,
    created_at: STEP_TIME,
    started_at: STEP_TIME,
    completed_at: STEP_TIME,
    check_run_url: `${api}/check-runs/${j.id}`,
    labels: ['ubuntu-latest'],
    runner_id: 1,
    runner_name: 'GitHub Actions 1',
    runner_group_id: 2,
    runner_group_name: 'GitHub Actions',
    steps: j.steps.map((st, i) => ({
      name: st.name,
      status: 'completed',
      conclusion: st.conclusion,
      number: i + 1,
      started_at: STEP_TIME,
      completed_at: STEP_TIME,
    })),
  };
}

function annotationJson(
  s: GitHubState,
  at: { repo: StoredRepo; headSha: string },
  a: FakeAnnotation,
): Record<string, unknown> {
  return {
    path: a.path,
    blob_href: `${htmlRepoUrl(s, at.repo)}/blob/${at.headSha}/${a.path}`,
    start_line: a.startLine,
    end_line: a.startLine,
    start_column: null,
    end_column: null,
    annotation_level: a.level,
    title: a.title ?? null,
    message: a.message,
    raw_details: null,
  };
}

function jobAt(c: Ctx, id: string | undefined): StoredJob {
  const job = runsOf(c.state).jobs.get(Number(id));
  if (!job || job.repo !== c.repo) fail(404, 'Not Found');
  return job;
}

/** A check run's annotations and where they point, for a workflow job or another app's check run. */
function checkRunAt(
  c: Ctx,
  id: string | undefined,
): { repo: StoredRepo; headSha: string; annotations: FakeAnnotation[] } {
  const other = runsOf(c.state).checkRuns.get(Number(id));
  if (other && other.repo === c.repo)
    return { repo: other.repo, headSha: other.suite.headSha, annotations: other.annotations ?? [] };
  const job = jobAt(c, id);
  return { repo: job.repo, headSha: job.run.headSha, annotations: job.annotations ?? [] };
}

const APP_TIME = '2026-01-01T00:00:00Z';

function checkRunJson(s: GitHubState, r: StoredCheckRun): Record<string, unknown> {
  const api = apiRepoUrl(s, r.repo);
  const appId = 7000 + (r.suite.id % 1000);
  return {
    id: r.id,
    node_id: nodeId('CheckRun', r.id),
    head_sha: r.suite.headSha,
    external_id: String(r.id),
    url: `${api}/check-runs/${r.id}`,
    html_url: `${htmlRepoUrl(s, r.repo)}/runs/${r.id}`,
    details_url: `https://ci.example.com/${r.suite.app.slug}/${r.id}`,
    status: 'completed',
    conclusion: r.conclusion,
    started_at: STEP_TIME,
    completed_at: STEP_TIME,
    output: {
      title: r.output.title ?? null,
      summary: r.output.summary ?? null,
      text: r.output.text ?? null,
      annotations_count: r.annotations?.length ?? 0,
      annotations_url: `${api}/check-runs/${r.id}/annotations`,
    },
    name: r.name,
    check_suite: { id: r.suite.id },
    app: {
      id: appId,
      slug: r.suite.app.slug,
      node_id: nodeId('App', appId),
      owner: userJson(s, s.user(r.repo.owner)),
      name: r.suite.app.name,
      description: null,
      external_url: 'https://ci.example.com',
      html_url: `${s.serverUrl}/apps/${r.suite.app.slug}`,
      created_at: APP_TIME,
      updated_at: APP_TIME,
      permissions: { checks: 'write', metadata: 'read' },
      events: [],
    },
    pull_requests: [],
  };
}

export const workflowRunRoutes: Route[] = [
  route('GET', `${REPO}/actions/runs/:run_id/jobs`, (c) => {
    const key = `${c.repo.owner}/${c.repo.name}#${c.params.run_id}`.toLowerCase();
    const jobs = runsOf(c.state).runs.get(key);
    if (!jobs) fail(404, 'Not Found');
    return wrappedPage(c, 'jobs', jobs, (j) => jobJson(c.state, j));
  }),
  route('GET', `${REPO}/actions/jobs/:job_id/logs`, (c) => {
    const job = jobAt(c, c.params.job_id);
    const url = `${c.state.baseUrl}/_blobs/job-logs/${job.id}?sig=${signature(job.id)}`;
    return { status: 302, headers: { location: url } };
  }),
  route('GET', `${REPO}/check-runs/:check_run_id/annotations`, (c) => {
    const run = checkRunAt(c, c.params.check_run_id);
    return paginate(
      c,
      run.annotations.map((a) => annotationJson(c.state, run, a)),
    );
  }),
  route('GET', `${REPO}/check-suites/:check_suite_id/check-runs`, (c) => {
    const key = `${c.repo.owner}/${c.repo.name}#${c.params.check_suite_id}`.toLowerCase();
    const runs = runsOf(c.state).suites.get(key);
    if (!runs) fail(404, 'Not Found');
    return wrappedPage(c, 'check_runs', runs, (r) => checkRunJson(c.state, r));
  }),
];
