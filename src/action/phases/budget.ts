/**
 * The budget phase (`max-daily-tokens`), after the run is acknowledged and before anything is installed: the run
 * reserves what it may spend of the day's cap in the spend ledger (spend-ledger.ts). With something left, that is
 * the limit the model proxy holds the run to (the smaller of `max-tokens` and the day's remainder: one limit,
 * src/host/execute.ts), and a stop at it reads `daily-budget-exceeded` when the day's remainder was the smaller.
 * With nothing left the run ends here, before gemini is installed or started: deferred until midnight UTC under
 * `on-quota: defer`, else `daily-budget-exceeded` with the figures on the issue and in the job summary. The entry is
 * settled with what the run spent once the agent stopped (settleBudget) and, whatever happened, before the step ends.
 */
import { statusLine } from '../../domain/status.js';
import { hasStatus } from '../../github/client.js';
import { getErrorMessage, oneLine, UserError } from '../../util/errors.js';
import { deferRun } from './defer.js';
import { ended, reportEarlyEnd, writeJobSummary } from './report.js';
import type { ActionResult, AtPrepare, Budgeted } from '../run-record.js';
import { reserve, type BudgetFigures, type Reservation } from '../spend-ledger.js';
import { budgetSummaryLine, resetOf, spentLine } from '../daily-budget.js';

const fmt = (n: number) => n.toLocaleString('en-US');

/** Nothing is left today: deferred until the reset under `on-quota: defer`, else `daily-budget-exceeded`. */
async function nothingLeft(r: AtPrepare, f: BudgetFigures): Promise<ActionResult> {
  const line = spentLine(f, undefined);
  r.log.warning(line);
  if (r.inputs.onQuota === 'defer') {
    const deferred = await deferRun(r, {
      cause: 'daily-budget',
      reset: resetOf(f),
      now: new Date(),
      otherwise: 'daily-budget-exceeded',
    });
    if (deferred) {
      const { record } = deferred;
      await writeJobSummary(
        r,
        r.publish(
          [
            `## gemini-run: ${statusLine('deferred')}`,
            '',
            `${budgetSummaryLine(f)}`,
            '',
            `Nothing ran. #${record.number} is labelled \`${r.inputs.deferredLabel}\` and a scheduled run starts it after the budget resets (deferral ${record.attempt} of ${r.inputs.maxDeferrals}).`,
            '',
          ].join('\n'),
        ),
      );
      return ended('deferred');
    }
  }
  return reportEarlyEnd(r, 'daily-budget-exceeded', line, { userError: false });
}

/**
 * Reserves the run's share of the day, or ends the run when nothing is left. A ledger that cannot be read or
 * written stops the run too (a cap nobody can check is no cap): a refusal names the permissions it needs.
 */
export async function reserveBudget(r: AtPrepare): Promise<Budgeted | ActionResult> {
  const cap = r.inputs.maxDailyTokens;
  if (cap === undefined) return {};
  const self = await r.self();
  if (!self)
    throw new Error(
      "gemini-run cannot tell which account its token is, so it cannot read the spend ledger of 'max-daily-tokens'",
    );
  let reservation: Reservation;
  try {
    reservation = await r.log.group('Reserving from the daily token budget', () =>
      reserve({
        client: r.client,
        repo: r.repo,
        self,
        origin: r.ctx.origin,
        runId: r.ctx.runId,
        attempt: Number(r.ctx.runAttempt) || 1,
        runUrl: r.runUrl,
        publish: (text) => r.publish(text),
        log: r.log,
        cap,
        maxTokens: r.inputs.maxTokens,
      }),
    );
  } catch (error) {
    const why = oneLine(getErrorMessage(error));
    // With the request as the cause: the run's summary names GitHub as what failed, and the request.
    if (hasStatus(error, 403))
      throw new UserError(
        `GitHub refused the spend ledger of 'max-daily-tokens' (${why}): the workflow's token needs 'issues: write' and 'actions: read'.`,
        { cause: error },
      );
    throw new Error(`Could not reserve from the daily token budget: ${why}`, { cause: error });
  }
  const f = reservation.figures;
  r.log.info(
    `Daily token budget: ${fmt(f.before)} of ${fmt(f.cap)} tokens spent or held on ${f.day} (UTC) before this run; it may spend ${fmt(f.granted)}.`,
  );
  if (f.granted > 0) return { dailyBudget: reservation };
  return nothingLeft(r, f);
}

/** Settles the run's entry with what it spent (the proxy's count when it is higher). Never throws. */
export async function settleBudget(r: Budgeted, spent: number): Promise<void> {
  await r.dailyBudget?.settle(spent);
}

/** The day's line in the job summary of a run that ended before its report (which writes it otherwise). */
export async function noteDailyBudget(r: AtPrepare, b: Budgeted): Promise<void> {
  if (b.dailyBudget) await writeJobSummary(r, r.publish(`\n${budgetSummaryLine(b.dailyBudget.figures)}\n`));
}
