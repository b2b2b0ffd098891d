import * as core from '@actions/core';
import { parseSavedCredentials, type SavedCredentials } from '../git/credentials.js';
import { parseWorkspaceState, restoreWorkspace } from './workspace-restore.js';
import { closeSandboxFromState } from '../isolation/sandbox.js';
import { removeEgressFilterFromState } from '../isolation/egress-filter.js';
import { cleanupRun } from '../run/cleanup.js';
import { getErrorMessage } from '../util/errors.js';
import { coreLogger } from './core-logger.js';
import { getState } from './state.js';
import { githubTokenOf, openGitHubSession } from '../github/session.js';
import { finishAbandoned } from './tracking-comment.js';

/**
 * Post step (always runs, even when the main step crashed): stops the run's tmux server, removes the isolated
 * Gemini home and the context file, restores the checkout's credential. Trouble is only a warning.
 */
export async function post(): Promise<void> {
  await finishTracking();
  const runDir = getState('runDir') || undefined;
  const worktree = getState('worktree') || undefined;
  // The agent's processes first: nothing of the run may outlive it, whatever the main step managed.
  const sandbox = getState('sandbox');
  if (sandbox) await closeSandboxFromState(sandbox, coreLogger);
  // Its packet filter next: the uid has no process left, and the next run that claims it must find no rule.
  const egress = getState('egress');
  if (egress) await removeEgressFilterFromState(egress, coreLogger);
  // Then the workspace gets the action's .git back, and only then the checkout's credential: never into a .git
  // the agent shaped (the main step did both, unless it died first).
  const rawWorkspace = getState('workspace');
  const savedRaw = getState('savedCredentials');
  if (rawWorkspace) {
    const state = parseWorkspaceState(rawWorkspace);
    let saved: SavedCredentials | undefined;
    try {
      saved = savedRaw ? parseSavedCredentials(savedRaw) : undefined;
    } catch {
      core.warning(
        "The saved checkout credential state is unreadable: the checkout's credential stays removed.",
      );
    }
    if (state) await restoreWorkspace({ ...state, saved, log: coreLogger });
    else core.warning("The saved workspace state is unreadable: the workspace's .git was not rebuilt.");
  } else if (savedRaw && worktree) {
    core.warning(
      "The checkout's credential was removed before the workspace could be checked; it stays removed.",
    );
  }
  try {
    await cleanupRun({ runDir, worktree, log: coreLogger });
  } catch (error) {
    coreLogger.warning(`Cleanup was incomplete: ${getErrorMessage(error)}`);
  }
  if (!runDir && !worktree) core.info('Nothing to clean up.');
}

/** A tracking comment the main step left saying "working" ends as stopped; trouble is only a warning. */
async function finishTracking(): Promise<void> {
  const state = getState('tracking');
  if (!state) return;
  const github = openGitHubSession({
    token: githubTokenOf(core.getInput('github-token'), process.env),
    apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
    logger: coreLogger,
  });
  if (!github) return;
  try {
    if (await finishAbandoned(github.client, state, Date.now()))
      core.info('Finished the tracking comment: the run stopped.');
  } catch (error) {
    coreLogger.warning(`Could not finish the tracking comment: ${getErrorMessage(error)}`);
  }
}
