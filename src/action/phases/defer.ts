/**
 * The defer step (`on-quota: defer`), between publish and report: a run that ended `quota-exhausted`, with its
 * work already pushed, becomes `deferred` when its issue or pull request is labelled and the action's own deferral
 * comment holds the record (deferral.ts). Either write refused, the run stays `quota-exhausted`: a deferral nobody
 * can see or resume is no deferral.
 */
import { upsertMarkedComment } from '../../github/comments.js';
import { addLabel, removeLabel } from '../../github/issues.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { decideDeferral, deferralComment, DEFERRAL_MARKER, type Deferred } from '../deferral.js';
import { quotaResetOf } from '../issue-report.js';
import type { AtDefer, Settled } from '../run-record.js';

export async function defer(r: AtDefer): Promise<Settled> {
  const deferral = await deferred(r);
  return deferral ? { status: 'deferred', deferral } : { status: r.runStatus };
}

/** The deferral made, or undefined when the run is not deferred (the reason is logged). */
async function deferred(r: AtDefer): Promise<Deferred | undefined> {
  if (r.runStatus !== 'quota-exhausted' || r.inputs.onQuota !== 'defer') return undefined;
  const { client, repo, log, result } = r;
  const now = new Date(Date.parse(result.startedAt) + result.durationMs);
  const reset = quotaResetOf(r.runStatus, result.message, now);
  if (!reset) return undefined;
  const pull = r.published?.pull;
  const decision = decideDeferral({
    trigger: r.trigger,
    approval: r.approval,
    runId: r.ctx.runId,
    ...(r.ciFix ? { ciFix: r.ciFix } : {}),
    maxDeferrals: r.inputs.maxDeferrals,
    reset,
    now,
    repo: `${repo.owner}/${repo.repo}`,
    ...(pull ? { pull } : {}),
    sessionId: result.sessionId,
    branch: pull?.headRef ?? r.published?.pushedTo ?? r.plan.branch,
  });
  if (decision.kind === 'no') {
    log.warning(`Not deferred: ${decision.why}; the run ends quota-exhausted.`);
    const n = pull?.number ?? r.trigger.number;
    if (decision.gaveUp && n !== undefined)
      await upsertMarkedComment(
        client,
        repo,
        n,
        DEFERRAL_MARKER,
        `gemini-run stopped waiting for the model quota: ${decision.why}. The run ended \`quota-exhausted\`; re-trigger it once the quota allows.`,
        await r.self(),
      ).catch((e: unknown) => log.warning(`Could not comment on #${n}: ${getErrorMessage(e)}`));
    return undefined;
  }
  const { record } = decision;
  const label = r.inputs.deferredLabel;
  try {
    await addLabel(client, repo, record.number, label);
    const body = deferralComment({ record, reset, maxDeferrals: r.inputs.maxDeferrals, label, now });
    await upsertMarkedComment(client, repo, record.number, DEFERRAL_MARKER, body, await r.self());
  } catch (e) {
    log.warning(
      `Could not defer #${record.number} (${oneLine(getErrorMessage(e))}): the run ends quota-exhausted.`,
    );
    await removeLabel(client, repo, record.number, label).catch(() => undefined);
    return undefined;
  }
  const resets = reset.resetAt;
  log.info(
    `Deferred #${record.number} until the quota resets at ${resets} (deferral ${record.attempt} of ${r.inputs.maxDeferrals}); a scheduled run resumes it.`,
  );
  return { record, resets };
}
