/**
 * Gemini CLI extensions for one run, installed into the run's own home with the CLI's own installer
 * (`gemini extensions install`), so the manifest is validated and a git source is cloned the way the CLI does.
 *
 * 0.42.0 asks twice before it installs: the install consent (`--consent` answers it) and, for a local path, a
 * folder-trust question that no flag answers. With stdin at /dev/null that second question never returns and
 * the installer waits forever (seen live); `GEMINI_CLI_TRUST_WORKSPACE=true` is the CLI's own way to trust.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import { exec } from '../util/exec.js';
import type { Logger } from '../util/log.js';
import type { GeminiHome } from './home.js';
import { ENV_ALLOW_LIST } from './spawn.js';

/** A git clone on a slow network can take a while; a prompt we did not foresee must not hang the run. */
const INSTALL_TIMEOUT_MS = 120_000;

/** A source the CLI clones (a URL or scp-like git address) rather than copies. */
export function isGitSource(source: string): boolean {
  return /^(https?|git|ssh):\/\//.test(source) || /^[\w.-]+@[\w.-]+:/.test(source);
}

/** Pure: the last lines of the installer's output that say why it failed, in one line. */
export function installFailure(output: string): string {
  const lines = output
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/consented to the following|may have been created by a third-party/i.test(l));
  const fatal = lines.filter((l) => /^(fatal|error)\b/i.test(l));
  const reason = (fatal.length > 0 ? fatal : lines.slice(-2)).join(' ').replace(/\s+/g, ' ');
  return reason.slice(0, 400) || 'the installer gave no reason';
}

/** The installer's environment: allow-listed, the run's home, and trust for the source folder. */
function installEnv(home: GeminiHome, sourceEnv: NodeJS.ProcessEnv, tmpDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of [...ENV_ALLOW_LIST.exact, ...ENV_ALLOW_LIST.passThrough]) {
    if (sourceEnv[name] !== undefined) env[name] = sourceEnv[name];
  }
  return {
    ...env,
    HOME: home.root,
    GEMINI_CLI_HOME: home.root,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NO_COLOR: '1',
    // The installer stages each source in a `gemini-extension*` dir under the temp dir and leaves it behind.
    TMPDIR: tmpDir,
  };
}

/**
 * Installs each source into `home`, in order. A local path is relative to the worktree. Throws a one-line
 * UserError naming the source when one fails.
 */
export async function installExtensions(o: {
  geminiPath: string;
  home: GeminiHome;
  sources: readonly string[];
  worktree: string;
  sourceEnv: NodeJS.ProcessEnv;
  log: Logger;
}): Promise<void> {
  const tmpDir = await mkdtemp(join(o.home.root, 'extensions-tmp-'));
  try {
    for (const source of o.sources) await installOne(o, source, tmpDir);
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}

async function installOne(
  o: Parameters<typeof installExtensions>[0],
  source: string,
  tmpDir: string,
): Promise<void> {
  const target = isGitSource(source) || isAbsolute(source) ? source : resolve(o.worktree, source);
  const r = await exec(o.geminiPath, ['extensions', 'install', target, '--consent', '--skip-settings'], {
    cwd: o.home.root,
    env: installEnv(o.home, o.sourceEnv, tmpDir),
    input: '',
    allowAllExitCodes: true,
    timeoutMs: INSTALL_TIMEOUT_MS,
  }).catch((e: unknown) => {
    throw new UserError(`extension '${source}' could not be installed: ${String(e)}`);
  });
  if (r.exitCode >= 128) {
    throw new UserError(
      `extension '${source}' could not be installed: the installer did not finish within ${INSTALL_TIMEOUT_MS / 1000} s.`,
    );
  }
  if (r.exitCode !== 0) {
    throw new UserError(
      `extension '${source}' could not be installed: ${installFailure(`${r.stdout}\n${r.stderr}`)}; check the 'extensions' input.`,
    );
  }
  const name = /Extension "([^"]+)" installed/.exec(r.stdout + r.stderr)?.[1];
  o.log.info(`installed extension ${name ? `${name} from ` : ''}${source}`);
}
