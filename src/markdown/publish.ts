/**
 * Outbound text: what the action publishes on GitHub (pull request body, comments, job summary, the
 * `final-message` output) carries only what the run means, whatever the agent (or an issue's author) wrote.
 *
 * Text the action did not write enters a body only through one of three doors:
 * - `publishedBlock`: markdown, parsed (parse.ts), neutralised in the tree and serialised back as a document of its
 *   own. Every container it opens is closed in its own output (fences, lists, quotes, HTML blocks cannot outlive
 *   it), so the action's text after it is never inside something the agent opened; the caller puts it between
 *   blank lines (`block`).
 * - `codeSpan`: text shown as inline code (a path, a command, a tool name): nothing GitHub acts on lives in code.
 * - `plainInline`: a line of prose (a commit subject, an error) with every markup character escaped.
 * In all three, what GitHub would act on is made inert (github-text.ts): a mention, a reference to any issue but
 * the run's own (so no closing keyword can close another), a link or an image to anywhere but the own server, raw
 * HTML (shown as text), hidden text (HTML comments, reference definitions).
 *
 * `publishedDocument` is the last check over a whole body the action assembled: it keeps the action's own markup
 * (its `<details>`, links to its run and pull requests, references in its own repository) and makes inert whatever
 * would still be live (a mention, a reference to another repository, a closing keyword for another issue, an
 * outside link, HTML outside a short allow-list or left unbalanced). Pure and idempotent.
 */
import type { Nodes, Parents, PhrasingContent, Root, RootContent } from 'mdast';
import { gfmToMarkdown } from 'mdast-util-gfm';
import { toMarkdown, type Options as ToMarkdownOptions } from 'mdast-util-to-markdown';
import { isOwnReference, linkKind, liveSpans, type RepoContext } from './github-text.js';
import { applyEdits, normalizeNewlines, parseBounded, sourceRange, span, walk, type Edit } from './parse.js';

export type PublishContext = RepoContext;

/** The longest run of `ch` in `text`. */
function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * `text` as one inline code span: on one line, fenced by more backticks than it holds, padded when it starts or
 * ends with a backtick. Inside code GitHub links, mentions and renders nothing. `table`: inside a table cell,
 * where a pipe ends the cell even in code unless escaped.
 */
export function codeSpan(text: string, o: { table?: boolean } = {}): string {
  let one = text.replace(/\s+/g, ' ');
  if (o.table) one = one.replace(/\|/g, '\\|');
  if (one === '') return '` `';
  const fence = '`'.repeat(longestRun(one, '`') + 1);
  const pad =
    one.startsWith('`') || one.endsWith('`') || (one.startsWith(' ') && one.endsWith(' ')) ? ' ' : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/**
 * One line of text escaped so it forms no markup where it stands: every character an inline construct starts or
 * ends with, and, where the text opens a line (after `> `, say), a block marker.
 */
function escapeInline(text: string, opensLine: boolean): string {
  const inline = text.replace(/[\\`*_~[\]!<>&|#]/g, (c) => `\\${c}`);
  return opensLine
    ? inline.replace(/^(\s*)([-+=])/, '$1\\$2').replace(/^(\s*\d{1,9})([.)])/, '$1\\$2')
    : inline;
}

/**
 * A line of untrusted prose (a commit subject, an error message): rendered as written, on one line, with no
 * markup, every mention, foreign reference and URL in it shown as code, and no HTML comment.
 */
export function plainInline(text: string, ctx: PublishContext, o: { table?: boolean } = {}): string {
  // An HTML comment goes here too: the only records in a published body are the action's own.
  const one = withoutComments(text).replace(/\s+/g, ' ');
  let out = '';
  let at = 0;
  for (const live of liveSpans(one, ctx)) {
    out += escapeInline(one.slice(at, live.start), at === 0) + codeSpan(one.slice(live.start, live.end), o);
    at = live.end;
  }
  return out + escapeInline(one.slice(at), at === 0);
}

/** A fragment between blank lines, so it neither continues what stands before it nor lets what follows continue it. */
export function block(fragment: string): string {
  return `\n\n${fragment.trim()}\n\n`;
}

/**
 * `text` as a fenced code block that nothing in it can close or leave: a fence of more backticks than its longest
 * run (at least three), with `info` (a language, or `suggestion`) on the opening line. Empty text is an empty block
 * (a suggestion that deletes its lines). The caller puts it between blank lines (`block`).
 */
export function codeBlock(text: string, info: string): string {
  const body = normalizeNewlines(text).replace(/\n$/, '');
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return body === '' ? `${fence}${info}\n${fence}` : `${fence}${info}\n${body}\n${fence}`;
}

/** Text that cannot be parsed safely (parse.ts bounds), shown verbatim in a fence it cannot close. */
function verbatim(text: string): string {
  return codeBlock(text, 'text');
}

const code = (value: string): PhrasingContent => ({ type: 'inlineCode', value });
const text = (value: string): PhrasingContent => ({ type: 'text', value });

/** A text node's value split where GitHub would act on it: those parts become code. */
function inertText(value: string, ctx: PublishContext): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let at = 0;
  for (const live of liveSpans(value, ctx)) {
    if (live.start > at) out.push(text(value.slice(at, live.start)));
    out.push(code(value.slice(live.start, live.end)));
    at = live.end;
  }
  if (at < value.length) out.push(text(value.slice(at)));
  return out;
}

/** Raw HTML without its comments (`<!-- … -->`; an unterminated one to the end). */
function withoutComments(html: string): string {
  let out = '';
  let at = 0;
  for (let open = html.indexOf('<!--'); open >= 0; open = html.indexOf('<!--', at)) {
    out += html.slice(at, open);
    const close = html.indexOf('-->', open + 4);
    at = close < 0 ? html.length : close + 3;
  }
  return out + html.slice(at);
}

/** The plain text of a node (what `![alt]` or a link's label reads as). */
function plainOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('children' in node) return (node.children as Nodes[]).map(plainOf).join('');
  return '';
}

interface Resolve {
  ctx: PublishContext;
  /** Link reference definitions by identifier. */
  definitions: Map<string, string>;
}

/** Parents whose children are blocks: an HTML node there is an HTML block. */
const BLOCK_PARENTS = new Set(['root', 'blockquote', 'listItem', 'footnoteDefinition']);

/**
 * The node made inert, as the nodes that replace it (none, itself, or others). Children are done first, so a
 * replacement is built from nodes already made inert.
 */
function inert(node: RootContent, r: Resolve, inBlock: boolean): RootContent[] {
  if ('children' in node) {
    const parent = node as Parents;
    const blocks = BLOCK_PARENTS.has(parent.type);
    parent.children = parent.children.flatMap((c) => inert(c, r, blocks));
  }
  switch (node.type) {
    case 'text':
      return inertText(node.value, r.ctx);
    case 'html': {
      // An HTML comment is hidden text: it goes (a record forged in one is then nowhere). Other raw HTML is shown
      // as the text it is: nothing hides, loads or opens a container.
      const shown = withoutComments(node.value);
      if (shown.trim() === '') return [];
      return inBlock ? [{ type: 'paragraph', children: inertText(shown, r.ctx) }] : inertText(shown, r.ctx);
    }
    case 'definition':
      return [];
    case 'footnoteReference':
      return [text(`[^${node.label ?? node.identifier}]`)];
    case 'footnoteDefinition':
      // Shown where it stands: GitHub would move it under everything else, the action's own text included.
      return [
        { type: 'paragraph', children: [text(`[^${node.label ?? node.identifier}]:`)] },
        ...(node.children as RootContent[]),
      ];
    case 'linkReference':
    case 'link': {
      const url = node.type === 'link' ? node.url : (r.definitions.get(node.identifier) ?? '');
      if (url && linkKind(url, r.ctx) === 'allowed')
        return [{ type: 'link', url, title: null, children: node.children }];
      const label = plainOf(node);
      // An autolink (its label is its URL) shows once, as code; a labelled link keeps its label as text.
      if (!url || label === url || `mailto:${label}` === url || `http://${label}` === url)
        return [code(label || url)];
      return [...(node.children as RootContent[]), text(' ('), code(url), text(')')];
    }
    case 'imageReference':
    case 'image': {
      const url = node.type === 'image' ? node.url : (r.definitions.get(node.identifier) ?? '');
      if (url && linkKind(url, r.ctx) === 'allowed')
        return [{ type: 'image', url, alt: node.alt ?? '', title: null }];
      return [code(`![${node.alt ?? ''}](${url})`)];
    }
    default:
      return [node];
  }
}

const SERIALIZE: ToMarkdownOptions = {
  extensions: [gfmToMarkdown()],
  fences: true,
  bullet: '-',
  rule: '-',
  emphasis: '_',
  strong: '*',
  listItemIndent: 'one',
  resourceLink: true,
};

function once(source: string, ctx: PublishContext): string | undefined {
  const parsed = parseBounded(source);
  if (parsed.kind === 'refused') return undefined;
  const tree: Root = parsed.tree;
  tree.children = tree.children.flatMap((c) => inert(c, { ctx, definitions: definitionsOf(tree) }, true));
  return toMarkdown(tree, SERIALIZE).trim();
}

/**
 * Markdown the action did not write, as a document of its own that GitHub renders with nothing live in it (see
 * the module comment). Serialising can make text that reads differently when parsed again (a label of an unwrapped
 * link that is itself a bare URL), so the result is parsed and neutralised again until it no longer changes; text
 * that does not settle, or cannot be parsed within the bounds, is shown verbatim in a code block.
 */
export function publishedBlock(agentText: string, ctx: PublishContext): string {
  const source = normalizeNewlines(agentText).trim();
  if (source === '') return '';
  let current = source;
  try {
    for (let round = 0; round < 3; round++) {
      const next = once(current, ctx);
      if (next === undefined) break;
      if (next === current) return next;
      current = next;
    }
  } catch (error) {
    // Inline nesting thousands deep (`*_*_…`) can exhaust the stack while the tree is walked or written.
    if (!(error instanceof RangeError)) throw error;
  }
  return verbatim(source);
}

// ---------------------------------------------------------------------------------------------------------------
// The whole body.

/** Tags the action writes, kept when balanced: they cannot load, link or hide anything. */
const OWN_TAG = /^<(\/?)(details|summary|br|sub|sup|kbd|b|i|em|strong|code|p|hr)(?: open)?\s*\/?>/i;
const VOID = new Set(['br', 'hr']);

interface Tag {
  at: number;
  end: number;
  /** An own tag's name; undefined for any other `<`. */
  name?: string;
  close: boolean;
  comment: boolean;
}

/** Each tag of a raw HTML source: where it is, and whether it is one of the action's own. */
function tagsOf(src: string): Tag[] {
  const out: Tag[] = [];
  for (let i = src.indexOf('<'); i >= 0; i = src.indexOf('<', i + 1)) {
    if (src.startsWith('<!--', i)) {
      const end = src.indexOf('-->', i + 4);
      const stop = end < 0 ? src.length : end + 3;
      out.push({ at: i, end: stop, close: false, comment: true });
      i = stop - 1;
      continue;
    }
    const m = OWN_TAG.exec(src.slice(i, i + 40));
    out.push(
      m
        ? { at: i, end: i + m[0].length, name: m[2]!.toLowerCase(), close: m[1] === '/', comment: false }
        : { at: i, end: i + 1, close: false, comment: false },
    );
  }
  return out;
}

/** Raw HTML shown as the text it is, every live part of it as code: for HTML that may not stay HTML. */
function asText(value: string, ctx: PublishContext, inBlock: boolean): string {
  const children = inertText(inBlock ? value : value.replace(/\s+/g, ' '), ctx);
  return toMarkdown({ type: 'paragraph', children }, SERIALIZE).trim();
}

/**
 * The raw HTML of a body: a node made only of own tags that pair up across the body keeps them (comments go, live
 * text between tags goes into `<code>`); any other node is shown as text whole, so an unbalanced `<details>` can
 * neither fold nor hold what follows.
 */
function htmlEdits(source: string, tree: Root, ctx: PublishContext): Edit[] {
  const nodes: { start: number; end: number; src: string; tags: Tag[]; block: boolean }[] = [];
  walk(tree, (node, ancestors) => {
    if (node.type !== 'html') return true;
    const { start, end } = span(node);
    const src = source.slice(start, end);
    nodes.push({
      start,
      end,
      src,
      tags: tagsOf(src),
      block: BLOCK_PARENTS.has(ancestors.at(-1)?.type ?? 'root'),
    });
    return false;
  });
  const bad = new Set<number>();
  const open: { name: string; node: number }[] = [];
  nodes.forEach((n, i) => {
    for (const tag of n.tags) {
      if (tag.comment) continue;
      if (!tag.name) bad.add(i);
      else if (VOID.has(tag.name)) continue;
      else if (!tag.close) open.push({ name: tag.name, node: i });
      else if (open.at(-1)?.name === tag.name) open.pop();
      else bad.add(i);
    }
  });
  for (const o of open) bad.add(o.node);
  const edits: Edit[] = [];
  nodes.forEach((n, i) => {
    if (bad.has(i)) {
      edits.push({ start: n.start, end: n.end, text: asText(n.src, ctx, n.block) });
      return;
    }
    let from = 0;
    for (const tag of n.tags) {
      // The text between tags is rendered by GitHub's filters too; in raw HTML only an element keeps it inert.
      edits.push(...textEdits(n.src.slice(from, tag.at), n.start + from, ctx, 'html'));
      if (tag.comment) edits.push({ start: n.start + tag.at, end: n.start + tag.end, text: '' });
      from = tag.end;
    }
    edits.push(...textEdits(n.src.slice(from), n.start + from, ctx, 'html'));
  });
  return edits;
}

/** Closing keywords, before a reference in the same text: GitHub closes what they name when the change merges. */
const KEYWORD_BEFORE = /(?:^|[^A-Za-z0-9_])(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ \t]*:?[ \t]+$/i;

/**
 * Edits making the live parts of a text inert. `markdown`: the source is markdown text (a reference in the own
 * repository stays unless a closing keyword stands before it); `html`: text inside raw HTML, where only an element
 * keeps it from GitHub's filters.
 */
function textEdits(src: string, offset: number, ctx: PublishContext, where: 'markdown' | 'html'): Edit[] {
  const edits: Edit[] = [];
  const here = `${ctx.owner}/${ctx.repo}`.toLowerCase();
  for (const live of liveSpans(src, ctx, 'allowed')) {
    const token = src.slice(live.start, live.end);
    if (live.kind === 'reference') {
      const repo = /^([^#]+)#/.exec(token)?.[1];
      const sameRepo = !repo || repo.toLowerCase() === here;
      const keyword = KEYWORD_BEFORE.test(src.slice(Math.max(0, live.start - 40), live.start));
      if (sameRepo && !keyword && !isOwnReference(token, ctx) && where === 'markdown' && !repo) continue;
    }
    const replacement = where === 'html' ? `<code>${token.replace(/[<>&]/g, '')}</code>` : codeSpan(token);
    edits.push({ start: offset + live.start, end: offset + live.end, text: replacement });
  }
  return edits;
}

/** Link reference definitions by identifier (the first of a label wins, as in CommonMark). */
function definitionsOf(tree: Root): Map<string, string> {
  const definitions = new Map<string, string>();
  walk(tree, (node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier))
      definitions.set(node.identifier, node.url);
  });
  return definitions;
}

/** A text node's live parts, each edited where it stands in the source; the node rewritten whole if one cannot be placed. */
function textNodeEdits(source: string, node: Nodes & { value: string }, ctx: PublishContext): Edit[] {
  const { start, end } = span(node);
  const src = source.slice(start, end);
  if (src === node.value) return textEdits(src, start, ctx, 'markdown');
  const edits: Edit[] = [];
  for (const e of textEdits(node.value, 0, ctx, 'markdown')) {
    const range = sourceRange(src, node.value, e.start, e.end);
    if (!range) return [{ start, end, text: plainInline(node.value, ctx) }];
    edits.push({ start: start + range[0], end: start + range[1], text: e.text });
  }
  return edits;
}

/** The last check over a body the action assembled (see the module comment). */
export function publishedDocument(body: string, ctx: PublishContext): string {
  const source = normalizeNewlines(body);
  const parsed = parseBounded(source);
  if (parsed.kind === 'refused') return verbatim(source);
  const definitions = definitionsOf(parsed.tree);
  const edits: Edit[] = htmlEdits(source, parsed.tree, ctx);
  walk(parsed.tree, (node) => {
    const { start, end } = span(node);
    switch (node.type) {
      case 'code':
      case 'inlineCode':
      case 'html':
        return false;
      case 'text':
        edits.push(...textNodeEdits(source, node, ctx));
        return false;
      case 'definition':
        if (linkKind(node.url, ctx, 'allowed') === 'outside') edits.push({ start, end, text: '' });
        return false;
      case 'footnoteReference':
      case 'footnoteDefinition':
        // GitHub moves a footnote under everything else, the action's own text included: shown where it stands.
        edits.push({ start, end: start + 1, text: '\\[' });
        return node.type === 'footnoteDefinition';
      case 'link':
      case 'linkReference':
      case 'image':
      case 'imageReference': {
        const url = 'url' in node ? node.url : (definitions.get(node.identifier) ?? '');
        // A link to another issue of the repository stays (the action links its pull request), unless a closing
        // keyword stands before it.
        const keyword = KEYWORD_BEFORE.test(source.slice(Math.max(0, start - 40), start));
        if (linkKind(url, ctx, keyword ? 'outside' : 'allowed') === 'allowed') return true;
        if (node.type === 'image' || node.type === 'imageReference')
          edits.push({ start, end, text: codeSpan(source.slice(start, end)) });
        else edits.push({ start, end, text: `${plainInline(plainOf(node), ctx)} (${codeSpan(url)})` });
        return false;
      }
      default:
        return true;
    }
  });
  return applyEdits(source, edits);
}
