/**
 * A commit message of the run's own, as GitHub and CI systems will read it once it is pushed: plain text, not
 * markdown (no code span or link protects anything in it). What they would act on is rewritten so that it reads the
 * same to a person and does nothing:
 *
 * - Issue and pull request references (`#3`, `GH-3`, `acme/widget#4`) get a space after the sign (`# 3`,
 *   `GH- 3`, `acme/widget# 4`): GitHub links none of them, puts no cross-reference on another repository's
 *   issue, and a closing keyword before one (`Fixes # 3`) closes nothing when the commit reaches the default
 *   branch, a squash merge repeating it included. The run's own issue too: its `Closes #N` is in the pull
 *   request's body, not in commits.
 * - An issue, pull request or discussion URL loses its scheme (`github.com/acme/widget/issues/5`): no longer a
 *   link, so no reference and nothing closed. Other URLs stay as written, their `#anchor` included.
 * - `@mentions` get a space (`@ alice`, `@ acme/team`); an e-mail address is left alone.
 * - CI-skip directives lose their form: `[skip ci]`, `[ci skip]`, `[no ci]`, `[skip actions]`, `[actions skip]`
 *   and any bracketed `skip` (`[skip travis]`, `[skip azp]`…) become `(skip ci)`…; `***NO_CI***` becomes
 *   `(NO_CI)`; a `skip-checks: true` trailer becomes `(skip-checks true)`. The pull request's checks run.
 *
 * URLs are found as GitHub's autolinker finds them, or fewer and shorter (see URL): text that GitHub would read
 * outside a link is read so here too.
 * The rewrite is idempotent, and a message with none of these is returned as it is.
 */

const BRACKETED = /\[([^[\]\n]{1,64})\]/g;
const SKIP_WORD = /(^|[^a-z])(skip|no[ _-]*ci)([^a-z]|$)/i;
const NO_CI = /\*{3}(NO_CI)\*{3}/gi;
const SKIP_CHECKS = /skip-checks[ \t]*:[ \t]*([^\s)]*)/gi;

/**
 * A link as GitHub's autolinker (cmark-gfm's) would find one, or less: a lower-case scheme not after a letter or
 * digit, or `www.` at a word's start; a dotted domain whose last two parts have no `_`; up to a space or `<`.
 */
const URL = /(?:(?<![A-Za-z0-9])(?:https?|ftp):\/\/|(?<=^|[\s*_~(])(?=www\.))([A-Za-z0-9_.-]+)[^\s<]*/g;
const TRAILING_PUNCTUATION = /[?!.,:*_~'")\]]+$/;

function validDomain(host: string): boolean {
  const parts = host.replace(/\.+$/, '').split('.');
  return parts.length >= 2 && parts.every((p) => p !== '') && !parts.slice(-2).some((p) => p.includes('_'));
}
const SCHEME = /^(?:(?:https?|ftp):\/\/)?(?:www\.)?/i;
const ISSUE_PATH = /^[^/]+\/[^/]+\/[^/]+\/(?:issues|pull|pulls|discussions)\/\d/i;

/** The directives CI systems read anywhere in a message, in a form none reads. */
function withoutCiDirectives(text: string): string {
  return text
    .replace(BRACKETED, (all, inner: string) => (SKIP_WORD.test(inner) ? `(${inner})` : all))
    .replace(NO_CI, '($1)')
    .replace(SKIP_CHECKS, (_all, value: string) => `(skip-checks${value ? ` ${value}` : ''})`);
}

/** Text outside links: references and mentions with a space after their sign. */
function inert(text: string): string {
  return text
    .replace(/#(?=\d)/g, '# ')
    .replace(/GH-(?=\d)/gi, (m) => `${m} `)
    .replace(/(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9])/g, '$1@ ');
}

/** One URL as found: an issue's loses its scheme and becomes text; any other stays a link. */
function url(found: string): string {
  const bare = found.replace(SCHEME, '');
  return ISSUE_PATH.test(bare) ? inert(bare) : found;
}

export function neutraliseCommitMessage(message: string): string {
  const text = withoutCiDirectives(message);
  let out = '';
  let at = 0;
  for (const m of text.matchAll(URL)) {
    if (!validDomain(m[1] ?? '')) continue;
    const link = m[0].replace(TRAILING_PUNCTUATION, '');
    out += inert(text.slice(at, m.index)) + url(link);
    at = m.index + link.length;
  }
  return out + inert(text.slice(at));
}
