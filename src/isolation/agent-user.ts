/**
 * The agent's own unprivileged users: a small pool `gemini-agent-1..N`, each with its own private group and a
 * member of `gemini-agents` (the group the self-hosted sudoers rule names). One run holds one user at a time,
 * so two concurrent runs on a host never share a uid: neither can signal nor read the other's processes.
 *
 * Where they come from depends on what the action may do (see privilege.ts): as root or with full sudo they are
 * created on demand; with only the narrow rule `gemini-run setup` writes, they must already exist.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, lstat, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserError } from '../util/errors.js';
import { exec } from '../util/exec.js';
import { guardSignalTeardown, processStartTime } from '../util/process.js';
import { pidsOfUid } from './procs.js';

/** A privilege that can start processes as another user (see privilege.ts for what each means). */
export type SwitchingPrivilege = 'root' | 'sudo' | 'agent-sudo';

export const AGENT_USER_PREFIX = 'gemini-agent-';
export const AGENT_GROUP = 'gemini-agents';
/** Enough for the 8-run test with room; a host running more concurrent jobs than this is unusual. */
export const AGENT_POOL_SIZE = 16;

export interface AgentUser {
  name: string;
  uid: number;
  gid: number;
}

/** One `getent passwd` line → user; undefined for anything malformed. Exported for tests. */
export function parsePasswdLine(line: string): AgentUser | undefined {
  const f = line.trim().split(':');
  if (f.length < 7 || !/^\d+$/.test(f[2] ?? '') || !/^\d+$/.test(f[3] ?? '')) return undefined;
  return { name: f[0] as string, uid: Number(f[2]), gid: Number(f[3]) };
}

export function agentUserName(index: number): string {
  return `${AGENT_USER_PREFIX}${index}`;
}

export async function lookupUser(name: string): Promise<AgentUser | undefined> {
  const r = await exec('getent', ['passwd', name], { allowAllExitCodes: true }).catch(() => undefined);
  return r && r.exitCode === 0 ? parsePasswdLine(r.stdout) : undefined;
}

/** The pool users that exist on this host, in pool order. */
export async function existingAgentUsers(size = AGENT_POOL_SIZE): Promise<AgentUser[]> {
  const found = await Promise.all(Array.from({ length: size }, (_, i) => lookupUser(agentUserName(i + 1))));
  return found.filter((u): u is AgentUser => u !== undefined);
}

/** The commands that create pool user `name` (run as root, or through `sudo -n`). Exported for tests. */
export function createUserCommands(name: string): string[][] {
  return [
    ['groupadd', '--system', '-f', AGENT_GROUP],
    [
      'useradd',
      '--system',
      '--user-group',
      '--groups',
      AGENT_GROUP,
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/bin/sh',
      '--comment',
      'gemini-run agent',
      name,
    ],
  ];
}

export async function createAgentUser(name: string, privilege: 'root' | 'sudo'): Promise<AgentUser> {
  for (const cmd of createUserCommands(name)) {
    const [file, ...args] = privilege === 'root' ? cmd : ['sudo', '-n', ...cmd];
    const r = await exec(file as string, args, { allowAllExitCodes: true });
    // A concurrent run may have created it a moment ago (useradd exits 9: name in use).
    if (r.exitCode !== 0 && r.exitCode !== 9) {
      throw new UserError(
        `Could not create the agent user ${name} (${cmd[0]} exited ${r.exitCode}: ${r.stderr.trim().split('\n')[0] ?? ''}); set 'isolation: none' only if this host cannot have one.`,
      );
    }
  }
  const user = await lookupUser(name);
  if (!user) throw new UserError(`The agent user ${name} was created but cannot be looked up.`);
  return user;
}

/**
 * Claims are files `<claims dir>/<user>.lock` holding `<pid> <start time>` of the claiming process, created
 * exclusively; a claim whose process is gone is stale and taken over. One directory for the whole host, so
 * runner users of different uids never hand out the same agent: world-writable with the sticky bit, like /tmp,
 * so nobody removes another's claim — the agents included, who must not be able to free a live run's uid.
 */
export const CLAIMS_DIR = '/tmp/gemini-run-agent-claims';
/** flock(1) file that serialises ACL edits on directories concurrent runs share (access.ts). */
export const SHARED_ACL_LOCK = `${CLAIMS_DIR}/.acl.lock`;

async function ensureClaimsDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o1777 });
  let st = await lstat(dir);
  const uid = process.getuid?.() ?? 0;
  // mkdir's mode went through the umask; the creator sets it outright.
  if (st.isDirectory() && st.uid === uid && (st.mode & 0o7777) !== 0o1777) {
    await chmod(dir, 0o1777);
    st = await lstat(dir);
  }
  const unsafe = (st.mode & 0o002) !== 0 && (st.mode & 0o1000) === 0;
  if (!st.isDirectory() || (st.uid !== 0 && st.uid !== uid) || unsafe) {
    throw new UserError(
      `${dir} does not belong to root or to this user (or lacks the sticky bit): remove it and retry; it holds gemini-run's agent claims.`,
    );
  }
}

function claimText(): string {
  return `${process.pid} ${processStartTime(process.pid) ?? ''}\n`;
}

/** A claim's owner is alive when its pid runs with the same start time. Exported for tests. */
export function claimIsLive(text: string, startTimeOf: (pid: number) => string | undefined): boolean {
  const [pid, start] = text.trim().split(' ');
  if (!pid || !/^\d+$/.test(pid)) return false;
  const now = startTimeOf(Number(pid));
  return now !== undefined && (start === undefined || start === '' || now === start);
}

async function tryClaim(file: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fh = await open(file, 'wx', 0o600);
      await fh.writeFile(claimText());
      await fh.close();
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const text = await readFile(file, 'utf8').catch(() => '');
      if (claimIsLive(text, processStartTime)) return false;
      // Another uid's stale claim stays (the sticky bit keeps it theirs): that user is skipped.
      if (
        !(await rm(file, { force: true }).then(
          () => true,
          () => false,
        ))
      )
        return false;
    }
  }
  return false;
}

export interface ClaimedAgent {
  user: AgentUser;
  /** Gives the user back to the pool (after its processes were reaped). */
  release(): Promise<void>;
}

/**
 * Claims a pool user nobody else on this host holds and that runs no process (a leftover of a crashed run
 * would still run as it: the caller reaps before use, but a user with live processes and no claim is skipped
 * rather than trusted). Creates pool users on demand when the privilege allows it.
 */
export async function claimAgentUser(o: {
  privilege: SwitchingPrivilege;
  lockDir?: string;
  size?: number;
}): Promise<ClaimedAgent> {
  const lockDir = o.lockDir ?? CLAIMS_DIR;
  await ensureClaimsDir(lockDir);
  const size = o.size ?? AGENT_POOL_SIZE;
  for (let i = 1; i <= size; i++) {
    const name = agentUserName(i);
    let user = await lookupUser(name);
    if (!user && o.privilege === 'agent-sudo') continue;
    const file = join(lockDir, `${name}.lock`);
    if (!(await tryClaim(file))) continue;
    if (!user) {
      try {
        user = await createAgentUser(name, o.privilege as 'root' | 'sudo');
      } catch (e) {
        await rm(file, { force: true });
        throw e;
      }
    }
    if ((await pidsOfUid(user.uid)).length > 0) {
      await rm(file, { force: true });
      continue;
    }
    const claimed = user;
    // A run stopped by a signal gives its user back too: last, after its chain and ACLs are gone.
    const release = () => rm(file, { force: true });
    const unguard = guardSignalTeardown(release);
    return {
      user: claimed,
      release: async () => {
        unguard();
        await release();
      },
    };
  }
  throw new UserError(
    o.privilege === 'agent-sudo'
      ? `Every agent user of this host is busy or missing: run 'gemini-run setup --agents <n>' with a larger pool, or run fewer jobs at once.`
      : `All ${size} agent users of this host are busy: run fewer gemini-run jobs at once on this host.`,
  );
}

/** The argv prefix that runs a command as `user`: root switches itself; everyone else goes through sudo. */
export function runAsPrefix(user: AgentUser, privilege: SwitchingPrivilege): string[] {
  // no_new_privs: set-user-ID programs (sudo, su, a planted binary) cannot raise the agent back up.
  return privilege === 'root'
    ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--no-new-privs', '--']
    : ['sudo', '-n', '-u', user.name, '--', 'setpriv', '--no-new-privs', '--'];
}

/** Argv that sends SIGKILL to every process of the user (kill(-1) as that user: the kernel walks them all). */
export function reapArgv(user: AgentUser, privilege: SwitchingPrivilege): string[] {
  // The shell's own kill: procps' kill binary will not take -1 after a signal option.
  const kill = ['sh', '-c', 'kill -KILL -1'];
  return privilege === 'root'
    ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', ...kill]
    : ['sudo', '-n', '-u', user.name, '--', ...kill];
}

/**
 * Ends every process of the agent user and waits (bounded) until /proc shows none. Returns the survivors, which
 * should be none: a fork bomb racing kill(-1) is met by repeating it.
 */
export async function reapAgentUser(user: AgentUser, privilege: SwitchingPrivilege): Promise<number[]> {
  const [file, ...args] = reapArgv(user, privilege);
  for (let i = 0; i < 40; i++) {
    if ((await pidsOfUid(user.uid)).length === 0) return [];
    await exec(file as string, args, { allowAllExitCodes: true, timeoutMs: 10_000 }).catch(() => undefined);
    await sleep(i < 5 ? 20 : 100);
  }
  return pidsOfUid(user.uid);
}

/** The same, synchronously and unverified: for exit and signal handlers only. */
export function reapAgentUserSync(user: AgentUser, privilege: SwitchingPrivilege): void {
  const [file, ...args] = reapArgv(user, privilege);
  spawnSync(file as string, args, { stdio: 'ignore', timeout: 5000 });
}
