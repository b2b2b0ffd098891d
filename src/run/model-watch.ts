/**
 * The model proxy's view of the model API during a run (src/proxy/upstream-health.ts), read by the mode runners
 * on every tick: its first failed call goes into the progress once (the log and the tracking comment), and once
 * it gave the upstream up the runners stop the agent as at a wall, `model-unavailable`.
 */
import type { RunOptions } from './options.js';
import type { Progress } from './progress.js';

/** Returns the poll: the message when the model API is given up for unavailable, else undefined. */
export function watchModel(
  opts: Pick<RunOptions, 'modelHealth'>,
  progress: Progress,
): () => string | undefined {
  let told = false;
  let waits = 0;
  return () => {
    const health = opts.modelHealth?.() ?? {};
    if (health.firstFailure !== undefined && !told) {
      told = true;
      progress.emit({ type: 'api-error', message: health.firstFailure, terminalQuota: false });
    }
    // Each new 429 is a new wait (its own retry delay): the tracking comment says until when.
    const wait = health.quotaWait;
    if (wait && wait.count > waits) {
      waits = wait.count;
      progress.emit({ type: 'api-error', statusCode: 429, message: wait.message, terminalQuota: false });
    }
    return health.down;
  };
}
