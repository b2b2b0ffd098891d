/**
 * Which gemini an action run uses: the `gemini-path` (or the one `gemini-run setup` named in the runner's .env),
 * asked for its version; or `gemini-version`, checked against the probe-checked versions before npm runs and then
 * installed into the tool cache.
 */
import { installGemini as installIntoCache, geminiVersionOf } from '../gemini/install.js';
import { DEFAULT_GEMINI_VERSION, profileFor, type CliProfile } from '../gemini/cli-profile.js';
import { UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import type { ActionInputs } from './inputs.js';
import type { GeminiBinary, GeminiCheck } from './run-record.js';

function logProfile(profile: CliProfile, path: string, log: Logger): void {
  if (profile.unchecked) {
    log.warning(
      `gemini at ${path} is ${profile.version}, which gemini-run's probes have not checked: running it with the ${profile.checked} profile because allow-unchecked-gemini-version is set.`,
    );
  }
  log.info(`Using gemini ${profile.version} at ${path}`);
}

export async function checkGemini(
  inputs: ActionInputs,
  env: NodeJS.ProcessEnv,
  log: Logger,
): Promise<GeminiCheck> {
  const allowUnchecked = inputs.allowUncheckedGeminiVersion;
  // A self-hosted runner prepared by `gemini-run setup` names its gemini in the runner's .env, which the
  // workflow's expressions cannot see.
  const path = inputs.geminiPath || env.GEMINI_RUN_GEMINI_PATH || '';
  if (path) {
    const version = await geminiVersionOf(path);
    if (!version)
      throw new UserError(`The gemini at ${path} does not run ('--version' failed): check 'gemini-path'.`);
    // An explicit version that is not the binary's would run another gemini than asked, silently.
    if (inputs.geminiVersion !== DEFAULT_GEMINI_VERSION && inputs.geminiVersion !== version) {
      throw new UserError(
        `'gemini-version' is ${inputs.geminiVersion} but the gemini at ${path} is ${version}: drop one of the two, or point 'gemini-path' at a gemini ${inputs.geminiVersion}.`,
      );
    }
    const profile = profileFor(version, { allowUnchecked });
    logProfile(profile, path, log);
    return { kind: 'path', binary: { path, profile } };
  }
  // Refused before npm runs: an unchecked version is not worth a download.
  return { kind: 'install', profile: profileFor(inputs.geminiVersion, { allowUnchecked }) };
}

/**
 * The checked gemini, installed when it is a version. installGemini checks that the binary reports exactly this
 * version, so it is not asked again (each `--version` costs ~1 s).
 */
export async function installGemini(
  check: GeminiCheck,
  toolCache: string,
  log: Logger,
): Promise<GeminiBinary> {
  if (check.kind === 'path') return check.binary;
  const { profile } = check;
  const path = await installIntoCache({ version: profile.version, cacheRoot: toolCache, log });
  logProfile(profile, path, log);
  return { path, profile };
}
