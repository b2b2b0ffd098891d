/**
 * The preflight's checks of the runner itself: its OS, the workspace checkout, and tmux (installed through apt
 * on a hosted runner, which has passwordless sudo, rather than failing there). The decisions are pure; the
 * commands run with a bound, and only here.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { tmuxVersion } from '../tmux/tmux.js';
import { exec } from '../util/exec.js';
import { UserError, getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';

const OS_NAMES: Record<string, string> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };

/** Linux only (tmux, setpriv, ACLs): the refusal for any other runner, naming the fix; undefined on Linux. */
export function runnerOsProblem(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const runnerOs = oneLine(env.RUNNER_OS ?? '');
  const os =
    platform !== 'linux'
      ? (OS_NAMES[platform] ?? platform)
      : runnerOs && runnerOs !== 'Linux'
        ? runnerOs
        : '';
  return os
    ? `gemini-run runs on Linux runners only, and this one is ${os}: set 'runs-on: ubuntu-latest' (or a self-hosted Linux runner).`
    : undefined;
}

/** The checkout step the README's workflows use (test/unit/readme-tables.test.ts holds them to it). */
export const CHECKOUT_STEP = 'actions/checkout@v5';

/** The workspace must be a checkout: everything after the preflight works on its git repository. */
export async function workspaceProblem(workspace: string): Promise<string | undefined> {
  const exists = await lstat(workspace).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!exists) {
    return `The workspace ${workspace} (GITHUB_WORKSPACE) does not exist: add a step 'uses: ${CHECKOUT_STEP}' before gemini-run.`;
  }
  const checkout = await lstat(join(workspace, '.git')).then(
    () => true,
    () => false,
  );
  return checkout
    ? undefined
    : `The workspace ${workspace} (GITHUB_WORKSPACE) is not a git checkout: add a step 'uses: ${CHECKOUT_STEP}' before gemini-run.`;
}

const TMUX_FIX = "add a step 'sudo apt-get install -y tmux' before gemini-run, or set 'mode: headless'";
/** apt's own bound, enforced by coreutils' timeout as root (our kill cannot reach a process sudo started). */
const APT_TIMEOUT_S = 150;

/** How this host may install tmux: as root, through passwordless sudo, or not at all (undefined). */
export function tmuxInstallCommand(o: { root: boolean; sudo: boolean; apt: boolean }): string[] | undefined {
  if (!o.apt || (!o.root && !o.sudo)) return undefined;
  const install = [
    'timeout',
    '-k',
    '10',
    String(APT_TIMEOUT_S),
    'env',
    'DEBIAN_FRONTEND=noninteractive',
    'apt-get',
    'install',
    '-y',
    '-q',
    '--no-install-recommends',
    'tmux',
  ];
  return o.root ? install : ['sudo', '-n', ...install];
}

async function succeeds(file: string, args: string[]): Promise<boolean> {
  const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs: 10_000, input: '' }).catch(
    () => undefined,
  );
  return r?.exitCode === 0;
}

/**
 * tmux for the interactive mode: there already, or installed now where a runner can (root, or a hosted runner's
 * passwordless sudo, with apt-get); a UserError with the fix where it cannot.
 */
export async function ensureTmux(log: Logger, env: NodeJS.ProcessEnv): Promise<void> {
  if (await tmuxVersion()) return;
  const root = process.getuid?.() === 0;
  // Only a runner's machine gets a package installed: the demo on someone's laptop is told what to do instead.
  const onRunner = env.GITHUB_ACTIONS === 'true';
  const command =
    onRunner &&
    tmuxInstallCommand({
      root,
      sudo: !root && (await succeeds('sudo', ['-n', 'true'])),
      apt: await succeeds('apt-get', ['--version']),
    });
  if (!command) {
    throw new UserError(
      `tmux is not installed${onRunner ? ', and this runner cannot install it (no apt-get, or no passwordless sudo)' : ''}: ${TMUX_FIX}.`,
    );
  }
  const [file, ...args] = command as [string, ...string[]];
  const failed = await log.group('Installing tmux (mode: interactive)', async () => {
    const r = await exec(file, args, {
      allowAllExitCodes: true,
      timeoutMs: (APT_TIMEOUT_S + 20) * 1000,
      input: '',
    }).catch((e: unknown) => ({ exitCode: -1, stdout: '', stderr: getErrorMessage(e) }));
    for (const line of `${r.stdout}\n${r.stderr}`.split('\n')) if (line.trim()) log.info(line);
    return r.exitCode === 0 ? undefined : (r.stderr.trim().split('\n').at(-1) ?? `exit ${r.exitCode}`);
  });
  const version = await tmuxVersion();
  if (!version) {
    throw new UserError(
      `tmux is not installed, and installing it failed${failed ? ` (${oneLine(failed)})` : ''}: ${TMUX_FIX}.`,
    );
  }
  log.info(`Installed ${version}.`);
}
