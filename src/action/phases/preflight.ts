/**
 * The preflight phase: everything that can be checked on this machine, before the run's first network call or
 * GitHub write — the inputs, the runner's OS, the token's presence, the workspace, the auth's shape, the model,
 * tmux (installed where the runner can), isolation, the gemini the inputs name, the settings. A mistake here ends
 * the run `misconfigured` in one line, before anything was touched on GitHub.
 */
import { resolveModel } from '../../gemini/models.js';
import { buildUserSettings } from '../../gemini/user-settings.js';
import {
  isolationAvailability,
  noIsolationMessage,
  UNSAFE_WITHOUT_ISOLATION,
} from '../../isolation/privilege.js';
import { canInstallFilter, NO_FILTER_MESSAGE } from '../../isolation/egress-filter.js';
import { NEEDS_ISOLATION_MESSAGE } from '../../host/egress.js';
import { UserError } from '../../util/errors.js';
import { authFromActionInputs, resolveAuth } from '../../host/auth.js';
import { upstreamProblem } from '../../host/model-access.js';
import { ensureTmux, runnerOsProblem, workspaceProblem } from '../runner-checks.js';
import type { Basics, Checked } from '../run-record.js';

async function authOf(r: Basics): Promise<Checked['auth']> {
  const { inputs } = r;
  return resolveAuth(
    authFromActionInputs(
      {
        oauthCreds: inputs.geminiOauthCreds,
        googleAccount: inputs.geminiGoogleAccount,
        apiKey: inputs.geminiApiKey,
        useVertexAi: inputs.useVertexAi,
        googleCloudProject: inputs.googleCloudProject,
        googleCloudLocation: inputs.googleCloudLocation,
      },
      r.io.env,
    ),
    (s) => r.mask(s),
  );
}

/** The runner itself: Linux, a checkout to work in, a GitHub token to work with. */
async function checkRunner(r: Basics): Promise<void> {
  const os = runnerOsProblem(r.io.env, process.platform);
  if (os) throw new UserError(os);
  if (!r.github)
    throw new UserError("No GitHub token: set 'github-token' (the default is ${{ github.token }}).");
  const workspace = await workspaceProblem(r.ctx.workspace);
  if (workspace) throw new UserError(workspace);
}

/** Refuse before anything is installed or touched: a run that cannot isolate its agent must not start. */
async function checkIsolation(r: Basics): Promise<Checked['privilege']> {
  if (r.inputs.isolation === 'none') {
    if (r.inputs.network !== 'open') throw new UserError(NEEDS_ISOLATION_MESSAGE);
    r.log.warning(
      "isolation: none — the agent runs as the runner user: it can read the GitHub token and every other secret of this job's processes.",
    );
    return undefined;
  }
  const { privilege, missing } = await isolationAvailability();
  if (privilege === 'none') throw new UserError(noIsolationMessage());
  if (missing) {
    throw new UserError(
      `The agent cannot be isolated on this host: ${missing}. Install it ('sudo apt-get install -y acl'), ${UNSAFE_WITHOUT_ISOLATION}.`,
    );
  }
  if (r.inputs.network !== 'open' && !(await canInstallFilter(privilege)))
    throw new UserError(NO_FILTER_MESSAGE);
  return privilege;
}

/**
 * Every check that needs only this machine, in the order a person fixes them; the first mistake is a UserError
 * (the run ends `misconfigured`, run-action.ts). `problem`: what the inputs' parse already found wrong.
 */
export async function preflight(r: Basics, problem?: string): Promise<Checked> {
  const { inputs, log } = r;
  if (problem) throw new UserError(problem);
  await checkRunner(r);
  const auth = await authOf(r);
  const upstream = upstreamProblem(auth, r.io.env);
  if (upstream) throw new UserError(upstream);
  const model = resolveModel(inputs.model || undefined);
  if (inputs.mode === 'interactive') await ensureTmux(log, r.io.env);
  const privilege = await checkIsolation(r);
  const gemini = await r.deps.checkGemini(inputs, r.io.env, log);
  const userSettings = buildUserSettings({
    settings: inputs.settings,
    allowedTools: inputs.allowedTools,
    excludeTools: inputs.excludeTools,
  });
  if (userSettings.overridden.length > 0) {
    log.warning(
      `'settings' sets keys gemini-run owns, which keep gemini-run's values: ${userSettings.overridden.join(', ')}`,
    );
  }
  return { auth, model, privilege, gemini, userSettings: userSettings.settings };
}
