import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  guardLines,
  neutralize,
  stopCommandsBlock,
  stopCommandsToken
} from "./chunk-4XTRUCB4.js";
import {
  debug,
  endGroup,
  error,
  getState,
  info,
  saveState,
  startGroup,
  warning
} from "./chunk-ZFM4SP3J.js";

// src/action/core-logger.ts
var depth = 0;
var coreLogger = {
  info: (m) => info(guardLines(m)),
  warning: (m) => warning(guardLines(m)),
  error: (m) => error(guardLines(m)),
  debug: (m) => debug(guardLines(m)),
  group: async (title, fn) => {
    if (depth > 0) {
      info(`— ${neutralize(title)}`);
      return fn();
    }
    depth++;
    startGroup(neutralize(title));
    try {
      return await fn();
    } finally {
      endGroup();
      depth--;
    }
  },
  untrusted: (label, text) => {
    info([guardLines(label), ...stopCommandsBlock(text, stopCommandsToken)].join("\n"));
  }
};

// src/action/state.ts
var STATE = {
  runDir: "runDir",
  sandbox: "sandbox",
  worktree: "worktree",
  savedCredentials: "savedCredentials",
  /** The snapshot of the workspace's .git and the vault, to rebuild it from ('' once the main step did). */
  workspace: "workspace",
  /** The live tracking comment while the run works ('' once its last edit is done). */
  tracking: "tracking",
  /** The agent's packet filter (network restricted/none) while installed ('' once the main step removed it). */
  egress: "egress"
};
function saveState2(key, value) {
  saveState(STATE[key], value);
}
function getState2(key) {
  return getState(STATE[key]);
}

export {
  coreLogger,
  saveState2 as saveState,
  getState2 as getState
};
