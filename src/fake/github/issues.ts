/** An issue (or the issue side of a PR): read and edit. */
import { asRecord, checkBodyLength, fail, optString } from './http.js';
import { issueAt, paginate, REPO, route, type Route } from './route.js';
import {
  apiRepoUrl,
  association,
  htmlRepoUrl,
  labelsJson,
  nodeId,
  reactionRollup,
  userJson,
} from './shapes.js';
import type { GitHubState, StoredIssue, StoredRepo } from './state.js';

export function issueJson(s: GitHubState, r: StoredRepo, i: StoredIssue): Record<string, unknown> {
  const api = `${apiRepoUrl(s, r)}/issues/${i.number}`;
  const kind = i.pull ? 'pull' : 'issues';
  return {
    id: i.id,
    node_id: nodeId(i.pull ? 'PullRequest' : 'Issue', i.id),
    number: i.number,
    title: i.title,
    body: i.body,
    user: userJson(s, i.user),
    state: i.state,
    state_reason: null,
    locked: i.locked ?? false,
    labels: labelsJson(s, r, i.labels),
    labels_url: `${api}/labels{/name}`,
    events_url: `${api}/events`,
    assignee: null,
    milestone: null,
    assignees: [],
    comments: r.comments.filter((c) => c.issue === i.number).length,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.state === 'closed' ? (i.closedAt ?? i.updatedAt) : null,
    author_association: association(r, i.user),
    reactions: reactionRollup(`${api}/reactions`),
    url: api,
    repository_url: apiRepoUrl(s, r),
    comments_url: `${api}/comments`,
    html_url: `${htmlRepoUrl(s, r)}/${kind}/${i.number}`,
    ...(i.pull
      ? {
          pull_request: {
            url: `${apiRepoUrl(s, r)}/pulls/${i.number}`,
            html_url: `${htmlRepoUrl(s, r)}/pull/${i.number}`,
            diff_url: `${htmlRepoUrl(s, r)}/pull/${i.number}.diff`,
            patch_url: `${htmlRepoUrl(s, r)}/pull/${i.number}.patch`,
            merged_at: i.pull.mergedAt ?? null,
          },
          draft: i.pull.draft,
        }
      : {}),
  };
}

/** The edits an issue and a PR take alike: title, body (within GitHub's limit) and state (at `now`). */
export function editIssue(
  issue: StoredIssue,
  b: Record<string, unknown>,
  resource: 'Issue' | 'PullRequest',
  now: string,
): void {
  const title = optString(b, 'title');
  checkBodyLength(optString(b, 'body'), resource);
  if (title !== undefined) issue.title = title;
  if ('body' in b) issue.body = optString(b, 'body') ?? null;
  const state = optString(b, 'state');
  if ((state === 'open' || state === 'closed') && state !== issue.state) {
    issue.state = state;
    issue.closedAt = state === 'closed' ? now : undefined;
  }
  issue.updatedAt = now;
}

/** GitHub's order of an issue listing: `sort` (created, updated) and `direction` (default desc). */
function issueOrder(sort: string | null, direction: string | null) {
  const key = (i: StoredIssue) => Date.parse(sort === 'updated' ? i.updatedAt : i.createdAt);
  const sign = direction === 'asc' ? 1 : -1;
  return (a: StoredIssue, b: StoredIssue) => sign * (key(a) - key(b) || a.number - b.number);
}

export const issueRoutes: Route[] = [
  // A repository's issues and pull requests: `labels` (all of them), `state` (default open), `since` (updated at
  // or after), ordered by `sort` (created, default; updated) newest first unless `direction=asc`, as GitHub lists them.
  route('GET', `${REPO}/issues`, (c) => {
    const labels = (c.query.get('labels') ?? '')
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const state = c.query.get('state') ?? 'open';
    const since = Date.parse(c.query.get('since') ?? '');
    const all = [...c.repo.issues.values()]
      .filter((i) => state === 'all' || i.state === state)
      .filter((i) => labels.every((l) => i.labels.some((x) => x.toLowerCase() === l.toLowerCase())))
      .filter((i) => Number.isNaN(since) || Date.parse(i.updatedAt) >= since)
      .sort(issueOrder(c.query.get('sort'), c.query.get('direction')));
    const page = paginate(c, all);
    return { ...page, body: (page.body as StoredIssue[]).map((i) => issueJson(c.state, c.repo, i)) };
  }),
  // Creating an issue: the token's user opens it; labels (GitHub keeps them for a token with push access, which
  // the fake's token has) are created on the repository when new.
  route('POST', `${REPO}/issues`, (c) => {
    const b = asRecord(c.body);
    const title = optString(b, 'title');
    if (!title) fail(422, 'Invalid request.\n\n"title" wasn\'t supplied.');
    const body = optString(b, 'body') ?? null;
    checkBodyLength(body ?? undefined, 'Issue');
    const issue = c.state.newIssue(c.repo, title, body, c.state.tokenUser);
    if (Array.isArray(b.labels) && !c.state.dropNewIssueLabels)
      issue.labels = b.labels.map((l) => (typeof l === 'string' ? l : String(asRecord(l).name)));
    return { status: 201, body: issueJson(c.state, c.repo, issue) };
  }),
  route('PUT', `${REPO}/issues/:number/lock`, (c) => {
    issueAt(c).locked = true;
    return { status: 204, body: undefined };
  }),
  route('GET', `${REPO}/issues/:number`, (c) => ({
    status: 200,
    body: issueJson(c.state, c.repo, issueAt(c)),
  })),
  route('PATCH', `${REPO}/issues/:number`, (c) => {
    const issue = issueAt(c);
    const b = asRecord(c.body);
    editIssue(issue, b, 'Issue', c.state.now());
    if (Array.isArray(b.labels)) issue.labels = b.labels.map(String);
    return { status: 200, body: issueJson(c.state, c.repo, issue) };
  }),
];
