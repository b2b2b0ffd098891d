/**
 * The token budget of one run (`max-tokens`). Two counts feed it: the CLI's telemetry, as responses arrive, and
 * what the model proxy served (src/proxy/usage-meter.ts), which also sees the calls the agent makes behind the
 * CLI's back. The run's spend is the larger of the two. The proxy enforces the budget itself (it refuses model
 * calls once its count reaches it); once the budget is passed, or the proxy refused a call at it, the mode runner
 * stops the agent the way a timeout does (the turn is cancelled, the work is committed and pushed as a draft), and
 * the run ends `budget-exceeded`.
 */
import type { ServedTokens } from '../proxy/usage-meter.js';
import type { EngineStatus } from './types.js';

/** The run's spend: the larger of the CLI's telemetry and the proxy's count (never lower than what was served). */
export function tokensSpent(telemetry: number, served: ServedTokens | undefined): number {
  return Math.max(telemetry, served?.tokens ?? 0);
}

/** Statuses that are walls of the model API's own: a budget refusal before them does not rename them. */
const UPSTREAM_WALLS: readonly EngineStatus[] = ['quota-exhausted', 'auth-failed'];

export class TokenBudget {
  private tripped_ = false;
  private refusedAtLimit = false;

  /** `max` of 0 means no budget. */
  constructor(readonly max: number) {}

  /** True from the first count past the budget, or the first call the proxy refused at it, on (never un-trips). */
  exceeded(telemetry: number, served?: ServedTokens): boolean {
    if ((served?.refusedAtLimit ?? 0) > 0) this.refusedAtLimit = true;
    if (this.max > 0 && tokensSpent(telemetry, served) > this.max) this.tripped_ = true;
    if (this.refusedAtLimit) this.tripped_ = true;
    return this.tripped_;
  }

  get tripped(): boolean {
    return this.tripped_;
  }

  /**
   * The run's end as the budget sees it: a stop the budget caused reads `budget-exceeded`, and so does any end
   * after the proxy refused the agent a model call at the budget (the CLI may then finish, or give up, on its
   * own). Anything else (the agent finished first, a crash, a quota wall) keeps its own status.
   */
  settle<O extends { status: EngineStatus; message?: string }>(
    outcome: O,
    telemetry: number,
    served?: ServedTokens,
  ): O {
    this.exceeded(telemetry, served);
    const byBudget =
      outcome.status === 'timed-out' || (this.refusedAtLimit && !UPSTREAM_WALLS.includes(outcome.status));
    if (!this.tripped || !byBudget || outcome.status === 'budget-exceeded') return outcome;
    const spent = tokensSpent(telemetry, served);
    const refused = served?.refusedAtLimit ?? 0;
    return {
      ...outcome,
      status: 'budget-exceeded',
      message: `token budget exceeded: ${spent} tokens spent of ${this.max}${refused > 0 ? ` (the model proxy refused ${refused} further model call(s))` : ''}`,
    };
  }
}
