/**
 * The review file the agent writes (`gemini-review.json`), its shape as the task shows it, and how it is read: the
 * whole file must be one JSON object; each comment is read on its own, so one malformed comment costs that comment
 * (counted, with why, in the review) and not the review. Texts are cut to GitHub's sizes here, never refused.
 */
import { z } from 'zod';
import type { WantedComment } from '../../github/review-diff.js';
import { issueLine } from './answer-file.js';

export const REVIEW_FILE = 'gemini-review.json';

export type ReviewEvent = 'COMMENT' | 'REQUEST_CHANGES' | 'APPROVE';

/** What the task shows the agent: the file's shape, as JSON with the meaning of each field. */
export const REVIEW_FILE_SHAPE = `{
  "summary": "What you found, in Markdown: the overall assessment and anything not tied to one line.",
  "event": "COMMENT or REQUEST_CHANGES",
  "comments": [
    {
      "path": "src/file.ts",
      "line": 42,
      "side": "RIGHT",
      "start_line": 40,
      "body": "What is wrong on these lines and why, in Markdown.",
      "suggestion": "Optional: the exact text that should replace lines start_line..line (RIGHT side only)."
    }
  ]
}`;

/** Bounds of what is read (GitHub takes 65,536 characters per body; a review this long helps nobody). */
const MAX_SUMMARY_CHARS = 30_000;
const MAX_BODY_CHARS = 8_000;
const MAX_SUGGESTION_CHARS = 20_000;
/** Comments read from the file at all; the inline limit (`max-review-comments`) applies after placing them. */
const MAX_COMMENTS_READ = 500;
const MAX_LINE = 10_000_000;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (cut at ${max} characters)`;
}

const lineNumber = z.number().int().positive().max(MAX_LINE);

const commentSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(1000)
    // A path the agent wrote relative to the workspace: GitHub's paths have no leading `./` or `/`.
    .transform((p) => p.replace(/^(\.\/|\/)+/, '')),
  line: lineNumber,
  side: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['LEFT', 'RIGHT']))
    .optional(),
  start_line: lineNumber.nullish(),
  body: z.string().transform((s) => cut(s, MAX_BODY_CHARS)),
  suggestion: z.string().max(MAX_SUGGESTION_CHARS, 'a suggestion longer than 20000 characters').nullish(),
});

const fileSchema = z.object({
  summary: z.string().nullish(),
  event: z.string().nullish(),
  comments: z.array(z.unknown()).nullish(),
});

export interface ReviewAnswer {
  summary: string;
  /** What the agent asked for; COMMENT when it named nothing GitHub knows. */
  event: ReviewEvent;
  comments: WantedComment[];
  /** Comments that could not be read: how many, and why the first one. */
  unreadable: { count: number; first?: string };
}

function eventOf(raw: string | null | undefined): ReviewEvent {
  const e = (raw ?? '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  return e === 'REQUEST_CHANGES' || e === 'APPROVE' ? e : 'COMMENT';
}

/** The file's JSON as a review: each comment read on its own (see the module comment). */
export const reviewFileSchema: z.ZodType<ReviewAnswer> = fileSchema.transform((f) => {
  const comments: WantedComment[] = [];
  const unreadable: ReviewAnswer['unreadable'] = { count: 0 };
  const raw = f.comments ?? [];
  raw.slice(0, MAX_COMMENTS_READ).forEach((c, i) => {
    const parsed = commentSchema.safeParse(c);
    if (!parsed.success) {
      unreadable.count++;
      unreadable.first ??= `comments.${i}.${issueLine(parsed.error)}`;
      return;
    }
    const { path, line, side, start_line: startLine, body, suggestion } = parsed.data;
    comments.push({
      path,
      line,
      side: side ?? 'RIGHT',
      ...(startLine != null ? { startLine } : {}),
      body,
      ...(suggestion != null ? { suggestion } : {}),
    });
  });
  if (raw.length > MAX_COMMENTS_READ) {
    unreadable.count += raw.length - MAX_COMMENTS_READ;
    unreadable.first ??= `more than ${MAX_COMMENTS_READ} comments`;
  }
  return { summary: cut(f.summary ?? '', MAX_SUMMARY_CHARS), event: eventOf(f.event), comments, unreadable };
});
