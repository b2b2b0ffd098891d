/**
 * GitHub's renderer as the oracle: `cmark-gfm` (the Debian package, installed by .ci/run) renders a text with
 * GitHub's extensions to its XML tree, which the tests walk to see what a reader of the page gets: text, code,
 * quotes, links, images, raw HTML. Without the binary the tests fail, never skip: the oracle is the point.
 *
 * The tree is GitHub's markdown stage only. What GitHub does after it (mentions, references, closing keywords) is
 * written here independently of src/markdown/github-text.ts, broader where in doubt, so the product's rules are
 * checked against another reading and not against themselves.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CMARK_CACHE, keep, readKept } from './disk-cache.js';

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** Text content for text-bearing nodes (text, code, code_block, html_*). */
  text: string;
}

const EXTENSIONS = ['table', 'strikethrough', 'autolink', 'tagfilter', 'tasklist', 'footnotes'];
const XML_ARGS = ['-t', 'xml', '--unsafe', ...EXTENSIONS.flatMap((e) => ['-e', e])];

/**
 * The cmark-gfm tree of `markdown`, as GitHub parses it (raw HTML kept: GitHub renders it, sanitised). `keep: false`
 * for a text that is never asked again (a benchmark's), so it is not kept on disk.
 */
export function cmarkTree(markdown: string, o: { keep?: boolean } = {}): XmlNode {
  const known = trees.get(markdown);
  if (known) return known;
  const tree = parseXml(renderXml(markdown, o.keep !== false));
  trees.set(markdown, tree);
  return tree;
}

/** Trees already rendered: the tests ask for the same text more than once, and each render is a process. */
const trees = new Map<string, XmlNode>();

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let cacheDir: string | undefined;
/**
 * Where cmark-gfm's answers are kept between runs (node_modules/.cache): the oracle's thousands of fixed inputs are
 * a process each, most of the markdown tests' time. The directory is named by the binary's own `--version` and the
 * arguments, so another cmark-gfm renders afresh; asking the version also fails the test, before any kept answer is
 * read, where the binary is missing.
 */
function answers(): string {
  const version = execFileSync('cmark-gfm', ['--version'], { encoding: 'utf8' });
  return (cacheDir ??= join(CMARK_CACHE, sha256(`${version}\0${XML_ARGS.join(' ')}`).slice(0, 16)));
}

function renderXml(markdown: string, keepIt: boolean): string {
  const file = keepIt ? join(cacheDir ?? answers(), `${sha256(markdown)}.xml`) : undefined;
  const kept = file && readKept(file);
  if (kept) return kept;
  const xml = execFileSync('cmark-gfm', XML_ARGS, {
    input: markdown,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (file) keep(file, xml);
  return xml;
}

/** cmark-gfm's HTML for `markdown` (for messages). */
export function cmarkHtml(markdown: string): string {
  return execFileSync('cmark-gfm', ['--unsafe', ...EXTENSIONS.flatMap((e) => ['-e', e])], {
    input: markdown,
    encoding: 'utf8',
  });
}

function unescapeXml(s: string): string {
  return s.replace(
    /&(lt|gt|amp|quot|apos|#(\d+)|#x([0-9a-fA-F]+));/g,
    (_m, name: string, dec?: string, hex?: string) => {
      if (dec) return String.fromCodePoint(Number(dec));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }[name] ?? _m;
    },
  );
}

/** cmark's XML is regular (its own writer): tags, attributes in double quotes, escaped text. */
function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|<\?[^>]*\?>|<!DOCTYPE[^>]*>/g;
  let at = 0;
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    const between = xml.slice(at, m.index);
    if (between.trim() || stack.at(-1)!.attrs['xml:space'] === 'preserve')
      stack.at(-1)!.text += unescapeXml(between);
    at = m.index + m[0].length;
    if (!m[2]) continue;
    if (m[1] === '/') {
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (m[3] ?? '').matchAll(/([\w:.-]+)="([^"]*)"/g)) attrs[a[1]!] = unescapeXml(a[2]!);
    const node: XmlNode = { name: m[2], attrs, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    if (m[4] !== '/') stack.push(node);
  }
  return root.children[0] ?? root;
}

/** Visits every node with its ancestors (nearest last). Return false to skip the children. */
export function walkXml(node: XmlNode, visit: (n: XmlNode, ancestors: XmlNode[]) => boolean | void): void {
  const go = (n: XmlNode, ancestors: XmlNode[]): void => {
    if (visit(n, ancestors) === false) return;
    for (const c of n.children) go(c, [...ancestors, n]);
  };
  go(node, []);
}

/**
 * The runs of visible prose in a tree: adjacent `text` and `softbreak` siblings joined (a soft break is a newline),
 * with whether the run touches another inline node (emphasis, code, a link…) on each side. Not inside code, a
 * block quote, raw HTML or an image's alt text.
 */
export function proseRuns(
  tree: XmlNode,
  o: { inQuotes?: boolean; inLinks?: boolean } = {},
): {
  value: string;
  before: boolean;
  after: boolean;
  ancestors: XmlNode[];
}[] {
  const runs: { value: string; before: boolean; after: boolean; ancestors: XmlNode[] }[] = [];
  walkXml(tree, (n, ancestors) => {
    if (n.name === 'block_quote' && !o.inQuotes) return false;
    if (n.name === 'image') return false;
    if (n.name === 'link' && o.inLinks === false) return false;
    const kids = n.children;
    let i = 0;
    // Inline HTML elements GitHub's filters do not look into: text between `<code>` and `</code>` is code.
    let inCode = 0;
    while (i < kids.length) {
      const kid = kids[i]!;
      if (kid.name === 'html_inline') {
        if (/^<code\b/i.test(kid.text)) inCode++;
        else if (/^<\/code\s*>/i.test(kid.text)) inCode = Math.max(0, inCode - 1);
      }
      if ((kid.name !== 'text' && kid.name !== 'softbreak') || inCode > 0) {
        i++;
        continue;
      }
      const first = i;
      let value = '';
      while (i < kids.length && (kids[i]!.name === 'text' || kids[i]!.name === 'softbreak')) {
        value += kids[i]!.name === 'softbreak' ? '\n' : kids[i]!.text;
        i++;
      }
      const prev = kids[first - 1];
      const next = kids[i];
      runs.push({
        value,
        before: prev === undefined || prev.name === 'linebreak',
        after: next === undefined || next.name === 'linebreak',
        ancestors: [...ancestors, n],
      });
    }
    return true;
  });
  return runs;
}
