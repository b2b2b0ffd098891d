/**
 * What the action may do to run the agent as another user:
 * - `root`: containers, this project's CI; it switches uid itself (setpriv) and creates the agent users;
 * - `sudo`: a GitHub-hosted runner (`runner` with passwordless sudo for everything);
 * - `agent-sudo`: a self-hosted runner prepared by `gemini-run setup`, whose sudoers rule lets the runner user
 *   start processes as the pool's users and nothing else;
 * - `none`: no way to switch users; the run refuses unless the workflow opts out with `isolation: none`.
 */
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

/** The one-line refusal when isolation is required and impossible; names the fixes. */
export const NO_ISOLATION_MESSAGE =
  "The agent cannot be isolated on this host: it is not root, has no passwordless sudo, and no agent user was set up. Run 'gemini-run setup' on a self-hosted runner, or set 'isolation: none' (unsafe: the agent can then read the GitHub token).";

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
