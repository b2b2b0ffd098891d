/**
 * The report phase's decisions, as pure functions: what the issue (or PR) is told and the step's one-line
 * failure, from how the run ended and what publishing did, whatever failed.
 */
import { MODEL_UNAVAILABLE } from '../run/walls.js';
import { adviceFor, failsStep, isGeminiFailure } from '../domain/status.js';
import type { ActionStatus } from '../run/types.js';
import type { PublishOutcome } from './publish.js';

export interface ReportInput {
  status: ActionStatus;
  /** The engine's one-line reason (redacted). */
  message?: string;
  commitCount: number;
  /** What publishing did; undefined when there was nothing to publish. */
  publish?: PublishOutcome;
  finalAnswer: string;
  /** The run was triggered from a pull request (comments go there). */
  onPullRequest: boolean;
}

function isModelUnavailable(message: string | undefined): boolean {
  return (message ?? '').startsWith(MODEL_UNAVAILABLE);
}

/**
 * The comment for the issue or PR, or undefined when nothing needs saying there (a PR follow-up that went
 * well: its summary comment says it all).
 */
export function issueComment(r: ReportInput): string | undefined {
  const pull = r.publish?.pull;
  const problem = r.publish?.problem;
  const failing = failsStep(r.status);
  const advice = adviceFor(r.status, {
    hasPull: pull !== undefined,
    modelUnavailable: isModelUnavailable(r.message),
    committed: r.commitCount > 0,
  });
  const ended = `gemini-run ended \`${r.status}\`${r.message ? `: ${r.message}` : ''}`;
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
  if (r.onPullRequest) {
    if (r.commitCount === 0 && failing) return tail([`${ended}.`, advice]);
    return undefined;
  }
  if (pull) {
    return tail([
      `gemini-run ${r.status !== 'finished' ? 'pushed its partial work to' : r.publish?.opened === false ? 'updated' : 'opened'} #${pull.number}.`,
      advice,
    ]);
  }
  if (r.status === 'no-changes') {
    return `gemini-run finished without changing anything, so there is no pull request. Its answer:\n\n${r.finalAnswer || '_(no answer)_'}`;
  }
  return tail([`${ended} before committing anything.`, advice]);
}

/** The step's one-line failure, or undefined when the step succeeds. */
export function stepFailure(r: Pick<ReportInput, 'status' | 'message' | 'publish'>): string | undefined {
  const problem = r.publish?.problem;
  const ended = isGeminiFailure(r.status)
    ? `gemini ended ${r.status}${r.message ? `: ${r.message}` : ''}`
    : undefined;
  if (ended && problem) return `${ended}; and ${problem.headline}`;
  if (ended) return ended;
  if (problem) return `gemini-run could not publish: ${problem.headline}`;
  return undefined;
}
