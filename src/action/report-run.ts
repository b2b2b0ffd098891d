/**
 * The report phase: the one place that decides the outputs, the step's failure, what the issue and the pull
 * request are told, the job summary and the artifact, from how the run ended and what publishing did. Every
 * step here is best effort (a warning), so one failed call never hides the others.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { upsertMarkedComment } from '../github/comments.js';
import type { GitHubClient } from '../github/client.js';
import type { ActionStatus, RunResult } from '../run/types.js';
import { AGENT_FILE_LIMITS, copyAgentFile, ownFile } from '../util/agent-file.js';
import { getErrorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { RepoRef } from '../github/client.js';
import { issueComment, stepFailure } from './issue-report.js';
import type { ActionOutputs } from './outputs.js';
import { sessionMarker, withEarlierRuns } from './pr-text.js';
import type { PublishOutcome } from './publish.js';
import type { Redactor } from './redact.js';
import { SUMMARY_MARKER } from './resume.js';
import type { TranscriptStore } from './transcript-store.js';

export function emptyOutputs(status: ActionStatus): ActionOutputs {
  return {
    status,
    'session-id': '',
    branch: '',
    'pr-number': '',
    'pr-url': '',
    'commit-count': '0',
    'transcript-path': '',
    'summary-path': '',
    models: '',
    'total-tokens': '',
  };
}

export interface ReportRunInput {
  client: GitHubClient;
  repo: RepoRef;
  log: Logger;
  redactor: Redactor;
  /**
   * Makes text publishable: redacts secrets, scrubs attribution (when asked) and applies the published-text rules
   * (publishedText). Everything the report writes to GitHub or the job summary goes through it.
   */
  publish: (text: string) => string;
  /** The token's identity, for the marked comments it may update. */
  self: () => Promise<string | undefined>;
  /** Writes the marked comment on the issue (or PR) of the trigger. */
  tellIssue: (text: string) => Promise<void>;
  writeJobSummary: (markdown: string) => Promise<void>;
  store: TranscriptStore;
  result: RunResult;
  status: ActionStatus;
  published: PublishOutcome | undefined;
  /** The rendered run summary (renderSummary). */
  summaryBody: string;
  previousSummary: string;
  onPullRequest: boolean;
  branch: string;
  outDir: string;
  artifactName: string;
  runId: string;
  runUrl: string;
  uploadTranscript: boolean;
  triggerPhrase: string;
}

export async function reportRun(o: ReportRunInput): Promise<{ outputs: ActionOutputs; failure?: string }> {
  const { result, published, log } = o;
  const pull = published?.pull;
  const outputs: ActionOutputs = {
    ...emptyOutputs(o.status),
    'session-id': result.sessionId,
    'commit-count': String(result.commits.length),
    // The models that did the agent's work; the router's classifier model is in the summary, marked.
    models: result.usage.models
      .filter((m) => !m.utility)
      .map((m) => m.model)
      .join(','),
    'total-tokens': String(result.usage.totalTokens),
    branch: pull?.headRef ?? published?.pushedTo ?? '',
    ...(pull ? { 'pr-number': String(pull.number), 'pr-url': pull.htmlUrl } : {}),
  };

  const where = o.uploadTranscript
    ? `\n\nTranscript: artifact \`${o.artifactName}\` of [run ${o.runId}](${o.runUrl}). Comment \`${o.triggerPhrase} <instruction>\` on the pull request to continue this session.`
    : '';
  const problem = published?.problem;
  const problemNote = problem ? `\n\n> [!WARNING]\n> ${problem.what}\n> ${problem.todo}` : '';
  const summary = o.publish(`${o.summaryBody}${problemNote}${where}`);
  const files = await writeRunFiles({ ...o, summary });
  outputs['summary-path'] = files.summaryPath;
  outputs['transcript-path'] = files.transcriptPath;

  const report = {
    status: o.status,
    message: result.message ? o.redactor.redact(result.message) : undefined,
    commitCount: result.commits.length,
    publish: published,
    finalAnswer: result.transcript.finalAnswer,
    onPullRequest: o.onPullRequest,
  };
  if (pull) {
    // The session record goes in after the text was made publishable (which removes any the agent wrote), on the
    // line right after the marker: the one place a follow-up reads it from.
    const record = sessionMarker({
      sessionId: result.sessionId,
      runId: o.runId,
      artifact: o.artifactName,
      mode: result.mode,
      status: result.status,
      pr: pull.number,
      repo: `${o.repo.owner}/${o.repo.repo}`,
    });
    await upsertMarkedComment(
      o.client,
      o.repo,
      pull.number,
      SUMMARY_MARKER,
      `${record}\n${o.publish(withEarlierRuns(summary, o.previousSummary))}`,
      await o.self(),
    ).catch((e: unknown) =>
      log.warning(`Could not post the summary on #${pull.number}: ${getErrorMessage(e)}`),
    );
  }
  const comment = issueComment(report);
  if (comment) await o.tellIssue(comment);

  await o
    .writeJobSummary(summary)
    .catch((e: unknown) => log.warning(`Could not write the job summary: ${getErrorMessage(e)}`));
  // A bundle is uploaded even when transcripts are not: it is the only copy of the agent's work.
  const bundle = published?.bundle;
  if (o.uploadTranscript || bundle) {
    const uploads = [...(o.uploadTranscript ? files.all : []), ...(bundle ? [bundle] : [])];
    await o.store
      .save(o.artifactName, uploads, o.outDir)
      .then((saved) =>
        log.info(saved ? `Saved the artifact: ${saved}` : 'Artifact upload is not available here; skipped.'),
      )
      .catch((e: unknown) => log.warning(`Could not upload the artifact: ${getErrorMessage(e)}`));
  }

  const failure = stepFailure(report);
  return { outputs, ...(failure ? { failure: o.redactor.redact(failure) } : {}) };
}

/** The run's files for the artifact: the summary, the run summary and the transcript. */
async function writeRunFiles(o: {
  outDir: string;
  summary: string;
  result: RunResult;
  branch: string;
  redactor: Redactor;
  log: Logger;
}): Promise<{ summaryPath: string; transcriptPath: string; all: string[] }> {
  const summaryPath = join(o.outDir, 'summary.md');
  await writeFile(summaryPath, o.summary);
  let transcriptPath = '';
  if (o.result.transcriptPath) {
    // The engine's own copy of the session file, read as data all the same: a link or a hard link is skipped.
    const out = join(o.outDir, 'transcript.jsonl');
    const from = o.result.transcriptPath;
    await copyAgentFile(from, out, ownFile(from, AGENT_FILE_LIMITS.transcript)).then(
      () => (transcriptPath = out),
      (e: unknown) => o.log.warning(`skipped the transcript for the artifact: ${getErrorMessage(e)}`),
    );
  }
  const runSummaryPath = join(o.outDir, 'run-summary.json');
  await writeFile(
    runSummaryPath,
    o.redactor.redact(JSON.stringify(machineSummary(o.result, o.branch), null, 2)),
  );
  return {
    summaryPath,
    transcriptPath,
    all: [runSummaryPath, summaryPath, ...(transcriptPath ? [transcriptPath] : [])],
  };
}

/** The machine-readable run summary of the artifact: no secrets, no telemetry resource attributes. */
function machineSummary(result: RunResult, branch: string) {
  return {
    status: result.status,
    message: result.message,
    mode: result.mode,
    sessionId: result.sessionId,
    model: result.model,
    branch,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    exitCode: result.exitCode,
    usage: result.usage,
    commits: result.commits,
    filesChanged: result.filesChanged,
    leftoverCommitted: result.leftoverCommitted,
    refusedCalls: result.refusedCalls,
    toolCalls: result.transcript.toolCalls.map((t) => ({ name: t.name, kind: t.kind, status: t.status })),
    finalAnswer: result.transcript.finalAnswer,
  };
}
