/**
 * The day's budget (`max-daily-tokens`) as a run reports it: the job summary's line, the one line of a run it
 * stopped, and the engine's result read under it. Pure; the ledger is spend-ledger.ts, the phase phases/budget.ts.
 */
import { dayIsTheLimit } from '../domain/daily-budget.js';
import { describeReset, type QuotaReset } from '../domain/quota.js';
import type { RunResult } from '../run/types.js';
import type { BudgetFigures, Reservation } from './spend-ledger.js';

const fmt = (n: number) => n.toLocaleString('en-US');

export function resetOf(f: BudgetFigures): QuotaReset {
  return { scope: 'daily', resetAt: f.resetsAt, source: 'window' };
}

/** "2026-12-07 00:00:00Z (in 3 h 12 min)". */
function resetWords(f: BudgetFigures, now = new Date()): string {
  return describeReset(resetOf(f), now);
}

/** The run ended at the day's budget: what it spent, the day's figures and when they reset, in one line. */
export function spentLine(f: BudgetFigures, spent: number | undefined): string {
  const day = `${fmt(f.before)} of the ${fmt(f.cap)} tokens of ${f.day} (UTC) were spent or held by other runs`;
  return spent === undefined
    ? `the repository's daily token budget is spent: ${day} when this run started, so it did not start; it resets at ${resetWords(f)}`
    : `the repository's daily token budget ran out: this run spent ${fmt(spent)} tokens of the ${fmt(f.granted)} left to it (${day}); it resets at ${resetWords(f)}`;
}

/** The job summary's line on the day's spend against the cap, for every run under one. */
export function budgetSummaryLine(f: BudgetFigures): string {
  const day = f.daySpent ?? f.before + (f.spent ?? f.granted);
  const run =
    f.granted === 0
      ? 'this run had nothing left to spend'
      : f.spent === undefined
        ? `this run could spend ${fmt(f.granted)}`
        : `this run spent ${fmt(f.spent)} of the ${fmt(f.granted)} it could`;
  const percent = Math.round((100 * day) / f.cap);
  return `**Daily token budget** (\`max-daily-tokens\`, ${f.day} UTC): ${fmt(day)} of ${fmt(f.cap)} tokens spent or held today (${percent} %); ${run}. It resets at ${resetWords(f)}.`;
}

/**
 * The engine's result under the day's budget: a stop at the limit reads `daily-budget-exceeded` when the day's
 * remainder, not `max-tokens`, was the limit, with the figures; the result's own budget is `max-tokens` again (the
 * day's line says the rest).
 */
export function underDailyBudget(
  result: RunResult,
  budget: Reservation | undefined,
  maxTokens: number,
): RunResult {
  if (!budget) return result;
  const { maxTokens: _limit, ...rest } = result;
  const own: RunResult = maxTokens > 0 ? { ...rest, maxTokens } : rest;
  const f = budget.figures;
  if (result.status !== 'budget-exceeded' || !dayIsTheLimit(f.granted, maxTokens)) return own;
  const refused = result.served?.refusedAtLimit ?? 0;
  return {
    ...own,
    status: 'daily-budget-exceeded',
    message: `${spentLine(f, result.usage.totalTokens)}${refused > 0 ? ` (the model proxy refused ${refused} further model call(s))` : ''}`,
  };
}
