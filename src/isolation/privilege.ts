/**
 * What the action may do to run the agent as another user:
 * - `root`: containers, this project's CI; it switches uid itself (setpriv) and creates the agent users;
 * - `sudo`: a GitHub-hosted runner (`runner` with passwordless sudo for everything);
 * - `agent-sudo`: a self-hosted runner prepared by `gemini-run setup`, whose sudoers rule lets the runner user
 *   start processes as the pool's users and nothing else;
 * - `none`: no way to switch users; the run refuses unless the workflow opts out with `isolation: none`.
 */
import { userInfo } from 'node:os';
import { exec } from '../util/exec.js';
import { existingAgentUsers, type SwitchingPrivilege } from './agent-user.js';

export type Privilege = SwitchingPrivilege | 'none';

async function succeeds(file: string, args: string[]): Promise<boolean> {
  const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs: 10_000, input: '' }).catch(
    () => undefined,
  );
  return r?.exitCode === 0;
}

export async function detectPrivilege(): Promise<Privilege> {
  if (process.getuid?.() === 0) return 'root';
  if (await succeeds('sudo', ['-n', 'true'])) return 'sudo';
  const pool = await existingAgentUsers();
  const first = pool[0];
  if (first && (await succeeds('sudo', ['-n', '-u', first.name, '--', 'true']))) return 'agent-sudo';
  return 'none';
}

/** The unsafe way out, whole: `isolation: none` alone fails on the default `network: restricted`. */
export const UNSAFE_WITHOUT_ISOLATION =
  "or, unsafe (the agent can then read the GitHub token), set both 'isolation: none' and 'network: open'";

/**
 * The one-line refusal when isolation is required and impossible, with the whole command that fixes it: the
 * host step makes the agent users and grants the runner user (who runs this) the rights it needs, the packet
 * filter of `network: restricted` included; plain 'gemini-run setup' would only install gemini.
 */
export function noIsolationMessage(runnerUser = currentUserName()): string {
  return `The agent cannot be isolated on this host: it is not root, has no passwordless sudo, and no agent user was set up. Once, as root: 'sudo gemini-run setup --agent-users 4 --runner-user ${runnerUser}', then re-run; ${UNSAFE_WITHOUT_ISOLATION}.`;
}

function currentUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER || '<runner user>';
  }
}

/**
 * Whether `isolation: user` can work here, and if not, why (for the demo, which falls back to `none`: it holds
 * no real secret). Checks the privilege and the ACL tool the sandbox needs.
 */
export async function isolationAvailability(): Promise<{ privilege: Privilege; missing?: string }> {
  const privilege = await detectPrivilege();
  if (privilege === 'none') return { privilege, missing: 'not root, no passwordless sudo, no agent user' };
  if (!(await succeeds('setfacl', ['--version'])))
    return { privilege, missing: "no 'setfacl' (package acl)" };
  return { privilege };
}
