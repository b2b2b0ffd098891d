/**
 * File access between the action's user and the agent's, with POSIX ACLs: the worktree and the agent's own
 * directory get entries for the agent's uid (and default entries, so what the agent creates stays open to the
 * action); the directories above them get a traverse-only entry where the agent could not pass. Nothing else of
 * the action's becomes readable: its run dir and the credential stash stay 0700 without entries.
 *
 * After the run the action takes its files back (ownership where it may chown, ACL entries otherwise) and
 * removes every entry it added, so a later `actions/checkout` or `git` step of the job works as before.
 */
import { constants as fsConstants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import { exec, type ExecResult } from '../util/exec.js';
import { guardHostChange } from '../util/process.js';
import { SHARED_ACL_LOCK, type AgentUser } from './agent-user.js';
import type { Privilege } from './privilege.js';

type Able = Exclude<Privilege, 'none'>;

/** The ACL spec that opens a tree to the agent, and keeps what the agent creates open to the action. */
export function treeAclSpec(agentUid: number, selfUid: number): string {
  const entries = [`u:${agentUid}:rwX`, `d:u:${agentUid}:rwX`];
  // Root passes every permission check; a non-root action needs its own default entry for the agent's files.
  if (selfUid !== 0) entries.push(`u:${selfUid}:rwX`, `d:u:${selfUid}:rwX`);
  return entries.join(',');
}

/** Every proper ancestor of `path`, from the root down. Exported for tests. */
export function ancestorsOf(path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    out.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  return out;
}

/** What to do about one directory above a path the agent needs. Pure; exported for tests. */
export function traverseDecision(
  st: { uid: number; mode: number },
  selfUid: number,
): 'ok' | 'grant' | 'blocked' {
  if ((st.mode & 0o001) !== 0) return 'ok';
  if (selfUid === 0 || st.uid === selfUid) return 'grant';
  return 'blocked';
}

/**
 * Directories above the workspace are shared by concurrent runs, and setfacl rewrites a file's whole ACL: two runs
 * adding (or removing) their entries at once can each drop the other's, leaving an agent unable to reach its own
 * gemini. Their edits go through one host-wide flock(1). The lock file is private to whoever made it, so an agent
 * cannot take the lock to stall other runs; a runner that cannot open it edits unlocked, as before.
 */
async function sharedAclLock(): Promise<string | undefined> {
  try {
    const fh = await open(
      SHARED_ACL_LOCK,
      fsConstants.O_RDONLY | fsConstants.O_CREAT | fsConstants.O_NOFOLLOW,
      0o600,
    );
    await fh.close();
    return SHARED_ACL_LOCK;
  } catch {
    return undefined;
  }
}

async function setfaclShared(args: string[], allowFailure = false): Promise<ExecResult> {
  const lock = await sharedAclLock();
  return lock ? setfacl(args, allowFailure, ['flock', '-w', '60', lock]) : setfacl(args, allowFailure);
}

async function setfacl(args: string[], allowFailure = false, prefix: string[] = []): Promise<ExecResult> {
  const [file, ...rest] = [...prefix, 'setfacl', ...args] as [string, ...string[]];
  const r = await exec(file, rest, { allowAllExitCodes: true, timeoutMs: 120_000 }).catch((e: unknown) => {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new UserError(
        "Isolating the agent needs 'setfacl' (package acl): install it (sudo apt-get install -y acl), or set 'isolation: none' (unsafe).",
      );
    }
    throw e;
  });
  if (r.exitCode !== 0 && !allowFailure) {
    throw new UserError(
      `Could not give the agent user access (setfacl: ${r.stderr.trim().split('\n')[0] ?? r.exitCode}): the filesystem may not support ACLs; set 'isolation: none' to run without (unsafe).`,
    );
  }
  return r;
}

/** Opens one tree (again: a chmod after the grant narrows the ACL mask, so callers re-open what they changed). */
export async function openTree(tree: string, spec: string): Promise<void> {
  // -P: never follow a symlink out of the tree (a reused workspace may hold one an earlier agent planted).
  await setfacl(['-R', '-P', '-m', spec, tree]);
}

async function agentCanTraverse(user: AgentUser, privilege: Able, dir: string): Promise<boolean> {
  if (privilege === 'root') return false;
  const r = await exec('sudo', ['-n', '-u', user.name, '--', 'test', '-x', dir], {
    allowAllExitCodes: true,
    timeoutMs: 10_000,
  }).catch(() => undefined);
  return r?.exitCode === 0;
}

/** Removes the agent's ACL entries from a tree (best effort: files the action cannot change keep theirs). */
export async function removeAgentEntries(tree: string, user: AgentUser): Promise<void> {
  await setfacl(['-R', '-P', '-x', `u:${user.uid},d:u:${user.uid}`, tree], true);
  await dropBareAcls(tree, true, false);
}

/**
 * The files at `path` (and under it, with `recursive`, never through a symlink) that have an ACL, each with its
 * entries beyond the mode bits. From `getfacl --skip-base`, whose `# file:` lines escape odd characters in octal.
 * Pure parse exported for tests.
 */
export function parseAcls(listing: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let file: string | undefined;
  for (const line of listing.split('\n')) {
    const header = /^# file: (.*)$/.exec(line);
    if (header) {
      file = (header[1] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) =>
        String.fromCharCode(parseInt(o, 8)),
      );
      out.set(file, []);
    } else if (file !== undefined && line && !line.startsWith('#') && !/^(user|group|other)::/.test(line)) {
      out.get(file)?.push(line.trim());
    }
  }
  return out;
}

async function aclsOf(path: string, recursive = false): Promise<Map<string, string[]>> {
  const args = [...(recursive ? ['-R', '--physical'] : []), '--skip-base', '--absolute-names', path];
  const r = await exec('getfacl', args, { allowAllExitCodes: true, timeoutMs: 120_000 }).catch(
    () => undefined,
  );
  return r?.exitCode === 0 ? parseAcls(r.stdout) : new Map<string, string[]>();
}

/** What setfacl leaves once the named entries it was given are removed: the mask and the default base entries. */
const LEFTOVER = /^(mask::|default:(user|group|mask|other)::)/;

/**
 * Removes the ACLs left with nothing but what setfacl added around our entries (`mask::---` on a 0700 directory,
 * the default base entries of the worktree's directories): a file that had no ACL before gets none back. An ACL
 * that still names anyone is someone else's and stays.
 */
async function dropBareAcls(path: string, recursive: boolean, shared: boolean): Promise<void> {
  const bare = [...(await aclsOf(path, recursive))]
    .filter(([, entries]) => entries.every((e) => LEFTOVER.test(e)))
    .map(([file]) => file);
  for (let i = 0; i < bare.length; i += 200) {
    const args = ['-b', '--', ...bare.slice(i, i + 200)];
    await (shared ? setfaclShared(args, true) : setfacl(args, true));
  }
}

export interface AccessGrant {
  /** Takes the action's files back from the agent and removes every entry added. Idempotent. */
  revoke(): Promise<void>;
}

/**
 * Opens `trees` (the worktree, the agent's directory) to the agent and makes `reach` (its node binary, the
 * gemini bundle) reachable. Throws a UserError when a path cannot be opened.
 */
export async function grantAgentAccess(o: {
  user: AgentUser;
  privilege: Able;
  trees: string[];
  reach: string[];
}): Promise<AccessGrant> {
  const selfUid = process.getuid?.() ?? 0;
  const selfGid = process.getgid?.() ?? 0;
  const spec = treeAclSpec(o.user.uid, selfUid);
  const traversed: { dir: string; hadAcl: boolean }[] = [];
  let revoked: Promise<void> | undefined;
  const revoke = async (): Promise<void> => {
    for (const tree of o.trees) await takeBack(tree, o.user, o.privilege, selfUid, selfGid);
    for (const tree of o.trees) await removeAgentEntries(tree, o.user);
    for (const { dir, hadAcl } of traversed.splice(0)) {
      await setfaclShared(['-x', `u:${o.user.uid}`, dir], true);
      if (!hadAcl) await dropBareAcls(dir, false, true);
    }
  };
  const revokeOnce = () => (revoked ??= revoke());
  // A run stopped by a signal takes its files and entries back as well (process.ts runs this before it ends), once
  // the entry being added is in: one added after the revoke would stay.
  const { made, unguard } = guardHostChange(async (step) => {
    const seen = new Set<string>();
    for (const path of [...o.trees, ...o.reach]) {
      for (const dir of ancestorsOf(path)) {
        if (seen.has(dir)) continue;
        seen.add(dir);
        const st = await lstat(dir);
        const d = traverseDecision(st, selfUid);
        // The mode bits do not show ACL entries someone else gave: the agent's own try is the answer.
        if (d === 'blocked' && !(await agentCanTraverse(o.user, o.privilege, dir))) {
          throw new UserError(
            `The agent user cannot reach ${path}: ${dir} is closed to other users and not ours to open. Move the workspace, or set 'isolation: none' (unsafe).`,
          );
        }
        if (d === 'grant') {
          const hadAcl = (await aclsOf(dir)).size > 0;
          step();
          traversed.push({ dir, hadAcl });
          await setfaclShared(['-m', `u:${o.user.uid}:x`, dir]);
        }
      }
    }
    for (const tree of o.trees) {
      step();
      await openTree(tree, spec);
    }
  }, revokeOnce);
  const grant: AccessGrant = {
    revoke: () => {
      unguard();
      return revokeOnce();
    },
  };
  try {
    await made;
    return grant;
  } catch (e) {
    await grant.revoke().catch(() => undefined);
    throw e;
  }
}

/**
 * The agent's files in `tree` become the action's again. Root and full sudo chown them (never following a
 * symlink the agent planted); with only the narrow rule the agent itself opens them to the action.
 */
export async function takeBack(
  tree: string,
  user: AgentUser,
  privilege: Able,
  selfUid = process.getuid?.() ?? 0,
  selfGid = process.getgid?.() ?? 0,
): Promise<void> {
  const chown = ['chown', '-R', '-h', `--from=${user.uid}`, `${selfUid}:${selfGid}`, tree];
  if (privilege === 'root') {
    await exec(chown[0] as string, chown.slice(1), { allowAllExitCodes: true, timeoutMs: 120_000 });
  } else if (privilege === 'sudo') {
    await exec('sudo', ['-n', ...chown], { allowAllExitCodes: true, timeoutMs: 120_000 });
  } else {
    const open = `u:${selfUid}:rwX,d:u:${selfUid}:rwX`;
    await exec(
      'sudo',
      [
        '-n',
        '-u',
        user.name,
        '--',
        'find',
        tree,
        '-user',
        String(user.uid),
        '-exec',
        'setfacl',
        '-m',
        open,
        '{}',
        '+',
      ],
      { allowAllExitCodes: true, timeoutMs: 120_000 },
    );
  }
}
