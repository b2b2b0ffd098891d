/**
 * What the report reads of GitHub's REST API, each list in as few requests as it takes: gemini-run's workflows (the
 * named one, or those whose file uses the action), their runs in the window (a filtered listing serves at most
 * 1,000 runs, so a fuller window is split in two until each half fits), the repository's gemini-run artifacts
 * (one listing, newest first, read until it passes the window), and the issues and pull requests the runs name
 * (the issues updated in the window, then one by one what that listing did not hold).
 */
import type { GitHubClient, RepoRef } from '../github/client.js';
import { getErrorMessage, oneLine, UserError } from '../util/errors.js';
import { pool } from '../util/pool.js';
import type { IssueFacts, WorkflowRunFacts } from './model.js';

/** GitHub serves at most this many runs of a filtered listing. */
const LISTING_CAP = 1000;
const PER_PAGE = 100;

export interface Workflow {
  id: number;
  path: string;
  name: string;
}

/** A listed gemini-run artifact. */
export interface ListedArtifact {
  id: number;
  size: number;
  expired: boolean;
}

/** Whether a workflow file runs the action: a step's `uses: <owner>/gemini-run[/<path>]@<ref>`. */
export function usesGeminiRun(workflowText: string): boolean {
  return workflowText
    .split(/\r?\n/)
    .some((line) =>
      /^\s*(?:-\s+)?uses:\s*["']?[A-Za-z0-9_.-]+\/gemini-run(?:\/[^@\s"']*)?@[^\s"']+["']?\s*(?:#.*)?$/i.test(
        line,
      ),
    );
}

function refused(what: string, e: unknown): UserError {
  return new UserError(`GitHub refused ${what}: ${oneLine(getErrorMessage(e))}`);
}

/** The workflow `named` (its file name, path or id), or every active workflow whose file uses the action. */
export async function gitHubWorkflows(
  client: GitHubClient,
  repo: RepoRef,
  named?: string,
): Promise<Workflow[]> {
  const full = `${repo.owner}/${repo.repo}`;
  const all = await client
    .paginate(client.rest.actions.listRepoWorkflows, { ...repo, per_page: PER_PAGE })
    .catch((e: unknown) => {
      throw refused(`the workflows of ${full}`, e);
    });
  const workflows = all.map((w) => ({ id: w.id, path: w.path, name: w.name, state: w.state }));
  if (named !== undefined) {
    const hit = workflows.find((w) => [String(w.id), w.path, w.path.split('/').pop()].includes(named));
    if (!hit)
      throw new UserError(
        `${full} has no workflow '${named}' (its workflows: ${workflows.map((w) => w.path).join(', ') || 'none'}).`,
      );
    return [hit];
  }
  const found: Workflow[] = [];
  for (const w of workflows) {
    if (w.state !== 'active' || !w.path.startsWith('.github/workflows/')) continue;
    const text = await client.rest.repos.getContent({ ...repo, path: w.path }).then(
      (r) => {
        const d = r.data as { content?: string; encoding?: string };
        return d.encoding === 'base64' && d.content ? Buffer.from(d.content, 'base64').toString('utf8') : '';
      },
      (e: unknown) => {
        throw new UserError(
          `Could not read ${w.path} of ${full} to see whether it runs gemini-run (${oneLine(getErrorMessage(e))}): name the workflow with --workflow FILE.`,
        );
      },
    );
    if (usesGeminiRun(text)) found.push({ id: w.id, path: w.path, name: w.name });
  }
  if (found.length === 0)
    throw new UserError(
      `No workflow of ${full} uses gemini-run (looked for 'uses: <owner>/gemini-run@<ref>' in ${workflows.length} workflow file(s)): name it with --workflow FILE.`,
    );
  return found;
}

/** An ISO time to the second, as GitHub's date qualifiers take it. */
function second(t: number): string {
  return new Date(Math.floor(t / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function runFacts(r: {
  id: number;
  run_attempt?: number;
  path: string;
  event: string;
  status: string | null;
  conclusion: string | null;
  created_at: string;
  html_url: string;
  display_title: string;
}): WorkflowRunFacts {
  return {
    id: r.id,
    attempt: r.run_attempt ?? 1,
    workflowPath: r.path,
    event: r.event,
    status: r.status ?? 'unknown',
    conclusion: r.conclusion,
    createdAt: r.created_at,
    url: r.html_url,
    title: r.display_title,
  };
}

/**
 * The runs of `workflow` created from `from` to `to` (ms, both included), newest first. A window whose listing GitHub
 * cuts short (more than 1,000 runs; fewer served than `total_count` says) is read as two halves instead.
 */
export async function workflowRuns(
  client: GitHubClient,
  repo: RepoRef,
  workflow: Workflow,
  from: number,
  to: number,
): Promise<WorkflowRunFacts[]> {
  const list = (page: number) =>
    client.rest.actions
      .listWorkflowRuns({
        ...repo,
        workflow_id: workflow.id,
        created: `${second(from)}..${second(to)}`,
        exclude_pull_requests: true,
        per_page: PER_PAGE,
        page,
      })
      .catch((e: unknown) => {
        throw refused(`the runs of ${workflow.path}`, e);
      });
  const halves = async () => {
    // Newest half first; the halves meet without overlap at a whole second.
    const mid = Math.floor((from + to) / 2000) * 1000;
    return [
      ...(await workflowRuns(client, repo, workflow, mid + 1000, to)),
      ...(await workflowRuns(client, repo, workflow, from, mid)),
    ];
  };
  const splittable = to - from >= 2000;
  const first = await list(1);
  const total = first.data.total_count;
  if (total > LISTING_CAP && splittable) return halves();
  // The other pages at once, a few at a time (their number is known): each is a round trip.
  const pages: (typeof first.data.workflow_runs)[] = [first.data.workflow_runs];
  const rest = Array.from(
    { length: Math.ceil(Math.min(total, LISTING_CAP) / PER_PAGE) - 1 },
    (_, i) => i + 2,
  );
  await pool(rest, 4, async (page) => {
    pages[page - 1] = (await list(page)).data.workflow_runs;
  });
  const runs = pages.flat();
  if (runs.length < total && splittable) return halves();
  return runs.map(runFacts);
}

const ARTIFACT_NAME = /^gemini-run-(\d+)-(\d+)$/;

/**
 * The repository's gemini-run artifacts, by name (`gemini-run-<run>-<attempt>`), created at or after `since`. The
 * listing is newest first, so it stops at the first page that ends before `since`; should an answer ever come out
 * of that order, it reads to the end instead.
 */
export async function geminiRunArtifacts(
  client: GitHubClient,
  repo: RepoRef,
  since: number,
): Promise<Map<string, ListedArtifact>> {
  const found = new Map<string, ListedArtifact>();
  let previous = Infinity;
  let ordered = true;
  for (let page = 1; ; page++) {
    const { data } = await client.rest.actions
      .listArtifactsForRepo({ ...repo, per_page: PER_PAGE, page })
      .catch((e: unknown) => {
        throw refused(`the artifacts of ${repo.owner}/${repo.repo}`, e);
      });
    for (const a of data.artifacts) {
      const at = Date.parse(a.created_at ?? '') || 0;
      if (at > previous) ordered = false;
      previous = at;
      if (ARTIFACT_NAME.test(a.name) && !found.has(a.name))
        found.set(a.name, { id: a.id, size: a.size_in_bytes, expired: a.expired });
    }
    const last = data.artifacts.at(-1);
    if (data.artifacts.length < PER_PAGE || page * PER_PAGE >= data.total_count) break;
    if (ordered && last && (Date.parse(last.created_at ?? '') || 0) < since) break;
  }
  return found;
}

function issueFacts(i: {
  number: number;
  title: string;
  html_url: string;
  state: string;
  created_at: string;
  pull_request?: { merged_at?: string | null } | null;
}): IssueFacts {
  return {
    number: i.number,
    title: i.title,
    url: i.html_url,
    isPullRequest: Boolean(i.pull_request),
    state: i.state === 'closed' ? 'closed' : 'open',
    createdAt: i.created_at,
    mergedAt: i.pull_request?.merged_at ?? null,
  };
}

/**
 * The issues and pull requests `numbers` name: from the listing of those updated since `since`, then each one
 * that listing did not hold. A number GitHub does not know (deleted, transferred) is left out.
 */
export async function issuesNamed(
  client: GitHubClient,
  repo: RepoRef,
  numbers: ReadonlySet<number>,
  since: number,
): Promise<Map<number, IssueFacts>> {
  const out = new Map<number, IssueFacts>();
  if (numbers.size === 0) return out;
  const listed = await client
    .paginate(client.rest.issues.listForRepo, {
      ...repo,
      state: 'all',
      since: second(since),
      per_page: PER_PAGE,
    })
    .catch((e: unknown) => {
      throw refused(`the issues of ${repo.owner}/${repo.repo}`, e);
    });
  for (const i of listed) if (numbers.has(i.number)) out.set(i.number, issueFacts(i));
  const rest = [...numbers].filter((n) => !out.has(n));
  await pool(rest, 8, async (n) => {
    const got = await client.rest.issues.get({ ...repo, issue_number: n }).catch((e: unknown) => {
      const status = (e as { status?: unknown }).status;
      if (status === 404 || status === 410) return undefined;
      throw refused(`issue #${n}`, e);
    });
    if (got) out.set(n, issueFacts(got.data));
  });
  return out;
}
