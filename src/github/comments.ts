/**
 * Issue and PR comments. Comments this action writes start with a hidden marker (`<!-- gemini-run:<kind> -->`)
 * so later runs find and update them in place, and so task building can leave them out.
 */
import { UserError } from '../util/errors.js';
import type { GitHubClient, RepoRef } from './client.js';

/** Every comment the action writes contains a marker starting with this. */
export const MARKER_PREFIX = '<!-- gemini-run';

/** The hidden marker for one kind of comment, e.g. `commentMarker('summary')`. */
export function commentMarker(kind: string): string {
  if (!/^[a-z0-9][a-z0-9:._-]*$/i.test(kind)) throw new Error(`Invalid comment marker kind '${kind}'`);
  return `${MARKER_PREFIX}:${kind} -->`;
}

export function hasOwnMarker(body: string | null | undefined): boolean {
  return (body ?? '').includes(MARKER_PREFIX);
}

export interface CommentRef {
  id: number;
  htmlUrl: string;
}

export async function createComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  body: string,
): Promise<CommentRef> {
  const { data } = await client.rest.issues.createComment({ ...repo, issue_number: issueNumber, body });
  return { id: data.id, htmlUrl: data.html_url };
}

/**
 * Updates the comment that starts with `marker`, or creates one. The marker is put first in the body, and only a
 * comment that STARTS with it counts, so a person quoting or pasting our marker mid-text is never overwritten.
 */
export async function upsertMarkedComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
  body: string,
): Promise<CommentRef & { created: boolean }> {
  if (!marker.startsWith(MARKER_PREFIX) || !marker.endsWith('-->')) {
    throw new UserError(`A comment marker must be a hidden HTML comment starting '${MARKER_PREFIX}'.`);
  }
  const text = `${marker}\n${body}`;
  const existing = await findMarkedComment(client, repo, issueNumber, marker);
  if (existing) {
    const { data } = await client.rest.issues.updateComment({ ...repo, comment_id: existing.id, body: text });
    return { id: data.id, htmlUrl: data.html_url, created: false };
  }
  const created = await createComment(client, repo, issueNumber, text);
  return { ...created, created: true };
}

export async function findMarkedComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
): Promise<CommentRef | undefined> {
  const iterator = client.paginate.iterator(client.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  for await (const page of iterator) {
    const hit = page.data.find((c) => (c.body ?? '').trimStart().startsWith(marker));
    if (hit) return { id: hit.id, htmlUrl: hit.html_url };
  }
  return undefined;
}

export type ReactionContent = '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';

/** Reacts to an issue or PR comment, e.g. 👀 on the triggering comment so the person sees the run was picked up. */
export async function reactToComment(
  client: GitHubClient,
  repo: RepoRef,
  commentId: number,
  content: ReactionContent,
): Promise<void> {
  await client.rest.reactions.createForIssueComment({ ...repo, comment_id: commentId, content });
}
