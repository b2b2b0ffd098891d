/** A PR's inline review comments (read only: the action reads them into the task's history). */
import { paginate, pullAt, REPO, route, type Route } from './route.js';
import { apiRepoUrl, association, fakeSha, htmlRepoUrl, nodeId, userJson } from './shapes.js';
import type { GitHubState, StoredRepo, StoredReviewComment } from './state.js';

function reviewCommentJson(s: GitHubState, r: StoredRepo, c: StoredReviewComment): Record<string, unknown> {
  return {
    id: c.id,
    node_id: nodeId('PullRequestReviewComment', c.id),
    url: `${apiRepoUrl(s, r)}/pulls/comments/${c.id}`,
    html_url: `${htmlRepoUrl(s, r)}/pull/${c.pull}#discussion_r${c.id}`,
    pull_request_url: `${apiRepoUrl(s, r)}/pulls/${c.pull}`,
    body: c.body,
    path: c.path,
    line: c.line,
    original_line: c.line,
    side: 'RIGHT',
    diff_hunk: '',
    commit_id: fakeSha(`review:${c.id}`),
    original_commit_id: fakeSha(`review:${c.id}`),
    pull_request_review_id: c.id,
    user: userJson(s, c.user),
    created_at: c.createdAt,
    updated_at: c.createdAt,
    author_association: association(r, c.user),
    _links: {
      self: { href: `${apiRepoUrl(s, r)}/pulls/comments/${c.id}` },
      html: { href: `${htmlRepoUrl(s, r)}/pull/${c.pull}#discussion_r${c.id}` },
      pull_request: { href: `${apiRepoUrl(s, r)}/pulls/${c.pull}` },
    },
  };
}

export const reviewCommentRoutes: Route[] = [
  route('GET', `${REPO}/pulls/:number/comments`, (c) => {
    const pull = pullAt(c);
    const all = c.repo.reviewComments
      .filter((x) => x.pull === pull.number)
      .map((x) => reviewCommentJson(c.state, c.repo, x));
    return paginate(c, all);
  }),
];
