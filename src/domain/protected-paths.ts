/**
 * Protected paths: the files that steer later runs and the repository's automation (workflows, GEMINI.md, the
 * agent's settings, CODEOWNERS). An agent that changes them can make the next run obey whoever injected it, or a
 * workflow run with the repository's secrets, so a change to one is refused or flagged (issue 28).
 *
 * Matching is on git's own path form (slash-separated, relative to the top, no `./`, no `//`) and
 * case-sensitive, as GitHub reads the paths: `.GitHub/workflows/x.yml` is not a workflow on GitHub.
 */

export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.github/workflows/**',
  '.github/actions/**',
  '.gemini/**',
  'GEMINI.md',
  'AGENTS.md',
  'CODEOWNERS',
  '.github/CODEOWNERS',
  '.gitmodules',
];

export const PROTECTED_POLICIES = ['block', 'allow'] as const;

/** Why a pattern cannot be used, or undefined. Kept strict so a typo is an error, not a silent non-match. */
function globProblem(glob: string): string | undefined {
  if (glob.startsWith('/') || glob.startsWith('./'))
    return `'${glob}' must be relative to the repository top, without a leading '/' or './'`;
  if (/\/\/|(^|\/)\.\.?(\/|$)/.test(glob)) return `'${glob}' must not hold '//', '.' or '..' segments`;
  if (/[[\]{}\\]/.test(glob)) return `'${glob}' may only use '*', '**' and '?' as wildcards`;
  if (/[^/]\*\*|\*\*[^/]/.test(glob.replace(/(^|\/)\*\*(\/|$)/g, '$1$2'))) {
    return `'${glob}': '**' must be a whole path segment`;
  }
  return undefined;
}

/**
 * A glob as a regular expression: `**` (a whole segment) is any number of segments, `*` any run of characters
 * but `/`, `?` one character but `/`. A pattern that names a directory (`dir/**`) matches everything under it.
 */
export function globToRegExp(glob: string): RegExp {
  const segments = glob.split('/');
  let re = '';
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === '**') {
      // `dir/**` holds `dir` itself too: a file or link put where the directory was replaces all of it.
      if (last) re = i === 0 ? '.*' : `${re.slice(0, -1)}(?:/.*)?`;
      else re += '(?:[^/]+/)*';
      return;
    }
    re += seg
      .replace(/[.+^$()|]/g, '\\$&')
      .replace(/\*/g, '[^/]*')
      .replace(/\?/g, '[^/]');
    if (!last) re += '/';
  });
  return new RegExp(`^${re}$`);
}

/** The changed paths that match a protected pattern, sorted and once each. */
export function protectedIn(paths: Iterable<string>, globs: readonly string[]): string[] {
  const res = globs.map(globToRegExp);
  return [...new Set([...paths].filter((p) => res.some((r) => r.test(p))))].sort();
}

/**
 * The input's value as a list: newline- or comma-separated, blanks dropped. The value replaces the defaults;
 * `none` is the conscious opt-out (an empty value is the default, as for every input).
 */
export function parseProtectedPaths(value: string): { globs: string[]; problems: string[] } {
  if (value.trim().toLowerCase() === 'none') return { globs: [], problems: [] };
  const globs = value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return { globs, problems: globs.flatMap((g) => globProblem(g) ?? []) };
}

/** A protected path the run changed, with its net change against the run's base (none: changed and changed back). */
export interface ProtectedChange {
  path: string;
  stat?: { added: number; removed: number } | 'binary';
}

/** A path as inline code whatever it holds: a backtick or control character would end the span or the line. */
export function codePath(path: string): string {
  const safe = [...path]
    .map((c) => {
      const code = c.charCodeAt(0);
      return code < 0x20 || code === 0x7f || c === '`' ? `\\x${code.toString(16).padStart(2, '0')}` : c;
    })
    .join('');
  return `\`${safe}\``;
}

/** One line: each path with its diff stat. */
export function protectedChangesLine(changes: readonly ProtectedChange[]): string {
  return changes
    .map(({ path, stat }) => {
      const s =
        stat === undefined
          ? 'no net change'
          : stat === 'binary'
            ? 'binary'
            : `+${stat.added} −${stat.removed}`;
      return `${codePath(path)} (${s})`;
    })
    .join(', ');
}
