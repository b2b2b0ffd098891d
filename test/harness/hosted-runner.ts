/**
 * A GitHub-hosted runner's user for end-to-end tests that run the action as someone other than root: a user with
 * passwordless sudo for everything, able to reach this checkout (traverse entries, taken back by `release`), owning
 * the world's files. Only root can set it up.
 */
import { dirname } from 'node:path';
import { lookupUser } from '../../src/isolation/agent-user.js';
import { exec } from '../../src/util/exec.js';
import { ROOT, type ActionWorld } from './action-job.js';
import { letReach } from './reach.js';

export interface RunnerUser {
  uid: number;
  gid: number;
  home: string;
}

export async function ensureUser(name: string): Promise<RunnerUser> {
  if (!(await lookupUser(name))) await exec('useradd', ['--create-home', '--shell', '/bin/bash', name]);
  const u = await lookupUser(name);
  if (!u) throw new Error(`could not create ${name}`);
  return { uid: u.uid, gid: u.gid, home: `/home/${name}` };
}

/** Makes the hosted runner's user and gives it the world; `release` takes its traverse entries back. */
export async function hostedRunner(
  world: ActionWorld,
): Promise<{ user: RunnerUser; release: () => Promise<void> }> {
  const name = 'gemini-run-hosted';
  const user = await ensureUser(name);
  await exec('sh', [
    '-c',
    `echo '${name} ALL=(ALL:ALL) NOPASSWD:ALL' > /etc/sudoers.d/gemini-run-hosted && chmod 0440 /etc/sudoers.d/gemini-run-hosted`,
  ]);
  // The agent users are started through sudo, which gives them their groups (gemini-agents among them).
  await exec('groupadd', ['--system', '-f', 'gemini-agents']);
  const release = await letReach([`u:${user.uid}`, 'g:gemini-agents'], ROOT);
  for (const dir of [world.tmp, dirname(world.repo.dir), dirname(world.repo.originDir)]) {
    await exec('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
  }
  return { user, release };
}

/**
 * Who runs the step and how gemini runs: every attacker e2e runs the whole square, as root and as a hosted runner's
 * user (passwordless sudo), each in both modes. The two differ in how the agent's user is switched to (root's
 * setpriv, sudo's) and how gemini is started (a tmux server, a child process), and an attack may depend on either.
 */
export const HOSTS_AND_MODES = [
  ['root', 'interactive'],
  ['root', 'headless'],
  ['hosted', 'interactive'],
  ['hosted', 'headless'],
] as const;

export function hostLabel(host: 'root' | 'hosted'): string {
  return host === 'root' ? 'as root' : 'as a hosted runner (passwordless sudo)';
}
