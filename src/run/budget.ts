/**
 * The token budget of one run (`max-tokens`). The engine counts tokens from telemetry as responses arrive; once
 * the count passes the budget, the mode runner stops the agent the way a timeout does (the turn is cancelled,
 * the work is committed and pushed as a draft), and the run ends `budget-exceeded` instead of `timed-out`.
 */
import type { EngineStatus } from './types.js';

export class TokenBudget {
  private spentAtTrip: number | undefined;

  /** `max` of 0 means no budget. */
  constructor(readonly max: number) {}

  /** True from the first count past the budget on (it never un-trips). */
  exceeded(spent: number): boolean {
    if (this.max > 0 && this.spentAtTrip === undefined && spent > this.max) this.spentAtTrip = spent;
    return this.spentAtTrip !== undefined;
  }

  get tripped(): boolean {
    return this.spentAtTrip !== undefined;
  }

  /**
   * The run's end as the budget sees it: a stop the budget caused reads `budget-exceeded`; anything else (the
   * agent finished first, a crash, a quota wall) keeps its own status.
   */
  settle<O extends { status: EngineStatus; message?: string }>(outcome: O, spent: number): O {
    if (!this.tripped || outcome.status !== 'timed-out') return outcome;
    return {
      ...outcome,
      status: 'budget-exceeded',
      message: `token budget exceeded: ${spent} tokens spent of ${this.max}`,
    };
  }
}
