/**
 * What gemini-run leaves on a host, found and removed: for the demo's `--isolate`, which removes the agent users,
 * group and claims directory it created itself (a demo leaves nothing behind), and for `gemini-run doctor`, which
 * finds what a killed run left — a stale claim, a packet-filter chain of a uid no live run holds, processes of such
 * a uid, an ACL entry of an agent uid on a directory runs traverse — and removes it when asked.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { exec } from '../util/exec.js';
import { processStartTime } from '../util/process.js';
import { ancestorsOf, parseAcls } from './access.js';
import {
  AGENT_GROUP,
  AGENT_USER_PREFIX,
  CLAIMS_DIR,
  claimIsLive,
  existingAgentUsers,
  reapAgentUser,
  type AgentUser,
  type SwitchingPrivilege,
} from './agent-user.js';
import { removeChain, listChains } from './egress-filter.js';
import { pidsOfUid } from './procs.js';

/** The agent pool's footprint on the host now: which users exist, the group, the claims directory. */
export interface AgentHostState {
  users: string[];
  group: boolean;
  claimsDir: boolean;
}

async function groupExists(name: string): Promise<boolean> {
  const r = await exec('getent', ['group', name], { allowAllExitCodes: true }).catch(() => undefined);
  return r?.exitCode === 0;
}

async function groupMembers(name: string): Promise<string[]> {
  const r = await exec('getent', ['group', name], { allowAllExitCodes: true }).catch(() => undefined);
  const members = r?.exitCode === 0 ? (r.stdout.trim().split(':')[3] ?? '') : '';
  return members.split(',').filter(Boolean);
}

export async function agentHostState(): Promise<AgentHostState> {
  return {
    users: (await existingAgentUsers()).map((u) => u.name),
    group: await groupExists(AGENT_GROUP),
    claimsDir: existsSync(CLAIMS_DIR),
  };
}

function asRoot(privilege: SwitchingPrivilege, cmd: string[]): [string, string[]] {
  return privilege === 'root' ? [cmd[0] as string, cmd.slice(1)] : ['sudo', ['-n', ...cmd]];
}

/** Claims in the claims directory: which pool user, and whether a live process holds it. */
async function claims(): Promise<{ user: string; file: string; live: boolean }[]> {
  const names = await readdir(CLAIMS_DIR).catch(() => [] as string[]);
  const out = [];
  for (const name of names) {
    if (!name.startsWith(AGENT_USER_PREFIX) || !name.endsWith('.lock')) continue;
    const file = join(CLAIMS_DIR, name);
    const text = await readFile(file, 'utf8').catch(() => '');
    out.push({ user: name.slice(0, -'.lock'.length), file, live: claimIsLive(text, processStartTime) });
  }
  return out;
}

/**
 * Removes what the pool gained since `before`: the users created (none of whose processes or claims live on),
 * the group and the claims directory when they were new. Returns what it removed, for the demo to say.
 */
export async function removeCreatedSince(
  before: AgentHostState,
  privilege: SwitchingPrivilege,
): Promise<string[]> {
  const removed: string[] = [];
  const held = new Set((await claims()).filter((c) => c.live).map((c) => c.user));
  for (const user of await existingAgentUsers()) {
    if (before.users.includes(user.name) || held.has(user.name)) continue;
    await reapAgentUser(user, privilege);
    const [file, args] = asRoot(privilege, ['userdel', user.name]);
    const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs: 30_000 });
    if (r.exitCode === 0) removed.push(`user ${user.name}`);
  }
  // The group goes only when no user is left in it (another run may have made a pool user meanwhile).
  if (!before.group && (await groupExists(AGENT_GROUP)) && (await groupMembers(AGENT_GROUP)).length === 0) {
    const [file, args] = asRoot(privilege, ['groupdel', AGENT_GROUP]);
    if ((await exec(file, args, { allowAllExitCodes: true, timeoutMs: 30_000 })).exitCode === 0)
      removed.push(`group ${AGENT_GROUP}`);
  }
  if (!before.claimsDir && (await claims()).every((c) => !c.live)) {
    await rm(CLAIMS_DIR, { recursive: true, force: true }).catch(() => undefined);
    if (!existsSync(CLAIMS_DIR)) removed.push(CLAIMS_DIR);
  }
  return removed;
}

/** One thing a killed run left, with how to remove it. */
export interface Leftover {
  what: string;
  remove(): Promise<void>;
}

/** The directories runs open a traverse entry on: above the temp dir, the home, and where doctor runs. */
function traversedDirs(env: NodeJS.ProcessEnv, cwd: string): string[] {
  const roots = [tmpdir(), env.RUNNER_TEMP, env.HOME ?? homedir(), cwd].filter((d): d is string => !!d);
  return [...new Set(roots.flatMap((d) => [...ancestorsOf(join(d, 'x'))]))];
}

/** What killed runs left on this host: nothing of a live run is ever listed. */
export async function findLeftovers(o: {
  privilege: SwitchingPrivilege;
  env: NodeJS.ProcessEnv;
  cwd: string;
}): Promise<Leftover[]> {
  const found: Leftover[] = [];
  const all = await claims();
  const live = new Set(all.filter((c) => c.live).map((c) => c.user));
  for (const c of all.filter((x) => !x.live)) {
    found.push({ what: `stale claim ${c.file}`, remove: () => rm(c.file, { force: true }) });
  }
  const users = await existingAgentUsers();
  const idle = users.filter((u) => !live.has(u.name));
  for (const chain of await listChains(o.privilege)) {
    if (idle.some((u) => u.uid === chain.uid) || !users.some((u) => u.uid === chain.uid)) {
      found.push({
        what: `packet filter chain ${chain.chain} (${chain.family}, uid ${chain.uid})`,
        remove: () => removeChain(o.privilege, chain),
      });
    }
  }
  for (const user of idle) {
    const pids = await pidsOfUid(user.uid);
    if (pids.length > 0) {
      found.push({
        what: `${pids.length} process(es) of ${user.name} (uid ${user.uid}), which no run holds`,
        remove: async () => void (await reapAgentUser(user, o.privilege)),
      });
    }
  }
  found.push(...(await aclLeftovers(traversedDirs(o.env, o.cwd), idle, o.privilege)));
  return found;
}

async function aclLeftovers(
  dirs: string[],
  idle: AgentUser[],
  privilege: SwitchingPrivilege,
): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const dir of dirs) {
    const r = await exec('getfacl', ['--numeric', '--skip-base', '--absolute-names', dir], {
      allowAllExitCodes: true,
    }).catch(() => undefined);
    const entries = r?.exitCode === 0 ? (parseAcls(r.stdout).get(dir) ?? []) : [];
    for (const user of idle) {
      if (!entries.some((e) => e.startsWith(`user:${user.uid}:`))) continue;
      found.push({
        what: `ACL entry of ${user.name} (uid ${user.uid}) on ${dir}`,
        remove: async () => {
          const [file, args] = asRoot(privilege, ['setfacl', '-x', `u:${user.uid}`, dir]);
          await exec(file, args, { allowAllExitCodes: true });
        },
      });
    }
  }
  return found;
}
