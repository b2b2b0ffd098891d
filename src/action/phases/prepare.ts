/**
 * The prepare phase: the credential is made ready (a refresh Google refuses ends the run here), gemini is
 * installed, the task read, the branch planned, the workspace put on it and the vault made, and a previous
 * session found to continue.
 */
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../../domain/types.js';
import { isolateWorkspaceCredentials } from '../../git/workspace.js';
import { buildTask } from '../../github/task.js';
import { describeTally } from '../../markdown/visible.js';
import { UserError, getErrorMessage, oneLine } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import { planBranch, prepareWorktree, type BranchPlan } from '../branch.js';
import { prepareOAuth, prepareVertex } from '../../host/model-access.js';
import { ended, reportEarlyEnd } from './report.js';
import { isNetworkFailure } from '../issue-report.js';
import { findPreviousSession } from '../resume.js';
import type { ActionResult, AtPrepare, Prepared } from '../run-record.js';

/**
 * The auth the preflight accepted, with its token source fetched once now. A refusal by Google ends the run
 * `auth-failed` with Google's own reason; a network failure says network (`crashed`), never "refused".
 */
export async function readyAuth(r: AtPrepare): Promise<Pick<Prepared, 'oauth' | 'vertex'> | ActionResult> {
  const { auth } = r;
  try {
    return { oauth: await prepareOAuth(auth, r.io.env), vertex: await prepareVertex(auth, r.io.env) };
  } catch (error) {
    const message = oneLine(getErrorMessage(error));
    const status = isNetworkFailure(message) ? 'crashed' : 'auth-failed';
    return reportEarlyEnd(r, status, message, { userError: error instanceof UserError });
  }
}

async function readTask(r: AtPrepare): Promise<Task> {
  const { log, trigger } = r;
  return log.group('Reading the task', async () => {
    const { task, leftOut, byNonWriters, hidden, minimizedUnchecked } = await buildTask(
      r.client,
      r.repo,
      trigger,
      r.approval,
    );
    log.info(`Task: ${neutralize(task.title)} (${task.comments.length} comment(s))`);
    const removed = describeTally(hidden);
    if (removed) log.info(removed);
    if (minimizedUnchecked !== undefined) {
      log.warning(
        `Could not check which comments a maintainer hid (minimized), so all are in the task: ${minimizedUnchecked}`,
      );
    }
    if (r.inputs.instructions.trim()) task.standingInstructions = r.inputs.instructions;
    if (leftOut > 0) {
      log.info(
        `Left out ${leftOut} comment(s) created or edited after ${neutralize(r.approval.approver)} approved the run (${r.approval.at}): the task is what was approved.`,
      );
    }
    if (byNonWriters > 0) {
      log.info(
        `Left out ${byNonWriters} comment(s) by people without write access: only what a writer wrote is the task.`,
      );
    }
    return task;
  });
}

/**
 * The run's directory, the workspace on the plan's branch with its vault, and the checkouts' credentials out of
 * the agent's reach; each recorded for the post step as soon as it exists.
 */
export async function openWorkspace(
  r: AtPrepare,
  plan: BranchPlan,
): Promise<Pick<Prepared, 'runDir' | 'workspace' | 'savedCredentials'>> {
  const { ctx, io, log } = r;
  const runDir = await mkdtemp(join(ctx.runnerTemp, 'gemini-run-'));
  io.saveState('runDir', runDir);
  io.saveState('worktree', ctx.workspace);
  const workspace = await prepareWorktree({ worktree: ctx.workspace, plan, token: r.token, log, runDir });
  // From here on the post step rebuilds the workspace's .git if this step cannot.
  io.saveState('workspace', JSON.stringify({ snapshot: workspace.snapshot, vault: workspace.vault.dir }));
  // The agent never sees the checkouts' credentials (a second checkout's in the workspace too); the workspace gets
  // them back after publishing.
  const savedCredentials = await isolateWorkspaceCredentials(workspace.snapshot, join(runDir, 'credentials'));
  io.saveState('savedCredentials', JSON.stringify(savedCredentials));
  return { runDir, workspace, savedCredentials };
}

export async function prepare(r: AtPrepare): Promise<Prepared | ActionResult> {
  const { inputs, ctx, io, log } = r;
  const auth = await readyAuth(r);
  if ('outputs' in auth) return auth;
  const binary =
    r.gemini.kind === 'path'
      ? r.gemini.binary
      : await log.group('Installing gemini', () => r.deps.installGemini(r.gemini, ctx.toolCache, log));
  const task = await readTask(r);
  const plan = await planBranch(r.client, r.repo, r.trigger, inputs, ctx.runId);
  if ('refuse' in plan) {
    await r.tellIssue(plan.refuse);
    return ended('refused');
  }
  const { runDir, workspace, savedCredentials } = await openWorkspace(r, plan);

  const store = io.transcriptStore({ token: r.token, repo: r.repo });
  const previous = plan.existingPull
    ? await findPreviousSession({
        client: r.client,
        repo: r.repo,
        pull: plan.existingPull,
        store,
        destDir: join(runDir, 'resume'),
        log,
        self: await r.self(),
        origin: ctx.origin,
      })
    : undefined;
  return {
    ...auth,
    binary,
    task: previous?.previousRun ? { ...task, previousRun: previous.previousRun } : task,
    plan,
    runDir,
    workspace,
    savedCredentials,
    store,
    previousSummary: previous?.previousSummary ?? '',
    ...(previous?.record ? { previousRecord: previous.record } : {}),
    resume: previous?.resume,
  };
}
