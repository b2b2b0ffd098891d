import * as core from '@actions/core';
import { UserError, getErrorMessage } from '../util/errors.js';
import { guardLines } from '../util/untrusted-text.js';
import { readActionContext } from './context.js';
import { coreLogger } from './core-logger.js';
import { earlyFailure, failureSummary } from './issue-report.js';
import { redactSecrets } from '../run/report.js';
import { getInputs, maskSecret } from './inputs.js';
import { failedPartOf, failureLine } from '../host/failed-part.js';
import { FAILED_PARTS, type FailedPart } from '../domain/status.js';
import { setOutputs } from './outputs.js';
import { runAction, type ActionIo } from './run-action.js';
import { saveState } from './state.js';
import { onSignalTeardown } from '../util/process.js';
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

/**
 * What a step that could not even start its pipeline (no usable runner environment, or a throw nobody expected)
 * still leaves: the job summary's one paragraph, with the log's link when the runner named the run.
 */
async function summaryOfEarlyEnd(
  status: 'misconfigured' | 'crashed',
  message: string,
  failedPart: FailedPart | undefined,
): Promise<void> {
  const env = process.env;
  const logUrl =
    env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
      ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
      : '';
  const facts = earlyFailure(status, redactSecrets(message), {
    logUrl,
    userError: status === 'misconfigured',
    ...(failedPart ? { failedPart } : {}),
  });
  await io
    .writeJobSummary(failureSummary(facts))
    .catch((e: unknown) => core.warning(`Could not write the job summary: ${getErrorMessage(e)}`));
}

/** The action body; the only place that calls core.setFailed. */
export async function run(): Promise<void> {
  // A cancelled job: the runner sends SIGINT, then SIGTERM; the run removes its chain, ACLs and claim first.
  onSignalTeardown((signal, teardowns) =>
    core.info(
      `${signal}: the job was cancelled; removing what this run changed on the runner (${teardowns}).`,
    ),
  );
  try {
    const { inputs, problem } = getInputs();
    const ctx = await readActionContext();
    const { outputs, failure } = await runAction({ inputs, ctx, io, ...(problem ? { problem } : {}) });
    setOutputs(outputs);
    core.info(`status: ${outputs.status}${outputs['pr-url'] ? ` — ${outputs['pr-url']}` : ''}`);
    // The pipeline decided the step's failure with the status (a failing status always comes with one).
    if (failure) core.setFailed(guardLines(failure));
  } catch (error) {
    // A UserError here is the runner's environment (context.ts); anything else is a defect of the action.
    const status = error instanceof UserError ? 'misconfigured' : 'crashed';
    setOutputs({ status });
    const failedPart = status === 'crashed' ? failedPartOf(error, 'gemini-run') : undefined;
    // The pipeline's own first request (the permission check) is GitHub's: an unreachable API says so.
    const told = failureLine(error);
    const message = failedPart ? `${FAILED_PARTS[failedPart].names} failed: ${told}` : told;
    if (status === 'crashed' && error instanceof Error && error.stack) core.debug(guardLines(error.stack));
    await summaryOfEarlyEnd(status, told, failedPart);
    // An error can quote the CLI, git or the agent: shown with its control characters escaped.
    core.setFailed(guardLines(message));
  }
}
