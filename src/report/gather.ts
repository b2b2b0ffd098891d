/**
 * Gathers what the report needs from GitHub: the runs of gemini-run's workflows in the window, what each run's
 * artifact says (from the cache, else downloaded and kept there), and the issues and pull requests the summaries
 * name. What cannot be had is recorded as such (expired, no artifact, no summary, unreadable), never filled in.
 */
import { runSummarySchema } from '../domain/run-summary.js';
import type { GitHubClient, RepoRef } from '../github/client.js';
import { pool } from '../util/pool.js';
import { ArtifactUnreadable, readArtifactSummary, SUMMARY_FILE } from './artifact-summary.js';
import type { Cached, SummaryCache } from './cache.js';
import {
  geminiRunArtifacts,
  gitHubWorkflows,
  issuesNamed,
  workflowRuns,
  type ListedArtifact,
} from './github-runs.js';
import type { Gathered, GatheredRun, WorkflowRunFacts } from './model.js';

export interface Progress {
  /** `total` summaries are to be downloaded. */
  start(total: number): void;
  tick(): void;
  done(): void;
}

export interface GatherOptions {
  client: GitHubClient;
  repo: RepoRef;
  serverUrl: string;
  since: Date;
  until: Date;
  /** The workflow to read (file name, path or id); default: every workflow that uses the action. */
  workflow?: string;
  cache: SummaryCache;
  progress: Progress;
  /** Downloads at once. Default 8. */
  concurrency?: number;
}

export interface GatherStats {
  downloaded: number;
  fromCache: number;
}

/** The summary a cache entry or a download holds, read through the schema. */
function parsed(entry: Cached): Pick<GatheredRun, 'summaryState' | 'summary' | 'note'> {
  if (entry.kind === 'none') return { summaryState: 'no-summary' };
  let json: unknown;
  try {
    json = JSON.parse(entry.text);
  } catch {
    return { summaryState: 'unreadable', note: `${SUMMARY_FILE} is not JSON` };
  }
  const r = runSummarySchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    return {
      summaryState: 'unreadable',
      note: `${SUMMARY_FILE} does not hold a run summary (${issue?.path.join('.') || 'the top'}: ${issue?.message ?? 'invalid'})`,
    };
  }
  return { summaryState: 'read', summary: r.data };
}

async function readRun(
  o: GatherOptions,
  run: WorkflowRunFacts,
  artifact: ListedArtifact | undefined,
  stats: GatherStats,
): Promise<GatheredRun> {
  if (run.status !== 'completed') return { run, summaryState: 'in-progress' };
  if (!artifact) return { run, summaryState: 'no-artifact' };
  const cached = await o.cache.get(artifact.id);
  if (cached) {
    stats.fromCache++;
    return { run, ...parsed(cached) };
  }
  if (artifact.expired) return { run, summaryState: 'expired' };
  try {
    const read = await readArtifactSummary(o.client, o.repo, artifact);
    if (read.kind === 'gone')
      return { run, summaryState: read.why === 'expired' ? 'expired' : 'no-artifact' };
    stats.downloaded++;
    const entry: Cached = read.kind === 'summary' ? { kind: 'summary', text: read.text } : { kind: 'none' };
    await o.cache.put(artifact.id, entry);
    return { run, ...parsed(entry) };
  } catch (e) {
    if (e instanceof ArtifactUnreadable) return { run, summaryState: 'unreadable', note: e.message };
    throw e;
  } finally {
    o.progress.tick();
  }
}

/** The issues and pull requests the summaries name. */
function namedNumbers(runs: readonly GatheredRun[]): Set<number> {
  const numbers = new Set<number>();
  for (const { summary: s } of runs) {
    if (s?.trigger?.issue) numbers.add(s.trigger.issue.number);
    if (s?.pullRequest) numbers.add(s.pullRequest.number);
  }
  return numbers;
}

export async function gather(o: GatherOptions): Promise<{ gathered: Gathered; stats: GatherStats }> {
  const from = o.since.getTime();
  const to = o.until.getTime();
  const workflows = await gitHubWorkflows(o.client, o.repo, o.workflow);
  const listed: WorkflowRunFacts[] = [];
  for (const w of workflows) listed.push(...(await workflowRuns(o.client, o.repo, w, from, to)));
  // A run whose job never started (its `if:` was false: a label that is not the trigger) is not a run of gemini-run.
  const runs = listed.filter((r) => r.conclusion !== 'skipped');
  const artifacts = runs.length
    ? await geminiRunArtifacts(o.client, o.repo, from)
    : new Map<string, ListedArtifact>();
  const artifactOf = (r: WorkflowRunFacts) => artifacts.get(`gemini-run-${r.id}-${r.attempt}`);
  const stats: GatherStats = { downloaded: 0, fromCache: 0 };
  // The bar counts what may be downloaded; a cached one ticks it at once.
  const readable = runs.filter((r) => r.status === 'completed' && artifactOf(r));
  const toRead = new Set(readable);
  o.progress.start(readable.length);
  const gathered = new Map<WorkflowRunFacts, GatheredRun>();
  for (const r of runs) if (!toRead.has(r)) gathered.set(r, await readRun(o, r, undefined, stats));
  try {
    await pool(readable, o.concurrency ?? 8, async (r) => {
      gathered.set(r, await readRun(o, r, artifactOf(r), stats));
    });
  } finally {
    o.progress.done();
  }
  const list = runs.map((r) => gathered.get(r)!);
  const issues = await issuesNamed(o.client, o.repo, namedNumbers(list), from);
  return {
    gathered: {
      repo: `${o.repo.owner}/${o.repo.repo}`,
      serverUrl: o.serverUrl,
      since: o.since.toISOString(),
      until: o.until.toISOString(),
      workflows: workflows.map((w) => ({ path: w.path, name: w.name })),
      runs: list,
      notStarted: listed.length - runs.length,
      issues,
    },
    stats,
  };
}
