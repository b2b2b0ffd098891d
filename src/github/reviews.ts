/**
 * Pull request reviews and their diff, as the review flow needs them: the files GitHub shows (their patches are
 * the diff a comment must sit on), the reviews the token's identity already posted (one per head commit: the head
 * is in the review's marker), and one review posted with everything in one request.
 */
import type { GitHubClient, RepoRef } from './client.js';
import { commentMarker } from './comments.js';
import { capBody } from './limits.js';
import type { DiffFile, Side } from './review-diff.js';

/** The files of a pull request's diff, at most `max` (GitHub lists up to 3,000), and how many more there are. */
export async function listPullFiles(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  max: number,
): Promise<{ files: DiffFile[]; more: number }> {
  const files: DiffFile[] = [];
  let total = 0;
  const pages = client.paginate.iterator(client.rest.pulls.listFiles, {
    ...repo,
    pull_number: number,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const f of page.data) {
      total++;
      if (files.length >= max) continue;
      files.push({
        path: f.filename,
        ...(f.previous_filename ? { previousPath: f.previous_filename } : {}),
        status: f.status,
        additions: f.additions,
        deletions: f.deletions,
        ...(f.patch !== undefined ? { patch: f.patch } : {}),
      });
    }
    // Past the bound only the count is wanted; a PR this large is said, not read whole.
    if (files.length >= max && total >= max + 100) break;
  }
  return { files, more: total - files.length };
}

/** The marker of a review of `head`: complete (the agent's review), or `incomplete` (what happened instead). */
export function reviewMarker(head: string, complete: boolean): string {
  return commentMarker(`${complete ? 'review' : 'review-incomplete'}:${head}`);
}

const REVIEW_MARKER = /^<!-- gemini-run:(review|review-incomplete):([0-9a-f]{40,64}) -->/;

export interface OwnReview {
  id: number;
  htmlUrl: string;
  /** The head commit the review is of, from its marker. */
  head: string;
  complete: boolean;
}

/**
 * The reviews of the pull request the token's identity wrote with a marker, oldest first. Anyone can type a marker:
 * only a review by `self` counts.
 */
export async function ownReviews(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  self: string,
): Promise<OwnReview[]> {
  const all = await client.paginate(client.rest.pulls.listReviews, {
    ...repo,
    pull_number: number,
    per_page: 100,
  });
  const out: OwnReview[] = [];
  for (const r of all) {
    if (r.user?.login.toLowerCase() !== self.toLowerCase()) continue;
    const m = REVIEW_MARKER.exec((r.body ?? '').trimStart());
    if (m) out.push({ id: r.id, htmlUrl: r.html_url, head: m[2]!, complete: m[1] === 'review' });
  }
  return out;
}

export interface PostedReview {
  id: number;
  htmlUrl: string;
}

export interface ReviewRequest {
  commitId: string;
  event: 'COMMENT' | 'REQUEST_CHANGES' | 'APPROVE';
  /** With its marker first. */
  body: string;
  comments: ReviewComment[];
}

/** One inline comment as `POST /pulls/{n}/reviews` takes it. */
export interface ReviewComment {
  path: string;
  line: number;
  side: Side;
  start_line?: number;
  start_side?: Side;
  body: string;
}

/** One review, its inline comments and its verdict in one request (`POST /pulls/{n}/reviews`). */
export async function postReview(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  r: ReviewRequest,
): Promise<PostedReview> {
  const { data } = await client.rest.pulls.createReview({
    ...repo,
    pull_number: number,
    commit_id: r.commitId,
    event: r.event,
    body: capBody(r.body),
    comments: r.comments.map((c) => ({ ...c, body: capBody(c.body) })),
  });
  return { id: data.id, htmlUrl: data.html_url };
}
