import * as core from '@actions/core';
import { guardLines, neutralize, stopCommandsBlock } from '../util/untrusted-text.js';
import { stopCommandsToken, type Logger } from '../util/log.js';

let depth = 0;

/**
 * The Logger seam backed by @actions/core: groups fold in the job log, secrets are masked by the runner.
 * core.info prints its message as it is, so every message goes through guardLines first (a CR or `::` line in
 * it is never a command); warning/error/debug are commands whose message core escapes, and get the same
 * treatment so control characters show the same everywhere.
 */
export const coreLogger: Logger = {
  info: (m) => core.info(guardLines(m)),
  warning: (m) => core.warning(guardLines(m)),
  error: (m) => core.error(guardLines(m)),
  debug: (m) => core.debug(guardLines(m)),
  group: async (title, fn) => {
    // The runner cannot nest groups; an inner group is a plain line instead.
    if (depth > 0) {
      core.info(`— ${neutralize(title)}`);
      return fn();
    }
    depth++;
    core.startGroup(neutralize(title));
    try {
      return await fn();
    } finally {
      core.endGroup();
      depth--;
    }
  },
  untrusted: (label, text) => {
    // One write: the block's lines are never interleaved with another line of ours.
    core.info([guardLines(label), ...stopCommandsBlock(text, stopCommandsToken)].join('\n'));
  },
};
