/**
 * The defer step (`on-quota: defer`), between publish and report: a run that ended `quota-exhausted` (the model's
 * quota) or `daily-budget-exceeded` (the repository's `max-daily-tokens`), with its work already pushed, becomes
 * `deferred` when its issue or pull request is labelled and the action's own deferral comment holds the record
 * (deferral.ts). Either write refused, the run keeps its status: a deferral nobody can see or resume is no deferral.
 * A run that finds the day's budget spent before gemini starts is deferred the same way (phases/budget.ts).
 */
import { upsertMarkedComment } from '../../github/comments.js';
import { addLabel, removeLabel } from '../../github/issues.js';
import type { QuotaReset } from '../../domain/quota.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import {
  decideDeferral,
  deferralComment,
  DEFERRAL_MARKER,
  type DeferralCause,
  type Deferred,
} from '../deferral.js';
import { quotaResetOf } from '../issue-report.js';
import type { AtDefer, AtPrepare, Settled } from '../run-record.js';

export async function defer(r: AtDefer): Promise<Settled> {
  const deferral = await deferred(r);
  return deferral ? { status: 'deferred', deferral } : { status: r.runStatus };
}

/** What the run waits for, if it ended at a wall a deferral can wait out. */
function wallOf(r: AtDefer, now: Date): { cause: DeferralCause; reset: QuotaReset } | undefined {
  if (r.runStatus === 'quota-exhausted') {
    const reset = quotaResetOf(r.runStatus, r.result.message, now);
    return reset ? { cause: 'quota', reset } : undefined;
  }
  if (r.runStatus === 'daily-budget-exceeded' && r.dailyBudget) {
    const resetAt = r.dailyBudget.figures.resetsAt;
    return { cause: 'daily-budget', reset: { scope: 'daily', resetAt, source: 'window' } };
  }
  return undefined;
}

/** The deferral made, or undefined when the run is not deferred (the reason is logged). */
async function deferred(r: AtDefer): Promise<Deferred | undefined> {
  if (r.inputs.onQuota !== 'defer') return undefined;
  const { result } = r;
  const now = new Date(Date.parse(result.startedAt) + result.durationMs);
  const wall = wallOf(r, now);
  if (!wall) return undefined;
  const pull = r.published?.pull;
  return deferRun(r, {
    ...wall,
    now,
    otherwise: r.runStatus,
    ...(pull ? { pull } : {}),
    sessionId: result.sessionId,
    branch: pull?.headRef ?? r.published?.pushedTo ?? r.plan.branch,
  });
}

/** What a deferral needs of the run: who, what was approved, where it speaks. */
type Deferring = Pick<
  AtPrepare,
  'client' | 'repo' | 'log' | 'trigger' | 'approval' | 'ctx' | 'ciFix' | 'inputs' | 'self'
>;

/**
 * Labels the run's item and writes the deferral record, or says why not (`otherwise`: the status the run keeps).
 * Undefined when it was not deferred.
 */
export async function deferRun(
  r: Deferring,
  o: {
    cause: DeferralCause;
    reset: QuotaReset;
    now: Date;
    otherwise: string;
    pull?: { number: number };
    sessionId?: string;
    branch?: string;
  },
): Promise<Deferred | undefined> {
  const { client, repo, log } = r;
  const waitingFor = o.cause === 'daily-budget' ? 'the daily token budget' : 'the model quota';
  const decision = decideDeferral({
    trigger: r.trigger,
    approval: r.approval,
    runId: r.ctx.runId,
    ...(r.ciFix ? { ciFix: r.ciFix } : {}),
    maxDeferrals: r.inputs.maxDeferrals,
    reset: o.reset,
    now: o.now,
    repo: `${repo.owner}/${repo.repo}`,
    ...(o.pull ? { pull: o.pull } : {}),
    ...(o.sessionId ? { sessionId: o.sessionId } : {}),
    ...(o.branch ? { branch: o.branch } : {}),
    cause: o.cause,
  });
  if (decision.kind === 'no') {
    log.warning(`Not deferred: ${decision.why}; the run ends ${o.otherwise}.`);
    const n = o.pull?.number ?? r.trigger.number;
    if (decision.gaveUp && n !== undefined)
      await upsertMarkedComment(
        client,
        repo,
        n,
        DEFERRAL_MARKER,
        `gemini-run stopped waiting for ${waitingFor}: ${decision.why}. The run ended \`${o.otherwise}\`; re-trigger it once ${o.cause === 'daily-budget' ? 'the budget' : 'the quota'} allows.`,
        await r.self(),
      ).catch((e: unknown) => log.warning(`Could not comment on #${n}: ${getErrorMessage(e)}`));
    return undefined;
  }
  const { record } = decision;
  const label = r.inputs.deferredLabel;
  try {
    await addLabel(client, repo, record.number, label);
    const body = deferralComment({
      record,
      reset: o.reset,
      maxDeferrals: r.inputs.maxDeferrals,
      label,
      now: o.now,
    });
    await upsertMarkedComment(client, repo, record.number, DEFERRAL_MARKER, body, await r.self());
  } catch (e) {
    log.warning(
      `Could not defer #${record.number} (${oneLine(getErrorMessage(e))}): the run ends ${o.otherwise}.`,
    );
    await removeLabel(client, repo, record.number, label).catch(() => undefined);
    return undefined;
  }
  const resets = o.reset.resetAt;
  log.info(
    `Deferred #${record.number} until ${waitingFor} resets at ${resets} (deferral ${record.attempt} of ${r.inputs.maxDeferrals}); a scheduled run resumes it.`,
  );
  return { record, resets };
}
