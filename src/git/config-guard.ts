/**
 * Repository config that makes git run a command: a filter driver, a textconv, an ssh command, an fsmonitor,
 * an include that could add any of them. The agent can write `.git/config`, and on a reused self-hosted
 * workspace an earlier agent may have. The action never lets git run such a command for it.
 */

/** Keys whose value is a command git runs (or an include that could add one). */
const COMMAND_KEYS: readonly RegExp[] = [
  /^filter\..+\.(clean|smudge|process)$/i,
  /^diff\..+\.(textconv|command)$/i,
  /^diff\.external$/i,
  /^merge\..+\.driver$/i,
  /^core\.(fsmonitor|sshcommand|gitproxy|askpass|editor|pager|hookspath|alternaterefscommand)$/i,
  /^credential(\..+)?\.helper$/i,
  /^(sequence\.editor|gpg\.program|gpg\..+\.program)$/i,
  /^remote\..+\.(uploadpack|receivepack|vcs)$/i,
  /^include\.path$/i,
  /^includeif\..+\.path$/i,
];

/** What `git lfs install --local` writes (actions/checkout with `lfs: true`): trusted. */
const LFS_FILTER: Record<string, string> = {
  'filter.lfs.clean': 'git-lfs clean -- %f',
  'filter.lfs.smudge': 'git-lfs smudge -- %f',
  'filter.lfs.process': 'git-lfs filter-process',
};

/**
 * The keys of `git config --local --list -z` output (`key\nvalue` entries separated by NUL) that would make git
 * run a command the repository chose. Pure.
 */
export function commandConfigKeys(listZ: string): string[] {
  const found: string[] = [];
  for (const entry of listZ.split('\0')) {
    if (entry === '') continue;
    const nl = entry.indexOf('\n');
    const key = nl === -1 ? entry : entry.slice(0, nl);
    const value = nl === -1 ? '' : entry.slice(nl + 1);
    if (LFS_FILTER[key.toLowerCase()] === value) continue;
    if (COMMAND_KEYS.some((re) => re.test(key)) && !found.includes(key)) found.push(key);
  }
  return found;
}

/**
 * `-c key=` arguments that switch those commands off for one git command: an empty filter driver is no filter,
 * an empty textconv none (a whole filter driver is emptied, whichever of its keys was set). Includes cannot be
 * undone this way; callers that must be sure refuse them instead. Pure.
 */
export function neutralizingConfig(keys: readonly string[]): string[] {
  const args: string[] = [];
  const add = (key: string) => {
    if (!args.includes(`${key}=`)) args.push('-c', `${key}=`);
  };
  for (const key of keys) {
    const filter = /^(filter\..+)\.(clean|smudge|process)$/i.exec(key);
    if (filter?.[1]) {
      for (const part of ['clean', 'smudge', 'process']) add(`${filter[1]}.${part}`);
    } else if (!/^include(if\..+)?\.path$/i.test(key)) {
      add(key);
    }
  }
  return args;
}
