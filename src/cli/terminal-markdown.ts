/**
 * Markdown written for GitHub (a pull request's body, a comment), shown in a terminal: read with the CommonMark +
 * GFM parser GitHub's own renderer agrees with, and printed as text — escapes resolved (`\/gemini` is `/gemini`),
 * inline HTML such as `<code>` said as backticks, hidden markers (`<!-- … -->`) left out, tables aligned, links
 * with their address. The published text itself stays as GitHub needs it; only the terminal sees this.
 */
import type { Parent, PhrasingContent, Root, RootContent, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** Inline HTML said in text: code as backticks, line breaks as breaks, every other tag left out. */
function inlineHtml(value: string): string {
  if (/^<\/?code>$/i.test(value)) return '`';
  if (/^<br\s*\/?>$/i.test(value)) return '\n';
  return '';
}

function inline(nodes: readonly PhrasingContent[]): string {
  return nodes.map(phrase).join('');
}

function phrase(node: PhrasingContent): string {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'inlineCode':
      return `\`${node.value}\``;
    case 'strong':
    case 'emphasis':
    case 'delete':
      return inline(node.children);
    case 'link': {
      const text = inline(node.children);
      return text === node.url || node.url.startsWith('#') ? text : `${text} (${node.url})`;
    }
    case 'image':
      return node.alt ?? '';
    case 'break':
      return '\n';
    case 'html':
      return inlineHtml(node.value);
    default:
      return 'children' in node ? inline((node as Parent).children as PhrasingContent[]) : '';
  }
}

function table(node: Table): string[] {
  const rows = node.children.map((row) => row.children.map((cell) => inline(cell.children).trim()));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => [...(r[i] ?? '')].length))) ?? [];
  const line = (r: string[]) =>
    r
      .map((cell, i) => {
        const pad = ' '.repeat(Math.max(0, (widths[i] ?? 0) - [...cell].length));
        return node.align?.[i] === 'right' ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  // A header row of empty cells (`| | |`, a key-value table) is no header.
  const [head, ...body] = rows;
  if (head && head.every((c) => c === '')) return body.map(line);
  return head ? [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)] : [];
}

/** A block HTML node: `<details><summary>X</summary>` says X; markers and other tags are left out. */
function htmlBlock(value: string): string[] {
  const summary = /<summary>([\s\S]*?)<\/summary>/i.exec(value)?.[1];
  if (summary !== undefined) return [`${summary.replace(/<[^>]*>/g, '').trim()}:`];
  const text = value
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]*>/g, '')
    .trim();
  return text ? [text] : [];
}

function block(node: RootContent, out: string[]): void {
  switch (node.type) {
    case 'heading':
      out.push(`${'#'.repeat(node.depth)} ${inline(node.children)}`);
      break;
    case 'paragraph':
      out.push(inline(node.children));
      break;
    case 'code':
      out.push(...node.value.split('\n').map((l) => `    ${l}`));
      break;
    case 'blockquote':
      out.push(...linesOf(blocks(node.children)).map((l) => (l ? `> ${l}` : '>')));
      break;
    case 'list':
      node.children.forEach((item, i) => {
        const bullet = node.ordered ? `${(node.start ?? 1) + i}. ` : '- ';
        const lines = linesOf(blocks(item.children)).filter((l) => l !== '');
        out.push(...lines.map((l, j) => (j === 0 ? bullet : ' '.repeat(bullet.length)) + l));
      });
      break;
    case 'table':
      out.push(...table(node));
      break;
    case 'thematicBreak':
      out.push('---');
      break;
    case 'html':
      out.push(...htmlBlock(node.value));
      break;
    default:
      if ('children' in node) out.push(...blocks((node as Parent).children));
  }
}

/** Blocks' text as single lines (a paragraph holds its soft line breaks). */
function linesOf(text: string[]): string[] {
  return text.flatMap((l) => l.split('\n'));
}

function blocks(nodes: readonly RootContent[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    const lines: string[] = [];
    block(node, lines);
    if (lines.length === 0) continue;
    if (out.length > 0) out.push('');
    out.push(...lines);
  }
  return out;
}

/** Pure: GitHub markdown as terminal text. */
export function markdownForTerminal(markdown: string): string {
  const tree: Root = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  return blocks(tree.children).join('\n');
}
