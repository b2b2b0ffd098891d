/**
 * What the flows whose agent answers in a file (review, triage) share: the credential and gemini made ready, the
 * workspace opened on the plan (as the change flow's prepare does) with the answer's path cleared, the agent's run
 * under the work phase, and the outputs of a run. The action, never the agent, then acts on the answer.
 */
import type { Task } from '../../domain/types.js';
import { failsStep } from '../../domain/status.js';
import type { ActionStatus, RunResult } from '../../run/types.js';
import { extend } from '../../util/record.js';
import type { BranchPlan } from '../branch.js';
import { capUtf8, usageJson, type ActionOutputs } from '../outputs.js';
import { openWorkspace, readyAuth } from '../phases/prepare.js';
import { emptyOutputs } from '../phases/report.js';
import { work } from '../phases/work.js';
import type { ActionResult, AtPrepare, Budgeted, Prepared } from '../run-record.js';
import { noteDailyBudget, settleBudget } from '../phases/budget.js';
import { restoreAfterRun } from '../workspace-restore.js';
import type { z } from 'zod';
import { clearAnswerFile, readAnswerFile, type AnswerFile } from './answer-file.js';

export function isEnd<T extends object>(x: T | ActionResult): x is ActionResult {
  return 'outputs' in x;
}

/** The run made ready up to its task: everything of `Prepared` but the task. */
export type ReadyRun = Omit<Prepared, 'task'>;

/** Auth, gemini, the workspace on `plan` and its credentials away; whatever the tree has at `answerFile` removed. */
export async function openAnswerRun(
  r: AtPrepare,
  plan: BranchPlan,
  answerFile: string,
): Promise<ReadyRun | ActionResult> {
  const { ctx, io, log } = r;
  const auth = await readyAuth(r);
  if (isEnd(auth)) return auth;
  const binary =
    r.gemini.kind === 'path'
      ? r.gemini.binary
      : await log.group('Installing gemini', () => r.deps.installGemini(r.gemini, ctx.toolCache, log));
  const opened = await openWorkspace(r, plan);
  // The checkout cannot answer for the agent: whatever it has at the answer's path goes first.
  if (await clearAnswerFile(ctx.workspace, answerFile))
    log.info(`Removed ${answerFile} from the checked-out tree: the agent's answer is read there.`);
  return {
    ...auth,
    ...opened,
    binary,
    plan,
    store: io.transcriptStore({ token: r.token, repo: r.repo }),
    previousSummary: '',
    resume: undefined,
  };
}

/** What an answer flow's agent is asked, under which network, and where and in what shape it answers. */
export interface AnswerRunSpec<A> {
  task: Task;
  network: AtPrepare['inputs']['network'];
  answer: { name: string; schema: z.ZodType<A> };
}

/**
 * The agent's run on `task` (spending from the day's budget reserved before), its answer at `answer.name` read
 * (answer-file.ts), then `after` acts on both; the workspace is given back afterwards whatever happens. `network` overrides the input (a fork's review, a triage:
 * `none`).
 */
export async function runForAnswer<A, T>(
  r: AtPrepare & Budgeted,
  ready: ReadyRun,
  run: AnswerRunSpec<A>,
  after: (result: RunResult, answer: AnswerFile<A>) => Promise<T>,
): Promise<T> {
  const p = extend(r, { ...ready, task: run.task });
  try {
    const { engineResult } = await work({ ...p, inputs: { ...p.inputs, network: run.network } });
    await settleBudget(r, engineResult.usage.totalTokens);
    await noteDailyBudget(r, r);
    const answer = await readAnswerFile({
      worktree: r.ctx.workspace,
      name: run.answer.name,
      // The sandbox gave the agent's files to us when it settled.
      agentUid: undefined,
      schema: run.answer.schema,
    });
    return await after(engineResult, answer);
  } finally {
    await restoreAfterRun(p);
  }
}

/** The step's outputs of a flow's run: the agent's session, models, tokens and answer, and the flow's own. */
export function agentOutputs(
  r: AtPrepare,
  status: ActionStatus,
  result: RunResult,
  own: Partial<ActionOutputs>,
): ActionResult {
  const outputs: ActionOutputs = {
    ...emptyOutputs(status),
    'session-id': result.sessionId,
    models: result.usage.models
      .filter((m) => !m.utility)
      .map((m) => m.model)
      .join(','),
    'total-tokens': String(result.usage.totalTokens),
    'final-message': capUtf8(r.publishBlock(result.transcript.finalAnswer)),
    usage: usageJson(result.usage, result.durationMs, result.served),
    ...own,
  };
  return {
    outputs,
    ...(failsStep(status) ? { failure: result.message ?? `the agent's run ended ${status}` } : {}),
  };
}
