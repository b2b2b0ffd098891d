/**
 * One run's agent sandbox: a claimed agent user, its own directory (Gemini home, TMPDIR, telemetry), ACL access
 * to the worktree, and the means to start processes as that user and to end all of them. The caller (the action,
 * the CLI) owns its lifetime; the engine only runs the agent in it.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { guardSignalTeardown, processStartTime } from '../util/process.js';
import { join } from 'node:path';
import { getErrorMessage, UserError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { z } from 'zod';
import {
  grantAgentAccess,
  openTree,
  removeAgentEntries,
  takeBack,
  treeAclSpec,
  type AccessGrant,
} from './access.js';
import {
  AGENT_USER_PREFIX,
  claimAgentUser,
  claimIsLive,
  CLAIMS_DIR,
  reapAgentUser,
  reapAgentUserSync,
  runAsPrefix,
  type AgentUser,
} from './agent-user.js';
import { detectPrivilege, noIsolationMessage, type Privilege } from './privilege.js';
import { shieldLocalServices, type LocalServices } from './local-services.js';
import { neutralize } from '../util/untrusted-text.js';

export type IsolationMode = 'user' | 'none';

export interface AgentSandbox {
  readonly user: AgentUser;
  readonly privilege: Exclude<Privilege, 'none'>;
  /** The agent's own directory: everything gemini writes outside the worktree goes here. */
  readonly dir: string;
  /** Argv prefix that starts a program as the agent user (in its mount namespace, where it can have one). */
  readonly runAs: string[];
  /** The host's local services' sockets: hidden from the agent, or why not (local-services.ts). */
  readonly localServices: LocalServices;
  /** Re-opens the agent's directory after the engine wrote into it (home, context, restored transcript). */
  admit(): Promise<void>;
  /** Ends every process of the agent user and gives the action its files back. Returns survivors (none). */
  settle(): Promise<number[]>;
  /** For exit and signal handlers: SIGKILL to every process of the agent user, synchronously. */
  reapSync(): void;
  /** settle, remove the agent's directory and every ACL entry, release the user. Idempotent. */
  close(): Promise<void>;
}

/** What the post step needs to finish a sandbox whose main step died. Not secret. */
export const sandboxStateSchema = z.object({
  user: z.object({
    name: z.string().startsWith(AGENT_USER_PREFIX),
    uid: z.number().int().positive(),
    gid: z.number().int(),
  }),
  privilege: z.enum(['root', 'sudo', 'agent-sudo']),
  dir: z.string(),
  worktree: z.string(),
});
export type SandboxState = z.infer<typeof sandboxStateSchema>;

export async function openSandbox(o: {
  /** Where the agent's directory is made (the runner temp). */
  parentDir: string;
  worktree: string;
  /** Files the agent must be able to reach: the node binary, the gemini bundle. */
  reach: string[];
  log: Logger;
  privilege?: Privilege;
}): Promise<AgentSandbox> {
  const privilege = o.privilege ?? (await detectPrivilege());
  if (privilege === 'none') throw new UserError(noIsolationMessage());
  const claimed = await claimAgentUser({ privilege });
  const { user } = claimed;
  let dir: string | undefined;
  let grant: AccessGrant | undefined;
  try {
    dir = await mkdtemp(join(o.parentDir, 'gemini-agent-'));
    await mkdir(join(dir, 'tmp'), { mode: 0o700 });
    grant = await grantAgentAccess({ user, privilege, trees: [o.worktree, dir], reach: o.reach });
  } catch (e) {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    await claimed.release();
    throw e;
  }
  const agentDir = dir;
  const access = grant;
  o.log.info(`The agent runs as ${user.name} (uid ${user.uid}; ${describe(privilege)})`);
  const shield = await shieldLocalServices({
    user,
    privilege,
    trees: [o.worktree, agentDir],
    plain: runAsPrefix(user, privilege),
  });
  logLocalServices(shield.services, o.log);
  const settle = async (): Promise<number[]> => {
    const survivors = await reapAgentUser(user, privilege);
    if (survivors.length > 0) o.log.warning(`processes of ${user.name} survived: ${survivors.join(', ')}`);
    await access.revoke().catch((e: unknown) => o.log.warning(`taking files back: ${getErrorMessage(e)}`));
    return survivors;
  };
  const closeOnce = async (): Promise<void> => {
    await settle();
    await rm(agentDir, { recursive: true, force: true }).catch((e: unknown) =>
      o.log.warning(`removing ${agentDir}: ${getErrorMessage(e)}`),
    );
    await claimed.release();
  };
  let closing: Promise<void> | undefined;
  // Stopped by a signal, the run closes its sandbox all the same (the agent's processes were killed first).
  const unguard = guardSignalTeardown(() => (closing ??= closeOnce()));
  return {
    user,
    privilege,
    dir: agentDir,
    runAs: shield.runAs,
    localServices: shield.services,
    admit: () => openTree(agentDir, treeAclSpec(user.uid, process.getuid?.() ?? 0)),
    settle,
    reapSync: () => reapAgentUserSync(user, privilege),
    // Idempotent, and a second close waits for the first: a signal's teardown and the run's own may meet.
    close: () => {
      unguard();
      return (closing ??= closeOnce());
    },
  };
}

/** Names shown in one log line at most. */
const SHOWN = 8;

function logLocalServices(s: LocalServices, log: Logger): void {
  const list = (names: readonly string[]) =>
    `${names
      .slice(0, SHOWN)
      .map((n) => neutralize(n, 200))
      .join(', ')}${names.length > SHOWN ? ` and ${names.length - SHOWN} more` : ''}`;
  if (s.unavailable === undefined) {
    log.info(
      s.hidden.length > 0
        ? `The agent's processes run in a mount namespace of their own with ${s.hidden.length} local service socket(s) hidden: ${list(s.hidden)}`
        : "The agent's processes run in a mount namespace of their own (this host has no local service socket to hide)",
    );
  } else if (s.reachable.length > 0) {
    log.warning(
      `The agent can reach ${s.reachable.length} local service socket(s) (${list(s.reachable)}): ${s.unavailable}. A daemon behind one can make network requests for it that the packet filter does not see.`,
    );
  }
  if (s.abstract.length > 0) {
    log.warning(
      `${s.abstract.length} abstract unix socket(s) are bound on this host and stay within the agent's reach (they are not files a mount namespace can hide): ${list(s.abstract)}`,
    );
  }
}

function describe(p: Exclude<Privilege, 'none'>): string {
  return p === 'root'
    ? 'switched by root'
    : p === 'sudo'
      ? 'through passwordless sudo'
      : "through the sudoers rule of 'gemini-run setup'";
}

/** Post step: a sandbox the main step could not close (it died, or was cancelled). Never throws. */
export async function closeSandboxFromState(raw: string, log: Logger): Promise<void> {
  let state: SandboxState;
  try {
    state = sandboxStateSchema.parse(JSON.parse(raw));
  } catch {
    log.warning('The saved agent sandbox state is unreadable; nothing to stop.');
    return;
  }
  const { user, privilege } = state;
  const claim = join(CLAIMS_DIR, `${user.name}.lock`);
  // Released and claimed since by another run on this host: its processes are not ours to end.
  if (claimIsLive(await readFile(claim, 'utf8').catch(() => ''), processStartTime)) {
    log.info(`${user.name} now belongs to another run; nothing of this run is left to stop.`);
    return;
  }
  const survivors = await reapAgentUser(user, privilege).catch(() => [] as number[]);
  if (survivors.length > 0) log.warning(`processes of ${user.name} survived: ${survivors.join(', ')}`);
  else log.info(`No process of ${user.name} is left.`);
  for (const tree of [state.dir, state.worktree]) {
    await takeBack(tree, user, privilege).catch(() => undefined);
  }
  await removeAgentEntries(state.worktree, user).catch(() => undefined);
  await rm(state.dir, { recursive: true, force: true }).catch(() => undefined);
  await rm(claim, { force: true });
}
