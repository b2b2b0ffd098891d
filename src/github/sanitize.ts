/**
 * Cleaning user-written GitHub text before it reaches the agent: the task is what a reader of the rendered page
 * saw. GitHub renders some markdown as nothing and some characters are invisible; a maintainer approving a run
 * cannot see them, so the agent must not read them as instructions (they are the usual carriers of hidden prompt
 * injection). Removed, and counted for the log:
 * - link reference definitions, titled or not (`[x]: https://e "SYSTEM: …"` renders nothing): a visible
 *   reference to one (`[text][x]`, `[x][]`, `[x]`) becomes an inline link to its destination, which is what a
 *   reader can follow; unreferenced footnote definitions (GitHub drops them) go too;
 * - link titles (`[t](u "title")`): a hover tooltip, not text;
 * - HTML comments, processing instructions, declarations and CDATA;
 * - the contents of elements GitHub does not render (`<script>`, `<style>`, `<template>`, `<noscript>`, …);
 *   every other tag loses its attributes (GitHub's sanitiser drops `style`, `hidden`, `class` and friends, so
 *   `<div hidden>` shows its text, which is kept; `title`/`alt` are tooltips), keeping only `href` and `src`;
 * - invisible characters (zero-width, bidi controls, tag characters, variation selectors not after an emoji…),
 *   also inside code, where they are just as invisible, and as numeric character references outside code.
 * Code spans and fenced code blocks are shown verbatim, so their markup is kept. Where the markdown is
 * ambiguous (a definition-shaped line right under a paragraph, an indented code block), the rule removes more
 * rather than less: removing a line someone saw loses a little; keeping one nobody saw is the attack.
 */

/** What was removed from a text because GitHub does not show it, by kind. */
export interface HiddenTally {
  referenceDefinitions: number;
  linkTitles: number;
  htmlComments: number;
  hiddenHtml: number;
  htmlAttributes: number;
  invisibleCharacters: number;
  minimizedComments: number;
}

export function emptyTally(): HiddenTally {
  return {
    referenceDefinitions: 0,
    linkTitles: 0,
    htmlComments: 0,
    hiddenHtml: 0,
    htmlAttributes: 0,
    invisibleCharacters: 0,
    minimizedComments: 0,
  };
}

export function addTally(into: HiddenTally, more: HiddenTally): void {
  for (const k of Object.keys(into) as (keyof HiddenTally)[]) into[k] += more[k];
}

const TALLY_WORDS: [keyof HiddenTally, string, string][] = [
  ['referenceDefinitions', 'link reference definition', 'link reference definitions'],
  ['linkTitles', 'link title', 'link titles'],
  ['minimizedComments', 'minimized comment', 'minimized comments'],
  ['htmlComments', 'HTML comment', 'HTML comments'],
  ['hiddenHtml', 'hidden HTML block', 'hidden HTML blocks'],
  ['htmlAttributes', 'HTML attribute', 'HTML attributes'],
  ['invisibleCharacters', 'invisible character', 'invisible characters'],
];

/** One log line saying what was removed, or undefined when nothing was. */
export function describeTally(t: HiddenTally): string | undefined {
  const parts = TALLY_WORDS.filter(([k]) => t[k] > 0).map(
    ([k, one, many]) => `${t[k]} ${t[k] === 1 ? one : many}`,
  );
  return parts.length ? `Removed from the task text GitHub does not show: ${parts.join(', ')}.` : undefined;
}

// Zero-width and joiner characters, bidi embeddings/overrides/isolates and marks, soft hyphen, invisible math
// operators, BOM, Mongolian vowel separator, interlinear annotations, Hangul fillers, C0/C1 controls (except
// tab and newlines), Unicode tag characters (U+E0000–E007F, "ASCII smuggling") and the variation selectors
// (U+FE00–FE0E and the supplement U+E0100–E01EF, a byte-smuggling channel). U+FE0F, the emoji presentation
// selector, is removed unless it follows an emoji or a keycap base (`❤️`, `#️⃣` keep theirs).
/* eslint-disable no-control-regex, no-misleading-character-class -- matching these characters is the point */
const INVISIBLE =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0E\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}\u{1D173}-\u{1D17A}]|(?<![\p{Extended_Pictographic}#*0-9])\uFE0F/gu;
/* eslint-enable no-control-regex, no-misleading-character-class */

// eslint-disable-next-line no-misleading-character-class -- the same set as INVISIBLE, for one character
const INVISIBLE_ONE = new RegExp(`^(?:${INVISIBLE.source})$`, 'u');

/** Removes invisible and control characters (keeps tab, LF, CR). */
function stripInvisible(text: string, tally: HiddenTally): string {
  return text.replace(INVISIBLE, () => {
    tally.invisibleCharacters++;
    return '';
  });
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Block {
  code: boolean;
  text: string;
}

/** Splits text into prose and fenced code blocks (fence lines belong to the code). */
function splitFences(text: string): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  let fence: string | undefined;
  const push = (code: boolean): void => {
    if (lines.length) blocks.push({ code, text: lines.join('\n') });
    lines = [];
  };
  for (const line of text.split('\n')) {
    const m = FENCE.exec(line);
    if (fence === undefined) {
      if (m?.[1]) {
        push(false);
        fence = m[1];
      }
      lines.push(line);
    } else {
      lines.push(line);
      if (m?.[1] && m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) {
        push(true);
        fence = undefined;
      }
    }
  }
  push(fence !== undefined);
  return blocks;
}

// A line's container markers (blockquote `>`, list items) before a definition, then any indentation: wider than
// CommonMark's three spaces on purpose (a nested list item's definition is deeper), see the module comment.
// Each whitespace run belongs to exactly one `[ \t]*`, so a long run of markers cannot backtrack exponentially.
const CONTAINER = String.raw`^([ \t]*(?:(?:>|[-+*]|\d{1,9}[.)])[ \t]*)*)`;
// Text with no blank line in it, for labels and titles that may span lines.
const noBlank = (chars: string): string => String.raw`(?:\\[\s\S]|[^\\${chars}\n]|\n(?![ \t>]*\n))`;
// Whitespace that may hold one line break (a continuation line may repeat a quote's `>`).
const SEP = String.raw`[ \t]*(?:\n[ \t>]*)?`;
const TITLE = String.raw`"${noBlank('"')}*"|'${noBlank("'")}*'|\(${noBlank('()')}*\)`;
// CommonMark's 999-character label limit also bounds the work per line; the destination is matched atomically
// (a lookahead and its backreference), so a failed title does not retry every shorter destination.
const DEFINITION = new RegExp(
  String.raw`${CONTAINER}\[(?!\^)(${noBlank('\\[\\]')}{1,999})\]:${SEP}(<(?:\\.|[^\\<>\n])*>|(?=([^\s<]\S*))\4)(?:${SEP}(?:${TITLE}))?[ \t]*$\n?`,
  'gm',
);
// A footnote definition and its continuation: every line up to a blank one, then any indented paragraphs.
const FOOTNOTE = new RegExp(
  String.raw`${CONTAINER}\[\^([^\]\s]+)\]:[^\n]*(?:\n(?![ \t]*\n)[^\n]*)*(?:\n(?:[ \t]*\n)+(?: {4}|\t)[^\n]*(?:\n(?![ \t]*\n)[^\n]*)*)*\n?`,
  'gm',
);

/** CommonMark's label matching: case-insensitive, inner whitespace collapsed. */
function normalizeLabel(label: string): string {
  return label.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** Removes link reference definitions (recording their destinations) and unreferenced footnote definitions. */
function removeDefinitions(prose: string, defs: Map<string, string>, tally: HiddenTally): string {
  const text = prose.replace(DEFINITION, (_m, prefix: string, label: string, dest: string) => {
    const key = normalizeLabel(label);
    if (key && !defs.has(key)) defs.set(key, dest);
    tally.referenceDefinitions++;
    // Keep the container markers, so a list item or quote keeps its shape (now empty).
    return prefix.trim() ? `${prefix.trimEnd()}\n` : '';
  });
  return text.replace(FOOTNOTE, (m, prefix: string, label: string) => {
    // Referenced when `[^label]` occurs other than as this definition's own `[^label]:`.
    if (text.split(`[^${label}]`).length - 1 > text.split(`[^${label}]:`).length - 1) return m;
    tally.referenceDefinitions++;
    return prefix.trim() ? `${prefix.trimEnd()}\n` : '';
  });
}

/** Elements whose content GitHub does not render (or that a browser would not show as text). */
const CONTENT_HIDDEN = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'noembed',
  'noframes',
  'object',
  'plaintext',
  'xmp',
  'textarea',
  'title',
  'svg',
  'math',
]);
/** Attributes a reader can follow, by element; every other attribute is invisible or stripped by GitHub. */
const KEPT_ATTRIBUTE: Record<string, string> = { a: 'href', img: 'src' };

const ATTRIBUTE = String.raw`[ \t\n]+([A-Za-z_:][\w.:-]*)(?:[ \t\n]*=[ \t\n]*("[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?`;
const OPEN_TAG = new RegExp(
  String.raw`<([A-Za-z][A-Za-z0-9-]*)((?:${ATTRIBUTE})*)[ \t\n]*(?<slash>/?)>`,
  'y',
);
const CLOSE_TAG = /<\/([A-Za-z][A-Za-z0-9-]*)[ \t\n]*>/y;
const ATTRIBUTES = new RegExp(ATTRIBUTE, 'g');
// `<!-- … -->`, `<? … ?>`, `<![CDATA[ … ]]>`, `<!DECLARATION >`; an unterminated one is removed to the end, as an
// HTML block hides everything after it (and so that each `<` is scanned past once).
const HTML_COMMENT =
  /<!--[\s\S]*?(?:-->|$)|<\?[\s\S]*?(?:\?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![A-Za-z][^>]*(?:>|$)/y;

/** The HTML at `at` (a `<`) as GitHub shows it, and where it ends; undefined when it is not HTML. */
function htmlAt(text: string, at: number, tally: HiddenTally): { out: string; end: number } | undefined {
  HTML_COMMENT.lastIndex = at;
  const comment = HTML_COMMENT.exec(text);
  if (comment) {
    tally.htmlComments++;
    return { out: '', end: at + comment[0].length };
  }
  CLOSE_TAG.lastIndex = at;
  const close = CLOSE_TAG.exec(text);
  if (close?.[1]) {
    return { out: CONTENT_HIDDEN.has(close[1].toLowerCase()) ? '' : close[0], end: at + close[0].length };
  }
  OPEN_TAG.lastIndex = at;
  const open = OPEN_TAG.exec(text);
  if (!open?.[1]) return undefined;
  const name = open[1].toLowerCase();
  let end = at + open[0].length;
  if (CONTENT_HIDDEN.has(name)) {
    tally.hiddenHtml++;
    if (open.groups?.slash !== '/') {
      const closing = new RegExp(String.raw`</${name}[ \t\n]*>`, 'ig');
      closing.lastIndex = end;
      const m = closing.exec(text);
      end = m ? m.index + m[0].length : text.length;
    }
    return { out: '', end };
  }
  let kept = '';
  let dropped = 0;
  for (const a of (open[2] ?? '').matchAll(ATTRIBUTES)) {
    if (a[1]?.toLowerCase() === KEPT_ATTRIBUTE[name] && a[2]) kept += ` ${a[1]}=${a[2]}`;
    else dropped++;
  }
  if (dropped === 0) return { out: open[0], end };
  tally.htmlAttributes += dropped;
  return { out: `<${open[1]}${kept}${open.groups?.slash === '/' ? ' /' : ''}>`, end };
}

// The destination is not empty, so the blanks before and after it cannot trade characters (quadratic time).
const LINK_TITLE = new RegExp(
  String.raw`(\]\([ \t\n]*(?:<[^<>\n]*>|[^\s()<>]+(?:\([^\s()]*\)[^\s()]*)*))[ \t\n]+(?:${TITLE})[ \t\n]*\)`,
  'g',
);
const REFERENCE = /(!?)\[((?:\\.|[^\\[\]])+)\](?:\[((?:\\.|[^\\[\]])*)\])?(?![(:])/g;
const CHAR_REF = /&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));/g;

/** Plain prose between code spans and HTML: link titles, references to removed definitions, char references. */
function cleanText(text: string, defs: Map<string, string>, tally: HiddenTally): string {
  return text
    .replace(LINK_TITLE, (_m, head: string) => {
      tally.linkTitles++;
      return `${head})`;
    })
    .replace(REFERENCE, (m, bang: string, first: string, second: string | undefined) => {
      const dest = defs.get(normalizeLabel(second || first));
      return dest === undefined ? m : `${bang}[${first}](${dest})`;
    })
    .replace(CHAR_REF, (m, hex: string | undefined, dec: string | undefined) => {
      const cp = hex ? parseInt(hex, 16) : Number(dec);
      if (cp > 0x10ffff || !INVISIBLE_ONE.test(String.fromCodePoint(cp))) return m;
      tally.invisibleCharacters++;
      return '';
    });
}

/** Prose with code spans kept verbatim and HTML reduced to what GitHub shows, scanned left to right as a parser does. */
function cleanProse(text: string, defs: Map<string, string>, tally: HiddenTally): string {
  let out = '';
  let from = 0;
  let i = 0;
  const flush = (to: number): void => {
    out += cleanText(text.slice(from, to), defs, tally);
  };
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\') {
      i += 2;
    } else if (ch === '`') {
      const run = /`+/y;
      run.lastIndex = i;
      const n = run.exec(text)?.[0].length ?? 1;
      const closing = new RegExp(`(?<!\`)\`{${n}}(?!\`)`, 'g');
      closing.lastIndex = i + n;
      const m = closing.exec(text);
      if (m && !/\n[ \t]*\n/.test(text.slice(i, m.index))) {
        flush(i);
        out += text.slice(i, m.index + n);
        i = from = m.index + n;
      } else {
        i += n;
      }
    } else if (ch === '<') {
      const html = htmlAt(text, i, tally);
      if (html) {
        flush(i);
        out += html.out;
        i = from = html.end;
      } else {
        i++;
      }
    } else {
      i++;
    }
  }
  flush(text.length);
  return out;
}

/** `/[ \t]+$/` without its quadratic time on a long run of blanks that does not end the line. */
function trimTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

/**
 * The text a reader of the rendered GitHub page sees, as markdown (see the module comment), with what was
 * removed counted into `tally`: trailing spaces trimmed, runs of blank lines collapsed.
 */
export function sanitizeUserTextCounted(text: string | null | undefined, tally: HiddenTally): string {
  if (!text) return '';
  const normalized = stripInvisible(text.replace(/\r\n?/g, '\n'), tally);
  const blocks = splitFences(normalized);
  const defs = new Map<string, string>();
  const prose = blocks.map((b) => (b.code ? b.text : removeDefinitions(b.text, defs, tally)));
  return blocks
    .map((b, i) => (b.code ? b.text : cleanProse(prose[i] ?? '', defs, tally)))
    .join('\n')
    .split('\n')
    .map(trimTrailingBlanks)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** `sanitizeUserTextCounted` when nobody needs the count (trigger phrases, the `prompt` input). */
export function sanitizeUserText(text: string | null | undefined): string {
  return sanitizeUserTextCounted(text, emptyTally());
}

/** Code GitHub shows verbatim (a review comment's diff hunk): only its invisible characters go. */
export function sanitizeCode(text: string, tally: HiddenTally): string {
  return stripInvisible(text, tally);
}
