/**
 * The work phase: the agent's run. It opens what the run needs — the agent's sandbox, and (through the host
 * layer's execute) the model proxy and the network policy — and closes all of it again, in reverse order, however
 * the run ends. A
 * setup problem (a UserError) ends the step; anything else ends `crashed` with what the agent committed, so
 * publish and report still run.
 */
import { realpathSync } from 'node:fs';
import type { RunEvent } from '../../domain/types.js';
import type { RunResult } from '../../run/types.js';
import { openSandbox, type AgentSandbox } from '../../isolation/sandbox.js';
import { UserError } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import type { CommitIdentity } from '../../github/identity.js';
import { resolveCommitIdentity } from '../commit-identity.js';
import { crashedResult } from '../crashed-result.js';
import { failedPartOf, failureLine } from '../../host/failed-part.js';
import { execute, type ExecuteDeps, type ExecuteOptions } from '../../host/execute.js';
import type { AtWork, Worked } from '../run-record.js';
import { underDailyBudget } from '../daily-budget.js';

async function openAgentSandbox(r: AtWork): Promise<AgentSandbox | undefined> {
  if (!r.privilege) return undefined;
  const { privilege } = r;
  const worktree = r.ctx.workspace;
  const sandbox = await r.log.group('Isolating the agent', () =>
    openSandbox({
      parentDir: r.ctx.runnerTemp,
      worktree,
      reach: [process.execPath, realpathSync(r.binary.path)],
      log: r.log,
      privilege,
    }),
  );
  r.io.saveState(
    'sandbox',
    JSON.stringify({ user: sandbox.user, privilege: sandbox.privilege, dir: sandbox.dir, worktree }),
  );
  return sandbox;
}

/**
 * A setup problem (a UserError) stops the step with its one line; anything else ends the run `crashed` with what
 * the agent committed, and the publish and report phases still run: the work is pushed and the issue is told.
 */
function crashed(r: AtWork, error: unknown, startedAt: Date): Promise<RunResult> {
  if (error instanceof UserError) throw error;
  const message = r.redactor.redact(failureLine(error));
  r.log.error(`The run failed: ${neutralize(message)}`);
  return crashedResult({
    repo: r.workspace.vault.dir,
    baseSha: r.workspace.baseSha,
    mode: r.inputs.mode,
    message,
    // The engine was running gemini: a throw that names no other part is its run's.
    failedPart: failedPartOf(error, 'gemini'),
    startedAt,
  });
}

/** The engine as the action runs it: in its log group, an unexpected throw ending the run `crashed`. */
function crashSafe(r: AtWork, startedAt: Date): ExecuteDeps['runAgent'] {
  return async (o) => {
    try {
      return await r.log.group(`Running gemini (${r.inputs.mode})`, () => r.deps.runAgent(o));
    } catch (error) {
      return crashed(r, error, startedAt);
    }
  };
}

function engineOptions(r: AtWork, identity: CommitIdentity): ExecuteOptions['engine'] {
  const { inputs, tracking, redactor } = r;
  return {
    worktree: r.ctx.workspace,
    task: r.task,
    geminiPath: r.binary.path,
    cliProfile: r.binary.profile,
    model: r.model,
    approvalMode: inputs.approvalMode,
    mode: inputs.mode,
    timeoutMs: inputs.timeoutMinutes * 60_000,
    runDir: r.runDir,
    // The agent's commits default to the author the action commits as; the agent may give its own.
    gitIdentity: identity.author,
    ...(r.resume ? { resume: r.resume } : {}),
    vault: r.workspace.vault,
    userSettings: r.userSettings,
    extensions: inputs.extensions,
    // One limit: the smaller of `max-tokens` and the day's remainder, which the reservation already is.
    maxTokens: r.dailyBudget ? r.dailyBudget.figures.granted : inputs.maxTokens,
    ...(tracking
      ? {
          // A tool's target is the agent's text: no secret of ours goes into the comment (isolation: none).
          onEvent: (e: RunEvent) =>
            tracking.onEvent(
              e.type === 'tool-started' && e.detail ? { ...e, detail: redactor.redact(e.detail) } : e,
            ),
        }
      : {}),
  };
}

export async function work(r: AtWork): Promise<Worked> {
  const startedAt = new Date();
  const identity = await resolveCommitIdentity(r);
  let sandbox: AgentSandbox | undefined;
  try {
    sandbox = await openAgentSandbox(r);
    const result = await execute(
      {
        auth: r.auth,
        ...(r.oauth ? { oauth: r.oauth } : {}),
        ...(r.vertex ? { vertex: r.vertex } : {}),
        ...(sandbox ? { sandbox } : {}),
        env: r.io.env,
        log: r.log,
        mask: (s) => r.mask(s),
        engine: engineOptions(r, identity),
        network: { mode: r.inputs.network, allowedHosts: r.inputs.allowedHosts },
        onFilter: (state) => r.io.saveState('egress', state ? JSON.stringify(state) : ''),
        onBlocked: (total) => r.tracking?.setBlocked(total),
      },
      { runAgent: crashSafe(r, startedAt) },
    );
    return { engineResult: underDailyBudget(result, r.dailyBudget, r.inputs.maxTokens), identity };
  } catch (error) {
    // The sandbox or the model proxy could not be opened: the run ends `crashed` before the agent started.
    return { engineResult: await crashed(r, error, startedAt), identity };
  } finally {
    // Nothing of the agent runs after this; what it left is read only from the action's own copies (runDir).
    if (sandbox) {
      await sandbox.close();
      r.io.saveState('sandbox', '');
    }
  }
}
