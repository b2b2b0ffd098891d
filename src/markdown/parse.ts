/**
 * GitHub-flavoured markdown read as GitHub reads it: one CommonMark + GFM parser (micromark with its GFM
 * extensions, to an mdast tree) for everything the action reads (trigger phrases, the text a reader saw) and
 * everything it publishes. No regular expression decides what is code, a quote, a link or HTML; GitHub's renderer,
 * cmark-gfm, is the oracle in the tests (test/integration/markdown-oracle.test.ts).
 *
 * micromark is exact but not linear on every input: thousands of nested containers overflow the stack while the
 * tree is built, and long runs of mixed emphasis delimiters or brackets take seconds (measured: 65,536 characters
 * of `*_` took 47 s, `> - ` nested 10,000 deep overflowed). Anyone can write such an issue. So a linear pre-scan
 * bounds what is parsed (`parseBounded`), and a text beyond the bounds is not parsed at all: each caller then takes
 * its conservative branch (no trigger, text left out, text published as a code block).
 */
import type { Nodes, Parents, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** GitHub's own limit for an issue, pull request or comment body: nothing longer is read. */
const MAX_MARKDOWN = 65_536;
/** Container markers (`>`, list items, indentation) at the start of one line; real text nests a handful deep. */
const MAX_DEPTH = 48;
/**
 * Emphasis and strikethrough delimiters, and brackets, in one text (outside fences): the inputs micromark is
 * quadratic in. Measured here: 3,000 lines of `[a]: b "x` took 1.2 s, 12,000 `*_` 1.7 s; at these bounds the
 * worst shapes take about half a second.
 */
const MAX_DELIMITERS = 8_000;
const MAX_BRACKETS = 2_000;

export type Bounded = { kind: 'parsed'; tree: Root } | { kind: 'refused'; why: string };

/**
 * Why a text is beyond what is parsed, or undefined. One pass over the lines. The depth counts the container markers that open a
 * line (`>`, and list markers followed by a blank), which is what nests a tree deep in few characters; nesting by
 * indentation costs two characters a level per line, so the length bounds it. A legitimate text is far below
 * every bound.
 */
export function beyondBounds(text: string): string | undefined {
  if (text.length > MAX_MARKDOWN) return `it is longer than ${MAX_MARKDOWN} characters`;
  let delimiters = 0;
  let brackets = 0;
  // A budget, not a reading: lines between ``` or ~~~ fences at a line's start are not counted, so a pasted log
  // full of `[INFO]` is not refused. Where this guess is wrong the parse is only slower, still bounded by the length.
  let fence = '';
  for (let line = 0; line < text.length;) {
    const next = text.indexOf('\n', line);
    const end = next < 0 ? text.length : next;
    if (containerDepth(text, line) > MAX_DEPTH) return `it nests containers more than ${MAX_DEPTH} deep`;
    const marker = fenceAt(text, line);
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = '';
    } else if (marker) {
      fence = marker;
    } else {
      for (let i = line; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c === 42 || c === 95 || c === 126)
          delimiters++; // * _ ~
        else if (c === 91) brackets++; // [
      }
    }
    line = end + 1;
  }
  if (delimiters > MAX_DELIMITERS) return `it holds more than ${MAX_DELIMITERS} emphasis delimiters`;
  if (brackets > MAX_BRACKETS) return `it holds more than ${MAX_BRACKETS} brackets`;
  return undefined;
}

/** The run of three or more backticks or tildes that opens the line at `at` (after up to three spaces), or ''. */
function fenceAt(text: string, at: number): string {
  let i = at;
  while (i - at < 3 && text.charCodeAt(i) === 32) i++;
  const c = text[i];
  if (c !== '`' && c !== '~') return '';
  let j = i;
  while (text[j] === c) j++;
  return j - i >= 3 ? text.slice(i, j) : '';
}

const isBlank = (c: number): boolean => c === 32 || c === 9;

/** The container markers that open the line at `at`: `>`, `-`/`+`/`*` or `1.`/`1)` before a blank. */
function containerDepth(text: string, at: number): number {
  let depth = 0;
  let i = at;
  for (;;) {
    while (isBlank(text.charCodeAt(i))) i++;
    const c = text.charCodeAt(i);
    if (c === 62) {
      depth++;
      i++;
      continue;
    }
    if ((c === 45 || c === 43 || c === 42) && isBlank(text.charCodeAt(i + 1))) {
      depth++;
      i += 2;
      continue;
    }
    let j = i;
    while (j - i < 9 && text.charCodeAt(j) >= 48 && text.charCodeAt(j) <= 57) j++;
    const d = text.charCodeAt(j);
    if (j > i && (d === 46 || d === 41) && isBlank(text.charCodeAt(j + 1))) {
      depth++;
      i = j + 2;
      continue;
    }
    return depth;
  }
}

/** The text's tree; the caller has checked `beyondBounds`. Line endings are the caller's (see `normalizeNewlines`). */
function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** The text's tree, or why it is not parsed (see the module comment). */
export function parseBounded(text: string): Bounded {
  const why = beyondBounds(text);
  if (why) return { kind: 'refused', why };
  try {
    return { kind: 'parsed', tree: parse(text) };
  } catch (error) {
    // A stack overflow the depth bound did not foresee is a refusal like the others, never a crash of the run.
    if (error instanceof RangeError) return { kind: 'refused', why: 'it nests too deep to be read' };
    throw error;
  }
}

/** CRLF and CR as LF, as GitHub stores and renders them; every offset in this folder is into such a text. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** Where a node starts and ends in the parsed text (every node micromark makes has a position). */
export function span(node: Nodes): { start: number; end: number } {
  const p = node.position;
  return { start: p?.start.offset ?? 0, end: p?.end.offset ?? 0 };
}

/**
 * Visits every node depth-first, in document order, with its ancestors (nearest last). `visit` returns `false` to
 * skip a node's children. Iterative, so a deep tree costs no stack.
 */
export function walk(
  tree: Root,
  visit: (node: Nodes, ancestors: readonly Parents[]) => boolean | void,
): void {
  const stack: { node: Nodes; depth: number }[] = [{ node: tree, depth: 0 }];
  const ancestors: Parents[] = [];
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    ancestors.length = depth;
    if (visit(node, ancestors) === false || !('children' in node)) continue;
    ancestors.push(node);
    for (let i = node.children.length - 1; i >= 0; i--)
      stack.push({ node: node.children[i]!, depth: depth + 1 });
  }
}

const PUNCT = /[!-/:-@[-`{-~]/;

/**
 * Where `[from, to)` of a text node's value lies in its source: backslash escapes take two source characters for
 * one, and container markers and blanks the value dropped (a quote's `>` on a continuation line) are skipped.
 * Undefined when the two cannot be matched (a character reference in between): the caller keeps the text whole.
 */
export function sourceRange(
  src: string,
  value: string,
  from: number,
  to: number,
): [number, number] | undefined {
  let i = 0;
  let start: number | undefined;
  for (let j = 0; ;) {
    if (j === from && start === undefined) start = i;
    if (j === to) return start === undefined ? undefined : [start, i];
    if (j >= value.length || i >= src.length) return undefined;
    const c = src[i]!;
    if (c === value[j]) {
      i++;
      j++;
    } else if (c === '\\' && PUNCT.test(src[i + 1] ?? '') && src[i + 1] === value[j]) {
      i += 2;
      j++;
    } else if (c === ' ' || c === '\t' || c === '>') {
      i++;
    } else {
      return undefined;
    }
  }
}

/** One replacement of the source text: `[start, end)` becomes `text`. */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * The source with the edits applied. Edits are made by walking a tree, so they nest or follow each other; an edit
 * inside one already applied (its range within the earlier one's) is dropped: the outer one decided.
 */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += source.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + source.slice(at);
}
