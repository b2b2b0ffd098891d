/**
 * One action run, from the event to the pull request, as a short list of phases over one record
 * (run-record.ts). Pure of @actions/core: the host passes its I/O in, so the demo runs the very same pipeline
 * against its local fakes, and a test passes a stub engine (PipelineDeps) and runs every path in seconds.
 */
import { protectedChangesLine } from '../domain/protected-paths.js';
import { runAgent } from '../run/engine.js';
import { UserError, getErrorMessage } from '../util/errors.js';
import { failedPartOf, failureLine } from '../host/failed-part.js';
import { extend } from '../util/record.js';
import type { RunTrigger } from '../github/trigger.js';
import { checkGemini, installGemini } from './gemini-binary.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { acknowledge } from './phases/acknowledge.js';
import { admit, interpret } from './phases/admit.js';
import { execute } from './phases/execute.js';
import { prepare } from './phases/prepare.js';
import { preflight } from './phases/preflight.js';
import { publish } from './phases/publish.js';
import { defer } from './phases/defer.js';
import { Redactor } from './redact.js';
import { reportEarlyEnd, reportRun } from './phases/report.js';
import { misconfigured } from './phases/misconfigured.js';
import type {
  ActionIo,
  ActionResult,
  AtAdmit,
  AtPrepare,
  Basics,
  PipelineDeps,
  Prepared,
} from './run-record.js';
import { restoreWorkspace } from './workspace-restore.js';

export type { ActionIo } from './run-record.js';

const REAL_DEPS: PipelineDeps = { runAgent, checkGemini, installGemini };

function isEnd<T extends object>(x: T | ActionResult): x is ActionResult {
  return 'outputs' in x;
}

function basics(inputs: ActionInputs, ctx: ActionContext, io: ActionIo, deps: PipelineDeps): Basics {
  const redactor = new Redactor();
  if (inputs.githubToken) redactor.add(inputs.githubToken);
  if (inputs.geminiApiKey) redactor.add(inputs.geminiApiKey);
  const mask = (s: string) => {
    io.mask(s);
    redactor.add(s);
  };
  return { inputs, ctx, io, deps, log: io.log, redactor, mask };
}

/**
 * `problem`: what was wrong with the inputs (main.ts parses them leniently, so the event is still read and the
 * person on the issue can be told); the run then ends `misconfigured` like any other preflight mistake.
 */
export async function runAction(
  inputs: ActionInputs,
  ctx: ActionContext,
  io: ActionIo,
  deps: PipelineDeps = REAL_DEPS,
  problem?: string,
  /** A run the action itself decided (a deferred run resumed), in place of the event's. */
  resumed?: RunTrigger,
): Promise<ActionResult> {
  const b = basics(inputs, ctx, io, deps);
  const checked = await checkedLocally(b, problem, resumed);
  if (isEnd(checked)) return checked;
  const admitted = await admit(checked);
  if (isEnd(admitted)) return admitted;
  const atAck = extend(checked, admitted);
  const r = extend(atAck, await acknowledge(atAck));
  try {
    return await afterAcknowledged(r);
  } catch (error) {
    return crashedAfterAdmit(r, error);
  }
}

/** Everything local first: a mistake ends `misconfigured` here, before the first network call or GitHub write. */
async function checkedLocally(
  b: Basics,
  problem: string | undefined,
  resumed: RunTrigger | undefined,
): Promise<AtAdmit | ActionResult> {
  let trigger: RunTrigger | undefined;
  try {
    const triggered = resumed ? { requested: resumed } : await interpret(b);
    if (!isEnd(triggered)) trigger = triggered.requested;
    // Inputs that do not parse fail every run, even one its event does not trigger: the workflow is wrong.
    if (problem) throw new UserError(problem);
    if (isEnd(triggered)) return triggered;
    return extend(extend(b, triggered), await preflight(b));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return misconfigured(b, trigger, getErrorMessage(error));
  }
}

/**
 * Whatever the action itself threw after the person was told the run started: the job summary, the issue and
 * the tracking comment say it, and the step fails with its one line (its stack only in the debug log).
 */
async function crashedAfterAdmit(r: AtPrepare, error: unknown): Promise<ActionResult> {
  const userError = error instanceof UserError;
  if (!userError && error instanceof Error && error.stack) r.log.debug(r.redactor.redact(error.stack));
  const result = await reportEarlyEnd(r, 'crashed', failureLine(error), {
    userError,
    failedPart: failedPartOf(error, 'gemini-run'),
  });
  await finishTracking(r, result);
  return result;
}

async function afterAcknowledged(r: AtPrepare): Promise<ActionResult> {
  const prepared = await prepare(r);
  if (isEnd(prepared)) {
    await finishTracking(r, prepared);
    return prepared;
  }
  const p = extend(r, prepared);
  try {
    const executed = extend(p, await execute(p));
    const published = extend(executed, await publish(executed));
    const reported = extend(published, await defer(published));
    const result = await reportRun(reported);
    const allowed = published.published?.protectedAllowed;
    const notes = [
      allowed?.length && `⚠ Changes protected paths: ${protectedChangesLine(allowed)}.`,
      reported.deferral && `⏸️ Resumes after the quota resets at ${reported.deferral.resets}.`,
    ].filter(Boolean);
    await finishTracking(r, result, published.result.usage.totalTokens, notes.join('\n\n') || undefined);
    return result;
  } finally {
    await restore(p);
  }
}

/**
 * Last, when nothing of the agent runs and nothing it wrote is read any more: the workspace gets the action's
 * .git back (the agent's is thrown away whole), and only then the checkout's credential.
 */
async function restore(r: Basics & Prepared): Promise<void> {
  await restoreWorkspace({
    snapshot: r.workspace.snapshot,
    vault: r.workspace.vault.dir,
    saved: r.savedCredentials,
    log: r.log,
  });
  r.io.saveState('workspace', '');
  r.io.saveState('savedCredentials', '');
}

async function finishTracking(
  r: AtPrepare,
  result: ActionResult,
  tokens?: number,
  notice?: string,
): Promise<void> {
  const { outputs, failure } = result;
  await r.tracking?.finish(
    {
      status: outputs.status,
      ...(outputs['pr-url'] ? { prUrl: outputs['pr-url'] } : {}),
      ...(failure || notice ? { note: r.publish([failure, notice].filter(Boolean).join('\n\n')) } : {}),
    },
    tokens !== undefined ? { tokens } : undefined,
  );
}
