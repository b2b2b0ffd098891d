/**
 * A repository's workflows and the history of their runs, as `gemini-run report` reads them: the workflows (GET
 * …/actions/workflows), a workflow's file (GET …/contents/{path}, the JSON form with base64 content), and a
 * workflow's runs (GET …/actions/workflows/{workflow_id}/runs, the id or the file's name), newest first, with
 * GitHub's `created` filter in its search syntax (`>=2026-01-01`, `a..b`, `<=…`) and its cap: a filtered query
 * serves at most 1,000 runs (`filteredRunsCap`), whatever `total_count` says.
 */
import { fail } from './http.js';
import { REPO, route, wrappedPage, type Ctx, type Route } from './route.js';
import { apiRepoUrl, fakeSha, htmlRepoUrl, nodeId, repoJson, userJson } from './shapes.js';
import type { GitHubState, StoredRepo } from './state.js';

/** What a run's row in the listing says (a run added for its jobs only gets the defaults). */
export interface FakeRunRecord {
  id: number;
  workflowName: string;
  headBranch: string;
  headSha: string;
  /** `.github/workflows/<file>`; default `.github/workflows/ci.yml`. */
  workflowPath?: string;
  /** Default `push`. */
  event?: string;
  /** Default `completed`. */
  status?: 'completed' | 'in_progress' | 'queued';
  /** Default `success` for a completed run. */
  conclusion?: 'success' | 'failure' | 'cancelled' | 'skipped' | 'timed_out' | 'neutral' | null;
  /** ISO time; default the fake's clock. */
  createdAt?: string;
  updatedAt?: string;
  /** When its latest attempt started (`run_started_at`): a re-run moves it on; default its creation. */
  startedAt?: string;
  runAttempt?: number;
  displayTitle?: string;
  actor?: string;
}

export interface FakeWorkflow {
  path: string;
  name: string;
  /** The file's text, served by the contents API. */
  content?: string;
}

interface StoredWorkflow extends FakeWorkflow {
  id: number;
  createdAt: string;
}

type StoredRun = Required<FakeRunRecord> & { number: number };

interface History {
  workflows: StoredWorkflow[];
  runs: StoredRun[];
}

/** Each fake's workflows and runs, by repository; kept beside its state so only tests that add them pay for them. */
const HISTORY = new WeakMap<GitHubState, Map<string, History>>();

function historyOf(s: GitHubState, r: StoredRepo): History {
  let all = HISTORY.get(s);
  if (!all) HISTORY.set(s, (all = new Map<string, History>()));
  const key = `${r.owner}/${r.name}`.toLowerCase();
  let h = all.get(key);
  if (!h) all.set(key, (h = { workflows: [], runs: [] }));
  return h;
}

/** Adds (or replaces the text of) a workflow file of `repo`; returns its id. */
export function addWorkflow(s: GitHubState, r: StoredRepo, w: FakeWorkflow): number {
  const h = historyOf(s, r);
  const known = h.workflows.find((x) => x.path === w.path);
  if (known) {
    Object.assign(known, w);
    return known.id;
  }
  const stored = { ...w, id: s.id(), createdAt: '2026-01-01T00:00:00Z' };
  h.workflows.push(stored);
  return stored.id;
}

/** Records a run in its workflow's history (the workflow is added when the fake does not have it yet). */
export function recordRun(s: GitHubState, r: StoredRepo, run: FakeRunRecord): void {
  const h = historyOf(s, r);
  const path = run.workflowPath ?? '.github/workflows/ci.yml';
  if (!h.workflows.some((w) => w.path === path)) addWorkflow(s, r, { path, name: run.workflowName });
  const created = run.createdAt ?? s.now();
  h.runs.push({
    event: 'push',
    status: 'completed',
    conclusion: 'success',
    runAttempt: 1,
    displayTitle: run.workflowName,
    actor: 'octocat',
    ...run,
    workflowPath: path,
    createdAt: created,
    updatedAt: run.updatedAt ?? created,
    startedAt: run.startedAt ?? created,
    number: h.runs.filter((x) => x.workflowPath === path).length + 1,
  });
}

/** Updates a recorded run (its status, conclusion, times), as GitHub does while it runs. */
export function updateRun(s: GitHubState, r: StoredRepo, id: number, patch: Partial<FakeRunRecord>): void {
  const run = historyOf(s, r).runs.find((x) => x.id === id);
  if (!run) throw new Error(`FakeGitHub: no workflow run ${id}`);
  Object.assign(run, { updatedAt: s.now() }, patch);
}

/**
 * GitHub's date qualifiers: `>=d`, `>d`, `<=d`, `<d`, `d..d` (either side `*`), or a bare date (that day, or that
 * instant). A date without a time is midnight UTC; a range's upper date without a time is the end of that day.
 */
function createdFilter(q: string): (iso: string) => boolean {
  const at = (d: string, end: boolean): number => {
    if (d === '*') return end ? Infinity : -Infinity;
    const t = Date.parse(/T/.test(d) ? d : `${d}T00:00:00Z`);
    if (Number.isNaN(t)) fail(422, `Invalid created qualifier: ${q}`);
    return end && !/T/.test(d) ? t + 86_400_000 - 1 : t;
  };
  const m = /^(>=|<=|>|<)(.+)$/.exec(q);
  if (m) {
    const op = m[1];
    const t = at(m[2] ?? '', op === '<=' || op === '>');
    return (iso) => {
      const v = Date.parse(iso);
      return op === '>=' ? v >= t : op === '>' ? v > t : op === '<=' ? v <= t : v < t;
    };
  }
  const [from = '', to] = q.split('..');
  const lo = at(from, false);
  const hi = to === undefined ? (/T/.test(from) ? lo : at(from, true)) : at(to, true);
  return (iso) => {
    const v = Date.parse(iso);
    return v >= lo && v <= hi;
  };
}

function workflowJson(s: GitHubState, r: StoredRepo, w: StoredWorkflow): Record<string, unknown> {
  const file = w.path.split('/').pop() ?? w.path;
  return {
    id: w.id,
    node_id: nodeId('Workflow', w.id),
    name: w.name,
    path: w.path,
    state: 'active',
    created_at: w.createdAt,
    updated_at: w.createdAt,
    url: `${apiRepoUrl(s, r)}/actions/workflows/${w.id}`,
    html_url: `${htmlRepoUrl(s, r)}/blob/${r.defaultBranch}/${w.path}`,
    badge_url: `${htmlRepoUrl(s, r)}/workflows/${encodeURIComponent(file)}/badge.svg`,
  };
}

function runJson(s: GitHubState, r: StoredRepo, w: StoredWorkflow, run: StoredRun): Record<string, unknown> {
  const api = `${apiRepoUrl(s, r)}/actions/runs/${run.id}`;
  const suite = run.id * 10;
  const actor = userJson(s, s.user(run.actor));
  return {
    id: run.id,
    name: run.workflowName,
    node_id: nodeId('WorkflowRun', run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.workflowPath,
    display_title: run.displayTitle,
    run_number: run.number,
    event: run.event,
    status: run.status,
    conclusion: run.status === 'completed' ? run.conclusion : null,
    workflow_id: w.id,
    check_suite_id: suite,
    check_suite_node_id: nodeId('CheckSuite', suite),
    url: api,
    html_url: `${htmlRepoUrl(s, r)}/actions/runs/${run.id}`,
    pull_requests: [],
    created_at: run.createdAt,
    updated_at: run.updatedAt,
    actor,
    triggering_actor: actor,
    run_attempt: run.runAttempt,
    referenced_workflows: [],
    run_started_at: run.startedAt,
    jobs_url: `${api}/jobs`,
    logs_url: `${api}/logs`,
    check_suite_url: `${apiRepoUrl(s, r)}/check-suites/${suite}`,
    artifacts_url: `${api}/artifacts`,
    cancel_url: `${api}/cancel`,
    rerun_url: `${api}/rerun`,
    previous_attempt_url: run.runAttempt > 1 ? `${api}/attempts/${run.runAttempt - 1}` : null,
    workflow_url: `${apiRepoUrl(s, r)}/actions/workflows/${w.id}`,
    head_commit: {
      id: run.headSha,
      tree_id: fakeSha(`tree:${run.headSha}`),
      message: run.displayTitle,
      timestamp: run.createdAt,
      author: { name: 'Octo Cat', email: 'octocat@example.com' },
      committer: { name: 'GitHub', email: 'noreply@github.com' },
    },
    repository: repoJson(s, r),
    head_repository: repoJson(s, r),
  };
}

function workflowAt(c: Ctx): StoredWorkflow {
  const id = c.params.workflow_id ?? '';
  const w = historyOf(c.state, c.repo).workflows.find(
    (x) => String(x.id) === id || x.path.split('/').pop() === id,
  );
  if (!w) fail(404, 'Not Found');
  return w;
}

export const workflowRoutes: Route[] = [
  route('GET', `${REPO}/actions/runs/:run_id`, (c) => {
    const h = historyOf(c.state, c.repo);
    const run = h.runs.find((x) => String(x.id) === c.params.run_id);
    const w = run && h.workflows.find((x) => x.path === run.workflowPath);
    if (!run || !w) fail(404, 'Not Found');
    return { status: 200, body: runJson(c.state, c.repo, w, run) };
  }),
  route('GET', `${REPO}/actions/workflows`, (c) => {
    const all = historyOf(c.state, c.repo).workflows;
    return wrappedPage(c, 'workflows', all, (w) => workflowJson(c.state, c.repo, w));
  }),
  route('GET', `${REPO}/actions/workflows/:workflow_id/runs`, (c) => {
    const w = workflowAt(c);
    const created = c.query.get('created');
    const inWindow = created ? createdFilter(created) : () => true;
    const all = historyOf(c.state, c.repo)
      .runs.filter((run) => run.workflowPath === w.path && inWindow(run.createdAt))
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
    const served = created ? all.slice(0, c.state.filteredRunsCap) : all;
    return wrappedPage(c, 'workflow_runs', served, (run) => runJson(c.state, c.repo, w, run), all.length);
  }),
];

/** GET …/contents/{path}: the path has slashes, so the route is written out rather than from a template. */
export const contentRoute: Route = {
  method: 'GET',
  pattern: /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+?)\/?$/,
  keys: ['owner', 'repo', 'path'],
  handler: (c) => {
    const path = c.params.path ?? '';
    const w = historyOf(c.state, c.repo).workflows.find((x) => x.path === path && x.content !== undefined);
    if (!w?.content) fail(404, 'Not Found');
    const bytes = Buffer.from(w.content, 'utf8');
    const sha = fakeSha(`blob:${w.content}`);
    const api = `${apiRepoUrl(c.state, c.repo)}/contents/${path}?ref=${c.repo.defaultBranch}`;
    const html = `${htmlRepoUrl(c.state, c.repo)}/blob/${c.repo.defaultBranch}/${path}`;
    const git = `${apiRepoUrl(c.state, c.repo)}/git/blobs/${sha}`;
    return {
      status: 200,
      body: {
        type: 'file',
        encoding: 'base64',
        size: bytes.length,
        name: path.split('/').pop(),
        path,
        // GitHub wraps the base64 at 60 characters.
        content: (bytes.toString('base64').match(/.{1,60}/g) ?? []).join('\n'),
        sha,
        url: api,
        git_url: git,
        html_url: html,
        download_url: `https://raw.githubusercontent.com/${c.repo.owner}/${c.repo.name}/${c.repo.defaultBranch}/${path}`,
        _links: { self: api, git, html },
      },
    };
  },
};
