/**
 * Where a review comment can go, as GitHub decides it: on a line of the pull request's diff (the `patch` of each
 * file GitHub lists), on its new side (RIGHT: added and context lines) or its old side (LEFT: removed and context
 * lines), a multi-line comment from `start_line` to `line` within one hunk and on one side. A comment anywhere else
 * makes GitHub refuse the whole review (422 "Line could not be resolved"), so every comment the agent wrote is
 * placed here first: on the diff, or into the review's summary with the reason, never dropped.
 *
 * Pure and linear in the patch's size: one pass per patch, one map lookup per comment end.
 */

export type Side = 'LEFT' | 'RIGHT';

/** One file of a pull request's diff as GitHub lists it (`GET /pulls/{n}/files`). */
export interface DiffFile {
  path: string;
  /** The path before a rename. */
  previousPath?: string;
  /** added, removed, modified, renamed, copied, changed, unchanged. */
  status: string;
  additions: number;
  deletions: number;
  /** The unified diff's hunks; GitHub leaves it out for a binary file and for one too large to show. */
  patch?: string;
}

/** The lines of one file's diff a comment can be on: per side, each line number and the hunk it is in. */
export interface FileLines {
  readonly left: ReadonlyMap<number, number>;
  readonly right: ReadonlyMap<number, number>;
  /** Lines of the patch (its size, for bounds and benchmarks). */
  readonly patchLines: number;
}

const HUNK_HEADER = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * The commentable lines of a patch. A line that is no diff line at all (`\ No newline at end of file`, a header
 * GitHub does not send) is skipped; a hunk header resets both counters, as GitHub numbers them.
 */
export function patchLines(patch: string): FileLines {
  const left = new Map<number, number>();
  const right = new Map<number, number>();
  let oldLine = 0;
  let newLine = 0;
  let hunk = -1;
  let count = 0;
  let from = 0;
  while (from <= patch.length) {
    let to = patch.indexOf('\n', from);
    if (to < 0) to = patch.length;
    const line = patch.slice(from, to).replace(/\r$/, '');
    from = to + 1;
    count++;
    const header = line.startsWith('@@') ? HUNK_HEADER.exec(line) : null;
    if (header) {
      hunk++;
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (hunk < 0) continue;
    const mark = line[0];
    if (mark === '+') right.set(newLine++, hunk);
    else if (mark === '-') left.set(oldLine++, hunk);
    else if (mark === ' ' || line === '') {
      // A context line is on both sides; an empty line is one whose single space a copy lost.
      if (line === '' && from > patch.length) break;
      left.set(oldLine++, hunk);
      right.set(newLine++, hunk);
    }
  }
  return { left, right, patchLines: count };
}

/** A comment as the agent asked for it, already read from its review file. */
export interface WantedComment {
  path: string;
  line: number;
  side: Side;
  startLine?: number;
  body: string;
  /** The text that should replace lines `startLine`..`line` (or `line`): a suggestion where GitHub can apply it. */
  suggestion?: string;
}

/** A comment on the diff, and whether its suggestion is one GitHub can apply there. */
export interface InlineComment {
  comment: WantedComment;
  suggestionApplies: boolean;
  /** Why a suggestion that does not apply is shown as plain code instead. */
  suggestionNote?: string;
}

/** A comment that is not on the diff, with why: it goes into the summary. */
export interface OutsideComment {
  comment: WantedComment;
  why: string;
}

export interface Placement {
  inline: InlineComment[];
  outside: OutsideComment[];
}

/** `a`–`b`, or `a` alone. */
export function lineRange(startLine: number | undefined, line: number): string {
  return startLine !== undefined && startLine !== line ? `lines ${startLine}–${line}` : `line ${line}`;
}

/** Why `c` cannot go on the diff, or undefined when it can. */
function outsideReason(
  c: WantedComment,
  files: ReadonlyMap<string, FileLines | undefined>,
): string | undefined {
  if (!files.has(c.path)) return 'the file is not in this pull request';
  const lines = files.get(c.path);
  if (!lines)
    return 'GitHub shows no diff for the file (binary, or too large), so it takes no comment on a line';
  const side = c.side === 'LEFT' ? lines.left : lines.right;
  const where = c.side === 'LEFT' ? 'on the old side of the diff' : 'in the diff';
  const end = side.get(c.line);
  if (end === undefined) return `line ${c.line} is not ${where}`;
  if (c.startLine === undefined || c.startLine === c.line) return undefined;
  if (c.startLine > c.line) return `its first line (${c.startLine}) is after its last (${c.line})`;
  const start = side.get(c.startLine);
  if (start === undefined) return `line ${c.startLine} is not ${where}`;
  if (start !== end) return `${lineRange(c.startLine, c.line)} are not in one hunk of the diff`;
  return undefined;
}

/**
 * Places each comment: on the diff when GitHub would take it there (at most `maxInline`, in the agent's order),
 * else into the summary with the reason. A suggestion applies only on the new side, where the range it replaces is
 * the comment's own range within one hunk; elsewhere it is shown as code.
 */
export function placeComments(
  comments: readonly WantedComment[],
  files: ReadonlyMap<string, FileLines | undefined>,
  maxInline: number,
): Placement {
  const placed: Placement = { inline: [], outside: [] };
  for (const comment of comments) {
    const why = outsideReason(comment, files);
    if (why) placed.outside.push({ comment, why });
    else if (placed.inline.length >= maxInline)
      placed.outside.push({ comment, why: `over the limit of ${maxInline} comments on lines` });
    else placed.inline.push(inline(comment));
  }
  return placed;
}

function inline(comment: WantedComment): InlineComment {
  if (comment.suggestion === undefined) return { comment, suggestionApplies: false };
  if (comment.side === 'LEFT')
    return {
      comment,
      suggestionApplies: false,
      suggestionNote: 'a suggestion replaces new lines; this comment is on removed ones',
    };
  return { comment, suggestionApplies: true };
}

/** The files' commentable lines by path: a file without a patch maps to undefined (present, but no lines). */
export function linesByPath(files: readonly DiffFile[]): Map<string, FileLines | undefined> {
  return new Map(files.map((f) => [f.path, f.patch === undefined ? undefined : patchLines(f.patch)]));
}
