/**
 * One action run, from the event to the pull request, as a short list of phases over one record
 * (run-record.ts). Pure of @actions/core: the host passes its I/O in, so the demo runs the very same pipeline
 * against its local fakes, and a test passes a stub engine and a clock (PipelineDeps) and runs every path in
 * seconds. One way in: the event's trigger (github/trigger.ts) is a run, a sweep (of the deferred runs that are due,
 * or under `flow: triage` of the untriaged issues: each then runs this same pipeline from the preflight on), or a skip.
 */
import { protectedChangesLine } from '../domain/protected-paths.js';
import { runAgent } from '../run/engine.js';
import { UserError, getErrorMessage } from '../util/errors.js';
import { failedPartOf, failureLine } from '../host/failed-part.js';
import { extend } from '../util/record.js';
import { githubTokenOf, openGitHubSession } from '../github/session.js';
import type { RunTrigger } from '../github/trigger.js';
import { checkGemini, installGemini } from './gemini-binary.js';
import type { ActionContext } from './context.js';
import type { ActionInputs } from './inputs.js';
import { acknowledge } from './phases/acknowledge.js';
import { admit, interpret, type Interpreted } from './phases/admit.js';
import { work } from './phases/work.js';
import { prepare } from './phases/prepare.js';
import { preflight } from './phases/preflight.js';
import { publish } from './phases/publish.js';
import { defer } from './phases/defer.js';
import { sweep } from './phases/sweep.js';
import { noteDailyBudget, reserveBudget, settleBudget } from './phases/budget.js';
import { Redactor } from './redact.js';
import { ended, reportEarlyEnd, reportRun } from './phases/report.js';
import { misconfigured } from './phases/misconfigured.js';
import { reviewPullRequest, reviewTarget } from './flows/review.js';
import { triagedByAnotherRun, triageIssue } from './flows/triage.js';
import { triageSweep } from './flows/triage-sweep.js';
import type {
  ActionIo,
  ActionResult,
  Admitted,
  AtAdmit,
  AtPrepare,
  Basics,
  Budgeted,
  PipelineDeps,
} from './run-record.js';
import { restoreAfterRun } from './workspace-restore.js';

export type { ActionIo } from './run-record.js';

const REAL_DEPS: PipelineDeps = { runAgent, checkGemini, installGemini, now: () => Date.now() };

function isEnd<T extends object>(x: T | ActionResult): x is ActionResult {
  return 'outputs' in x;
}

/** What a host hands the pipeline. */
export interface ActionRun {
  inputs: ActionInputs;
  ctx: ActionContext;
  io: ActionIo;
  /** The engine, gemini's install and the clock; the real ones unless a test or the demo passes its own. */
  deps?: PipelineDeps;
  /**
   * What was wrong with the inputs (main.ts parses them leniently, so the event is still read and the person on
   * the issue can be told); the run then ends `misconfigured` like any other preflight mistake.
   */
  problem?: string;
}

function basics(o: ActionRun): Basics {
  const { inputs, ctx, io } = o;
  const redactor = new Redactor();
  if (inputs.githubToken) redactor.add(inputs.githubToken);
  if (inputs.geminiApiKey) redactor.add(inputs.geminiApiKey);
  const mask = (s: string) => {
    io.mask(s);
    redactor.add(s);
  };
  const deps = o.deps ?? REAL_DEPS;
  const github = openGitHubSession({
    token: githubTokenOf(inputs.githubToken, io.env),
    apiUrl: ctx.apiUrl,
    logger: io.log,
    ...(deps.githubBackoffMs === undefined ? {} : { backoffMs: deps.githubBackoffMs }),
  });
  if (github) mask(github.token);
  return { inputs, ctx, io, deps, log: io.log, redactor, mask, github, now: () => new Date(deps.now()) };
}

export async function runAction(o: ActionRun): Promise<ActionResult> {
  const b = basics(o);
  let interpreted: Interpreted | undefined;
  try {
    interpreted = await interpret(b);
    // Inputs that do not parse fail every run, even one its event does not trigger: the workflow is wrong.
    if (o.problem) throw new UserError(o.problem);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const requested = interpreted && 'requested' in interpreted ? interpreted.requested : undefined;
    return misconfigured(b, requested, getErrorMessage(error));
  }
  if ('sweep' in interpreted) {
    const of = interpreted.sweep;
    const run = (requested: RunTrigger) => runRequested(b, requested);
    return of.of === 'triage' ? triageSweep(b, of.instruction, run) : sweep(b, run);
  }
  if (isEnd(interpreted)) return interpreted;
  return runRequested(b, interpreted.requested);
}

/** The run a trigger asks for: the event's, or a deferred one the sweep resumes. */
async function runRequested(b: Basics, requested: RunTrigger): Promise<ActionResult> {
  const checked = await checkedLocally(b, requested);
  if (isEnd(checked)) return checked;
  const admitted = await admit(checked);
  if (isEnd(admitted)) return admitted;
  const atAck = extend(checked, admitted);
  if (checked.inputs.flow === 'review') return reviewFlow(atAck);
  if (checked.inputs.flow === 'triage') return triageFlow(atAck);
  const r = extend(atAck, await acknowledge(atAck));
  try {
    return await afterAcknowledged(r, afterReserved);
  } catch (error) {
    return crashedAfterAdmit(r, error);
  }
}

/** `flow: review`: the pull request checked, the comment seen (👀; the review itself says how it went), one review. */
async function reviewFlow(a: AtAdmit & Admitted): Promise<ActionResult> {
  const target = await reviewTarget(a);
  if (isEnd(target)) return target;
  const r = extend(a, await acknowledge({ ...a, inputs: { ...a.inputs, trackProgress: false } }));
  try {
    return await afterAcknowledged(r, (rb) => reviewPullRequest(rb, target));
  } catch (error) {
    return crashedAfterAdmit(r, error);
  }
}

/** `flow: triage`: the comment seen (👀; the triage's own comment says how it went), the issue labelled. */
async function triageFlow(a: AtAdmit & Admitted): Promise<ActionResult> {
  // Before the day's budget is reserved: a run that leaves the issue spends nothing and writes no ledger entry.
  if (await triagedByAnotherRun(a)) return ended('skipped');
  const r = extend(a, await acknowledge({ ...a, inputs: { ...a.inputs, trackProgress: false } }));
  try {
    return await afterAcknowledged(r, triageIssue);
  } catch (error) {
    return crashedAfterAdmit(r, error);
  }
}

/** Everything local first: a mistake ends `misconfigured` here, before the first network call or GitHub write. */
async function checkedLocally(b: Basics, requested: RunTrigger): Promise<AtAdmit | ActionResult> {
  try {
    return extend(extend(b, { requested }), await preflight(b));
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return misconfigured(b, requested, getErrorMessage(error));
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

/** The run's share of the day's budget reserved (every flow's agent spends from it), then the flow's run. */
async function afterAcknowledged(
  r: AtPrepare,
  run: (r: AtPrepare & Budgeted) => Promise<ActionResult>,
): Promise<ActionResult> {
  const budget = await reserveBudget(r);
  if (isEnd(budget)) {
    await finishTracking(r, budget, undefined, budgetNotice(budget));
    return budget;
  }
  try {
    return await run(extend(r, budget));
  } catch (error) {
    // Whatever ended the run before the agent's spend was known: nothing more of the reservation is spent, and
    // the job summary still says the day's figures.
    await settleBudget(budget, 0);
    const result = await crashedAfterAdmit(r, error);
    await noteDailyBudget(r, budget);
    return result;
  } finally {
    await settleBudget(budget, 0);
  }
}

async function afterReserved(r: AtPrepare & Budgeted): Promise<ActionResult> {
  const prepared = await prepare(r);
  if (isEnd(prepared)) {
    await settleBudget(r, 0);
    await noteDailyBudget(r, r);
    await finishTracking(r, prepared);
    return prepared;
  }
  const p = extend(r, prepared);
  try {
    const worked = extend(p, await work(p));
    await settleBudget(worked, worked.engineResult.usage.totalTokens);
    const published = extend(worked, await publish(worked));
    const reported = extend(published, await defer(published));
    const result = await reportRun(reported);
    const allowed = published.published?.protectedAllowed;
    const notes = [
      allowed?.length && `⚠ Changes protected paths: ${protectedChangesLine(allowed)}.`,
      reported.deferral &&
        `⏸️ Resumes after ${reported.deferral.record.cause === 'daily-budget' ? 'the daily token budget' : 'the quota'} resets at ${reported.deferral.resets}.`,
    ].filter(Boolean);
    await finishTracking(r, result, published.result.usage.totalTokens, notes.join('\n\n') || undefined);
    return result;
  } finally {
    await restoreAfterRun(p);
  }
}

/** The tracking comment's note for a run the day's budget ended before it started. */
function budgetNotice(result: ActionResult): string | undefined {
  return result.outputs.status === 'deferred'
    ? "⏸️ The repository's daily token budget is spent: the run starts after it resets at midnight UTC."
    : undefined;
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
