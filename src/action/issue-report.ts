/**
 * The report phase's decisions, as pure functions: what the issue (or PR) is told and the step's one-line
 * failure, from how the run ended and what publishing did, whatever failed.
 */
import { block } from '../markdown/publish.js';
import { MODEL_UNAVAILABLE } from '../run/walls.js';
import {
  adviceFor,
  FAILED_PARTS,
  failsStep,
  isGeminiFailure,
  statusLine,
  type FailedPart,
} from '../domain/status.js';
import { isUnreachable } from '../util/errors.js';
import { quotaReset, type QuotaReset } from '../domain/quota.js';
import type { ActionStatus } from '../run/types.js';
import type { PublishOutcome } from './publish.js';

export interface ReportInput {
  status: ActionStatus;
  /** The engine's one-line reason (redacted). */
  message?: string;
  commitCount: number;
  /** What publishing did; undefined when there was nothing to publish. */
  publish?: PublishOutcome;
  /** The agent's final answer, already a published block (markdown/publish.ts `publishedBlock`). */
  finalAnswer: string;
  /** The run was triggered from a pull request (comments go there). */
  onPullRequest: boolean;
  /** `quota-exhausted`: when the quota resets, for people ("2026-12-05 08:00:00Z (in 11 h 0 min)"). */
  quotaResets?: string;
  /** What failed, when the run ended on a failure that is not the agent's work (a crash of a part). */
  failedPart?: FailedPart;
  /** `deferred`: it waits for the repository's daily token budget rather than the model's quota. */
  waitsForDailyBudget?: boolean;
}

function isModelUnavailable(message: string | undefined): boolean {
  return (message ?? '').startsWith(MODEL_UNAVAILABLE);
}

/**
 * A message that says the service could not be reached at all (DNS, refused or reset connection, a timeout, the
 * model proxy's "upstream unreachable"): then nobody refused the credential, and the advice says network.
 */
export function isNetworkFailure(message: string | undefined): boolean {
  return isUnreachable(message);
}

const NETWORK_ADVICE =
  "The model service could not be reached from the runner (a network failure, not a refused credential): check the runner's network, proxy or firewall, then re-run.";

/**
 * What to do next after a failing end: the failed part's advice when a part failed, else the status's, or the
 * model service's network when nothing was refused.
 */
function nextStep(
  r: Pick<ReportInput, 'status' | 'message' | 'quotaResets' | 'failedPart'>,
  c: { hasPull: boolean; committed: boolean },
): string {
  if (r.failedPart) return FAILED_PARTS[r.failedPart].advice;
  if (isGeminiFailure(r.status) && isNetworkFailure(r.message)) return NETWORK_ADVICE;
  const advice = adviceFor(r.status, { ...c, modelUnavailable: isModelUnavailable(r.message) });
  return r.status === 'quota-exhausted' && r.quotaResets
    ? `The quota resets at ${r.quotaResets}. ${advice}`
    : advice;
}

/** When the quota of a `quota-exhausted` run resets: the API's retry delay, else its window's documented reset. */
export function quotaResetOf(
  status: ActionStatus,
  message: string | undefined,
  endedAt: Date,
): QuotaReset | undefined {
  if (status !== 'quota-exhausted') return undefined;
  // A terminal wall is a daily quota (or a delay past 5 min); repeated 429s the CLI retried are a per-minute one.
  return quotaReset(message ?? '', endedAt, isModelUnavailable(message) ? 'per-minute' : 'daily');
}

/** Where the agent's work is, in one sentence, for a run that failed. */
function keptWork(r: Pick<ReportInput, 'commitCount' | 'publish'>): string {
  const p = r.publish;
  if (r.commitCount === 0) return 'Nothing to keep: the agent committed nothing.';
  const n = `The agent's ${r.commitCount} commit(s)`;
  if (p?.pull) return `${n} are in pull request #${p.pull.number}.`;
  if (p?.pushedTo) return `${n} are on the branch \`${p.pushedTo}\`.`;
  if (p?.bundle) return `${n} are in the artifact's \`gemini-run.bundle\`.`;
  return `${n} could not be kept (see the log).`;
}

export interface FailureFacts {
  status: ActionStatus;
  /** What failed, in words ("GitHub's API"), when a part did. */
  failed?: string;
  /** One line: what happened (redacted). */
  message: string;
  /** What was kept, one sentence. */
  kept: string;
  /** What to do next. */
  next: string;
  /** The job's log. */
  logUrl: string;
}

/** The facts of a failing end of a run that reached the report (the agent ran). */
export function runFailure(r: ReportInput, logUrl: string): FailureFacts | undefined {
  if (!failsStep(r.status)) return undefined;
  return {
    status: r.status,
    // stepFailure names the failed part itself.
    message: stepFailure(r) ?? `gemini-run ended ${r.status}`,
    kept: keptWork(r),
    next: nextStep(r, { hasPull: r.publish?.pull !== undefined, committed: r.commitCount > 0 }),
    logUrl,
  };
}

/** The facts of a failing end before the agent ran (the preflight, the credential, a crash of the action). */
export function earlyFailure(
  status: ActionStatus,
  message: string,
  o: { logUrl: string; userError: boolean; failedPart?: FailedPart },
): FailureFacts {
  const part = o.userError ? undefined : o.failedPart;
  return {
    status,
    ...(part ? { failed: FAILED_PARTS[part].names } : {}),
    message,
    kept: 'Nothing ran, and nothing was changed: no branch, no commit, no pull request.',
    next: part
      ? FAILED_PARTS[part].advice
      : isNetworkFailure(message)
        ? NETWORK_ADVICE
        : o.userError && status === 'crashed'
          ? 'Fix what the message names, then re-run.'
          : adviceFor(status, { hasPull: false }),
    logUrl: o.logUrl,
  };
}

/** The job summary of a failing end: what happened, what was kept, what to do next, the log. */
export function failureSummary(f: FailureFacts): string {
  return [
    `## gemini-run: ${statusLine(f.status)}`,
    '',
    `**What happened:** ${f.failed ? `${f.failed} failed: ` : ''}${f.message}`,
    '',
    `**What was kept:** ${f.kept}`,
    '',
    `**What to do next:** ${f.next}`,
    '',
    `[The job's log](${f.logUrl})`,
    '',
  ].join('\n');
}

/** The issue comment of a failing end before the agent ran: the one line and the fix, and the log. */
export function failureComment(f: FailureFacts): string {
  const part = f.failed ? ` (${f.failed} failed)` : '';
  return `gemini-run ended \`${f.status}\`${part}: ${f.message}\n\n${f.next} ([log](${f.logUrl}))`;
}

/**
 * The comment for the issue or PR, or undefined when nothing needs saying there (a PR follow-up that went
 * well: its summary comment says it all).
 */
export function issueComment(r: ReportInput): string | undefined {
  const pull = r.publish?.pull;
  const problem = r.publish?.problem;
  const failing = failsStep(r.status);
  const advice = nextStep(r, { hasPull: pull !== undefined, committed: r.commitCount > 0 });
  const part = r.failedPart ? ` (${FAILED_PARTS[r.failedPart].names} failed)` : '';
  const ended = `gemini-run ended \`${r.status}\`${part}${r.message ? `: ${r.message}` : ''}`;
  const tail = (parts: (string | undefined | false)[]) => parts.filter(Boolean).join('\n\n');

  if (problem) {
    const how = isGeminiFailure(r.status) ? ended : 'gemini-run finished';
    return tail([
      `${how}, but its work could not be published as planned.`,
      problem.what,
      problem.todo,
      failing && advice,
    ]);
  }
  if (r.status === 'deferred') {
    // The deferral's own comment, on the pull request or the issue, says when and how to cancel; an issue whose
    // run opened a pull request is pointed there.
    return pull && !r.onPullRequest
      ? `${r.waitsForDailyBudget ? "The repository's daily token budget ran out" : "The model's quota ran out"}: gemini-run's partial work is in #${pull.number}, where it continues after the reset.`
      : undefined;
  }
  if (r.onPullRequest) {
    if (r.commitCount === 0 && failing) return tail([`${ended}.`, advice]);
    return undefined;
  }
  if (pull) {
    // A run that did not finish says why first: the advice below refers to that message.
    const said =
      r.status !== 'finished'
        ? `${ended}. Its partial work is in #${pull.number}.`
        : `gemini-run ${r.publish?.opened === false ? 'updated' : 'opened'} #${pull.number}.`;
    return tail([said, advice]);
  }
  if (r.status === 'no-changes') {
    return `gemini-run finished without changing anything, so there is no pull request. Its answer:${block(r.finalAnswer || '_(no answer)_')}`;
  }
  return tail([`${ended} before committing anything.`, advice]);
}

/** The step's one-line failure, or undefined when the step succeeds. */
export function stepFailure(
  r: Pick<ReportInput, 'status' | 'message' | 'publish' | 'failedPart'>,
): string | undefined {
  const problem = r.publish?.problem;
  const said = r.message ? `: ${r.message}` : '';
  // Gemini did not end the run when another part failed under it (the workspace, GitHub): that part is named.
  const other = r.failedPart && r.failedPart !== 'gemini' ? FAILED_PARTS[r.failedPart].names : undefined;
  const ended = isGeminiFailure(r.status)
    ? other
      ? `${other} failed${said}`
      : `gemini ended ${r.status}${said}`
    : undefined;
  if (ended && problem) return `${ended}; and ${problem.headline}`;
  if (ended) return ended;
  if (problem) return `gemini-run could not publish: ${problem.headline}`;
  return undefined;
}
