import { commentMarker, createComment, findMarkedComment, type FoundComment } from '../github/comments.js';
import { recordOriginProblem, type RunOrigin } from '../github/record-origin.js';
import type { GitHubClient } from '../github/client.js';
import type { PullInfo } from '../github/pulls.js';
import type { ResumeSource, Task } from '../domain/types.js';
import { previousRunOf } from '../gemini/context-file.js';
import { transcriptResumable } from '../gemini/transcript-locate.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { neutralize } from '../util/untrusted-text.js';
import type { RepoRef } from '../github/client.js';
import { sessionRecordOf, type SessionRecord } from './pr-text.js';
import type { TranscriptStore } from './transcript-store.js';

export const SUMMARY_MARKER = commentMarker('summary');

/**
 * For a follow-up on a run's pull request: the previous summary comment (kept below the new one) and, when its
 * newest session's transcript can still be fetched, where to resume from.
 */
export async function findPreviousSession(o: {
  client: GitHubClient;
  repo: RepoRef;
  pull: PullInfo;
  store: TranscriptStore;
  destDir: string;
  log: Logger;
  /** The token's identity: only a summary it wrote is a previous session. Undefined: none is trusted. */
  self: string | undefined;
  origin: RunOrigin;
}): Promise<{
  previousSummary: string;
  /** The previous run's record, when it passed every check of its origin. */
  record?: SessionRecord;
  resume?: ResumeSource;
  previousRun?: Task['previousRun'];
}> {
  const { client, repo, log } = o;
  let resume: ResumeSource | undefined;
  let previousRun: Task['previousRun'];
  const own = await ownSessionRecord(o);
  if (own.why && own.comment)
    log.info(`Not continuing from the summary comment ${own.comment.htmlUrl}: ${own.why}.`);
  const latest = own.record;
  if (latest) {
    previousRun = previousRunOf(latest.status);
    if (previousRun)
      log.info(`The previous run ended ${previousRun.status}: the agent is told so in its task`);
    let why = `the transcript of run ${latest.runId} was not found.`;
    const file = await o.store.load(latest, o.destDir).catch((e: unknown) => {
      why = oneLine(getErrorMessage(e));
      log.warning(`Could not fetch the previous transcript: ${why}`);
    });
    if (file && !(await transcriptResumable(file).catch(() => false))) {
      why =
        'nothing in it can be resumed (its only turn was cancelled or failed, and gemini rolled the turn back).';
    } else if (file) {
      resume = { sessionId: latest.sessionId, transcriptFile: file };
      log.info(
        `Continuing session ${neutralize(latest.sessionId)} from run ${neutralize(String(latest.runId))}`,
      );
    }
    if (!resume) {
      // The person who asked for a continuation learns at once that this one starts over, and why.
      await createComment(
        client,
        repo,
        o.pull.number,
        `${commentMarker('fresh-session')}\ngemini-run could not continue the previous session: ${why}\n\nThis run starts a fresh session, with the pull request's description and review comments as context.`,
      ).catch((e: unknown) => log.warning(`Could not comment on #${o.pull.number}: ${getErrorMessage(e)}`));
    }
  }
  if (!resume) {
    log.warning(
      "No transcript of this pull request's previous session was found: starting a fresh session with the pull request's description and review comments as context.",
    );
  }
  return {
    previousSummary: own.comment?.body ?? '',
    ...(latest ? { record: latest } : {}),
    ...(resume ? { resume } : {}),
    ...(previousRun ? { previousRun } : {}),
  };
}

/**
 * The action's own session record on a pull request: in the summary comment its identity wrote, naming this pull
 * request and repository, written by a workflow run GitHub says is one of gemini-run's in this repository
 * (record-origin.ts). Else why not, and the comment if there is one.
 */
export async function ownSessionRecord(o: {
  client: GitHubClient;
  repo: RepoRef;
  pull: { number: number };
  self: string | undefined;
  origin: RunOrigin;
}): Promise<{ comment?: FoundComment; record?: SessionRecord; why?: string }> {
  const comment = o.self
    ? await findMarkedComment(o.client, o.repo, o.pull.number, SUMMARY_MARKER, o.self)
    : undefined;
  if (!comment) return { why: o.self ? 'it holds none' : "the token's own account is unknown" };
  const record = sessionRecordOf(comment.body, SUMMARY_MARKER);
  if (!record) return { comment, why: 'it holds no session record' };
  const why =
    recordMismatch(record, { pr: o.pull.number, repo: o.repo }) ??
    (await recordOriginProblem(o.client, o.repo, {
      runId: record.runId,
      commentUpdatedAt: comment.updatedAt,
      origin: o.origin,
    }));
  return why ? { comment, why } : { comment, record };
}

/**
 * Why a record from our summary comment is not this pull request's session, or undefined when it is: it must name
 * this PR and repository, and an artifact of the run it names (the store then finds it in this repository only).
 * Exported for tests.
 */
export function recordMismatch(
  record: SessionRecord,
  here: { pr: number; repo: RepoRef },
): string | undefined {
  if (record.pr !== here.pr) return `its record names pull request #${record.pr}, not #${here.pr}`;
  const repo = `${here.repo.owner}/${here.repo.repo}`;
  if (record.repo.toLowerCase() !== repo.toLowerCase()) return `its record names ${record.repo}, not ${repo}`;
  if (!record.artifact.startsWith(`gemini-run-${record.runId}-`)) {
    return `its record names the artifact ${record.artifact}, which is not one of run ${record.runId}`;
  }
  return undefined;
}
