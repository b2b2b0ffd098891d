/**
 * The review as it is posted: its event, its body and its inline comments, from what the agent wrote and how its
 * run ended. Pure. Every text the agent wrote enters through a published block (markdown/publish.ts), a suggestion
 * through a fence its text cannot close, and the whole body and each comment pass the last check; what cannot go on
 * the diff is in the body with why, and a review that could not be completed says what happened, with the agent's
 * final answer.
 */
import type { Placement } from '../../github/review-diff.js';
import { lineRange } from '../../github/review-diff.js';
import type { ReviewComment } from '../../github/reviews.js';
import { block, codeBlock, codeSpan, plainInline, type PublishContext } from '../../markdown/publish.js';
import { statusLine } from '../../domain/status.js';
import type { ActionStatus } from '../../run/types.js';
import type { AnswerFile } from './answer-file.js';
import { REVIEW_FILE, type ReviewAnswer, type ReviewEvent } from './review-file.js';

/** How the action speaks on GitHub (the admit phase's `publish`, `publishBlock` and `scrubbed`). */
export interface Speaker {
  publish(text: string): string;
  publishBlock(text: string): string;
  scrubbed(text: string): string;
  publishOn: PublishContext;
}

/** Files of the diff the agent was not shown, by why. */
export interface NotReviewed {
  /** Lock files, bundles, vendored and minified code: by path, whatever the pull request's attributes say. */
  generated: string[];
  /** GitHub shows no diff for them: binary, or too large. */
  noDiff: string[];
  /** Past the task's size bound: in the workspace, not in the task's diff. */
  leftOut: string[];
  /** Files past the bound on how many are listed at all. */
  moreFiles: number;
}

/** What changed since the action's previous review of the pull request. */
export interface SinceLast {
  from: string;
  to: string;
  /** The new commits' subjects (someone else's text), oldest first; absent when the branch was rewritten. */
  commits?: string[];
  /** Files changed between the two heads. */
  files?: string[];
}

export interface ReviewFacts {
  headSha: string;
  answer: AnswerFile<ReviewAnswer>;
  /** How the agent's run ended, when it did not finish. */
  ended?: { status: ActionStatus; message?: string };
  /** The agent's final answer, raw. */
  finalAnswer: string;
  placement: Placement;
  mayApprove: boolean;
  notReviewed: NotReviewed;
  since?: SinceLast;
  runUrl: string;
  /** GitHub refused the review as asked (its line): it goes again as a comment, its line comments in the summary. */
  refused?: string;
}

export interface ComposedReview {
  event: ReviewEvent;
  /** Published; the marker goes in front of it after. */
  body: string;
  comments: ReviewComment[];
  /** The agent's review was read: a re-run on the same head adds no second one. */
  complete: boolean;
}

const short = (sha: string) => sha.slice(0, 7);
const SHOWN_PATHS = 20;

function pathList(paths: readonly string[]): string {
  const shown = paths.slice(0, SHOWN_PATHS).map((p) => codeSpan(p));
  return `${shown.join(', ')}${paths.length > SHOWN_PATHS ? ` and ${paths.length - SHOWN_PATHS} more` : ''}`;
}

/** A suggested replacement: a suggestion GitHub can apply, or plain code with why not. */
function replacement(text: string, applies: boolean, note: string | undefined, s: Speaker): string {
  const code = codeBlock(s.scrubbed(text), applies ? 'suggestion' : '');
  return applies ? block(code) : `${block(`Suggested replacement (${note}):`)}${block(code)}`;
}

function eventOf(f: ReviewFacts, s: Speaker): { event: ReviewEvent; note?: string } {
  if (f.refused !== undefined)
    return {
      event: 'COMMENT',
      note: `GitHub refused this review as first posted (${plainInline(f.refused, s.publishOn)}): it is posted as a comment, its comments on lines below.`,
    };
  if (f.answer.kind !== 'read') return { event: 'COMMENT' };
  const wanted = f.answer.value.event;
  if (wanted === 'APPROVE' && !f.mayApprove)
    return {
      event: 'COMMENT',
      note: 'The agent asked to approve; this workflow does not let gemini-run approve (`review-may-approve`), so this review only comments.',
    };
  return { event: wanted };
}

function sinceSection(since: SinceLast | undefined, s: Speaker): string[] {
  if (!since) return [];
  const out = [
    `#### Since the last review (${codeSpan(short(since.from))} → ${codeSpan(short(since.to))})`,
    '',
  ];
  if (!since.commits) {
    out.push(
      'The branch was rewritten since then: the commit reviewed last is no longer in its history, so this review is of the whole change again.',
    );
  } else {
    out.push(`${since.commits.length} new commit(s):`, '');
    for (const subject of since.commits.slice(0, SHOWN_PATHS))
      out.push(`- ${plainInline(subject, s.publishOn)}`);
    if (since.commits.length > SHOWN_PATHS) out.push(`- and ${since.commits.length - SHOWN_PATHS} more`);
  }
  if (since.files?.length) out.push('', `Files changed since: ${pathList(since.files)}.`);
  return [...out, ''];
}

function outsideSection(f: ReviewFacts, s: Speaker): string[] {
  const outside = f.placement.outside;
  if (outside.length === 0) return [];
  const out = ['#### Comments not on the diff', ''];
  for (const { comment: c, why } of outside) {
    out.push(`**${codeSpan(c.path)} ${lineRange(c.startLine, c.line)}** (${why}):`);
    out.push(block(s.publishBlock(c.body) || '_(no text)_'));
    if (c.suggestion !== undefined) out.push(replacement(c.suggestion, false, 'not on the diff', s));
  }
  return out;
}

function notReviewedSection(n: NotReviewed): string[] {
  const lines = [
    n.generated.length && `- generated or vendored (not shown to the agent): ${pathList(n.generated)}`,
    n.noDiff.length && `- binary, or too large for GitHub to show a diff: ${pathList(n.noDiff)}`,
    n.leftOut.length &&
      `- past the size the task holds (in the workspace, not in the task's diff): ${pathList(n.leftOut)}`,
    n.moreFiles > 0 && `- ${n.moreFiles} more file(s) past the number of files a review reads`,
  ].filter((l): l is string => Boolean(l));
  return lines.length ? ['#### Not reviewed', '', ...lines, ''] : [];
}

/** What happened when there is no review to post: the run's end, the file's problem, the final answer. */
function incomplete(f: ReviewFacts, s: Speaker): string[] {
  const why = [
    f.ended &&
      `the agent's run ended ${statusLine(f.ended.status)}${f.ended.message ? ` (${plainInline(f.ended.message, s.publishOn)})` : ''}`,
    f.answer.kind === 'problem' && f.answer.what,
  ].filter(Boolean);
  return [
    `**What happened:** ${why.join('; ')}.`,
    '',
    "**The agent's final answer:**",
    block(s.publishBlock(f.finalAnswer) || '_(no answer)_'),
  ];
}

function summaryOf(f: ReviewFacts, s: Speaker): string[] {
  if (f.answer.kind !== 'read') return incomplete(f, s);
  const a = f.answer.value;
  const text = a.summary.trim() || f.finalAnswer;
  const out = [block(s.publishBlock(text) || '_(no summary)_')];
  if (f.ended)
    out.push(
      `> [!WARNING]\n> The agent's run ended ${statusLine(f.ended.status)}: this review is what it had written by then.`,
      '',
    );
  if (a.unreadable.count > 0)
    out.push(
      `${a.unreadable.count} comment(s) in \`${REVIEW_FILE}\` could not be read (the first: ${plainInline(a.unreadable.first ?? '', s.publishOn)}).`,
      '',
    );
  return out;
}

/** One inline comment: the agent's text as a block, its suggestion as a fence, the last check over both. */
function draftComment(i: Placement['inline'][number], s: Speaker): ReviewComment {
  const c = i.comment;
  let body = s.publishBlock(c.body) || '_(no text)_';
  if (c.suggestion !== undefined) body += replacement(c.suggestion, i.suggestionApplies, i.suggestionNote, s);
  const multi = c.startLine !== undefined && c.startLine !== c.line;
  return {
    path: c.path,
    line: c.line,
    side: c.side,
    ...(multi ? { start_line: c.startLine, start_side: c.side } : {}),
    body: s.publish(body),
  };
}

export function composeReview(f: ReviewFacts, s: Speaker): ComposedReview {
  const complete = f.answer.kind === 'read';
  const { event, note } = eventOf(f, s);
  const heading = complete
    ? `### 🔎 gemini-run review of ${codeSpan(short(f.headSha))}`
    : `### ⚠️ gemini-run could not complete its review of ${codeSpan(short(f.headSha))}`;
  const comments = complete ? f.placement.inline.map((i) => draftComment(i, s)) : [];
  const body = [
    heading,
    '',
    ...summaryOf(f, s),
    ...(note ? [`> [!NOTE]\n> ${note}`, ''] : []),
    ...sinceSection(f.since, s),
    ...(complete ? outsideSection(f, s) : []),
    ...notReviewedSection(f.notReviewed),
    `<sub>gemini-run · [run](${f.runUrl}) · ${comments.length} comment(s) on lines</sub>`,
  ].join('\n');
  return { event, body: s.publish(body), comments, complete };
}
