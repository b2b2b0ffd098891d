/**
 * Preparing a self-hosted runner host for `isolation: user` (run as root, once): the pool of agent users, the
 * host-wide claims directory, and the narrowest sudoers rule that lets the runner user start processes as the
 * pool's users — and nothing else: no root, no other user.
 *
 * Where the rule goes: a drop-in file in /etc/sudoers.d when /etc/sudoers includes that directory; appended to
 * /etc/sudoers itself otherwise (the official runner image's one-line sudoers has no @includedir, so a
 * drop-in there would be silently ignored). Either way `visudo -c` must accept the result, or nothing changes.
 */
import { existsSync } from 'node:fs';
import { EGRESS_WRAPPER, installEgressWrapper } from './egress-wrapper.js';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { UserError } from '../util/errors.js';
import { exec } from '../util/exec.js';
import {
  AGENT_GROUP,
  CLAIMS_DIR,
  agentUserName,
  createAgentUser,
  lookupUser,
  type AgentUser,
} from './agent-user.js';

const BEGIN = '# BEGIN gemini-run agent isolation';
const END = '# END gemini-run agent isolation';
const SUDOERS_DROP_IN = '/etc/sudoers.d/gemini-run';

/** The rule block for one runner user. Pure; exported for tests. */
export function sudoersRule(runnerUser: string, egressWrapper?: string): string {
  if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(runnerUser)) {
    throw new UserError(
      `'${runnerUser}' is not a user name sudoers can carry: pass the runner's login name.`,
    );
  }
  return [
    BEGIN,
    `# ${runnerUser} may start processes as the agent users (group ${AGENT_GROUP}) and nothing else.`,
    `${runnerUser} ALL=(%${AGENT_GROUP}) NOPASSWD: ALL`,
    ...(egressWrapper
      ? [
          `# ... and the agents' packet filter through gemini-run's checked wrapper only (never iptables itself).`,
          `${runnerUser} ALL=(root) NOPASSWD: ${egressWrapper}`,
        ]
      : []),
    END,
    '',
  ].join('\n');
}

/** Whether a sudoers text reads /etc/sudoers.d (either spelling). Pure; exported for tests. */
export function includesDropIns(sudoers: string): boolean {
  return /^[@#]includedir\s+\/etc\/sudoers\.d\s*$/m.test(sudoers);
}

/** `sudoers` with our block replaced by `block` (or appended). Pure; exported for tests. */
export function withBlock(sudoers: string, block: string): string {
  const start = sudoers.indexOf(BEGIN);
  const end = sudoers.indexOf(END);
  if (start !== -1 && end > start) {
    return sudoers.slice(0, start) + block + sudoers.slice(end + END.length).replace(/^\n/, '');
  }
  return `${sudoers}${sudoers.endsWith('\n') || sudoers === '' ? '' : '\n'}${block}`;
}

async function visudoCheck(file: string): Promise<void> {
  const r = await exec('visudo', ['-c', '-f', file], { allowAllExitCodes: true });
  if (r.exitCode !== 0) {
    throw new UserError(`visudo rejects ${file}: ${(r.stdout + r.stderr).trim().split('\n')[0] ?? ''}`);
  }
}

/** Writes a sudoers file atomically, only after visudo accepted the new text. */
async function writeSudoers(path: string, text: string): Promise<void> {
  const tmp = `${path}.gemini-run.tmp`;
  await writeFile(tmp, text, { mode: 0o440 });
  await chmod(tmp, 0o440);
  await visudoCheck(tmp);
  await rename(tmp, path);
}

export interface HostSetupResult {
  users: AgentUser[];
  sudoersFile: string;
  /** The iptables wrapper written for `network: restricted`; undefined when the host has no iptables. */
  egressWrapper?: string;
}

export async function setupAgentHost(o: {
  agents: number;
  runnerUser: string;
  sudoers?: string;
}): Promise<HostSetupResult> {
  if (process.getuid?.() !== 0) {
    throw new UserError(
      "Preparing agent users needs root: run 'sudo gemini-run setup --agent-users <n> --runner-user <user>'.",
    );
  }
  if (!(await lookupUser(o.runnerUser)))
    throw new UserError(`There is no user '${o.runnerUser}' on this host.`);
  const users: AgentUser[] = [];
  for (let i = 1; i <= o.agents; i++) {
    users.push((await lookupUser(agentUserName(i))) ?? (await createAgentUser(agentUserName(i), 'root')));
  }
  await mkdir(CLAIMS_DIR, { recursive: true });
  await chmod(CLAIMS_DIR, 0o1777);

  // network: restricted needs iptables as root; the runner user gets it only through the checked wrapper.
  const wrapper = existsSync('/usr/sbin/iptables') ? EGRESS_WRAPPER : undefined;
  if (wrapper) await installEgressWrapper(users.map((u) => u.uid));
  const sudoersPath = o.sudoers ?? '/etc/sudoers';
  const main = await readFile(sudoersPath, 'utf8');
  const block = sudoersRule(o.runnerUser, wrapper);
  const done = { users, ...(wrapper ? { egressWrapper: wrapper } : {}) };
  if (includesDropIns(main)) {
    await writeSudoers(SUDOERS_DROP_IN, block);
    await visudoCheck(sudoersPath);
    return { ...done, sudoersFile: SUDOERS_DROP_IN };
  }
  await writeSudoers(sudoersPath, withBlock(main, block));
  return { ...done, sudoersFile: sudoersPath };
}
