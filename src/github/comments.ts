/**
 * Issue and PR comments. Comments this action writes start with a hidden marker (`<!-- gemini-run:<kind> -->`)
 * so later runs find and update them in place, and so task building can leave them out. Anyone can type a
 * marker, so a marked comment counts only when the token's own identity wrote it.
 */
import { z } from 'zod';
import { UserError } from '../util/errors.js';
import type { GitHubClient, RepoRef } from './client.js';
import { capBody } from './limits.js';

/** Every comment the action writes contains a marker starting with this. */
const MARKER_PREFIX = '<!-- gemini-run';

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

/** Writes a comment; GitHub's id and time of it come back (a smaller id was written first). */
export async function createComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  body: string,
): Promise<CommentRef & { createdAt: string }> {
  const { data } = await client.rest.issues.createComment({
    ...repo,
    issue_number: issueNumber,
    body: capBody(body),
  });
  return { id: data.id, htmlUrl: data.html_url, createdAt: data.created_at };
}

export async function deleteComment(client: GitHubClient, repo: RepoRef, commentId: number): Promise<void> {
  await client.rest.issues.deleteComment({ ...repo, comment_id: commentId });
}

/** A comment as read back: who wrote it, when (GitHub's times), and its body. */
export interface ReadComment {
  id: number;
  /** The author's login, when GitHub names one. */
  user: string | undefined;
  body: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * An issue's comments, oldest first: every one updated at or after `since` (all pages), or only the first `first`
 * of them (one page).
 */
export async function listComments(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  o: { since?: string; first?: number } = {},
): Promise<ReadComment[]> {
  const params = { ...repo, issue_number: issueNumber, ...(o.since ? { since: o.since } : {}) };
  const data =
    o.first !== undefined
      ? (await client.rest.issues.listComments({ ...params, per_page: o.first })).data
      : await client.paginate(client.rest.issues.listComments, { ...params, per_page: 100 });
  return data.map((c) => ({
    id: c.id,
    user: c.user?.login,
    body: c.body ?? '',
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  }));
}

/** Replaces a comment's body (capped, as every body written). */
export async function updateComment(
  client: GitHubClient,
  repo: RepoRef,
  commentId: number,
  body: string,
): Promise<CommentRef> {
  const { data } = await client.rest.issues.updateComment({
    ...repo,
    comment_id: commentId,
    body: capBody(body),
  });
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
  /** The token's identity (`tokenIdentity`); only its comments are updated. Undefined: always create. */
  author: string | undefined,
): Promise<CommentRef & { created: boolean }> {
  if (!marker.startsWith(MARKER_PREFIX) || !marker.endsWith('-->')) {
    throw new UserError(`A comment marker must be a hidden HTML comment starting '${MARKER_PREFIX}'.`);
  }
  const text = capBody(`${marker}\n${body}`);
  const existing =
    author === undefined ? undefined : await findMarkedComment(client, repo, issueNumber, marker, author);
  if (existing) {
    return { ...(await updateComment(client, repo, existing.id, text)), created: false };
  }
  const created = await createComment(client, repo, issueNumber, text);
  return { ...created, created: true };
}

/** A comment of ours as found: its text and when it was last written (for a record's origin, record-origin.ts). */
export interface FoundComment extends CommentRef {
  body: string;
  updatedAt: string;
}

/** The first comment that starts with `marker` and was written by `author` (the token's identity). */
export async function findMarkedComment(
  client: GitHubClient,
  repo: RepoRef,
  issueNumber: number,
  marker: string,
  author: string,
): Promise<FoundComment | undefined> {
  const iterator = client.paginate.iterator(client.rest.issues.listComments, {
    ...repo,
    issue_number: issueNumber,
    per_page: 100,
  });
  for await (const page of iterator) {
    const hit = page.data.find(
      (c) =>
        (c.body ?? '').trimStart().startsWith(marker) && c.user?.login.toLowerCase() === author.toLowerCase(),
    );
    if (hit) return { id: hit.id, htmlUrl: hit.html_url, body: hit.body ?? '', updatedAt: hit.updated_at };
  }
  return undefined;
}

const viewerSchema = z.object({ viewer: z.object({ login: z.string().min(1) }) });

/**
 * The login behind the token (`github-actions[bot]` for the workflow token, `<app>[bot]` for an App token, the
 * user for a PAT). GraphQL's viewer answers for all three; REST `GET /user` refuses installation tokens.
 */
export async function tokenIdentity(client: GitHubClient): Promise<string> {
  const data = await client.graphql<unknown>('query { viewer { login } }');
  const parsed = viewerSchema.safeParse(data);
  if (!parsed.success) throw new Error('GitHub did not name the token identity (viewer.login missing)');
  return parsed.data.viewer.login;
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
