/**
 * Protected paths: the files that steer later runs and the repository's automation (workflows and other CI
 * systems' configurations, the Gemini CLI's context files and settings, CODEOWNERS, attributes). An agent that
 * changes them can make the next run obey whoever injected it, or a CI system build the pushed branch with the
 * repository's secrets, so a change to one is refused or flagged (issue 28, issue 39).
 *
 * Patterns are CODEOWNERS-style globs, matched on git's own path form (slash-separated, relative to the top):
 * - A pattern with a `/` at its start or in its middle is anchored at the repository top (a leading `/` is only
 *   that anchor); one without (a trailing `/` aside) matches at any depth: `GEMINI.md` is also `src/GEMINI.md`.
 * - A pattern covers what it names and everything below it (`apps/`, `/build/logs`, `build/**`), except that a
 *   last segment `*` matches one level only (`docs/*`: `docs/a.md`, not `docs/b/c.md`), as GitHub reads CODEOWNERS.
 *   A trailing `/` matches directories only (what is below them).
 * - `*` is any run of characters but `/`, `?` one character but `/`, `**` (a whole segment) any number of segments.
 * - Case-sensitive, as git on Linux and GitHub read paths (`.GitHub/workflows/x.yml` is no workflow there). Only the
 *   rules for what the Gemini CLI reads through the file system (its context files in every directory and
 *   `.gemini/`) match in any case: on a case-insensitive checkout (macOS, Windows) it loads `src/gemini.md` as
 *   `src/GEMINI.md`.
 * - `!` negation, `[...]` classes, `{...}` and `\` escapes are refused rather than read otherwise than a person
 *   expects: a typo is an error, not a silent non-match.
 */

/** What the defaults hold beyond the context files (matched case-sensitively). */
const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.github/workflows/**',
  '.github/actions/**',
  // GitHub reads CODEOWNERS at the top, in .github/ and in docs/ (GitLab in .gitlab/ too).
  'CODEOWNERS',
  '.gitmodules',
  // `linguist-generated` folds a file's diff away in review; a nested .gitattributes applies to its folder.
  '.gitattributes',
  // The repository as an action (`uses: owner/repo@ref`).
  '/action.yml',
  '/action.yaml',
  // Other CI systems build pushed branches with secrets of their own.
  '/.circleci/',
  '/.buildkite/',
  '/.gitlab-ci.yml',
  'Jenkinsfile',
  '/azure-pipelines.yml',
  '/azure-pipelines.yaml',
  '/.travis.yml',
  '/bitbucket-pipelines.yml',
  '/.drone.yml',
];

/**
 * What the defaults hold that the Gemini CLI reads through the file system, matched in any case: the workspace
 * settings folder of a gemini started in that directory. The context file names are added to it.
 */
const DEFAULT_ANY_CASE_PATHS: readonly string[] = ['.gemini/'];

/** The word that stands for the defaults in the input (`defaults, infra/**`). */
export const DEFAULTS_WORD = 'defaults';

export const PROTECTED_POLICIES = ['block', 'allow'] as const;

/** The `protected-paths` input: the defaults or not, and the workflow's own patterns. */
export interface ProtectedPathsSetting {
  defaults: boolean;
  globs: string[];
}

/** One rule: a glob, and whether it matches in any letter case. */
export interface ProtectedRule {
  glob: string;
  anyCase: boolean;
}

/** Why a pattern cannot be used, or undefined. Kept strict so a typo is an error, not a silent non-match. */
function globProblem(glob: string): string | undefined {
  if (glob.startsWith('./'))
    return `'${glob}' must be relative to the repository top, without a leading './'`;
  if (glob.startsWith('!')) return `'${glob}': negation ('!') is not supported; leave the path out instead`;
  if (glob.startsWith('#')) return `'${glob}' must not begin with '#'`;
  const body = glob.replace(/^\//, '').replace(/\/$/, '');
  if (body === '') return `'${glob}' names no path`;
  if (glob.includes('//') || /(^|\/)\.\.?(\/|$)/.test(body))
    return `'${glob}' must not hold '//', '.' or '..' segments`;
  if (/[[\]{}\\]/.test(glob)) return `'${glob}' may only use '*', '**' and '?' as wildcards`;
  if (/[^/]\*\*|\*\*[^/]/.test(body.replace(/(^|\/)\*\*(\/|$)/g, '$1$2'))) {
    return `'${glob}': '**' must be a whole path segment`;
  }
  return undefined;
}

/** One segment as a regular expression: `*` any run of characters but `/`, `?` one. */
function segmentRe(seg: string): string {
  return seg
    .replace(/[.+^$()|]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\?/g, '[^/]');
}

/** A glob (see the top of this file) as a regular expression over git paths. */
export function globToRegExp(glob: string, o: { anyCase?: boolean } = {}): RegExp {
  const dirOnly = glob.endsWith('/');
  let body = dirOnly ? glob.slice(0, -1) : glob;
  const anchored = body.startsWith('/') || body.includes('/');
  body = body.replace(/^\//, '');
  const segments = body.split('/');
  let re = anchored ? '' : '(?:[^/]+/)*';
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1;
    if (seg === '**') {
      // Zero or more whole segments; a last `**` is everything below, which the tail below adds.
      if (!last) re += '(?:[^/]+/)*';
      else re = re.replace(/\/$/, '');
      return;
    }
    re += segmentRe(seg) + (last ? '' : '/');
  });
  const lastSeg = segments[segments.length - 1];
  // A `**` covers what it ends too (a file put where the directory was replaces all of it); a last `*` one level.
  const tail = dirOnly ? '/.*' : lastSeg === '*' && anchored ? '' : '(?:/.*)?';
  const full = lastSeg === '**' && segments.length === 1 ? '.*' : `${re}${tail}`;
  return new RegExp(`^${full}$`, o.anyCase ? 'i' : '');
}

/**
 * A context file name as the CLI uses it (`path.join(dir, name)` in every directory it walks) → a rule matching it
 * in every directory, in any case. Characters the glob language would read (`*`, `[`…) become `?`, which matches
 * them too; a name with a folder in it matches that folder and name anywhere.
 */
export function contextFileRule(name: string): ProtectedRule | undefined {
  const parts = name
    .trim()
    .split(/[\\/]+/)
    .filter((p) => p !== '' && p !== '.');
  const afterUp = parts.lastIndexOf('..');
  const kept = parts.slice(afterUp + 1).map((p) => p.replace(/[*?[\]{}!#]/g, '?'));
  if (kept.length === 0) return undefined;
  return { glob: kept.length === 1 ? kept[0]! : `**/${kept.join('/')}`, anyCase: true };
}

/** The rules of a setting: the defaults (with the CLI's context file names) when asked, and its own globs. */
export function protectedRules(
  setting: ProtectedPathsSetting,
  contextFileNames: readonly string[],
): ProtectedRule[] {
  const own = setting.globs.map((glob) => ({ glob, anyCase: false }));
  if (!setting.defaults) return own;
  return [
    ...DEFAULT_PROTECTED_PATHS.map((glob) => ({ glob, anyCase: false })),
    ...DEFAULT_ANY_CASE_PATHS.map((glob) => ({ glob, anyCase: true })),
    ...[...new Set(contextFileNames)].flatMap((n) => contextFileRule(n) ?? []),
    ...own,
  ];
}

/** The changed paths that match a rule, sorted and once each. */
export function protectedIn(paths: Iterable<string>, rules: readonly ProtectedRule[]): string[] {
  const res = rules.map((r) => globToRegExp(r.glob, { anyCase: r.anyCase }));
  return [...new Set([...paths].filter((p) => res.some((r) => r.test(p))))].sort();
}

/**
 * The input's value: newline- or comma-separated, blanks dropped. A value replaces the defaults, and the word
 * `defaults` among its entries brings them back (`defaults, infra/**`); `none` is the conscious opt-out (an empty
 * value is the default, as for every input).
 */
export function parseProtectedPaths(value: string): { setting: ProtectedPathsSetting; problems: string[] } {
  if (value.trim().toLowerCase() === 'none') return { setting: { defaults: false, globs: [] }, problems: [] };
  const entries = value
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const globs = entries.filter((e) => e.toLowerCase() !== DEFAULTS_WORD);
  return {
    setting: { defaults: globs.length < entries.length, globs },
    problems: globs.flatMap((g) => globProblem(g) ?? []),
  };
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
