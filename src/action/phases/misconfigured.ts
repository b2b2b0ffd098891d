/**
 * The end of a run the preflight refused: a mistake in the inputs or the runner, found before any network call.
 * The step fails with the one line and the job summary says it; the issue is told only when GitHub answers at
 * once and the actor may run gemini-run (the permission check, then one comment), so a stranger's label gets
 * nothing and an unreachable GitHub costs no retries.
 */
import { commentMarker, createComment } from '../../github/comments.js';
import { hasWriteAccess } from '../../github/permissions.js';
import type { RunTrigger } from '../../github/trigger.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { runUrlOf } from '../context.js';
import { earlyFailure, failureComment, failureSummary, type FailureFacts } from '../issue-report.js';
import { publisherFor } from '../publishing.js';
import type { ActionResult, Basics } from '../run-record.js';
import { ended, writeJobSummary } from './report.js';

/** The bound on telling the issue: both requests together, no retry. */
const NOTICE_TIMEOUT_MS = 5_000;

async function tellAdmitted(r: Basics, trigger: RunTrigger, f: FailureFacts): Promise<void> {
  if (!r.github || trigger.number === undefined) return;
  const { ctx } = r;
  try {
    const client = r.github.notice(NOTICE_TIMEOUT_MS);
    if (!(await hasWriteAccess(client, ctx.repo, trigger.actor))) return;
    // The message quotes inputs (a model name, a path): published by the rules every text on GitHub follows.
    const body = publisherFor(r, trigger.number).publish(failureComment(f));
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
  await writeJobSummary(r, publisherFor(r, trigger?.number).publish(failureSummary(facts)));
  if (trigger) await tellAdmitted(r, trigger, facts);
  return ended('misconfigured', line);
}
