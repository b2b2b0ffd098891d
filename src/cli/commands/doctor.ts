import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { readAuthStatus } from '../../gemini/auth-status.js';
import { geminiVersion } from '../../gemini/install.js';
import {
  CHECKED_VERSIONS,
  DEFAULT_GEMINI_VERSION,
  profileFor,
  uncheckedMessage,
} from '../../gemini/cli-profile.js';
import { homeAt } from '../../gemini/home.js';
import { CONTEXT_FILE_NAMES, readSettings } from '../../gemini/settings.js';
import { UserError, getErrorMessage } from '../../util/errors.js';
import {
  checkFlagRules,
  parseCommandArgs,
  renderTable,
  wrapText,
  write,
  type CliIO,
  type Command,
} from '../args.js';
import { locateGemini, readRunnerEnv, toolkitToolCache, whichOnPath } from '../host-config.js';
import { existingAgentUsers } from '../../isolation/agent-user.js';
import { findLeftovers } from '../../isolation/host-traces.js';
import { isolationAvailability } from '../../isolation/privilege.js';
import { localServicesCheck } from '../../isolation/local-services.js';
import { tmuxVersion } from '../../tmux/tmux.js';

const USAGE = `usage: gemini-run doctor [--json] [--wide] [--home <dir>] [--gemini <path>] [--tool-cache <dir>]
                         [--runner-dir <dir>] [--allow-unchecked-gemini-version] [--clean]

Checks that this host can run gemini-run: node, tmux, the gemini CLI and whether its version is one the
probes have checked (${CHECKED_VERSIONS.join(', ')}), the Gemini settings (auto-update off, usage statistics
off, context file names), the login, agent isolation, what killed runs left on the host (a stale claim, a packet
filter chain or processes of an agent user no run holds, an agent's ACL entry on a directory above the temp dir,
the home or here) and free disk. Prints one block per check, with a fix for every failed one, in 100 columns;
exit code 1 when any check fails. --clean removes what killed runs left, then checks.

It checks what the runner's jobs will see: the runner's .env (where 'gemini-run setup' told you to put its
lines) is read and its values win over this shell's — from --runner-dir, else the current directory when it
is a runner's, else ~/actions-runner.

Where gemini is looked for: --gemini, else GEMINI_RUN_GEMINI_PATH, else 'gemini' on PATH, else the tool
cache 'gemini-run setup' installs into (--tool-cache, else $RUNNER_TOOL_CACHE, else
~/.cache/gemini-run/tool-cache). The Gemini home: --home, else GEMINI_RUN_HOST_HOME, else
$GEMINI_CLI_HOME, else $HOME.

Options:
  --json              print the checks as JSON
  --wide              one table row per check, however wide
  --home <dir>        the Gemini home to check
  --gemini <path>     the gemini executable to check
  --tool-cache <dir>  where to look for a cached gemini
  --runner-dir <dir>  the runner's directory, whose .env is read
  --allow-unchecked-gemini-version
                      accept a gemini version no probe has checked (a warning, with the profile it would get)
  --clean             remove what killed runs left (as root, or with passwordless sudo), and say what
  -h, --help          show this help

Examples:
  gemini-run doctor
  gemini-run doctor --runner-dir /home/runner/actions-runner
  gemini-run doctor --json --home /home/runner --gemini /opt/gemini/bin/gemini
  sudo gemini-run doctor --clean
`;

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do; set for every warn and fail. */
  fix?: string;
}

/** Free space below this is a failure: one run's transcript + telemetry + a worktree can reach hundreds of MB. */
const MIN_FREE_BYTES = 1024 ** 3;

/** Pure: node's major version against the requirement. Exported for tests. */
export function checkNode(version: string): Check {
  const major = Number(/^v?(\d+)/.exec(version)?.[1] ?? 0);
  return major >= 20
    ? { name: 'node', status: 'ok', detail: version }
    : {
        name: 'node',
        status: 'fail',
        detail: version,
        fix: 'install Node.js 20 or newer (gemini 0.42.0 needs it)',
      };
}

/** Pure: a gemini's `--version` against the probed profiles. Exported for tests. */
export function checkGeminiVersion(version: string, where: string, allowUnchecked: boolean): Check {
  const detail = `${version} at ${where}`;
  let profile;
  try {
    profile = profileFor(version, { allowUnchecked });
  } catch {
    return {
      name: 'gemini',
      status: 'fail',
      detail: `${detail}; not checked by the probes`,
      fix: uncheckedMessage(version),
    };
  }
  return profile.unchecked
    ? {
        name: 'gemini',
        status: 'warn',
        detail: `${detail}; unchecked, runs would use the ${profile.checked} profile`,
        fix: `use ${CHECKED_VERSIONS.join(' or ')} ('gemini-run setup --gemini-version <v>'), or run 'gemini-run probe --gemini <path>' first`,
      }
    : { name: 'gemini', status: 'ok', detail: `${detail}; profile ${profile.checked}` };
}

/** Pure: the settings we need, from a parsed settings.json. Exported for tests. */
export function checkSettings(settings: Record<string, unknown>, file: string): Check[] {
  const get = (path: string): unknown =>
    path
      .split('.')
      .reduce<unknown>(
        (node, key) =>
          node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined,
        settings,
      );
  const fix = `run 'gemini-run setup' (merges gemini-run's settings into ${file})`;
  const checks: Check[] = [];
  const autoUpdate =
    get('general.enableAutoUpdate') === false && get('general.enableAutoUpdateNotification') === false;
  checks.push(
    autoUpdate
      ? { name: 'settings: auto-update', status: 'ok', detail: 'off' }
      : {
          name: 'settings: auto-update',
          status: 'fail',
          detail: 'on (the CLI would npm install -g @google/gemini-cli@latest machine-wide)',
          fix,
        },
  );
  checks.push(
    get('privacy.usageStatisticsEnabled') === false
      ? { name: 'settings: usage statistics', status: 'ok', detail: 'off' }
      : { name: 'settings: usage statistics', status: 'fail', detail: 'on (separate upload pipeline)', fix },
  );
  const names = get('context.fileName');
  const list = Array.isArray(names) ? names : typeof names === 'string' ? [names] : [];
  const missing = CONTEXT_FILE_NAMES.filter((n) => !list.includes(n));
  checks.push(
    missing.length === 0
      ? { name: 'settings: context names', status: 'ok', detail: list.join(', ') }
      : {
          name: 'settings: context names',
          status: 'warn',
          detail: `missing ${missing.join(', ')} (runs set their own; interactive use on this host would not read them)`,
          fix,
        },
  );
  return checks;
}

/** Pure: free bytes → check. */
export function checkDisk(freeBytes: number, dir: string): Check {
  const gb = (freeBytes / 1024 ** 3).toFixed(1);
  return freeBytes >= MIN_FREE_BYTES
    ? { name: 'free disk', status: 'ok', detail: `${gb} GiB free in ${dir}` }
    : {
        name: 'free disk',
        status: 'fail',
        detail: `${gb} GiB free in ${dir}`,
        fix: `free at least 1 GiB in ${dir}`,
      };
}

/** tmux on PATH, and that it runs. */
async function tmuxCheck(env: NodeJS.ProcessEnv): Promise<Check> {
  const tmux = await whichOnPath('tmux', env.PATH);
  if (!tmux) {
    return {
      name: 'tmux',
      status: 'fail',
      detail: 'not found on PATH',
      fix: 'install tmux (apt-get install tmux)',
    };
  }
  const v = await tmuxVersion(tmux);
  return v
    ? { name: 'tmux', status: 'ok', detail: `${v} (${tmux})` }
    : { name: 'tmux', status: 'fail', detail: `${tmux} does not run`, fix: 'reinstall tmux' };
}

/** The gemini a run would start, that it runs, and its version. */
async function geminiCheck(o: {
  gemini?: string;
  toolCache?: string;
  allowUnchecked: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<Check> {
  const found = await locateGemini(o.gemini, o.env, o.toolCache);
  if (!found) {
    return {
      name: 'gemini',
      status: 'fail',
      detail: `not found (--gemini, GEMINI_RUN_GEMINI_PATH, PATH, tool cache ${o.toolCache ?? toolkitToolCache(o.env) ?? '-'})`,
      fix: `run 'gemini-run setup' to install ${DEFAULT_GEMINI_VERSION}, or pass --gemini <path>`,
    };
  }
  const version = await geminiVersion(found.path, o.env);
  if (!version) {
    return {
      name: 'gemini',
      status: 'fail',
      detail: `${found.path} (${found.source}) does not run`,
      fix: `reinstall it with 'gemini-run setup'`,
    };
  }
  return checkGeminiVersion(version, `${found.path} (${found.source})`, o.allowUnchecked);
}

async function runChecks(o: {
  cwd: string;
  home: string;
  gemini?: string;
  toolCache?: string;
  allowUnchecked: boolean;
  env: NodeJS.ProcessEnv;
}): Promise<Check[]> {
  const checks: Check[] = [checkNode(process.version)];

  checks.push(await tmuxCheck(o.env), await geminiCheck(o));

  const home = homeAt(o.home);
  try {
    checks.push(...checkSettings(await readSettings(home.settingsPath), home.settingsPath));
  } catch (error) {
    checks.push({
      name: 'settings',
      status: 'fail',
      detail: getErrorMessage(error),
      fix: `fix or remove ${home.settingsPath}`,
    });
  }

  const auth = await readAuthStatus(o.home);
  if (auth.usable) {
    const expiry = auth.accessTokenExpired
      ? 'access token expired, refresh token present'
      : 'access token valid';
    checks.push({ name: 'login', status: 'ok', detail: `${auth.account ?? 'unknown account'}; ${expiry}` });
  } else {
    checks.push({
      name: 'login',
      status: auth.credsPresent ? 'fail' : 'warn',
      detail: auth.credsPresent
        ? 'creds present but not usable'
        : 'no OAuth creds (fine with an API key or Vertex AI)',
      fix: "run 'gemini-run login' (or give runs 'gemini-api-key' / 'use-vertex-ai')",
    });
  }

  checks.push(await checkIsolation());
  checks.push(await localServicesCheck((await isolationAvailability()).privilege));
  const leftovers = await checkLeftovers(o.env, o.cwd);
  if (leftovers) checks.push(leftovers);

  try {
    const target = (await fs.stat(o.home).catch(() => undefined)) ? o.home : '/';
    const st = await fs.statfs(target);
    checks.push(checkDisk(Number(st.bavail) * Number(st.bsize), target));
  } catch (error) {
    checks.push({
      name: 'free disk',
      status: 'warn',
      detail: getErrorMessage(error),
      fix: 'check the disk by hand (df -h)',
    });
  }
  return checks;
}

/** Whether runs here can give the agent its own user (isolation: user, the default). */
async function checkIsolation(): Promise<Check> {
  const { privilege, missing } = await isolationAvailability();
  if (missing) {
    return {
      name: 'agent isolation',
      status: 'fail',
      detail: missing,
      fix:
        privilege === 'none'
          ? 'sudo gemini-run setup --agent-users 4 --runner-user $(id -un)  (or isolation: none, unsafe)'
          : 'install acl (apt-get install acl)',
    };
  }
  const how =
    privilege === 'root'
      ? 'as root'
      : privilege === 'sudo'
        ? 'through passwordless sudo'
        : `through the sudoers rule (${(await existingAgentUsers()).length} agent users)`;
  return { name: 'agent isolation', status: 'ok', detail: `the agent gets its own user ${how}` };
}

/** What a run killed with SIGKILL (or a host that rebooted mid-run) left; undefined where none can be seen. */
async function checkLeftovers(env: NodeJS.ProcessEnv, cwd: string): Promise<Check | undefined> {
  const { privilege } = await isolationAvailability();
  if (privilege === 'none') return undefined;
  const found = await findLeftovers({ privilege, env, cwd });
  if (found.length === 0) return { name: 'left by killed runs', status: 'ok', detail: 'nothing' };
  return {
    name: 'left by killed runs',
    status: 'warn',
    detail: found.map((f) => f.what).join('; '),
    fix: `${privilege === 'root' ? '' : 'sudo '}gemini-run doctor --clean removes them`,
  };
}

/** Removes what killed runs left, one line each; returns how many could not be removed. */
async function clean(io: CliIO, env: NodeJS.ProcessEnv): Promise<number> {
  const { privilege, missing } = await isolationAvailability();
  if (privilege === 'none') {
    throw new UserError(`--clean needs root or passwordless sudo (${missing ?? 'no privilege'})`);
  }
  const found = await findLeftovers({ privilege, env, cwd: io.cwd });
  for (const f of found) {
    await f.remove();
    write(io.stdout, `removed: ${f.what}`);
  }
  const left = await findLeftovers({ privilege, env, cwd: io.cwd });
  for (const f of left) write(io.stderr, `still there: ${f.what}`);
  if (found.length === 0) write(io.stdout, 'Nothing left by killed runs.');
  return left.length;
}

/** The terminal width doctor's table fits (a wider detail wraps in its column; --wide keeps one row). */
const COLUMNS = 100;

/**
 * Pure: the checks as a table of COLUMNS columns: status and name, the detail wrapped in the third column,
 * and the fix below it ("fix: ..."), wrapped the same way. Exported for tests.
 */
export function renderChecks(checks: Check[], wide = false): string {
  if (wide) {
    const rows = checks.map((c) => [c.status.toUpperCase(), c.name, c.detail, c.fix ?? '']);
    return renderTable(['STATUS', 'CHECK', 'DETAIL', 'FIX'], rows);
  }
  const nameWidth = Math.max(...checks.map((c) => c.name.length), 'CHECK'.length);
  const indent = 'STATUS'.length + 2 + nameWidth + 2;
  const lines = [`${'STATUS'.padEnd(8)}${'CHECK'.padEnd(nameWidth + 2)}DETAIL`];
  for (const c of checks) {
    const detail = wrapText(c.detail, COLUMNS - indent);
    const fix = c.fix ? wrapText(`fix: ${c.fix}`, COLUMNS - indent) : [];
    const head = `${c.status.toUpperCase().padEnd(8)}${c.name.padEnd(nameWidth + 2)}`;
    [...detail, ...fix].forEach((l, i) => lines.push(`${i === 0 ? head : ' '.repeat(indent)}${l}`));
  }
  return lines.map((l) => l.trimEnd()).join('\n');
}

/** The runner's .env, as a check: which file gave which values, or that this shell's environment is used. */
function runnerEnvCheck(found: { file: string; values: Record<string, string> } | undefined): Check {
  if (!found) {
    return {
      name: 'runner .env',
      status: 'warn',
      detail:
        "none found (./ is not a runner's directory, no ~/actions-runner/.env): checked this shell's environment",
      fix: "pass --runner-dir <the runner's directory>, or run doctor there",
    };
  }
  const keys = Object.keys(found.values).filter(
    (k) => k.startsWith('GEMINI_RUN_') || k === 'RUNNER_TOOL_CACHE',
  );
  return {
    name: 'runner .env',
    status: 'ok',
    detail: `${found.file}${keys.length ? ` (${keys.join(', ')})` : ' (no GEMINI_RUN_ values)'}`,
  };
}

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check this host: node, tmux, gemini version, settings, login, isolation, leftovers, disk',
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('doctor', argv, {
      json: { type: 'boolean' },
      wide: { type: 'boolean' },
      home: { type: 'string' },
      gemini: { type: 'string' },
      'tool-cache': { type: 'string' },
      'runner-dir': { type: 'string' },
      'allow-unchecked-gemini-version': { type: 'boolean' },
      clean: { type: 'boolean' },
    });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    checkFlagRules('doctor', values, [
      { flag: 'wide', excludes: ['json'], because: 'a table layout; JSON has none' },
      { flag: 'clean', excludes: ['json'], because: 'it says what it removed, line by line' },
    ]);
    const runnerEnv = await readRunnerEnv(values['runner-dir'], io);
    // What a job sees: the runner applies its .env over the service's environment.
    const env = { ...io.env, ...runnerEnv?.values };
    if (values.clean && (await clean(io, env)) > 0) return 1;
    const home = values.home || env.GEMINI_RUN_HOST_HOME || env.GEMINI_CLI_HOME || env.HOME;
    if (!home) throw new UserError('cannot tell which Gemini home to check: pass --home <dir>');
    const checks = [
      runnerEnvCheck(runnerEnv),
      ...(await runChecks({
        cwd: io.cwd,
        home: resolve(io.cwd, home),
        gemini: values.gemini,
        toolCache: values['tool-cache'],
        allowUnchecked: values['allow-unchecked-gemini-version'] === true,
        env,
      })),
    ];
    const failed = checks.filter((c) => c.status === 'fail');
    if (values.json) {
      write(io.stdout, JSON.stringify({ ok: failed.length === 0, checks }, null, 2));
    } else {
      write(io.stdout, renderChecks(checks, values.wide === true));
      write(io.stdout, failed.length === 0 ? '\nAll checks passed.' : `\n${failed.length} check(s) failed.`);
    }
    return failed.length === 0 ? 0 : 1;
  },
};
