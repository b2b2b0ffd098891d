/** Issue (and PR conversation) comments: list, create, read, edit, delete. */
import { asRecord, checkBodyLength, fail, optString } from './http.js';
import { commentAt, issueAt, paginate, REPO, route, type Ctx, type Route } from './route.js';
import { apiRepoUrl, association, htmlRepoUrl, nodeId, reactionRollup, userJson } from './shapes.js';
import type { GitHubState, StoredComment, StoredRepo } from './state.js';

function commentJson(s: GitHubState, r: StoredRepo, c: StoredComment): Record<string, unknown> {
  const issue = r.issues.get(c.issue);
  const kind = issue?.pull ? 'pull' : 'issues';
  return {
    id: c.id,
    node_id: nodeId('IssueComment', c.id),
    url: `${apiRepoUrl(s, r)}/issues/comments/${c.id}`,
    html_url: `${htmlRepoUrl(s, r)}/${kind}/${c.issue}#issuecomment-${c.id}`,
    issue_url: `${apiRepoUrl(s, r)}/issues/${c.issue}`,
    body: c.body,
    user: userJson(s, c.user),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    author_association: association(r, c.user),
    reactions: reactionRollup(`${apiRepoUrl(s, r)}/issues/comments/${c.id}/reactions`),
  };
}

/** The request's `body` field: required, within GitHub's limit. */
function commentBody(c: Ctx): string {
  const body = optString(asRecord(c.body), 'body');
  if (body === undefined) fail(422, 'Invalid request.\n\n"body" wasn\'t supplied.');
  checkBodyLength(body, 'IssueComment');
  return body;
}

export const commentRoutes: Route[] = [
  route('GET', `${REPO}/issues/:number/comments`, (c) => {
    const issue = issueAt(c);
    // `since`: only comments updated at or after it, as GitHub filters them.
    const since = Date.parse(c.query.get('since') ?? '');
    const all = c.repo.comments
      .filter((x) => x.issue === issue.number)
      .filter((x) => Number.isNaN(since) || Date.parse(x.updatedAt) >= since)
      .map((x) => commentJson(c.state, c.repo, x));
    return paginate(c, all);
  }),
  route('POST', `${REPO}/issues/:number/comments`, (c) => {
    const issue = issueAt(c);
    const body = commentBody(c);
    const now = c.state.now();
    const comment: StoredComment = {
      id: c.state.id(),
      issue: issue.number,
      body,
      user: c.state.tokenUser,
      createdAt: now,
      updatedAt: now,
    };
    c.repo.comments.push(comment);
    return { status: 201, body: commentJson(c.state, c.repo, comment) };
  }),
  route('GET', `${REPO}/issues/comments/:id`, (c) => ({
    status: 200,
    body: commentJson(c.state, c.repo, commentAt(c)),
  })),
  route('DELETE', `${REPO}/issues/comments/:id`, (c) => {
    const comment = commentAt(c);
    c.repo.comments.splice(c.repo.comments.indexOf(comment), 1);
    return { status: 204, body: undefined };
  }),
  route('PATCH', `${REPO}/issues/comments/:id`, (c) => {
    const comment = commentAt(c);
    const body = commentBody(c);
    comment.body = body;
    comment.updatedAt = c.state.now();
    return { status: 200, body: commentJson(c.state, c.repo, comment) };
  }),
];
