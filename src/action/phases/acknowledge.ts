/** The acknowledge phase: the person sees at once that the run was picked up (👀, the live tracking comment). */
import { reactToComment } from '../../github/comments.js';
import { codeSpan } from '../../markdown/publish.js';
import { getErrorMessage } from '../../util/errors.js';
import type { Acknowledged, AtAdmit, Admitted } from '../run-record.js';
import { TrackingComment } from '../tracking-comment.js';

/** `GEMINI_RUN_TRACKING_INTERVAL_MS` shortens the edit interval for tests and demos; unset: the 10 s default. */
function trackingInterval(env: NodeJS.ProcessEnv): { intervalMs?: number } {
  const ms = Number(env.GEMINI_RUN_TRACKING_INTERVAL_MS);
  return env.GEMINI_RUN_TRACKING_INTERVAL_MS && Number.isFinite(ms) && ms >= 0 ? { intervalMs: ms } : {};
}

export async function acknowledge(r: AtAdmit & Admitted): Promise<Acknowledged> {
  const { trigger, client, repo, log } = r;
  if (trigger.commentId !== undefined) {
    await reactToComment(client, repo, trigger.commentId, 'eyes').catch((e: unknown) =>
      log.debug(`Could not react to the comment: ${getErrorMessage(e)}`),
    );
  }
  if (!r.inputs.trackProgress || trigger.number === undefined) return { tracking: undefined };
  const tracking = await TrackingComment.start({
    client,
    repo,
    number: trigger.number,
    author: await r.self(),
    mode: r.inputs.mode,
    runUrl: r.runUrl,
    ...(r.ciFix
      ? {
          purpose: `🔧 Fixing CI: ${codeSpan(r.ciFix.workflow)} / ${codeSpan(r.ciFix.job)} (attempt ${r.ciFix.attempts})`,
        }
      : {}),
    log,
    ...trackingInterval(r.io.env),
    saveState: (value) => r.io.saveState('tracking', value),
  });
  return { tracking };
}
