import * as core from '@actions/core';
import type { Logger } from '../util/log.js';

let depth = 0;

/** The Logger seam backed by @actions/core: groups fold in the job log, secrets are masked by the runner. */
export const coreLogger: Logger = {
  info: (m) => core.info(m),
  warning: (m) => core.warning(m),
  error: (m) => core.error(m),
  debug: (m) => core.debug(m),
  group: async (title, fn) => {
    // The runner cannot nest groups; an inner group is a plain line instead.
    if (depth > 0) {
      core.info(`— ${title}`);
      return fn();
    }
    depth++;
    core.startGroup(title);
    try {
      return await fn();
    } finally {
      core.endGroup();
      depth--;
    }
  },
};
