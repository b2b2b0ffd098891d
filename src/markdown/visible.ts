/**
 * The text a reader of the rendered GitHub page saw, as markdown: what the agent is given of an issue, a comment or
 * a pull request. GitHub renders some markdown as nothing and some characters are invisible; a maintainer approving
 * a run cannot see them, so the agent must not read them as instructions (they are the usual carriers of hidden
 * prompt injection). Decided on the parsed tree (parse.ts), edited in the source so the rest stays as written:
 * - link reference definitions (`[x]: https://e "SYSTEM: …"` renders nothing) go, and each use of one becomes an
 *   inline link to its destination, which is what a reader can follow; unreferenced footnote definitions (GitHub
 *   drops them) go too;
 * - link and image titles: a hover tooltip, not text;
 * - in HTML (blocks and inline tags): comments, processing instructions, declarations and CDATA; the contents of
 *   elements GitHub does not render (`<script>`, `<style>`, `<template>`, …); every attribute but `href` on `<a>`
 *   and `src` on `<img>` (GitHub's sanitiser drops `style`, `hidden`, `class`, so `<div hidden>` shows its text,
 *   which is kept; `title` and `alt` are tooltips);
 * - invisible characters (zero-width, bidi controls, tag characters, variation selectors not after an emoji…),
 *   also inside code, where they are just as invisible, and as numeric character references.
 * Code (fenced, indented, inline) is shown verbatim, so its markup is kept.
 */
import type { Nodes, Parents, Root } from 'mdast';
import { applyEdits, normalizeNewlines, parseBounded, span, walk, type Edit } from './parse.js';

/** What was removed from a text because GitHub does not show it, by kind. */
export interface HiddenTally {
  referenceDefinitions: number;
  linkTitles: number;
  htmlComments: number;
  hiddenHtml: number;
  htmlAttributes: number;
  invisibleCharacters: number;
  minimizedComments: number;
  /** Texts left out whole because they are beyond what is parsed (parse.ts `beyondBounds`). */
  unreadableTexts: number;
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
    unreadableTexts: 0,
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
  ['unreadableTexts', 'text too complex to read safely', 'texts too complex to read safely'],
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

// The grammar of one tag (CommonMark's "open tag" and "closing tag"), applied only where the parser found HTML.
const ATTRIBUTE = String.raw`[ \t\n]+([A-Za-z_:][\w.:-]*)(?:[ \t\n]*=[ \t\n]*("[^"]*"|'[^']*'|[^\s"'=<>\x60]+))?`;
const OPEN_TAG = new RegExp(
  String.raw`<([A-Za-z][A-Za-z0-9-]*)((?:${ATTRIBUTE})*)[ \t\n]*(?<slash>/?)>`,
  'y',
);
const CLOSE_TAG = /<\/([A-Za-z][A-Za-z0-9-]*)[ \t\n]*>/y;
const ATTRIBUTES = new RegExp(ATTRIBUTE, 'g');
// `<!-- … -->`, `<? … ?>`, `<![CDATA[ … ]]>`, `<!DECLARATION >`; an unterminated one is removed to the end, as an
// HTML block hides everything after it.
const HTML_COMMENT =
  /<!--[\s\S]*?(?:-->|$)|<\?[\s\S]*?(?:\?>|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![A-Za-z][^>]*(?:>|$)/y;

/** The HTML at `at` (a `<`) as GitHub shows it, and where it ends; undefined when no tag starts there. */
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

/** Raw HTML (the source of an html node) as GitHub shows it: each tag, comment and hidden element reduced. */
function cleanHtml(src: string, tally: HiddenTally): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const lt = src.indexOf('<', i);
    if (lt < 0) return out + src.slice(i);
    out += src.slice(i, lt);
    const html = htmlAt(src, lt, tally);
    if (html) {
      out += html.out;
      i = html.end;
    } else {
      out += '<';
      i = lt + 1;
    }
  }
  return out;
}

/** The name of the element an inline html node opens (not self-closed), or undefined. */
function openedElement(value: string): string | undefined {
  OPEN_TAG.lastIndex = 0;
  const m = OPEN_TAG.exec(value);
  return m?.[1] && m.groups?.slash !== '/' && m[0].length === value.length ? m[1].toLowerCase() : undefined;
}

function closesElement(value: string, name: string): boolean {
  CLOSE_TAG.lastIndex = 0;
  const m = CLOSE_TAG.exec(value);
  return m?.[1]?.toLowerCase() === name && m[0].length === value.length;
}

/** A link destination as markdown: bare when it needs no quoting, else in angle brackets. */
function destination(url: string): string {
  return /^[^\s<>()\\]*$/.test(url) && url !== '' ? url : `<${url.replace(/[<>\\]/g, (c) => `\\${c}`)}>`;
}

const CHAR_REF = /&#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));/g;

interface Scan {
  text: string;
  tally: HiddenTally;
  edits: Edit[];
  /** Definitions by identifier: where a reference to one leads. */
  definitions: Map<string, string>;
  /** Footnote identifiers that are referenced. */
  footnotes: Set<string>;
}

/** The source of a node's children, from the first's start to the last's end ('' when it has none). */
function childrenSource(s: Scan, node: Parents): string {
  const first = node.children[0];
  const last = node.children.at(-1);
  return first && last ? s.text.slice(span(first).start, span(last).end) : '';
}

/** Inline content-hidden elements (`<script>…</script>` inside a paragraph) go whole, text between the tags too. */
function hiddenInline(s: Scan, parent: Parents): Set<Nodes> {
  const gone = new Set<Nodes>();
  const kids = parent.children;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    if (kid.type !== 'html') continue;
    const name = openedElement(kid.value);
    if (!name || !CONTENT_HIDDEN.has(name)) continue;
    let j = i + 1;
    while (
      j < kids.length &&
      !(kids[j]!.type === 'html' && closesElement((kids[j] as { value: string }).value, name))
    )
      j++;
    const last = kids[Math.min(j, kids.length - 1)]!;
    s.edits.push({ start: span(kid).start, end: span(last).end, text: '' });
    s.tally.hiddenHtml++;
    for (let k = i; k <= Math.min(j, kids.length - 1); k++) gone.add(kids[k]!);
    i = j;
  }
  return gone;
}

function scanNode(s: Scan, node: Nodes, gone: Set<Nodes>): boolean {
  if (gone.has(node)) return false;
  const { start, end } = span(node);
  switch (node.type) {
    case 'definition':
      // The line stays (empty): removing its newline would join a container's next line to this one's markers.
      s.tally.referenceDefinitions++;
      s.edits.push({ start, end, text: '' });
      return false;
    case 'footnoteDefinition':
      if (s.footnotes.has(node.identifier)) return true;
      s.tally.referenceDefinitions++;
      s.edits.push({ start, end, text: '' });
      return false;
    case 'linkReference': {
      const url = s.definitions.get(node.identifier) ?? '';
      s.edits.push({ start, end, text: `[${childrenSource(s, node)}](${destination(url)})` });
      return false;
    }
    case 'imageReference': {
      const url = s.definitions.get(node.identifier) ?? '';
      s.edits.push({ start, end, text: `![${node.alt ?? ''}](${destination(url)})` });
      return false;
    }
    case 'link':
      if (!node.title) return true;
      s.tally.linkTitles++;
      s.edits.push({ start, end, text: `[${childrenSource(s, node)}](${destination(node.url)})` });
      return false;
    case 'image':
      if (!node.title) return false;
      s.tally.linkTitles++;
      s.edits.push({ start, end, text: `![${node.alt ?? ''}](${destination(node.url)})` });
      return false;
    case 'html': {
      const src = s.text.slice(start, end);
      const clean = cleanHtml(src, s.tally);
      if (clean !== src) s.edits.push({ start, end, text: clean });
      return false;
    }
    case 'text': {
      const src = s.text.slice(start, end);
      for (const m of src.matchAll(CHAR_REF)) {
        const cp = m[1] ? parseInt(m[1], 16) : Number(m[2]);
        if (cp > 0x10ffff || !INVISIBLE_ONE.test(String.fromCodePoint(cp))) continue;
        s.tally.invisibleCharacters++;
        s.edits.push({ start: start + m.index, end: start + m.index + m[0].length, text: '' });
      }
      return false;
    }
    default:
      return true;
  }
}

function hiddenEdits(text: string, tree: Root, tally: HiddenTally): Edit[] {
  const s: Scan = { text, tally, edits: [], definitions: new Map(), footnotes: new Set() };
  walk(tree, (node) => {
    if (node.type === 'definition' && !s.definitions.has(node.identifier))
      s.definitions.set(node.identifier, node.url);
    if (node.type === 'footnoteReference') s.footnotes.add(node.identifier);
  });
  const gone = new Set<Nodes>();
  walk(tree, (node) => {
    if ('children' in node) for (const g of hiddenInline(s, node)) gone.add(g);
    return scanNode(s, node, gone);
  });
  return s.edits;
}

/** `/[ \t]+$/` without its quadratic time on a long run of blanks that does not end the line. */
function trimTrailingBlanks(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

/** Said in place of a text that is beyond what is parsed: nothing of it reaches the agent. */
function unreadableNote(why: string): string {
  return `[gemini-run left this text out: ${why}, too complex to read safely]`;
}

/**
 * The text a reader of the rendered GitHub page sees, as markdown (see the module comment), with what was
 * removed counted into `tally`: trailing blanks trimmed, runs of blank lines collapsed. Leading blank lines go, but
 * never the first line's indentation: four spaces make it code, and code it stays.
 */
export function visibleText(text: string | null | undefined, tally: HiddenTally): string {
  if (!text) return '';
  const normalized = stripInvisible(normalizeNewlines(text), tally);
  const parsed = parseBounded(normalized);
  if (parsed.kind === 'refused') {
    tally.unreadableTexts++;
    return unreadableNote(parsed.why);
  }
  return applyEdits(normalized, hiddenEdits(normalized, parsed.tree, tally))
    .split('\n')
    .map(trimTrailingBlanks)
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/^\n+/, '')
    .trimEnd();
}

/** Code GitHub shows verbatim (a review comment's diff hunk): only its invisible characters go. */
export function visibleCode(text: string, tally: HiddenTally): string {
  return stripInvisible(text, tally);
}
