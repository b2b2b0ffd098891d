/**
 * The preflight phase: everything that can be checked on this machine, before the run's first network call or
 * GitHub write — the auth's shape, the model, tmux, isolation, the gemini the inputs name, the settings. A
 * mistake here fails the step in one line and touches nothing. An auth problem is held: the person on the issue
 * is told once the actor was admitted.
 */
import { resolveModel } from '../../gemini/models.js';
import { buildUserSettings } from '../../gemini/user-settings.js';
import { detectPrivilege, NO_ISOLATION_MESSAGE } from '../../isolation/privilege.js';
import { canInstallFilter, NO_FILTER_MESSAGE } from '../../isolation/egress-filter.js';
import { NEEDS_ISOLATION_MESSAGE } from '../../host/egress.js';
import { tmuxVersion } from '../../tmux/tmux.js';
import { UserError, getErrorMessage, oneLine } from '../../util/errors.js';
import { authFromActionInputs, resolveAuth } from '../../host/auth.js';
import type { Basics, Checked } from '../run-record.js';

async function authOf(r: Basics): Promise<Checked['auth']> {
  const { inputs } = r;
  try {
    return await resolveAuth(
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
  } catch (error) {
    return { problem: oneLine(getErrorMessage(error)) };
  }
}

export async function preflight(r: Basics): Promise<Checked> {
  const { inputs, log } = r;
  const auth = await authOf(r);
  const model = resolveModel(inputs.model || undefined);
  if (inputs.mode === 'interactive' && !(await tmuxVersion())) {
    throw new UserError(
      "tmux is not installed: add a step 'sudo apt-get install -y tmux' before gemini-run, or set 'mode: headless'.",
    );
  }
  // Refuse before anything is installed or touched: a run that cannot isolate its agent must not start.
  const privilege = inputs.isolation === 'user' ? await detectPrivilege() : undefined;
  if (privilege === 'none') throw new UserError(NO_ISOLATION_MESSAGE);
  if (inputs.isolation === 'none' && inputs.network !== 'open') throw new UserError(NEEDS_ISOLATION_MESSAGE);
  if (privilege && inputs.network !== 'open' && !(await canInstallFilter(privilege))) {
    throw new UserError(NO_FILTER_MESSAGE);
  }
  if (inputs.isolation === 'none') {
    log.warning(
      "isolation: none — the agent runs as the runner user: it can read the GitHub token and every other secret of this job's processes.",
    );
  }
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
