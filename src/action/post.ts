import * as core from '@actions/core';
import { parseSavedCredentials, restoreCheckoutCredentials } from '../git/credentials.js';
import { closeSandboxFromState } from '../isolation/sandbox.js';
import { cleanupRun } from '../run/cleanup.js';
import { getErrorMessage } from '../util/errors.js';
import { coreLogger } from './core-logger.js';
import { getState } from './state.js';

/**
 * Post step (always runs, even when the main step crashed): stops the run's tmux server, removes the isolated
 * Gemini home and the context file, restores the checkout's credential. Trouble is only a warning.
 */
async function post(): Promise<void> {
  const runDir = getState('runDir') || undefined;
  const worktree = getState('worktree') || undefined;
  const saved = getState('savedCredentials');
  if (saved && worktree) {
    try {
      await restoreCheckoutCredentials(worktree, parseSavedCredentials(saved));
    } catch (error) {
      core.warning(`Could not restore the checkout's credentials: ${getErrorMessage(error)}`);
    }
  }
  // The agent's processes first: nothing of the run may outlive it, whatever the main step managed.
  const sandbox = getState('sandbox');
  if (sandbox) await closeSandboxFromState(sandbox, coreLogger);
  try {
    await cleanupRun({ runDir, worktree, log: coreLogger });
  } catch (error) {
    core.warning(`Cleanup was incomplete: ${getErrorMessage(error)}`);
  }
  if (!runDir && !worktree) core.info('Nothing to clean up.');
}

void post();
