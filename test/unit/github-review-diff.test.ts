/**
 * The diff mapper: which lines of a pull request's diff take a review comment, as GitHub decides it, and where
 * every other comment goes (the summary, with why). A comment GitHub would refuse makes it refuse the whole review,
 * so the mapper is tried first against what an agent steered by a hostile diff writes.
 */
import { describe, expect, it } from 'vitest';
import {
  linesByPath,
  patchLines,
  placeComments,
  type DiffFile,
  type WantedComment,
} from '../../src/github/review-diff.js';

/** `src/calc.js`: lines 1–3 context, 4 replaced, 5–7 context; a second hunk adds line 41 after 40. */
const PATCH = [
  '@@ -1,7 +1,7 @@',
  ' export function add(a, b) {',
  '   // sum',
  '   const x = a;',
  '-  return x + b;',
  '+  return x - b;',
  ' }',
  ' ',
  ' export function sub(a, b) {',
  '@@ -40,2 +40,3 @@ export function mul(a, b) {',
  '   return a * b;',
  '+  // new line 41',
  ' }',
  '\\ No newline at end of file',
].join('\n');

const files: DiffFile[] = [
  { path: 'src/calc.js', status: 'modified', additions: 2, deletions: 1, patch: PATCH },
  { path: 'logo.png', status: 'added', additions: 0, deletions: 0 },
];
const lines = linesByPath(files);

const at = (o: Partial<WantedComment>): WantedComment => ({
  path: 'src/calc.js',
  line: 4,
  side: 'RIGHT',
  body: 'x',
  ...o,
});

describe('patchLines', () => {
  it('numbers each side as GitHub does: context on both, additions right, removals left, per hunk', () => {
    const l = patchLines(PATCH);
    expect([...l.right.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 40, 41, 42]);
    expect([...l.left.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 40, 41]);
    expect(l.right.get(7)).toBe(0);
    expect(l.right.get(41)).toBe(1);
    expect(l.left.get(4)).toBe(0);
  });

  it('reads CRLF patches and a trailing newline alike, and nothing before the first hunk', () => {
    const crlf = patchLines(`diff --git a/x b/x\n+not a line\n${PATCH.replace(/\n/g, '\r\n')}\n`);
    expect([...crlf.right.keys()]).toEqual([...patchLines(PATCH).right.keys()]);
  });

  it('an empty patch has no lines', () => {
    expect(patchLines('').right.size).toBe(0);
  });
});

describe('placeComments', () => {
  it('keeps a comment on an added or context line, a range within one hunk, a removed line on the left', () => {
    const p = placeComments(
      [at({}), at({ line: 7, startLine: 5 }), at({ line: 4, side: 'LEFT' }), at({ line: 41 })],
      lines,
      30,
    );
    expect(p.outside).toEqual([]);
    expect(p.inline.map((i) => i.comment.line)).toEqual([4, 7, 4, 41]);
  });

  it('puts everything GitHub would refuse into the summary, each with its reason, and drops nothing', () => {
    const wanted = [
      at({ path: 'README.md' }),
      at({ path: '../src/calc.js' }),
      at({ line: 20 }),
      at({ line: 42, side: 'LEFT' }),
      at({ line: 41, startLine: 6 }),
      at({ line: 5, startLine: 7 }),
      at({ line: 41, startLine: 30 }),
      at({ path: 'logo.png', line: 1 }),
    ];
    const p = placeComments(wanted, lines, 30);
    expect(p.inline).toEqual([]);
    expect(p.outside.map((o) => o.why)).toEqual([
      'the file is not in this pull request',
      'the file is not in this pull request',
      'line 20 is not in the diff',
      'line 42 is not on the old side of the diff',
      'lines 6–41 are not in one hunk of the diff',
      'its first line (7) is after its last (5)',
      'line 30 is not in the diff',
      'GitHub shows no diff for the file (binary, or too large), so it takes no comment on a line',
    ]);
    expect(p.outside.map((o) => o.comment)).toEqual(wanted);
  });

  it('past the limit, the rest go into the summary in the order written', () => {
    const p = placeComments([at({ line: 1 }), at({ line: 2 }), at({ line: 3 })], lines, 2);
    expect(p.inline.map((i) => i.comment.line)).toEqual([1, 2]);
    expect(p.outside).toEqual([{ comment: at({ line: 3 }), why: 'over the limit of 2 comments on lines' }]);
  });

  it('a suggestion applies only on the new side of the diff', () => {
    const p = placeComments(
      [at({ suggestion: 'return a + b;' }), at({ side: 'LEFT', suggestion: 'x' }), at({ line: 2 })],
      lines,
      30,
    );
    expect(p.inline.map((i) => i.suggestionApplies)).toEqual([true, false, false]);
    expect(p.inline[1]?.suggestionNote).toMatch(/removed/);
  });

  it('maps a 5,000-line patch in one pass', () => {
    const body = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `+added ${i}` : ` ctx ${i}`));
    const big = patchLines(`@@ -1,3333 +1,5000 @@\n${body.join('\n')}`);
    expect(big.right.size).toBe(5000);
    expect(big.left.size).toBe(3333);
  });
});
