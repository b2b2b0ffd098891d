/**
 * The end of a run the preflight refused: a mistake in the inputs or the runner, found before any network call.
 * The step fails with the one line and the job summary says it; the issue is told only when GitHub answers at
 * once and the actor may run gemini-run (the permission check, then one comment), so a stranger's label gets
 * nothing and an unreachable GitHub costs no retries.
 */
import { createGitHubClient } from '../../github/client.js';
import { commentMarker, createComment } from '../../github/comments.js';
import { hasWriteAccess } from '../../github/permissions.js';
import { publishedDocument } from '../../markdown/publish.js';
import type { RunTrigger } from '../../github/trigger.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { runUrlOf } from '../context.js';
import { earlyFailure, failureComment, failureSummary, type FailureFacts } from '../issue-report.js';
import type { ActionResult, Basics } from '../run-record.js';
import { ended, writeJobSummary } from './report.js';

/** The bound on telling the issue: both requests together, no retry. */
const NOTICE_TIMEOUT_MS = 5_000;

/** The message quotes inputs (a model name, a path): published by the rules every text on GitHub follows. */
function publishable(r: Basics, trigger: RunTrigger | undefined): (text: string) => string {
  const { ctx } = r;
  return (text) =>
    publishedDocument(r.redactor.redact(text), {
      serverUrl: ctx.serverUrl,
      owner: ctx.repo.owner,
      repo: ctx.repo.repo,
      ...(trigger?.number !== undefined ? { ownIssue: trigger.number } : {}),
    });
}

async function tellAdmitted(r: Basics, trigger: RunTrigger, f: FailureFacts): Promise<void> {
  const token = r.inputs.githubToken || r.io.env.GITHUB_TOKEN || '';
  if (!token || trigger.number === undefined) return;
  const { ctx } = r;
  try {
    const client = createGitHubClient(token, ctx.apiUrl, {
      logger: r.log,
      retries: 0,
      rateLimitRetries: 0,
      signal: AbortSignal.timeout(NOTICE_TIMEOUT_MS),
    });
    if (!(await hasWriteAccess(client, ctx.repo, trigger.actor))) return;
    const body = publishable(r, trigger)(failureComment(f));
    await createComment(client, ctx.repo, trigger.number, `${commentMarker('misconfigured')}\n${body}`);
  } catch (error) {
    r.log.warning(`Could not tell #${trigger.number} (${oneLine(getErrorMessage(error))}).`);
  }
}

export async function misconfigured(
  r: Basics,
  trigger: RunTrigger | undefined,
  message: string,
): Promise<ActionResult> {
  const line = r.redactor.redact(oneLine(message));
  const facts = earlyFailure('misconfigured', line, { logUrl: runUrlOf(r.ctx), userError: true });
  await writeJobSummary(r, publishable(r, trigger)(failureSummary(facts)));
  if (trigger) await tellAdmitted(r, trigger, facts);
  return ended('misconfigured', line);
}
