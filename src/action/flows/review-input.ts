/**
 * What a review agent is shown of a pull request: the diff of the files worth reading, bounded, and what was left
 * out and why. Pure. Generated and vendored files (lock files, bundles, minified code) are recognised by path,
 * whatever the pull request's own attributes say: a pull request cannot hide its code from the review by calling
 * it generated, only a path that is generated everywhere is skipped, and it is said in the review.
 */
import type { DiffFile } from '../../github/review-diff.js';
import type { NotReviewed } from './review-text.js';

/** Files whose diff is read at all (GitHub lists up to 3,000). */
export const MAX_REVIEW_FILES = 300;
/** The diff the task holds at most: more is in the workspace, said in the review. */
const MAX_DIFF_BYTES = 256 * 1024;

const GENERATED = [
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum|uv\.lock)$/,
  /(^|\/)(node_modules|vendor|third_party)\//,
  /\.min\.(js|css|mjs)$/,
  /\.map$/,
];

function isGenerated(path: string): boolean {
  return GENERATED.some((re) => re.test(path));
}

export interface ReviewInput {
  /** The task's diff: `diff --git` headers and GitHub's patches. */
  diff: string;
  notReviewed: NotReviewed;
}

function header(f: DiffFile): string {
  const from = f.status === 'added' ? '/dev/null' : `a/${f.previousPath ?? f.path}`;
  const to = f.status === 'removed' ? '/dev/null' : `b/${f.path}`;
  return `diff --git a/${f.previousPath ?? f.path} b/${f.path}\n--- ${from}\n+++ ${to}\n`;
}

/** The diff of `files` within the bound, in GitHub's order; `more` files were past the listing's bound. */
export function reviewInput(
  files: readonly DiffFile[],
  more: number,
  maxBytes = MAX_DIFF_BYTES,
): ReviewInput {
  const notReviewed: NotReviewed = { generated: [], noDiff: [], leftOut: [], moreFiles: more };
  const parts: string[] = [];
  let bytes = 0;
  for (const f of files) {
    if (isGenerated(f.path)) {
      notReviewed.generated.push(f.path);
      continue;
    }
    if (f.patch === undefined) {
      notReviewed.noDiff.push(f.path);
      continue;
    }
    const part = `${header(f)}${f.patch}\n`;
    const size = Buffer.byteLength(part, 'utf8');
    if (bytes + size > maxBytes) {
      notReviewed.leftOut.push(f.path);
      continue;
    }
    bytes += size;
    parts.push(part);
  }
  return { diff: parts.join(''), notReviewed };
}

/** The lines a task lists under its diff: each file left out, with why. */
export function notShownLines(n: NotReviewed): string[] {
  return [
    ...n.generated.map((p) => `${p} (generated or vendored: not reviewed)`),
    ...n.noDiff.map((p) => `${p} (binary, or too large for a diff)`),
    ...n.leftOut.map((p) => `${p} (past the size of this diff)`),
    ...(n.moreFiles > 0 ? [`${n.moreFiles} more file(s) not listed`] : []),
  ];
}
