/**
 * The one root program a self-hosted runner user may run for `network: restricted`: a shell script that runs
 * iptables/ip6tables with exactly the argument lists egress-filter.ts makes, for the agent users' uids and their
 * `GEMINI-RUN-<uid>-<hex>` chains, and refuses anything else. Sudoers grants this file, never iptables itself:
 * `iptables --modprobe=<program>` runs any program as root, so a rule for iptables is a rule for root.
 *
 * Every argument must be made of `[A-Za-z0-9.-]` (no `=`, no `/`, no space; the accounting rule's one mode list
 * `dstip,dstport,srcport` is the single exception), and each list is matched token by token against the shapes
 * below, so no option can be slipped in between. `gemini-run setup --agent-users`
 * writes it (root-owned, 0755) with the agent users' uids baked in.
 */
import { lstat, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export const EGRESS_WRAPPER = '/usr/local/libexec/gemini-run/iptables';

/** The script for these agent uids. Pure; exported for tests (which point `bins` at a recorder). */
export function egressWrapperScript(
  uids: readonly number[],
  bins: { iptables: string; ip6tables: string } = {
    iptables: '/usr/sbin/iptables',
    ip6tables: '/usr/sbin/ip6tables',
  },
): string {
  for (const uid of uids) if (!Number.isInteger(uid) || uid <= 0) throw new Error(`not an agent uid: ${uid}`);
  for (const bin of Object.values(bins))
    if (!/^\/[A-Za-z0-9._/-]+$/.test(bin)) throw new Error(`not a path: ${bin}`);
  return `#!/bin/sh
# gemini-run: the only iptables operations the runner user may run as root (network: restricted). Written by
# 'gemini-run setup --agent-users'; sudoers grants this file, not iptables (iptables --modprobe runs any program).
set -u
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
UIDS=' ${uids.join(' ')} '
no() { echo "gemini-run iptables wrapper: refused: $1" >&2; exit 2; }
[ $# -ge 3 ] || no 'usage: iptables|ip6tables -w 10 <rule>'
case $1 in
  iptables) bin='${bins.iptables}' ;;
  ip6tables) bin='${bins.ip6tables}' ;;
  *) no 'family' ;;
esac
fam=$1
shift
[ "$1" = -w ] && [ "$2" = 10 ] || no 'lock wait'
shift 2
for a in "$@"; do
  case $a in
    dstip,dstport,srcport) ;;
    '' | *[!A-Za-z0-9.-]*) no 'argument' ;;
  esac
done
uid_ok() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  case $UIDS in *" $1 "*) return 0 ;; esac
  return 1
}
chain_ok() {
  case $1 in GEMINI-RUN-*-*) ;; *) return 1 ;; esac
  rest=\${1#GEMINI-RUN-}
  u=\${rest%%-*}
  t=\${rest#*-}
  uid_ok "$u" || return 1
  case $t in '' | *[!0-9a-f]*) return 1 ;; esac
  [ \${#t} -le 8 ] || return 1
  [ -z "\${2:-}" ] || [ "$u" = "$2" ]
}
port_ok() {
  case $1 in '' | *[!0-9]*) return 1 ;; esac
  [ \${#1} -le 5 ] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]
}
ok=
case $# in
  2) [ "$1" = -S ] && [ "$2" = OUTPUT ] && ok=1
     case $1 in -N | -F | -X) chain_ok "$2" && ok=1 ;; esac ;;
  4) [ "$1" = -A ] && chain_ok "$2" && [ "$3" = -j ] && [ "$4" = REJECT ] && ok=1 ;;
  5) [ "$1" = -L ] && chain_ok "$2" && [ "$3" = -v ] && [ "$4" = -x ] && [ "$5" = -n ] && ok=1 ;;
  8) [ "$1" = -A ] && chain_ok "$2" && [ "$3" = -p ] && [ "$4" = tcp ] && [ "$5" = -j ] && [ "$6" = REJECT ] &&
       [ "$7" = --reject-with ] && [ "$8" = tcp-reset ] && ok=1
     [ "$1" = -D ] && [ "$2" = OUTPUT ] && [ "$3" = -m ] && [ "$4" = owner ] && [ "$5" = --uid-owner ] &&
       uid_ok "$6" && [ "$7" = -j ] && chain_ok "$8" "$6" && ok=1 ;;
  9) [ "$1" = -I ] && [ "$2" = OUTPUT ] && [ "$3" = 1 ] && [ "$4" = -m ] && [ "$5" = owner ] &&
       [ "$6" = --uid-owner ] && uid_ok "$7" && [ "$8" = -j ] && chain_ok "$9" "$7" && ok=1 ;;
  18) [ "$1" = -A ] && chain_ok "$2" &&
       [ "$3 $4 $5 $6 $7 $8 $9 \${10}" = '-m hashlimit --hashlimit-upto 1000 --hashlimit-burst 1000 --hashlimit-mode dstip,dstport,srcport' ] &&
       [ "\${11}" = --hashlimit-name ] && [ "\${12}" = "gr-\${2##*-}" ] &&
       [ "\${13} \${14} \${15} \${16} \${17} \${18}" = '--hashlimit-htable-size 256 --hashlimit-htable-max 4096 --hashlimit-htable-expire 86400000' ] &&
       ok=1 ;;
  12) [ "$fam" = iptables ] && [ "$1" = -A ] && chain_ok "$2" && [ "$3" = -o ] && [ "$4" = lo ] && [ "$5" = -p ] &&
       [ "$6" = tcp ] && [ "$7" = -d ] && [ "$8" = 127.0.0.1 ] && [ "$9" = --dport ] && port_ok "\${10}" &&
       [ "\${11}" = -j ] && [ "\${12}" = ACCEPT ] && ok=1 ;;
esac
[ -n "$ok" ] || no "rule: $*"
exec "$bin" -w 10 "$@"
`;
}

/**
 * Writes the wrapper where sudoers names it: root's, mode 0755, in a directory only root can write, replaced
 * atomically. Root only (setup's host step).
 */
export async function installEgressWrapper(uids: readonly number[], path = EGRESS_WRAPPER): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o755 });
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, egressWrapperScript(uids), { mode: 0o755 });
  await rename(tmp, path);
}

/**
 * The wrapper is there and only root could have put it there (a runner-user-writable file or directory would let
 * the runner user write its own root program): then egress-filter.ts runs iptables through it.
 */
export async function egressWrapperInstalled(path = EGRESS_WRAPPER): Promise<boolean> {
  try {
    for (const p of [path, dirname(path)]) {
      const s = await lstat(p);
      if (s.uid !== 0 || (s.mode & 0o022) !== 0 || s.isSymbolicLink()) return false;
    }
    return true;
  } catch {
    return false;
  }
}
