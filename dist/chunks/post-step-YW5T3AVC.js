import { createRequire as __gr_createRequire } from 'node:module';
const require = __gr_createRequire(import.meta.url);
import {
  coreLogger,
  getState
} from "./chunk-5DX56EEC.js";
import {
  cleanupRun
} from "./chunk-EESU2OHF.js";
import {
  closeSandboxFromState,
  finishAbandoned,
  githubTokenOf,
  openGitHubSession,
  parseSavedCredentials,
  parseWorkspaceState,
  removeEgressFilterFromState,
  restoreWorkspace
} from "./chunk-4XTRUCB4.js";
import "./chunk-52ZLQQ2N.js";
import {
  getErrorMessage
} from "./chunk-UTG5WWAN.js";
import {
  getInput,
  info,
  warning
} from "./chunk-ZFM4SP3J.js";
import "./chunk-JK6K75XX.js";

// src/action/post-step.ts
async function post() {
  await finishTracking();
  const runDir = getState("runDir") || void 0;
  const worktree = getState("worktree") || void 0;
  const sandbox = getState("sandbox");
  if (sandbox) await closeSandboxFromState(sandbox, coreLogger);
  const egress = getState("egress");
  if (egress) await removeEgressFilterFromState(egress, coreLogger);
  const rawWorkspace = getState("workspace");
  const savedRaw = getState("savedCredentials");
  if (rawWorkspace) {
    const state = parseWorkspaceState(rawWorkspace);
    let saved;
    try {
      saved = savedRaw ? parseSavedCredentials(savedRaw) : void 0;
    } catch {
      warning(
        "The saved checkout credential state is unreadable: the checkout's credential stays removed."
      );
    }
    if (state) await restoreWorkspace({ ...state, saved, log: coreLogger });
    else warning("The saved workspace state is unreadable: the workspace's .git was not rebuilt.");
  } else if (savedRaw && worktree) {
    warning(
      "The checkout's credential was removed before the workspace could be checked; it stays removed."
    );
  }
  try {
    await cleanupRun({ runDir, worktree, log: coreLogger });
  } catch (error) {
    coreLogger.warning(`Cleanup was incomplete: ${getErrorMessage(error)}`);
  }
  if (!runDir && !worktree) info("Nothing to clean up.");
}
async function finishTracking() {
  const state = getState("tracking");
  if (!state) return;
  const github = openGitHubSession({
    token: githubTokenOf(getInput("github-token"), process.env),
    apiUrl: process.env.GITHUB_API_URL || "https://api.github.com",
    logger: coreLogger
  });
  if (!github) return;
  try {
    if (await finishAbandoned(github.client, state, Date.now()))
      info("Finished the tracking comment: the run stopped.");
  } catch (error) {
    coreLogger.warning(`Could not finish the tracking comment: ${getErrorMessage(error)}`);
  }
}
export {
  post
};
