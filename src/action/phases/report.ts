/**
 * The report phase: the one place that decides the outputs, the step's failure, what the issue and the pull
 * request are told, the job summary and the artifact, from how the run ended and what publishing did. Every
 * step here is best effort (a warning), so one failed call never hides the others.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RUN_SUMMARY_VERSION, type RunFacts } from '../../domain/run-summary.js';
import { failsStep, statusLine, type FailedPart } from '../../domain/status.js';
import { withoutRunnerPaths } from '../context.js';
import type { DeferralRecord, Deferred } from '../deferral.js';
import { upsertMarkedComment } from '../../github/comments.js';
import { recordOf } from '../../github/approval.js';
import type { PullInfo } from '../../github/pulls.js';
import type { ActionStatus, RunResult } from '../../run/types.js';
import { AGENT_FILE_LIMITS, copyAgentFile, ownFile } from '../../util/agent-file.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import type { Logger } from '../../util/log.js';
import { describeReset, type QuotaReset } from '../../domain/quota.js';
import {
  earlyFailure,
  quotaResetOf,
  failureComment,
  failureSummary,
  issueComment,
  runFailure,
  stepFailure,
} from '../issue-report.js';
import { capUtf8, conclusionOf, usageJson, type ActionOutputs } from '../outputs.js';
import { sessionMarker, withEarlierRuns } from '../pr-text.js';
import type { Redactor } from '../redact.js';
import { SUMMARY_MARKER } from '../resume.js';
import { budgetSummaryLine } from '../daily-budget.js';
import type { ActionResult, AtPrepare, AtReport, Basics } from '../run-record.js';

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
    'pull-request-operation': 'none',
    'head-sha': '',
    'final-message': '',
    conclusion: conclusionOf(status),
    usage: usageJson(undefined, 0),
    'review-id': '',
    'review-comments': '',
    'labels-applied': '',
  };
}

/** A run that ended before the agent ran: its status, and the step's one-line failure when the status fails. */
export function ended(status: ActionStatus, message?: string): ActionResult {
  const failure = failsStep(status) ? (message ?? `gemini-run ended ${status}`) : undefined;
  return { outputs: emptyOutputs(status), ...(failure ? { failure } : {}) };
}

/** The job summary, best effort: a failure to write it is a warning, never the run's end. */
export async function writeJobSummary(r: Pick<Basics, 'io' | 'log'>, markdown: string): Promise<void> {
  await r.io
    .writeJobSummary(markdown)
    .catch((e: unknown) => r.log.warning(`Could not write the job summary: ${getErrorMessage(e)}`));
}

/**
 * A failing end after the actor was admitted and before the agent ran (the credential, a crash of the action):
 * the job summary, the issue told in one sentence with the fix, and the step's one line. The tracking comment is
 * finished by the caller.
 */
export async function reportEarlyEnd(
  r: AtPrepare,
  status: ActionStatus,
  message: string,
  o: { userError: boolean; failedPart?: FailedPart },
): Promise<ActionResult> {
  const line = withoutRunnerPaths(r.redactor.redact(oneLine(message)), r.ctx);
  const facts = earlyFailure(status, line, {
    logUrl: r.runUrl,
    userError: o.userError,
    ...(o.failedPart ? { failedPart: o.failedPart } : {}),
  });
  await r.tellIssue(failureComment(facts));
  await writeJobSummary(r, r.publish(failureSummary(facts)));
  return ended(status, facts.failed ? `${facts.failed} failed: ${line}` : line);
}

function outputsOf(r: AtReport): ActionOutputs {
  const { result, published } = r;
  const pull = published?.pull;
  return {
    ...emptyOutputs(r.status),
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
    'pull-request-operation': pull ? (published.opened ? 'created' : 'updated') : 'none',
    'head-sha': published?.pushedTo ? (published.headSha ?? result.headSha) : '',
    // The agent's text, published as the PR text is (secrets, attribution, markup rules).
    'final-message': capUtf8(r.publishBlock(result.transcript.finalAnswer)),
    usage: usageJson(result.usage, result.durationMs, result.served),
  };
}

/** The run's summary as published: the rendered summary, a publish problem, and where the transcript is. */
function publishedSummary(r: AtReport): string {
  const { inputs, ctx } = r;
  const where = inputs.uploadTranscript
    ? `\n\nTranscript: artifact \`${r.artifactName}\` of [run ${ctx.runId}](${r.runUrl}). Comment \`${inputs.triggerPhrase} <instruction>\` on the pull request to continue this session.`
    : '';
  const problem = r.published?.problem;
  const problemNote = problem ? `\n\n> [!WARNING]\n> ${problem.what}\n> ${problem.todo}` : '';
  return r.publish(`${r.summaryBody}${problemNote}${where}`);
}

/**
 * The commit the pull request's branch is at because of gemini-run: what this run pushed there, else what the
 * previous record said (a run that pushed nothing, or elsewhere, leaves it). Never the branch's tip as such: a
 * person may have pushed that.
 */
function headOf(r: AtReport, pull: PullInfo): { head?: string } {
  const p = r.published;
  if (p?.pushedTo && p.pushedTo === pull.headRef) return { head: p.headSha ?? r.result.headSha };
  const previous = r.previousRecord?.head;
  return previous ? { head: previous } : {};
}

/** The summary comment on the pull request, with the session record a follow-up resumes from. */
async function postSummary(r: AtReport, pull: PullInfo, summary: string): Promise<void> {
  const { result } = r;
  // The session record goes in after the text was made publishable (which removes any the agent wrote), on the
  // line right after the marker: the one place a follow-up reads it from.
  const record = sessionMarker({
    sessionId: result.sessionId,
    runId: r.ctx.runId,
    artifact: r.artifactName,
    mode: result.mode,
    status: result.status,
    pr: pull.number,
    repo: `${r.repo.owner}/${r.repo.repo}`,
    ...headOf(r, pull),
    // A run that is not a fix (a person's follow-up) starts the fix count again.
    ...(r.ciFix ? { ciFix: { attempts: r.ciFix.attempts, signature: r.ciFix.signature } } : {}),
    // The approval of the work on this pull request, carried by its CI fixes (a follow-up's own replaces it).
    approval: recordOf(r.approval),
  });
  await upsertMarkedComment(
    r.client,
    r.repo,
    pull.number,
    SUMMARY_MARKER,
    `${record}\n${r.publish(withEarlierRuns(summary, r.previousSummary))}`,
    await r.self(),
  ).catch((e: unknown) =>
    r.log.warning(`Could not post the summary on #${pull.number}: ${getErrorMessage(e)}`),
  );
}

/** The artifact: the run's files when transcripts are uploaded, and the bundle whenever there is one. */
async function saveArtifact(r: AtReport, files: string[]): Promise<void> {
  // A bundle is uploaded even when transcripts are not: it is the only copy of the agent's work.
  const bundle = r.published?.bundle;
  if (!r.inputs.uploadTranscript && !bundle) return;
  const uploads = [...(r.inputs.uploadTranscript ? files : []), ...(bundle ? [bundle] : [])];
  await r.store
    .save(r.artifactName, uploads, r.outDir)
    .then((saved) =>
      r.log.info(saved ? `Saved the artifact: ${saved}` : 'Artifact upload is not available here; skipped.'),
    )
    .catch((e: unknown) => r.log.warning(`Could not upload the artifact: ${getErrorMessage(e)}`));
}

export async function reportRun(r: AtReport): Promise<ActionResult> {
  const { result, published, log } = r;
  const outputs = outputsOf(r);
  const summary = publishedSummary(r);
  const endedAt = new Date(Date.parse(result.startedAt) + result.durationMs);
  const reset = quotaResetOf(r.status, result.message, endedAt);
  if (reset)
    log.info(
      `The quota (${reset.scope}) resets at ${reset.resetAt} (${reset.source === 'retry-delay' ? "the API's retry delay" : 'its window'})`,
    );
  const report = {
    status: r.status,
    message: result.message ? withoutRunnerPaths(r.redactor.redact(result.message), r.ctx) : undefined,
    ...(result.failedPart ? { failedPart: result.failedPart } : {}),
    commitCount: result.commits.length,
    publish: published,
    finalAnswer: r.publishBlock(result.transcript.finalAnswer),
    onPullRequest: r.trigger.isPullRequest,
    ...(reset ? { quotaResets: describeReset(reset, endedAt) } : {}),
    ...(r.deferral?.record.cause === 'daily-budget' ? { waitsForDailyBudget: true } : {}),
  };
  const failure = stepFailure(report);
  outputs.conclusion = failure ? 'failure' : 'success';
  const files = await writeRunFiles({
    outDir: r.outDir,
    summary,
    result,
    facts: runFacts(r, outputs, endedAt),
    ...(reset ? { quotaReset: reset } : {}),
    ...(r.deferral ? { deferral: r.deferral.record } : {}),
    branch: r.plan.branch,
    redactor: r.redactor,
    log,
  });
  outputs['summary-path'] = files.summaryPath;
  outputs['transcript-path'] = files.transcriptPath;

  if (published?.pull) await postSummary(r, published.pull, summary);
  const comment = issueComment(report);
  if (comment) await r.tellIssue(comment);
  // A failing run's job summary says first what happened, what was kept and what to do; then the run's summary.
  const failed = runFailure(report, r.runUrl);
  const head = failed
    ? r.publish(failureSummary(failed))
    : r.deferral
      ? deferredSummary(r.deferral, r.inputs)
      : '';
  // Under `max-daily-tokens`, the day's spend against the cap, as the ledger read after this run settled.
  const budget = r.dailyBudget ? `${r.publish(budgetSummaryLine(r.dailyBudget.figures))}\n\n` : '';
  await writeJobSummary(r, head ? `${head}\n${budget}${summary}` : `${budget}${summary}`);
  await saveArtifact(r, files.all);
  return { outputs, ...(failure ? { failure: r.redactor.redact(failure) } : {}) };
}

function deferredSummary(d: Deferred, inputs: AtReport['inputs']): string {
  const { record } = d;
  const wall =
    record.cause === 'daily-budget'
      ? "The repository's daily token budget ran out."
      : "The model's quota ran out.";
  return [
    `## gemini-run: ${statusLine('deferred')}`,
    '',
    `${wall} The work so far is pushed; #${record.number} is labelled \`${inputs.deferredLabel}\` and a scheduled run continues the same session after the reset at ${d.resets} (deferral ${record.attempt} of ${inputs.maxDeferrals}).`,
    '',
  ].join('\n');
}

/** What run-summary.json says beyond the engine's result: see src/domain/run-summary.ts. */
function runFacts(r: AtReport, outputs: ActionOutputs, endedAt: Date): RunFacts {
  const { ctx, trigger } = r;
  const pull = r.published?.pull;
  return {
    schemaVersion: RUN_SUMMARY_VERSION,
    outcome: { status: outputs.status, conclusion: outputs.conclusion },
    run: {
      repo: `${r.repo.owner}/${r.repo.repo}`,
      id: Number(ctx.runId),
      attempt: Number(ctx.runAttempt),
      url: r.runUrl,
    },
    trigger: {
      event: ctx.eventName,
      via: trigger.via,
      ...(trigger.approved?.at ? { at: trigger.approved.at } : {}),
      ...(trigger.number ? { issue: { number: trigger.number, isPullRequest: trigger.isPullRequest } } : {}),
    },
    pullRequest: pull
      ? { number: pull.number, url: pull.htmlUrl, operation: r.published?.opened ? 'created' : 'updated' }
      : null,
    ...(r.ciFix ? { ciFix: { attempt: r.ciFix.attempts } } : {}),
    ...(r.dailyBudget ? { dailyBudget: r.dailyBudget.figures } : {}),
    endedAt: endedAt.toISOString(),
  };
}

/** The run's files for the artifact: the summary, the run summary and the transcript. */
async function writeRunFiles(o: {
  outDir: string;
  summary: string;
  result: RunResult;
  facts: RunFacts;
  quotaReset?: QuotaReset;
  deferral?: DeferralRecord;
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
    o.redactor.redact(
      JSON.stringify(
        {
          ...machineSummary(o.result, o.branch),
          ...o.facts,
          ...(o.quotaReset ? { quotaReset: o.quotaReset } : {}),
          ...(o.deferral ? { deferral: o.deferral } : {}),
        },
        null,
        2,
      ),
    ),
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
    served: result.served,
    egress: result.egress,
    toolCalls: result.transcript.toolCalls.map((t) => ({ name: t.name, kind: t.kind, status: t.status })),
    finalAnswer: result.transcript.finalAnswer,
  };
}
