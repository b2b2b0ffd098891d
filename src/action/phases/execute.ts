/**
 * The execute phase: the agent's run. It opens what the run needs — the checkout's credential moved away, the
 * agent's sandbox, the model proxy — and closes all of it again, in reverse order, however the run ends. A
 * setup problem (a UserError) ends the step; anything else ends `crashed` with what the agent committed, so
 * publish and report still run.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../domain/types.js';
import { openSandbox, type AgentSandbox } from '../../isolation/sandbox.js';
import type { RunResult } from '../../run/types.js';
import { UserError, getErrorMessage, oneLine } from '../../util/errors.js';
import { neutralize } from '../../util/untrusted-text.js';
import { crashedResult } from '../crashed-result.js';
import { startModelAccess, writeBackHostLogin, type ModelAccess } from '../model-access.js';
import type {
  Acknowledged,
  Admitted,
  Basics,
  Checked,
  Executed,
  Prepared,
  Triggered,
} from '../run-record.js';

type Before = Basics & Triggered & Checked & Admitted & Acknowledged & Prepared;

const AGENT_IDENTITY = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

async function openAgentSandbox(r: Before): Promise<AgentSandbox | undefined> {
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

function runTheAgent(r: Before, sandbox: AgentSandbox | undefined, access: ModelAccess): Promise<RunResult> {
  const { inputs, tracking, redactor } = r;
  return r.log.group(`Running gemini (${inputs.mode})`, () =>
    r.deps.runAgent({
      worktree: r.ctx.workspace,
      task: r.task,
      auth: r.auth,
      geminiPath: r.binary.path,
      cliProfile: r.binary.profile,
      model: r.model,
      approvalMode: inputs.approvalMode,
      mode: inputs.mode,
      timeoutMs: inputs.timeoutMinutes * 60_000,
      runDir: r.runDir,
      sourceEnv: r.io.env,
      gitIdentity: AGENT_IDENTITY,
      log: r.log,
      ...(r.resume ? { resume: r.resume } : {}),
      ...(sandbox ? { sandbox } : {}),
      vault: r.workspace.vault,
      ...(access.endpoint ? { modelEndpoint: access.endpoint } : {}),
      userSettings: r.userSettings,
      extensions: inputs.extensions,
      maxTokens: inputs.maxTokens,
      fenceModel: () => access.fence(),
      ...(tracking
        ? {
            // A tool's target is the agent's text: no secret of ours goes into the comment (isolation: none).
            onEvent: (e: RunEvent) =>
              tracking.onEvent(
                e.type === 'tool-started' && e.detail ? { ...e, detail: redactor.redact(e.detail) } : e,
              ),
          }
        : {}),
    }),
  );
}

/** The proxy's refusals of the agent's non-model calls, said in the log and kept in the result. */
function withRefusals(r: Before, result: RunResult, access: ModelAccess): RunResult {
  const refused = access.refusals();
  if (refused.count === 0) return result;
  // The shown paths are already cut short and reduced to plain characters by the proxy (model-routes.ts).
  const first = refused.first.map((c) => `${c.method} ${c.path}`);
  r.log.warning(
    `The model proxy refused ${refused.count} non-model call(s) of the agent: ${first.join(', ')}`,
  );
  return { ...result, refusedCalls: { count: refused.count, first } };
}

/** Opens the sandbox and the model proxy into `opened` (so they are closed whatever happens) and runs the agent. */
async function runInside(
  r: Before,
  opened: { sandbox?: AgentSandbox; access?: ModelAccess },
): Promise<RunResult> {
  opened.sandbox = await openAgentSandbox(r);
  // The credential stays with us: gemini talks to a loopback proxy with a placeholder worth nothing elsewhere.
  opened.access = await startModelAccess({
    auth: r.auth,
    ...(r.oauth ? { oauth: r.oauth } : {}),
    ...(r.vertex ? { vertex: r.vertex } : {}),
    ...(opened.sandbox ? { agentUid: opened.sandbox.user.uid } : {}),
    env: r.io.env,
    log: r.log,
    mask: (s) => r.mask(s),
  });
  return runTheAgent(r, opened.sandbox, opened.access);
}

export async function execute(r: Before): Promise<Executed> {
  const startedAt = new Date();
  const opened: { sandbox?: AgentSandbox; access?: ModelAccess } = {};
  try {
    let result: RunResult;
    try {
      result = await runInside(r, opened);
    } catch (error) {
      if (error instanceof UserError) throw error;
      const message = r.redactor.redact(oneLine(getErrorMessage(error)));
      r.log.error(`The run failed: ${neutralize(message)}`);
      result = await crashedResult({
        repo: r.workspace.vault.dir,
        baseSha: r.workspace.baseSha,
        mode: r.inputs.mode,
        message,
        startedAt,
      });
    } finally {
      await opened.access?.stop();
    }
    const { access, sandbox } = opened;
    if (access) result = withRefusals(r, result, access);
    if (await writeBackHostLogin(r.auth, access, join(sandbox?.dir ?? r.runDir, 'home'))) {
      r.log.info('Wrote the refreshed OAuth creds back to the runner host.');
    }
    return { result };
  } finally {
    // Nothing of the agent runs after this; what it left is read only from the action's own copies (runDir).
    if (opened.sandbox) {
      await opened.sandbox.close();
      r.io.saveState('sandbox', '');
    }
  }
}
