import { constants, promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { geminiVersion, installGemini } from '../../gemini/install.js';
import { CHECKED_VERSIONS, DEFAULT_GEMINI_VERSION, profileFor } from '../../gemini/cli-profile.js';
import { homeAt } from '../../gemini/home.js';
import { OWNED_SETTINGS, mergeSettings } from '../../gemini/settings.js';
import { AGENT_POOL_SIZE } from '../../isolation/agent-user.js';
import { setupAgentHost } from '../../isolation/host-setup.js';
import { UserError } from '../../util/errors.js';
import { createStreamLogger } from '../../util/log.js';
import {
  checkFlagRules,
  geminiHomeFrom,
  parseCommandArgs,
  write,
  type CliIO,
  type Command,
  type FlagRule,
} from '../args.js';
import { toolkitToolCache } from '../host-config.js';
import { pathExists } from '../../util/fs.js';

const USAGE = `usage: gemini-run setup [--prefix <dir>] [--home <dir>] [--gemini <path>] [--gemini-version <v>]
       sudo gemini-run setup --agent-users <n> --runner-user <user>

Prepares a self-hosted runner host, run as the runner user: installs @google/gemini-cli@${DEFAULT_GEMINI_VERSION} with npm
into a prefix that user owns (no sudo, no global npm; reused when already complete), merges gemini-run's
settings into the Gemini home (auto-update off, usage statistics off, context file names, oauth-personal), and
prints the lines to add to the runner's .env file.

Options:
  --prefix <dir>   install root, laid out like the Actions tool cache (default: $RUNNER_TOOL_CACHE, else
                   ~/.cache/gemini-run/tool-cache, where 'gemini-run doctor' and 'login' look too)
  --home <dir>     the Gemini home to configure (default: $GEMINI_CLI_HOME, else $HOME)
  --gemini <path>  use this gemini instead of installing one (its version is checked)
  --gemini-version <v>  the exact version to install or expect: ${CHECKED_VERSIONS.join(' or ')} (default
                        ${DEFAULT_GEMINI_VERSION}); any other is refused unless --allow-unchecked-gemini-version
  --npm <path>     the npm to install with (default: npm on PATH)
  --agent-users <n>     (as root) prepare agent isolation instead: create the agent users gemini-agent-1..n,
                        the claims directory, and the sudoers rule that lets --runner-user start processes as
                        those users and nothing else (checked with visudo -c). One user per concurrent job.
  --runner-user <user>  the user the runner service runs as (with --agent-users)
  -h, --help       show this help

Examples:
  gemini-run setup >> ~/actions-runner/.env
  sudo -u runner gemini-run setup --prefix /home/runner/_tool --home /home/runner
  # then, in the runner directory:  cat >> .env <the printed lines>  and restart the runner service
`;

const HOST_STEP = 'the host step, run as root: sudo gemini-run setup --agent-users <n> --runner-user <user>';
/** The two jobs of setup never mix: the host step as root, the install as the runner user. */
const FLAG_RULES: readonly FlagRule[] = [
  { flag: 'runner-user', needs: 'agent-users', because: HOST_STEP },
  { flag: 'agent-users', needs: 'runner-user', because: HOST_STEP },
  {
    flag: 'agent-users',
    excludes: ['prefix', 'home', 'gemini', 'npm', 'gemini-version', 'allow-unchecked-gemini-version'],
    because: 'the host step installs nothing: run the install as the runner user, apart',
  },
];

// The same rule as the action's 'gemini-version' input: npm gets an exact version, never a range or a tag.
const EXACT_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

async function assertWritable(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true }).catch(() => undefined);
  try {
    await fs.access(dir, constants.W_OK);
  } catch {
    throw new UserError(
      `${dir} is not writable by this user: run setup as the runner user, or pick --prefix`,
    );
  }
}

/**
 * What `network: restricted` (the action's default) needs on this host: iptables as root, which the runner user
 * gets only through the checked wrapper the host step wrote (never iptables itself: `--modprobe` runs any program).
 */
function networkNote(wrapper: string | undefined): string[] {
  return wrapper
    ? [
        `Packet filter (network: restricted): the runner user may run ${wrapper} as root, which runs only the`,
        "agents' own iptables rules; it was written for the agent users above (re-run this step when they change).",
      ]
    : [
        "Note: no /usr/sbin/iptables here, so the action's default 'network: restricted' cannot filter the agents:",
        "install iptables and re-run this step (it then writes a checked wrapper and grants only that), or set 'network: open'.",
      ];
}

/** What to do after a setup as the runner user: the one root step, then doctor. */
function nextSteps(env: NodeJS.ProcessEnv): string {
  const user = env.USER || env.LOGNAME || '<runner user>';
  return [
    'Next:',
    "  1. the lines above go into the runner's .env (gemini-run setup >> ~/actions-runner/.env does it)",
    `  2. once per host, as root, an agent user per concurrent job: sudo gemini-run setup --agent-users 4 --runner-user ${user}`,
    "  3. check the host as the runner's jobs will see it: gemini-run doctor",
  ].join('\n');
}

/** The host step (as root): the agent users and the runner user's sudoers rule. */
async function hostStep(count: string, runnerUser: string, io: CliIO): Promise<number> {
  const agents = Number(count);
  if (!Number.isInteger(agents) || agents < 1 || agents > AGENT_POOL_SIZE) {
    throw new UserError(`--agent-users must be a whole number from 1 to ${AGENT_POOL_SIZE}`);
  }
  const r = await setupAgentHost({ agents, runnerUser });
  write(
    io.stdout,
    [
      `Agent users: ${r.users.map((u) => `${u.name} (uid ${u.uid})`).join(', ')}`,
      `Sudoers rule for ${runnerUser} in ${r.sudoersFile} (checked with visudo -c).`,
      "Runs on this host now isolate their agent (isolation: user); check with 'gemini-run doctor' as the runner user.",
      ...networkNote(r.egressWrapper),
    ].join('\n'),
  );
  return 0;
}

export const setupCommand: Command = {
  name: 'setup',
  summary: `Install gemini ${DEFAULT_GEMINI_VERSION} for the runner user, merge settings, print .env lines`,
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, help } = parseCommandArgs('setup', argv, {
      prefix: { type: 'string' },
      home: { type: 'string' },
      gemini: { type: 'string' },
      npm: { type: 'string' },
      'gemini-version': { type: 'string' },
      'allow-unchecked-gemini-version': { type: 'boolean' },
      'agent-users': { type: 'string' },
      'runner-user': { type: 'string' },
    });
    if (help) {
      write(io.stdout, USAGE);
      return 0;
    }
    checkFlagRules('setup', values, FLAG_RULES);
    if (values['agent-users'] !== undefined)
      return hostStep(values['agent-users'], values['runner-user'] as string, io);
    const wanted = values['gemini-version'] ?? DEFAULT_GEMINI_VERSION;
    if (!EXACT_VERSION.test(wanted)) {
      throw new UserError(
        `--gemini-version must be an exact version like ${DEFAULT_GEMINI_VERSION}, not '${wanted}'`,
      );
    }
    profileFor(wanted, { allowUnchecked: values['allow-unchecked-gemini-version'] === true });
    const home = geminiHomeFrom(values.home, io.env);
    const log = createStreamLogger({ out: io.stderr, err: io.stderr });

    let bin: string;
    if (values.gemini) {
      bin = resolve(io.cwd, values.gemini);
      if (!(await pathExists(bin))) {
        throw new UserError(
          `${bin} does not exist: pass the path of a gemini ${wanted}, or leave --gemini out to install one`,
        );
      }
      const version = await geminiVersion(bin, io.env);
      if (version === undefined) {
        throw new UserError(
          `${bin} does not run as gemini ('${bin} --version' failed): pass the gemini executable or its bundle/gemini.js`,
        );
      }
      if (version !== wanted) {
        throw new UserError(`${bin} reports version '${version}', expected ${wanted}`);
      }
      log.info(`Using gemini ${version} at ${bin}`);
    } else {
      const raw = values.prefix ?? toolkitToolCache(io.env);
      if (!raw) throw new UserError('no install location: pass --prefix <dir>');
      const prefix = resolve(io.cwd, raw);
      await assertWritable(prefix);
      bin = await installGemini({ version: wanted, cacheRoot: prefix, log, npm: values.npm });
    }

    const settingsPath = homeAt(home).settingsPath;
    await mergeSettings(settingsPath, OWNED_SETTINGS('oauth'));
    log.info(`Merged gemini-run settings into ${settingsPath}`);

    write(
      io.stdout,
      [
        "# Add to the runner's .env (in the runner directory), then restart the runner service:",
        `GEMINI_RUN_GEMINI_PATH=${bin}`,
        `GEMINI_RUN_HOST_HOME=${home}`,
        '# Then log in once as this user: gemini-run login' + (values.home ? ` --home ${home}` : ''),
        "# The action uses GEMINI_RUN_GEMINI_PATH when its 'gemini-path' input is empty, and the login in GEMINI_RUN_HOST_HOME",
        '# when no other Gemini auth input is set.',
      ].join('\n'),
    );
    // On stderr: stdout is the .env lines, which the README appends to the runner's .env as they are.
    write(io.stderr, nextSteps(io.env));
    return 0;
  },
};
