/**
 * Outbound text: what the action publishes on GitHub (PR body, comments, job summary) carries only what the run
 * means, whatever the agent wrote into its final answer, commit subjects or file names. Inbound text (the task
 * the agent reads) is cleaned by sanitize.ts; this is the other direction.
 *
 * Rules, outside fenced code blocks:
 * - HTML comments are removed (they hide text, and ours carry the action's markers); any other `<` that does not
 *   open a plain allow-listed tag (`<details>`, `<b>`…, no attributes) is escaped (`\<`), so `<img>`, `<picture>`,
 *   `<video>`, `<iframe>`, `<script>`, `<style>` and `<a href>` show as text.
 * - A closing keyword (`fixes #3`, `closes owner/repo#3`, `resolves <issue URL>`) keeps its effect only for the
 *   run's own issue; any other reference goes into `<code>`, which GitHub neither links nor closes.
 * - `@user` and `@org/team` go into `<code>`: nobody is pinged. E-mail addresses are left alone.
 * - A character reference (`&#64;`, `&commat;`) is shown as written: it would render as the character after the
 *   rules above were checked.
 * - Images and links to hosts other than the repository's own GitHub server (inline, reference definitions,
 *   autolinks, bare URLs) become text: the URL in `<code>`. Relative links and the own server's stay.
 *
 * Neutralising writes `<code>…</code>`, never backticks: an inserted backtick could pair with a stray one of the
 * agent's and turn the neutralised text back into prose. Fenced code blocks are left as written (GitHub renders
 * no mention, link, image or HTML in them). An inline code span is kept as written when its text would pass
 * these rules unchanged as prose, and otherwise rewritten as a `<code>` element whose characters are all
 * backslash-escaped: it looks the same, and is code however GitHub pairs the backticks around it. The function is
 * idempotent, so text it wrote (an earlier summary folded into a new one) goes through it again unchanged.
 */

export interface PublishContext {
  /** The server URL (`https://github.com`): links and images there stay. */
  serverUrl: string;
  owner: string;
  repo: string;
  /** The issue (or PR) the run is for: a closing keyword for it is kept. */
  ownIssue?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/** Allow-listed tags, kept only without attributes (`<details open>` aside): they cannot load or hide anything. */
const PLAIN_TAGS = new Set(
  'details summary b i em strong kbd sub sup br hr p ul ol li blockquote table thead tbody tr th td h1 h2 h3 h4 h5 h6 del s ins dl dt dd'.split(
    ' ',
  ),
);

/** Entities that render as a character no rule here cares about. */
const HARMLESS_ENTITIES = new Set(['&amp;', '&lt;', '&gt;', '&quot;', '&nbsp;']);

const PUNCT = /[!-/:-@[-`{-~]/;

/** Every ASCII punctuation character backslash-escaped: the text renders as itself and forms no markup. */
function escapeAll(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/** Text shown as code: no mention, reference, link or markup in it takes effect. */
function asCode(text: string): string {
  return `<code>${escapeAll(text.replace(/\s+/g, ' '))}</code>`;
}

/**
 * `text` as one inline code span, for text the agent chose (a shell command, a path): a plain code span when the
 * text holds nothing markup or GitHub could act on, else a `<code>` element of escaped characters, which renders
 * the same and keeps no `<!--`, mention or URL in the raw body either.
 */
export function codeSpan(text: string): string {
  const one = text.replace(/[\s]+/g, ' ');
  return /^[^`<>&@#![\]|:\\]*$/.test(one) && !/www\./i.test(one) ? `\`${one}\`` : asCode(one);
}

/** A `<code>` body that forms no markup inside the element (what `asCode` and the mention rule write). */
function safeInCode(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length && PUNCT.test(body[i + 1]!)) {
      i++;
      continue;
    }
    if ('`<>[]!&*_~|:\\'.includes(c)) return false;
  }
  return !/www\./i.test(body);
}

type LinkClass = 'own' | 'outside';

function classify(dest: string, ctx: PublishContext): LinkClass {
  // Entities and escapes are decoded in a destination: anything that needs them is not trusted.
  if (!/^[A-Za-z0-9._~/#?=%+:@!$'()*,;-]*$/.test(dest)) return 'outside';
  if (dest.startsWith('//')) return 'outside';
  if (/^mailto:[^/]*$/i.test(dest)) return 'own';
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(dest)) return 'own'; // relative: resolves on the own server
  try {
    return new URL(dest).origin === new URL(ctx.serverUrl).origin ? 'own' : 'outside';
  } catch {
    return 'outside';
  }
}

/** Backslashes ending `text`: an odd count would escape the `<` of a `<code>` written after it. */
function endsWithOddBackslashes(text: string): boolean {
  const m = /\\+$/.exec(text);
  return m !== null && m[0].length % 2 === 1;
}

const KEYWORD = String.raw`(?<kw>(?<![A-Za-z0-9_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]+)(?<ref>\\?#\d+|GH-\d+|[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+\\?#\d+|https?://[^\s<>()]+/(?:issues|pull)/\d+)`;
const URL_RE = String.raw`(?<url>(?:(?:https?|ftp)://|www\.)[^\s<>]*[^\s<>?!.,:*_~'")\]])`;
const MENTION = String.raw`(?<at>\\?@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9][A-Za-z0-9_.-]*)?)`;
const TEXT_RULES = new RegExp(`${KEYWORD}|${URL_RE}|${MENTION}`, 'gi');

/** Whether a closing-keyword reference names the run's own issue. */
function isOwnReference(ref: string, ctx: PublishContext): boolean {
  if (ctx.ownIssue === undefined) return false;
  const r = ref.replace(/\\#/, '#');
  const own = `${ctx.owner}/${ctx.repo}`.toLowerCase();
  let m = /^#(\d+)$/.exec(r);
  if (m) return Number(m[1]) === ctx.ownIssue;
  m = /^([^#]+)#(\d+)$/.exec(r);
  if (m) return m[1]!.toLowerCase() === own && Number(m[2]) === ctx.ownIssue;
  m = /^(.*)\/([^/]+\/[^/]+)\/(?:issues|pull)\/(\d+)$/.exec(r);
  if (m) {
    return (
      classify(r, ctx) === 'own' &&
      m[1]!.toLowerCase() === new URL(ctx.serverUrl).origin.toLowerCase() &&
      m[2]!.toLowerCase() === own &&
      Number(m[3]) === ctx.ownIssue
    );
  }
  return false;
}

/** Plain prose (no code span, tag or link left in it): keywords, bare URLs and mentions. */
function sanitizeText(text: string, ctx: PublishContext): string {
  return text.replace(TEXT_RULES, (...args: unknown[]) => {
    const match = args[0] as string;
    const offset = args[args.length - 3] as number;
    const whole = args[args.length - 2] as string;
    const g = args[args.length - 1] as Record<string, string | undefined>;
    const before = whole.slice(0, offset);
    const pad = endsWithOddBackslashes(before) ? '\\' : '';
    if (g.kw !== undefined && g.ref !== undefined) {
      if (isOwnReference(g.ref, ctx)) return match;
      return `${g.kw}${asCode(g.ref.replace(/\\#/, '#'))}`;
    }
    if (g.url !== undefined) {
      const full = g.url.startsWith('www.') ? `https://${g.url}` : g.url;
      return classify(full, ctx) === 'own' ? match : `${pad}${asCode(g.url)}`;
    }
    // `\@bob` renders `@bob` all the same. `@` after a letter or digit is an e-mail address or a word.
    const at = g.at!;
    if (at.startsWith('\\')) {
      if (endsWithOddBackslashes(before)) return `\\<code>${at.slice(1)}</code>`; // `\\@`: a `\`, then `@`
      if (/[A-Za-z0-9_]$/.test(before)) return match;
      return `<code>${at.slice(1)}</code>`;
    }
    if (/[A-Za-z0-9_]$/.test(before)) return match;
    return `<code>${at}</code>`;
  });
}

const OPEN_TAG =
  /^<([A-Za-z][A-Za-z0-9-]*)((?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*)\s*(\/?)>/;
const CLOSE_TAG = /^<\/([A-Za-z][A-Za-z0-9-]*)\s*>/;
const AUTOLINK = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*)>/;
const EMAIL_AUTOLINK =
  /^<[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>/;
const CODE_ELEMENT = /^<code>((?:(?!<\/code>).)*)<\/code>/;

interface InlineLink {
  text: string;
  dest: string;
  end: number;
}

/** `[text](dest "title")` starting at `start` (the `[`), on one line; undefined when it is not one. */
function parseInlineLink(line: string, start: number): InlineLink | undefined {
  let depth = 0;
  let i = start;
  for (; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') depth++;
    else if (c === ']' && --depth === 0) break;
  }
  if (depth !== 0 || line[i + 1] !== '(') return undefined;
  const text = line.slice(start + 1, i);
  i += 2;
  while (line[i] === ' ' || line[i] === '\t') i++;
  let dest = '';
  if (line[i] === '<') {
    const close = line.indexOf('>', i);
    if (close < 0) return undefined;
    dest = line.slice(i + 1, close);
    i = close + 1;
  } else {
    let parens = 0;
    const from = i;
    for (; i < line.length; i++) {
      const c = line[i]!;
      if (c === '\\') {
        i++;
        continue;
      }
      if (/\s/.test(c)) break;
      if (c === '(') parens++;
      else if (c === ')') {
        if (parens === 0) break;
        parens--;
      }
    }
    dest = line.slice(from, i);
  }
  while (line[i] === ' ' || line[i] === '\t') i++;
  const quote = line[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const closer = quote === '(' ? ')' : quote;
    let j = i + 1;
    for (; j < line.length && line[j] !== closer; j++) if (line[j] === '\\') j++;
    if (j >= line.length) return undefined;
    i = j + 1;
    while (line[i] === ' ' || line[i] === '\t') i++;
  }
  if (line[i] !== ')') return undefined;
  return { text, dest, end: i + 1 };
}

/** One line of prose (outside fenced code): every rule of the module comment. */
function sanitizeLine(line: string, ctx: PublishContext): string {
  // A reference definition is a link (or an image) wherever its label is used: an outside one becomes text.
  const def = /^( {0,3})\[((?:[^\]\\]|\\.)+)\]:(.*)$/.exec(line);
  if (def) {
    const dest = /^[ \t]*<?([^\s>]*)>?(.*)$/.exec(def[3]!);
    if (!dest?.[1] || classify(dest[1], ctx) === 'outside') {
      return `${def[1]}\\[${sanitizeLine(`${def[2]}\\]: `, ctx)}${def[3]!.trim() ? asCode(def[3]!.trim()) : ''}`;
    }
  }
  let out = '';
  let text = '';
  const flush = (): void => {
    out += sanitizeText(text, ctx);
    text = '';
  };
  const emit = (s: string): void => {
    flush();
    out += s;
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    const rest = line.slice(i);
    if (c === '\\' && i + 1 < line.length && PUNCT.test(line[i + 1]!)) {
      text += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (c === '`') {
      const run = /^`+/.exec(rest)![0];
      const closeAt = findClosingRun(line, i + run.length, run.length);
      if (closeAt < 0) {
        text += run;
        i += run.length;
        continue;
      }
      const body = line.slice(i + run.length, closeAt);
      const content = /^ .* $/.test(body) && body.trim() ? body.slice(1, -1) : body;
      const clean = sanitizeLine(content, ctx) === content && !content.includes('|');
      emit(clean ? line.slice(i, closeAt + run.length) : asCode(content));
      i = closeAt + run.length;
      continue;
    }
    if (c === '<') {
      const code = CODE_ELEMENT.exec(rest);
      if (code && safeInCode(code[1]!)) {
        emit(code[0]);
        i += code[0].length;
        continue;
      }
      const auto = AUTOLINK.exec(rest);
      if (auto) {
        emit(classify(auto[1]!, ctx) === 'own' ? auto[0] : asCode(auto[1]!));
        i += auto[0].length;
        continue;
      }
      const email = EMAIL_AUTOLINK.exec(rest);
      if (email) {
        emit(email[0]);
        i += email[0].length;
        continue;
      }
      const open = OPEN_TAG.exec(rest);
      const close = CLOSE_TAG.exec(rest);
      const name = (open?.[1] ?? close?.[1] ?? '').toLowerCase();
      const attrs = open?.[2]?.trim() ?? '';
      if (PLAIN_TAGS.has(name) && (attrs === '' || (name === 'details' && attrs === 'open'))) {
        const tag = (open ?? close)![0];
        emit(tag);
        i += tag.length;
        continue;
      }
      text += '\\<';
      i++;
      continue;
    }
    if (c === '&') {
      // An entity renders as its character, after this filter: `&#64;bob` would ping. Shown as written instead.
      const entity = /^&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/.exec(rest);
      if (entity && !HARMLESS_ENTITIES.has(entity[0])) {
        text += '\\&';
        i++;
        continue;
      }
    }
    if (c === '!' && line[i + 1] === '[') {
      const link = parseInlineLink(line, i + 1);
      if (link && classify(link.dest, ctx) === 'own') {
        emit(`![${sanitizeLine(link.text, ctx)}](${line.slice(i + 2 + link.text.length + 2, link.end)}`);
        i = link.end;
      } else if (link) {
        emit(asCode(line.slice(i, link.end)));
        i = link.end;
      } else {
        // Not an image this parser reads (a reference image, say): never one GitHub loads either.
        text += '!\\[';
        i += 2;
      }
      continue;
    }
    if (c === '[') {
      const link = parseInlineLink(line, i);
      if (link) {
        const label = sanitizeLine(link.text, ctx);
        emit(
          classify(link.dest, ctx) === 'own'
            ? `[${label}](${line.slice(i + 1 + link.text.length + 2, link.end)}`
            : `${label} (${asCode(link.dest)})`,
        );
        i = link.end;
        continue;
      }
    }
    text += c;
    i++;
  }
  flush();
  return out;
}

/** Where a run of exactly `length` backticks starts after `from`, or -1. */
function findClosingRun(line: string, from: number, length: number): number {
  for (let i = from; i < line.length;) {
    if (line[i] !== '`') {
      i++;
      continue;
    }
    let j = i;
    while (line[j] === '`') j++;
    if (j - i === length) return i;
    i = j;
  }
  return -1;
}

/** Splits text into its lines and whether each is inside a fenced code block, as GitHub reads it (see above). */
function fencedLines(text: string): { lines: { line: string; code: boolean }[]; open?: string } {
  const lines: { line: string; code: boolean }[] = [];
  let fence: string | undefined;
  // After a line that starts with a tag, GitHub may read the lines up to a blank one as raw HTML, where a
  // "fence" is no fence: such lines are prose here.
  let htmlBlock = false;
  for (const line of text.split('\n')) {
    if (fence !== undefined) {
      lines.push({ line, code: true });
      const closer = FENCE.exec(line);
      const run = closer?.[1] ?? '';
      if (run[0] === fence[0] && run.length >= fence.length && closer?.[2]?.trim() === '') fence = undefined;
      continue;
    }
    if (line.trim() === '') htmlBlock = false;
    else if (/^ {0,3}</.test(line)) htmlBlock = true;
    const opener = FENCE.exec(line);
    const run = opener?.[1];
    if (run !== undefined && !(run.startsWith('`') && opener![2]!.includes('`')) && !htmlBlock) {
      fence = run;
      lines.push({ line, code: true });
    } else {
      lines.push({ line, code: false });
    }
  }
  return { lines, ...(fence !== undefined ? { open: fence } : {}) };
}

/** The text with a fenced code block it leaves open closed: an open fence would swallow what follows it. */
export function closeOpenFence(text: string): string {
  const { open } = fencedLines(text.replace(/\r\n?/g, '\n'));
  return open === undefined ? text : `${text}\n${open}`;
}

/** Text for GitHub from text the agent had a hand in: see the module comment. Pure and idempotent. */
export function publishedText(text: string, ctx: PublishContext): string {
  const { lines, open } = fencedLines(text.replace(/\r\n?/g, '\n'));
  const out: string[] = [];
  let prose: string[] = [];
  const flush = (): void => {
    if (prose.length === 0) return;
    // A comment may span lines (and blank lines): removed before the lines are read one by one.
    const joined = prose.join('\n').replace(/<!--[\s\S]*?-->/g, '');
    out.push(...joined.split('\n').map((l) => sanitizeLine(l, ctx)));
    prose = [];
  };
  for (const { line, code } of lines) {
    if (code) {
      flush();
      out.push(line);
    } else {
      prose.push(line);
    }
  }
  flush();
  if (open !== undefined) out.push(open);
  return out.join('\n');
}
