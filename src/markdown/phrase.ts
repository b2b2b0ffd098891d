/**
 * Where a trigger phrase (`/gemini`) stands in a comment, as GitHub shows it: in the text of the rendered page, not
 * inside code (fenced, indented or inline), a block quote (lazy continuation lines included: GitHub shows them
 * inside the quote) or raw HTML. A reply that quotes someone's request is not a new one, and text nobody sees as
 * prose asks for nothing. The phrase is a word of its own: not part of a longer word or path (`/gemini-foo`,
 * `x/gemini`), case-insensitive like `contains()` in a workflow's `if:`.
 *
 * Decided on the parsed tree (parse.ts): the phrase counts in a text node's value, and it is removed from the source
 * at the place that node came from. The oracle test holds this to cmark-gfm's tree.
 */
import type { Nodes, Parents, PhrasingContent } from 'mdast';
import { parseBounded, sourceRange, span, walk } from './parse.js';

const BEFORE = /[\s([{,;:!?]/;
const AFTER = /[\s)\]},;:.!?]/;

/**
 * The index of the phrase as a word in a text node's value, or -1. At the value's edge the neighbour decides: the
 * paragraph's edge or a line break is a boundary, another inline node (emphasis, code, a link) is not.
 * `strictAfter`: only a blank or the end may follow (a comment that opens with the phrase).
 */
export function phraseIndex(
  value: string,
  phrase: string,
  edges: { before: boolean; after: boolean },
  strictAfter = false,
): number {
  const lower = value.toLowerCase();
  const p = phrase.toLowerCase();
  for (let at = lower.indexOf(p); at >= 0; at = lower.indexOf(p, at + 1)) {
    const end = at + p.length;
    const okBefore = at === 0 ? edges.before : BEFORE.test(value[at - 1]!);
    const next = value[end];
    const okAfter = next === undefined ? edges.after : strictAfter ? /\s/.test(next) : AFTER.test(next);
    if (okBefore && okAfter) return at;
  }
  return -1;
}

/** Whether a node's neighbour on one side leaves a word boundary there: none, or a line break. */
function boundary(parent: Parents | undefined, node: Nodes, side: -1 | 1): boolean {
  if (!parent) return true;
  const siblings = parent.children as readonly Nodes[];
  const next = siblings[siblings.indexOf(node) + side];
  return next === undefined || next.type === 'break';
}

interface Found {
  start: number;
  end: number;
}

/** The first place the phrase stands as a word in text a reader sees as prose (see the module comment). */
function locate(text: string, phrase: string): Found | 'unmapped' | undefined {
  const parsed = parseBounded(text);
  if (parsed.kind === 'refused') return undefined;
  let found: Found | 'unmapped' | undefined;
  walk(parsed.tree, (node, ancestors) => {
    if (found !== undefined) return false;
    if (node.type === 'blockquote' || node.type === 'html') return false;
    if (node.type !== 'text') return true;
    const parent = ancestors.at(-1);
    const at = phraseIndex(node.value, phrase, {
      before: boundary(parent, node, -1),
      after: boundary(parent, node, 1),
    });
    if (at < 0) return false;
    const { start, end } = span(node);
    const range = sourceRange(text.slice(start, end), node.value, at, at + phrase.length);
    found = range ? { start: start + range[0], end: start + range[1] } : 'unmapped';
    return false;
  });
  return found;
}

/**
 * `trigger-phrase-anywhere` (and an opened issue's body): the text without the phrase when the phrase stands as a
 * word anywhere a reader sees prose, or undefined. The text around it stays: it is the request's context.
 */
export function findTriggerPhrase(text: string, phrase: string): string | undefined {
  const p = phrase.trim();
  if (!p) return undefined;
  const found = locate(text, p);
  if (found === undefined) return undefined;
  if (found === 'unmapped') return text.trim();
  const before = text.slice(0, found.start).replace(/[ \t]+$/, '');
  const after = text.slice(found.end).replace(/^[ \t]+/, '');
  const sameLine = before !== '' && !before.endsWith('\n') && after !== '' && !after.startsWith('\n');
  const gap = sameLine && !/[([{]$/.test(before) && !/^[,;:.!?)\]}]/.test(after) ? ' ' : '';
  return (before + gap + after).trim();
}

/**
 * The instruction after the trigger phrase, or undefined when the comment does not open with it: the first block
 * is a paragraph whose text starts with the phrase, followed by a blank or the end. So `/gemini-foo`, a quoted
 * request, code and a phrase after other text do not trigger.
 */
export function matchTriggerPhrase(text: string, phrase: string): string | undefined {
  const p = phrase.trim();
  if (!p) return undefined;
  const parsed = parseBounded(text);
  if (parsed.kind === 'refused') return undefined;
  const first = parsed.tree.children[0];
  if (first?.type !== 'paragraph') return undefined;
  const lead: PhrasingContent | undefined = first.children[0];
  if (lead?.type !== 'text') return undefined;
  const at = phraseIndex(lead.value, p, { before: true, after: boundary(first, lead, 1) }, true);
  if (at !== 0) return undefined;
  const { start, end } = span(lead);
  const range = sourceRange(text.slice(start, end), lead.value, 0, p.length);
  if (!range) return undefined;
  return text.slice(start + range[1]).trim();
}
