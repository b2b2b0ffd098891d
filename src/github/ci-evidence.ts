/**
 * What failed CI says about why it failed, read from GitHub and cut to a size a task can carry. For a workflow
 * run: its failed jobs (latest attempt), each job's failing step with the log's lines that matter (`ci-log.ts`),
 * and the check run's annotations. For another CI's check suite: its failed check runs (latest), each one's output
 * (title, summary, text — what such CI reports instead of a log, through the same cut) and annotations. All of it is untrusted text — whoever controls the tests controls the log — so it is
 * cleaned like code from a comment, and it only ever travels in the task file, never in argv.
 *
 * The log is fetched from the signed URL GitHub redirects to, without the token (the blob host needs none and
 * must not get one), and read as a stream: memory is bounded by the cut, not by the log.
 */
import { HttpClient } from '@actions/http-client';
import { StringDecoder } from 'node:string_decoder';
import { getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { JOB_LOG_BOUNDS, LogReducer, type ReducedLog } from './ci-log.js';
import type { GitHubClient, RepoRef } from './client.js';
import { visibleCode, type HiddenTally } from '../markdown/visible.js';

/** The whole evidence's size at most, in bytes of log lines and annotations; the jobs past it are named only. */
const EVIDENCE_MAX_BYTES = 48 * 1024;
/** Failed jobs read at most (a matrix of fifty failures says nothing the first few do not). */
const MAX_JOBS = 6;
const MAX_ANNOTATIONS = 30;
/** A log read past this many bytes is abandoned: the reducer has long had what it keeps. */
const MAX_LOG_BYTES = 256 * 1024 * 1024;

export interface CiAnnotation {
  path: string;
  line: number;
  level: string;
  message: string;
}

export interface FailedJob {
  /** A check run of another CI (its output stands in for the log), not a workflow job. */
  check?: true;
  id: number;
  name: string;
  conclusion: string;
  url: string;
  /** The first failed step as the jobs API names it. */
  failedStep?: string;
  log: ReducedLog | { unavailable: string };
  annotations: CiAnnotation[];
}

/** The failed CI to read: a workflow run, or a check suite of another CI. */
export interface CiSource {
  source: 'workflow-run' | 'check-suite';
  id: number;
}

export interface CiEvidence {
  runId: number;
  jobs: FailedJob[];
  /** Failed jobs of the run that are not read (past `MAX_JOBS` or the size bound), by name. */
  notRead: string[];
}

const FAILED = new Set(['failure', 'timed_out']);

/** A failed job or check run, before its log is read. */
interface Failed extends Omit<FailedJob, 'log' | 'annotations'> {
  readLog: () => Promise<ReducedLog | { unavailable: string }>;
}

export async function collectCiEvidence(
  gh: GitHubClient,
  repo: RepoRef,
  ci: CiSource,
  hidden: HiddenTally,
  logger: Logger,
): Promise<CiEvidence> {
  const failed =
    ci.source === 'check-suite'
      ? await failedCheckRuns(gh, repo, ci.id)
      : await failedJobs(gh, repo, ci.id, logger);
  const out: FailedJob[] = [];
  const notRead: string[] = [];
  let bytes = 0;
  for (const { readLog, ...job } of failed) {
    if (out.length >= MAX_JOBS || bytes >= EVIDENCE_MAX_BYTES) {
      notRead.push(job.name);
      continue;
    }
    const log = await readLog();
    const annotations = await readAnnotations(gh, repo, job.id, logger);
    const entry: FailedJob = {
      ...job,
      log: 'lines' in log ? cleanLog(log, hidden) : log,
      annotations: annotations.map((a) => ({ ...a, message: visibleCode(a.message, hidden) })),
    };
    out.push(entry);
    bytes += evidenceBytes(entry);
  }
  return { runId: ci.id, jobs: out, notRead };
}

async function failedJobs(gh: GitHubClient, repo: RepoRef, runId: number, logger: Logger): Promise<Failed[]> {
  const jobs = await gh.paginate(gh.rest.actions.listJobsForWorkflowRun, {
    ...repo,
    run_id: runId,
    filter: 'latest',
    per_page: 100,
  });
  return jobs
    .filter((j) => FAILED.has(j.conclusion ?? ''))
    .map((job) => {
      const failedStep = job.steps?.find((s) => FAILED.has(s.conclusion ?? ''))?.name;
      return {
        id: job.id,
        name: job.name,
        conclusion: job.conclusion ?? 'failure',
        url: job.html_url ?? '',
        ...(failedStep ? { failedStep } : {}),
        readLog: () => readJobLog(gh, repo, job.id, logger),
      };
    });
}

/**
 * A check suite's failed check runs (the latest of each name). Their output is all such CI tells GitHub — a
 * title, a summary and a text of at most 64 KB each — so it goes through the job log's reducer as the log.
 */
async function failedCheckRuns(gh: GitHubClient, repo: RepoRef, suiteId: number): Promise<Failed[]> {
  const runs = await gh.paginate(gh.rest.checks.listForSuite, {
    ...repo,
    check_suite_id: suiteId,
    filter: 'latest',
    per_page: 100,
  });
  return runs
    .filter((r) => FAILED.has(r.conclusion ?? ''))
    .map((r) => ({
      check: true as const,
      id: r.id,
      name: r.name,
      conclusion: r.conclusion ?? 'failure',
      url: r.html_url ?? r.details_url ?? '',
      readLog: () => Promise.resolve(reduceOutput(r.output)),
    }));
}

function reduceOutput(o: {
  title: string | null;
  summary: string | null;
  text: string | null;
}): ReducedLog | { unavailable: string } {
  const text = [o.title, o.summary, o.text].filter((t) => t?.trim()).join('\n');
  if (!text) return { unavailable: 'the check run reported no output' };
  const reducer = new LogReducer(JOB_LOG_BOUNDS);
  reducer.push(text);
  return reducer.end();
}

function cleanLog(log: ReducedLog, hidden: HiddenTally): ReducedLog {
  return {
    ...log,
    lines: log.lines.map((l) => ({ n: l.n, text: visibleCode(l.text, hidden) })),
    ...(log.firstError ? { firstError: visibleCode(log.firstError, hidden) } : {}),
    ...(log.step ? { step: visibleCode(log.step, hidden) } : {}),
  };
}

function evidenceBytes(j: FailedJob): number {
  const lines = 'lines' in j.log ? j.log.lines.map((l) => l.text) : [];
  return [...lines, ...j.annotations.map((a) => a.message)].reduce((s, t) => s + Buffer.byteLength(t) + 1, 0);
}

async function readJobLog(
  gh: GitHubClient,
  repo: RepoRef,
  jobId: number,
  logger: Logger,
): Promise<ReducedLog | { unavailable: string }> {
  try {
    const r = await gh.rest.actions.downloadJobLogsForWorkflowRun({
      ...repo,
      job_id: jobId,
      request: { redirect: 'manual' },
    });
    const location = (r.headers as Record<string, string | undefined>).location;
    if (!location) return { unavailable: `GitHub answered ${r.status} without a log location` };
    return await reduceLogAt(location);
  } catch (e) {
    const status = (e as { status?: unknown }).status;
    const why = `${typeof status === 'number' ? `GitHub answered ${status}: ` : ''}${oneLine(getErrorMessage(e))}`;
    logger.warning(`Could not read the log of job ${jobId}: ${why}`);
    return { unavailable: why };
  }
}

/** Streams the log at a signed URL through the reducer. The URL carries its own signature: no token is sent. */
async function reduceLogAt(url: string): Promise<ReducedLog> {
  const client = new HttpClient('gemini-run', [], {
    socketTimeout: 60_000,
    allowRetries: true,
    maxRetries: 2,
  });
  try {
    const res = await client.get(url);
    const status = res.message.statusCode ?? 0;
    if (status !== 200) {
      res.message.resume();
      throw new Error(`the log host answered ${status}`);
    }
    const reducer = new LogReducer(JOB_LOG_BOUNDS);
    const decoder = new StringDecoder('utf8');
    let read = 0;
    for await (const chunk of res.message as AsyncIterable<Buffer>) {
      read += chunk.length;
      reducer.push(decoder.write(chunk));
      if (read > MAX_LOG_BYTES) {
        res.message.destroy();
        break;
      }
    }
    reducer.push(decoder.end());
    return reducer.end();
  } finally {
    client.dispose();
  }
}

async function readAnnotations(
  gh: GitHubClient,
  repo: RepoRef,
  checkRunId: number,
  logger: Logger,
): Promise<CiAnnotation[]> {
  try {
    const { data } = await gh.rest.checks.listAnnotations({
      ...repo,
      check_run_id: checkRunId,
      per_page: MAX_ANNOTATIONS,
    });
    return data
      .filter((a) => a.annotation_level !== 'notice')
      .map((a) => ({
        path: a.path,
        line: a.start_line,
        level: a.annotation_level ?? 'failure',
        message: a.message ?? '',
      }));
  } catch (e) {
    // Annotations add to the log; without `checks: read` the log still says what failed.
    logger.info(`No annotations for job ${checkRunId}: ${oneLine(getErrorMessage(e))}`);
    return [];
  }
}

/** A run of backticks longer than any in `text` (at least `min`), so the text cannot close it and speak outside. */
function ticksFor(text: string, min: number): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(min, longest + 1));
}

/**
 * A markdown code span the text cannot end early (names come from the workflow file, which a PR can change), for
 * the task the agent reads; published text has its own (`published-text.ts`), which also defuses mentions and links.
 */
export function codeSpan(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  const ticks = ticksFor(one, 1);
  return ticks.length > 1 || one.startsWith('`') || one.endsWith('`')
    ? `${ticks} ${one} ${ticks}`
    : `\`${one}\``;
}

function renderJob(j: FailedJob): string {
  const at = j.failedStep ?? ('step' in j.log ? j.log.step : undefined);
  const head = `### ${j.check ? 'Check' : 'Job'} ${codeSpan(j.name)} ${j.conclusion === 'timed_out' ? 'timed out' : 'failed'}${at ? ` at step ${codeSpan(at)}` : ''}`;
  const out = [head];
  const log = j.check ? 'Output' : 'Log';
  if ('unavailable' in j.log)
    out.push(
      j.check ? `No output (${j.log.unavailable}).` : `The log could not be read (${j.log.unavailable}).`,
    );
  else if (j.log.lines.length) {
    const { lines, totalLines, stepLines, boundsHit } = j.log;
    const shown = lines.length < stepLines || lines.length < totalLines;
    out.push(
      `${log}: ${lines.length} of ${totalLines} lines${shown ? " (the failing step's last lines and error lines elsewhere)" : ''}${boundsHit ? '; cut to fit, more failed lines exist' : ''}:`,
    );
    const width = String(lines.at(-1)?.n ?? 0).length;
    const body = lines.map((l) => `${String(l.n).padStart(width)}: ${l.text}`).join('\n');
    const fence = ticksFor(body, 3);
    out.push(`${fence}text\n${body}\n${fence}`);
  }
  if (j.annotations.length) {
    out.push('Annotations:');
    for (const a of j.annotations)
      out.push(`- ${codeSpan(`${a.path}:${a.line}`)} (${a.level}): ${oneLine(a.message)}`);
  }
  return out.join('\n');
}

/** The evidence as the fix task carries it: markdown, every log inside a fence it cannot close. */
export function renderCiEvidence(e: CiEvidence): string {
  const parts = e.jobs.map(renderJob);
  if (!e.jobs.length) parts.push('No failed job of the run could be found (the run may have been re-run).');
  if (e.notRead.length)
    parts.push(`Not read, to stay within the bounds: ${e.notRead.map(codeSpan).join(', ')}.`);
  return parts.join('\n\n');
}
