import * as core from '@actions/core';
import { UserError, getErrorMessage, oneLine } from '../util/errors.js';
import { guardLines } from '../util/untrusted-text.js';
import { readActionContext } from './context.js';
import { coreLogger } from './core-logger.js';
import { getInputs, maskSecret } from './inputs.js';
import { setOutputs } from './outputs.js';
import { runAction, type ActionIo } from './run-action.js';
import { saveState } from './state.js';
import { artifactTranscriptStore, localTranscriptStore } from './transcript-store.js';

const io: ActionIo = {
  log: coreLogger,
  mask: maskSecret,
  saveState,
  writeJobSummary: async (markdown) => {
    if (!process.env.GITHUB_STEP_SUMMARY) return;
    await core.summary.addRaw(markdown, true).write();
  },
  transcriptStore: ({ token, repo }) =>
    process.env.GEMINI_RUN_TRANSCRIPT_STORE
      ? localTranscriptStore(process.env.GEMINI_RUN_TRANSCRIPT_STORE, repo)
      : artifactTranscriptStore({ token, repo, env: process.env }),
  env: process.env,
};

/** The action body; the only place that calls core.setFailed. */
export async function run(): Promise<void> {
  try {
    const inputs = getInputs();
    const ctx = await readActionContext();
    const { outputs, failure } = await runAction(inputs, ctx, io);
    setOutputs(outputs);
    core.info(`status: ${outputs.status}${outputs['pr-url'] ? ` — ${outputs['pr-url']}` : ''}`);
    // The pipeline decided the step's failure with the status (a failing status always comes with one).
    if (failure) core.setFailed(guardLines(failure));
  } catch (error) {
    setOutputs({ status: 'crashed' });
    const message = oneLine(getErrorMessage(error));
    if (!(error instanceof UserError) && error instanceof Error && error.stack)
      core.debug(guardLines(error.stack));
    // An error can quote the CLI, git or the agent: shown with its control characters escaped.
    core.setFailed(guardLines(message));
  }
}
