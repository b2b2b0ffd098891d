import * as core from '@actions/core';
import { parseSavedCredentials, restoreCheckoutCredentials } from '../git/credentials.js';
import { closeSandboxFromState } from '../isolation/sandbox.js';
import { cleanupRun } from '../run/cleanup.js';
import { getErrorMessage } from '../util/errors.js';
import { coreLogger } from './core-logger.js';
import { getState } from './state.js';
import { createGitHubClient } from '../github/client.js';
import { finishAbandoned } from './tracking-comment.js';

/**
 * Post step (always runs, even when the main step crashed): stops the run's tmux server, removes the isolated
 * Gemini home and the context file, restores the checkout's credential. Trouble is only a warning.
 */
async function post(): Promise<void> {
  await finishTracking();
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

/** A tracking comment the main step left saying "working" ends as stopped; trouble is only a warning. */
async function finishTracking(): Promise<void> {
  const state = getState('tracking');
  if (!state) return;
  const token = core.getInput('github-token') || process.env.GITHUB_TOKEN || '';
  if (!token) return;
  try {
    const client = createGitHubClient(token, process.env.GITHUB_API_URL || 'https://api.github.com', {
      logger: coreLogger,
    });
    if (await finishAbandoned(client, state, Date.now()))
      core.info('Finished the tracking comment: the run stopped.');
  } catch (error) {
    core.warning(`Could not finish the tracking comment: ${getErrorMessage(error)}`);
  }
}

void post();
