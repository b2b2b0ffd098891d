/**
 * What GitHub does to the text of a rendered page after markdown, on text that is not code and not inside a link:
 * `@login` and `@org/team` notify people; `#12`, `GH-12`, `owner/repo#12` and links to issues and pull requests put
 * a cross-reference on that issue (and with a closing keyword before them, close it when merged); a bare `www.` or
 * `https://` is a link. These rules find them in plain text (a text node's value, a commit subject); markdown itself
 * is read by the parser, never here.
 */

export interface RepoContext {
  /** The server URL (`https://github.com`): links and images there may stay. */
  serverUrl: string;
  owner: string;
  repo: string;
  /** The issue (or pull request) the run is for: the one reference its text may keep live. */
  ownIssue?: number;
}

/** A span of plain text that GitHub would act on. */
export interface Live {
  start: number;
  end: number;
  kind: 'mention' | 'reference' | 'url';
}

// `@` after a letter, digit or `_` is an e-mail address or a word; anything else before it may be a mention.
const MENTION = String.raw`(?<![A-Za-z0-9_])@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][A-Za-z0-9_.-]*)?`;
// `#12` after anything but a word character, `owner#12`, `owner/repo#12`, `GH-12`.
const REFERENCE = String.raw`(?:[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)?)?#\d+|(?<![A-Za-z0-9_])GH-\d+`;
// As GFM's autolinker reads a URL: trailing punctuation is not part of it.
const URL_TEXT = String.raw`(?:(?:https?|ftp)://|www\.)[^\s<>]*[^\s<>?!.,:*_~'")\]]`;
const LIVE = new RegExp(`(?<url>${URL_TEXT})|(?<mention>${MENTION})|(?<reference>${REFERENCE})`, 'gi');

/** Whether a reference names the run's own issue in its own repository. */
export function isOwnReference(ref: string, ctx: RepoContext): boolean {
  if (ctx.ownIssue === undefined) return false;
  const m = /^(?:([^#]+))?#(\d+)$/.exec(ref) ?? /^()GH-(\d+)$/i.exec(ref);
  if (!m) return false;
  const repo = m[1];
  return (
    Number(m[2]) === ctx.ownIssue &&
    (!repo || repo.toLowerCase() === `${ctx.owner}/${ctx.repo}`.toLowerCase())
  );
}

/**
 * The spans of `text` GitHub would act on, in order; the own issue's reference is not one. `sameRepoIssues`: as
 * for `linkKind`, for URLs.
 */
export function liveSpans(
  text: string,
  ctx: RepoContext,
  sameRepoIssues: 'allowed' | 'outside' = 'outside',
): Live[] {
  const out: Live[] = [];
  for (const m of text.matchAll(LIVE)) {
    const g = m.groups!;
    const kind = g.url ? 'url' : g.mention ? 'mention' : 'reference';
    if (kind === 'reference' && isOwnReference(m[0], ctx)) continue;
    if (
      kind === 'url' &&
      linkKind(g.url!.startsWith('www.') ? `https://${g.url}` : g.url!, ctx, sameRepoIssues) === 'allowed'
    )
      continue;
    out.push({ start: m.index, end: m.index + m[0].length, kind });
  }
  return out;
}

/**
 * What a link (or image) destination is: `allowed` on the own server (or relative, or mail), except a link to an
 * issue, pull request or discussion other than the run's own (GitHub turns it into a cross-reference);
 * `outside` anywhere else, or when it needs decoding to tell (entities, escapes, spaces).
 */
export function linkKind(
  url: string,
  ctx: RepoContext,
  /** A link to another issue or pull request of the own repository: the action links its own pull request. */
  sameRepoIssues: 'allowed' | 'outside' = 'outside',
): 'allowed' | 'outside' {
  if (!/^[A-Za-z0-9._~/#?=%+:@!$&'()*,;-]*$/.test(url) || url.startsWith('//')) return 'outside';
  if (/^mailto:[^/?#]*$/i.test(url)) return 'allowed';
  let parsed: URL;
  try {
    parsed = new URL(url, `${ctx.serverUrl.replace(/\/$/, '')}/${ctx.owner}/${ctx.repo}/issues/`);
  } catch {
    return 'outside';
  }
  if (parsed.origin !== new URL(ctx.serverUrl).origin) return 'outside';
  const issue = /^\/([^/]+)\/([^/]+)\/(?:issues|pull|pulls|discussions)\/(\d+)(?:\/|$)/.exec(parsed.pathname);
  if (!issue) return 'allowed';
  const sameRepo = `${issue[1]}/${issue[2]}`.toLowerCase() === `${ctx.owner}/${ctx.repo}`.toLowerCase();
  if (sameRepo && sameRepoIssues === 'allowed') return 'allowed';
  return sameRepo && ctx.ownIssue !== undefined && Number(issue[3]) === ctx.ownIssue ? 'allowed' : 'outside';
}
