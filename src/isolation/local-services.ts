/**
 * Local services as a way out. The packet filter (egress-filter.ts) sees the IP packets of the agent's uid, but a
 * daemon that takes requests on a unix socket acts as itself: on Ubuntu runners systemd-resolved answers the
 * agent's lookups over its varlink socket and D-Bus and sends them out (DNS exfiltration), docker's and
 * containerd's sockets run containers with any network, nscd resolves names, snapd fetches from its store.
 *
 * So the agent's processes start in a mount namespace of their own in which every socket of the host it could
 * connect to is covered by /dev/null (a bind mount): connecting there is refused, whatever the socket's mode. The
 * namespace is made as root (the action's own rights, or its passwordless sudo) just before the switch to the
 * agent's uid with no_new_privs, so the agent can neither undo the mounts (they are locked into any namespace it
 * makes) nor change users back. The mounts live only as long as the agent's processes: nothing on the host changes,
 * nothing is left to clean up.
 *
 * The sockets are those the host has bound when the sandbox opens (/proc/net/unix) plus the well-known paths of
 * such services, checked again each time an agent process starts. Out of reach of this: abstract sockets (`@name`,
 * not files; only a network namespace of the agent's own would separate them), which are reported instead, and a
 * host where the action may not become root (the narrow sudoers rule of `gemini-run setup`, a container without
 * CAP_SYS_ADMIN), which is reported too.
 */
import { lstat, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { exec } from '../util/exec.js';
import type { AgentUser, SwitchingPrivilege } from './agent-user.js';

/** Sockets of services that act for their clients (resolvers, buses, container engines), wherever they exist. */
export const SERVICE_SOCKETS: readonly string[] = [
  '/run/systemd/resolve/io.systemd.Resolve',
  '/run/systemd/resolve/io.systemd.Resolve.Monitor',
  '/run/dbus/system_bus_socket',
  '/var/run/dbus/system_bus_socket',
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/containerd/containerd.sock',
  '/run/containerd/containerd.sock.ttrpc',
  '/run/buildkit/buildkitd.sock',
  '/run/podman/podman.sock',
  '/run/nscd/socket',
  '/var/run/nscd/socket',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/avahi-daemon/socket',
  '/run/cups/cups.sock',
];

/** Sockets covered at most; a host with more bound sockets than this is unusual (each costs a mount per start). */
const MAX_HIDDEN = 256;

/** The bound names in a /proc/net/unix listing: file paths and abstract names (`@…`), each once. Pure. */
export function boundSockets(listing: string): { paths: string[]; abstract: string[] } {
  const paths = new Set<string>();
  const abstract = new Set<string>();
  // Num RefCount Protocol Flags Type St Inode Path: the path is all that follows the seventh field.
  const row = /^\s*[0-9a-f]+:\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+ (.+)$/i;
  for (const line of listing.split('\n')) {
    const name = row.exec(line)?.[1];
    if (!name) continue;
    // An abstract name is shown with its NULs as `@`: Node (and others) bind the whole address, NUL-padded.
    if (name.startsWith('@')) abstract.add(`@${name.slice(1).replace(/@+$/, '')}`);
    else if (name.startsWith('/')) paths.add(name);
  }
  return { paths: [...paths], abstract: [...abstract] };
}

/**
 * Whether the agent (no owner of it, its groups not the socket's) could connect by the mode bits: its access is
 * at most the group class (named ACL entries are capped by the mask, shown there) or the other class. Pure.
 */
export function reachableByMode(socketMode: number, dirModes: readonly number[]): boolean {
  const canWrite = (socketMode & 0o022) !== 0;
  return canWrite && dirModes.every((m) => (m & 0o011) !== 0);
}

async function reachable(path: string): Promise<boolean> {
  try {
    const st = await lstat(path);
    if (!st.isSocket()) return false;
    const dirs: number[] = [];
    for (let d = dirname(path); ; d = dirname(d)) {
      dirs.push((await lstat(d)).mode);
      if (dirname(d) === d) break;
    }
    return reachableByMode(st.mode, dirs);
  } catch {
    return false;
  }
}

function inside(path: string, tree: string): boolean {
  const rel = relative(resolve(tree), path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** What this host has for the agent to reach: sockets to cover, and the abstract ones nobody can cover here. */
async function localSockets(o: {
  trees: readonly string[];
}): Promise<{ paths: string[]; abstract: string[] }> {
  const listing = await readFile('/proc/net/unix', 'utf8').catch(() => '');
  const bound = boundSockets(listing);
  const candidates = [...new Set([...SERVICE_SOCKETS, ...bound.paths])].filter(
    (p) => !o.trees.some((t) => inside(p, t)),
  );
  const paths = new Set<string>();
  for (const p of candidates) {
    // One socket by two names (/var/run is /run): covered once, under its own.
    const real = await realpath(dirname(p)).then(
      (d) => join(d, basename(p)),
      () => undefined,
    );
    if (real !== undefined && !paths.has(real) && (await reachable(real))) paths.add(real);
  }
  return { paths: [...paths].slice(0, MAX_HIDDEN), abstract: bound.abstract };
}

/**
 * Covers each socket named before `--` that still is one (a socket gone since needs no cover), then runs the rest.
 * Run as root in a fresh mount namespace; a cover that fails ends it (125) rather than start the agent uncovered.
 */
const COVER_SCRIPT = [
  'PATH=/usr/sbin:/usr/bin:/sbin:/bin',
  'while [ "$#" -gt 0 ] && [ "$1" != -- ]; do',
  '  if [ -S "$1" ] && ! mount --bind /dev/null "$1" && [ -S "$1" ]; then',
  '    echo "gemini-run: could not hide $1 from the agent" >&2; exit 125',
  '  fi',
  '  shift',
  'done',
  '[ "$#" -gt 0 ] && shift',
  'exec "$@"',
].join('\n');

/**
 * The argv prefix that starts a program as the agent in its own mount namespace with `sockets` covered. Root
 * switches itself (setpriv); with full sudo, sudo makes the namespace as root and setpriv switches (the agent's
 * groups as sudo -u would give them). Pure; exported for tests.
 */
export function coveredRunAs(
  user: AgentUser,
  privilege: Exclude<SwitchingPrivilege, 'agent-sudo'>,
  sockets: readonly string[],
): string[] {
  const groups = privilege === 'root' ? '--clear-groups' : '--init-groups';
  return [
    ...(privilege === 'sudo' ? ['sudo', '-n'] : []),
    'unshare',
    '--mount',
    '--propagation',
    'private',
    '--',
    'sh',
    '-c',
    COVER_SCRIPT,
    'gemini-run-cover',
    ...sockets,
    '--',
    'setpriv',
    `--reuid=${user.uid}`,
    `--regid=${user.gid}`,
    groups,
    '--no-new-privs',
    '--',
  ];
}

/** What became of the host's local services for one sandbox (the log, the job summary, doctor). */
export interface LocalServices {
  /** Sockets covered in the agent's mount namespace. */
  hidden: string[];
  /** Sockets the agent can still reach (when covering was impossible here). */
  reachable: string[];
  /** Why nothing could be covered here, in a few words; undefined when covering works. */
  unavailable?: string;
  /** Abstract sockets bound on this host: the agent can reach them. */
  abstract: string[];
}

/**
 * Decides how the agent's processes start: in a mount namespace with the host's reachable sockets covered when the
 * privilege allows it and a trial start shows it works, else with `plain` (and why not). Never throws.
 */
export async function shieldLocalServices(o: {
  user: AgentUser;
  privilege: SwitchingPrivilege;
  trees: readonly string[];
  plain: string[];
}): Promise<{ runAs: string[]; services: LocalServices }> {
  const { paths, abstract } = await localSockets({ trees: o.trees });
  const uncovered = (why: string) => ({
    runAs: o.plain,
    services: { hidden: [], reachable: paths, unavailable: why, abstract },
  });
  if (o.privilege === 'agent-sudo') {
    return uncovered(
      "the runner may start the agent's user but not become root (the sudoers rule of 'gemini-run setup')",
    );
  }
  const runAs = coveredRunAs(o.user, o.privilege, paths);
  // The trial: the namespace can be made, the covers go on, and the agent finds the first socket covered.
  const check = paths[0] === undefined ? ['true'] : ['sh', '-c', '! test -S "$1"', 'sh', paths[0]];
  const [file, ...args] = [...runAs, ...check] as [string, ...string[]];
  const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs: 30_000, input: '' }).catch(
    (e: unknown) => ({ exitCode: 127, stderr: (e as Error).message }),
  );
  if (r.exitCode !== 0) {
    const why = r.stderr.trim().split('\n')[0]?.slice(0, 200) || `exit ${r.exitCode}`;
    return uncovered(`no mount namespace for the agent here (${why})`);
  }
  return { runAs, services: { hidden: paths, reachable: [], abstract } };
}

/** Whether a mount namespace with a cover in it can be made with this privilege; why not otherwise. */
async function canCover(privilege: SwitchingPrivilege): Promise<string | undefined> {
  if (privilege === 'agent-sudo') return 'the runner may start the agent user but not become root';
  const argv = [
    ...(privilege === 'sudo' ? ['sudo', '-n'] : []),
    ...['unshare', '--mount', '--propagation', 'private', '--', 'mount', '--bind', '/dev/null', '/dev/null'],
  ];
  const [file, ...args] = argv as [string, ...string[]];
  const r = await exec(file, args, { allowAllExitCodes: true, timeoutMs: 10_000, input: '' }).catch(
    (e: unknown) => ({ exitCode: 127, stderr: (e as Error).message }),
  );
  return r.exitCode === 0 ? undefined : r.stderr.trim().split('\n')[0]?.slice(0, 200) || `exit ${r.exitCode}`;
}

/** For `gemini-run doctor`: whether this host's local services would be hidden from the agent. */
export async function localServicesCheck(privilege: SwitchingPrivilege | 'none'): Promise<{
  name: string;
  status: 'ok' | 'warn';
  detail: string;
  fix?: string;
}> {
  const name = 'local services';
  const { paths, abstract } = await localSockets({ trees: [] });
  const names = (list: readonly string[]) =>
    list.length === 0 ? '' : ` (${list.slice(0, 4).join(', ')}${list.length > 4 ? ', …' : ''})`;
  const why = privilege === 'none' ? 'no agent user (see agent isolation)' : await canCover(privilege);
  if (why !== undefined && paths.length > 0) {
    return {
      name,
      status: 'warn',
      detail: `the agent could reach ${paths.length} local service socket(s)${names(paths)}: ${why}; a daemon behind one (systemd-resolved, D-Bus, docker) can make network requests for it that the packet filter does not see`,
      fix: 'run the runner as root or with passwordless sudo (a container also needs CAP_SYS_ADMIN)',
    };
  }
  const hidden =
    paths.length === 0
      ? 'no local service socket on this host for the agent to reach'
      : `${paths.length} local service socket(s)${names(paths)} hidden from the agent in a mount namespace of its own`;
  if (abstract.length > 0) {
    return {
      name,
      status: 'warn',
      detail: `${hidden}; ${abstract.length} abstract socket(s)${names(abstract)} stay within its reach (they are not files)`,
      fix: 'stop the services that bind abstract sockets on a runner host, or accept that the agent can reach them',
    };
  }
  return { name, status: 'ok', detail: hidden };
}
