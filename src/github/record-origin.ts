/**
 * Whether a hidden record in a comment (a session record, a deferral record) was written by gemini-run, judged by
 * GitHub's own facts rather than by a login. With the default `GITHUB_TOKEN` the action's identity is
 * `github-actions[bot]`, which every workflow of the repository shares: another workflow that echoes a person's
 * text into a comment writes as that login too. So a record names the workflow run that wrote it, and before it is
 * trusted the API must say that this run belongs to this repository, is a run of this workflow file (or of one
 * that runs gemini-run itself), and was in progress when the comment was last written.
 */
import type { GitHubClient, RepoRef } from './client.js';
import { hasStatus } from './client.js';

/** Where this run comes from: `GITHUB_WORKFLOW_REF` and, for another workflow file, the action's own repository. */
export interface RunOrigin {
  /** `owner/repo/.github/workflows/file.yml@refs/heads/main`. */
  workflowRef: string | undefined;
  /** `GITHUB_ACTION_REPOSITORY` (`owner/gemini-run`), empty for a local action (`uses: ./`). */
  actionRepository: string | undefined;
}

/** The workflow file of a `GITHUB_WORKFLOW_REF`: `.github/workflows/file.yml`. */
function workflowPathOf(ref: string | undefined): string | undefined {
  const m = /^[^/]+\/[^/]+\/(.+?)@/.exec(ref ?? '');
  return m?.[1];
}

/**
 * A run is marked completed after its last step, so every comment it wrote was written before its `updated_at`: no
 * slack after it (an edit a second later is someone else's). Before its start, a few seconds for GitHub's clocks.
 */
const BEFORE_START_MS = 5_000;

/**
 * The workflow run a record names, as far as its origin goes: why it is not a run of gemini-run in this repository,
 * or when it ran (`end` undefined while it still runs). Asked once per run; `writtenOutside` then checks each
 * record it is named by.
 */
export type RunProvenance =
  | { problem: string }
  | {
      /** Its latest attempt's start (a re-run starts again), its creation (the first attempt's), and its end. */
      window: { start: number; created: number; end: number | undefined };
    };

/** What GitHub says of a workflow run, as far as its origin goes (getWorkflowRun's and listWorkflowRuns' items). */
interface WorkflowRunFacts {
  id: number;
  repository?: { full_name?: string };
  path?: string;
  head_sha?: string;
  run_started_at?: string | null;
  created_at: string;
  updated_at: string;
  status?: string | null;
}

export async function workflowRunOrigin(
  client: GitHubClient,
  repo: RepoRef,
  runId: string,
  origin: RunOrigin,
): Promise<RunProvenance> {
  let run: WorkflowRunFacts;
  try {
    ({ data: run } = await client.rest.actions.getWorkflowRun({ ...repo, run_id: Number(runId) }));
  } catch (error) {
    if (hasStatus(error, 404))
      return { problem: `the workflow run ${runId} it names is not a run of ${repo.owner}/${repo.repo}` };
    throw error;
  }
  return provenanceOf(client, repo, run, origin);
}

async function provenanceOf(
  client: GitHubClient,
  repo: RepoRef,
  run: WorkflowRunFacts,
  origin: RunOrigin,
): Promise<RunProvenance> {
  const here = `${repo.owner}/${repo.repo}`;
  if (run.repository?.full_name?.toLowerCase() !== here.toLowerCase())
    return {
      problem: `the workflow run ${run.id} it names belongs to ${run.repository?.full_name ?? 'another repository'}`,
    };
  const mine = workflowPathOf(origin.workflowRef);
  if (!mine)
    return { problem: 'this run does not know its own workflow file (GITHUB_WORKFLOW_REF is not set)' };
  if (run.path !== mine && !(await runsGeminiRun(client, repo, run.path ?? '', run.head_sha, origin)))
    return {
      problem: `the workflow run ${run.id} it names is of ${run.path ?? 'an unknown workflow'}, not of ${mine} or another workflow that runs gemini-run`,
    };
  const created = Date.parse(run.created_at);
  const start = run.run_started_at ? Date.parse(run.run_started_at) : created;
  return {
    window: { start, created, end: run.status === 'completed' ? Date.parse(run.updated_at) : undefined },
  };
}

/**
 * What `workflowRunOrigin` would say of each of `runIds` that is a run of this run's own workflow file created
 * since `since` (`YYYY-MM-DD`), from the workflow's run list: one request per 100 runs, newest first, read only
 * until every one of them was seen, where asking about each is one request per run. Runs it did not see (another
 * workflow's, an older one) are not in the map.
 */
export async function ownWorkflowRunOrigins(
  client: GitHubClient,
  repo: RepoRef,
  runIds: ReadonlySet<string>,
  since: string,
  origin: RunOrigin,
): Promise<Map<string, RunProvenance>> {
  const found = new Map<string, RunProvenance>();
  const file = workflowPathOf(origin.workflowRef)?.split('/').pop();
  if (!file || runIds.size === 0) return found;
  const runs: WorkflowRunFacts[] = [];
  await client.paginate(
    client.rest.actions.listWorkflowRuns,
    { ...repo, workflow_id: file, created: `>=${since}`, per_page: 100 },
    (response, done) => {
      for (const run of response.data) if (runIds.has(String(run.id))) runs.push(run);
      if (runs.length >= runIds.size) done();
      return [];
    },
  );
  for (const run of runs) found.set(String(run.id), await provenanceOf(client, repo, run, origin));
  return found;
}

/** Why a record written at `updatedAt` cannot be of the run that ran in `window`, or undefined when it can. */
export function writtenOutside(
  window: { start: number; end: number | undefined },
  runId: string,
  updatedAt: string,
): string | undefined {
  const written = Date.parse(updatedAt);
  const end = window.end ?? Date.now();
  if (written >= window.start - BEFORE_START_MS && written <= end) return undefined;
  return `the comment was last written at ${updatedAt}, outside the workflow run ${runId} that the record names`;
}

/**
 * Why the record naming `runId` in a comment last written at `commentUpdatedAt` is not gemini-run's, or undefined
 * when every check passes. Each reason names the check that failed.
 */
export async function recordOriginProblem(
  client: GitHubClient,
  repo: RepoRef,
  o: { runId: string; commentUpdatedAt: string; origin: RunOrigin },
): Promise<string | undefined> {
  const run = await workflowRunOrigin(client, repo, o.runId, o.origin);
  if ('problem' in run) return run.problem;
  return writtenOutside(run.window, o.runId, o.commentUpdatedAt);
}

/** Whether the workflow file at `path` (at the run's commit) runs this action: `uses: <action repository>@…`. */
async function runsGeminiRun(
  client: GitHubClient,
  repo: RepoRef,
  path: string,
  ref: string | undefined,
  origin: RunOrigin,
): Promise<boolean> {
  const action = origin.actionRepository?.trim();
  if (!action || !path) return false;
  try {
    const { data } = await client.rest.repos.getContent({ ...repo, path, ...(ref ? { ref } : {}) });
    if (Array.isArray(data) || data.type !== 'file' || !('content' in data)) return false;
    const text = Buffer.from(data.content, 'base64').toString('utf8');
    const escaped = action.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    return new RegExp(`^\\s*-?\\s*uses:\\s*['"]?${escaped}@`, 'im').test(text);
  } catch (error) {
    if (hasStatus(error, 404)) return false;
    throw error;
  }
}
