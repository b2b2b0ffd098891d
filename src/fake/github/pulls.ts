/**
 * Pull requests: list (with GitHub's quirk of ignoring a head filter without an owner), create (refusing what
 * GitHub refuses), read, edit (never `draft`: REST cannot change it).
 */
import { asRecord, checkBodyLength, fail, optString, validationFailed } from './http.js';
import { editIssue } from './issues.js';
import { pullHeadInGit } from './reviews.js';
import { paginate, pullAt, REPO, route, type Ctx, type Route } from './route.js';
import {
  apiRepoUrl,
  association,
  fakeSha,
  foreignRepoJson,
  htmlRepoUrl,
  labelsJson,
  nodeId,
  repoJson,
  userJson,
} from './shapes.js';
import type { GitHubState, StoredIssue, StoredPull, StoredRepo } from './state.js';

/** GitHub's head sha is its `refs/pull/<n>/head`, a fork's too; the head branch's when the origin has no such ref. */
async function headShaOf(s: GitHubState, r: StoredRepo, i: StoredIssue): Promise<string> {
  const p = i.pull as StoredPull;
  return (
    (await pullHeadInGit(s, r, i)) ??
    (p.headRepo && s.resolveBranch ? await s.resolveBranch(p.headRepo, p.headRef) : undefined) ??
    fakeSha(`${p.headRepo ?? 'ghost'}:${p.headRef}`)
  );
}

export async function pullJson(
  s: GitHubState,
  r: StoredRepo,
  i: StoredIssue,
): Promise<Record<string, unknown>> {
  const p = i.pull as StoredPull;
  const full = `${r.owner}/${r.name}`;
  const headSha = await headShaOf(s, r, i);
  const baseSha =
    (s.resolveBranch ? await s.resolveBranch(full, p.baseRef) : undefined) ?? fakeSha(`${full}:${p.baseRef}`);
  const api = `${apiRepoUrl(s, r)}/pulls/${i.number}`;
  return {
    id: i.id,
    node_id: nodeId('PullRequest', i.id),
    number: i.number,
    url: api,
    html_url: `${htmlRepoUrl(s, r)}/pull/${i.number}`,
    issue_url: `${apiRepoUrl(s, r)}/issues/${i.number}`,
    comments_url: `${apiRepoUrl(s, r)}/issues/${i.number}/comments`,
    review_comments_url: `${api}/comments`,
    state: i.state,
    locked: false,
    title: i.title,
    body: i.body,
    user: userJson(s, i.user),
    labels: labelsJson(s, r, i.labels),
    commits_url: `${api}/commits`,
    review_comment_url: `${apiRepoUrl(s, r)}/pulls/comments{/number}`,
    statuses_url: `${apiRepoUrl(s, r)}/statuses/${headSha}`,
    diff_url: `${htmlRepoUrl(s, r)}/pull/${i.number}.diff`,
    patch_url: `${htmlRepoUrl(s, r)}/pull/${i.number}.patch`,
    assignee: null,
    assignees: [],
    milestone: null,
    merge_commit_sha: null,
    auto_merge: null,
    merged_by: null,
    mergeable_state: 'unknown',
    maintainer_can_modify: false,
    comments: r.comments.filter((c) => c.issue === i.number).length,
    review_comments: r.reviewComments.filter((c) => c.pull === i.number).length,
    commits: 1,
    additions: 0,
    deletions: 0,
    changed_files: 0,
    _links: {
      self: { href: api },
      html: { href: `${htmlRepoUrl(s, r)}/pull/${i.number}` },
      issue: { href: `${apiRepoUrl(s, r)}/issues/${i.number}` },
      comments: { href: `${apiRepoUrl(s, r)}/issues/${i.number}/comments` },
      review_comments: { href: `${api}/comments` },
      review_comment: { href: `${apiRepoUrl(s, r)}/pulls/comments{/number}` },
      commits: { href: `${api}/commits` },
      statuses: { href: `${apiRepoUrl(s, r)}/statuses/${headSha}` },
    },
    draft: p.draft,
    merged: p.mergedAt !== undefined,
    merged_at: p.mergedAt ?? null,
    mergeable: null,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    closed_at: i.state === 'closed' ? (i.closedAt ?? i.updatedAt) : null,
    author_association: association(r, i.user),
    head: {
      label: `${p.headOwner}:${p.headRef}`,
      ref: p.headRef,
      sha: headSha,
      user: userJson(s, s.user(p.headOwner)),
      repo:
        p.headRepo === null ? null : p.headRepo === full ? repoJson(s, r) : foreignRepoJson(s, p.headRepo),
    },
    base: {
      label: `${r.owner}:${p.baseRef}`,
      ref: p.baseRef,
      sha: baseSha,
      user: userJson(s, s.user(r.owner)),
      repo: repoJson(s, r),
    },
  };
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return [s.slice(0, i), s.slice(i + sep.length)];
}

async function listPulls(c: Ctx): Promise<Record<string, unknown>[]> {
  const state = c.query.get('state') ?? 'open';
  const head = c.query.get('head');
  const base = c.query.get('base');
  let pulls = [...c.repo.issues.values()].filter((i) => i.pull);
  if (state !== 'all') pulls = pulls.filter((i) => i.state === state);
  // GitHub ignores a head filter without an `owner:` prefix and lists everything; code must not rely on it.
  if (head?.includes(':')) {
    const [owner, ref] = splitOnce(head, ':');
    pulls = pulls.filter(
      (i) => i.pull?.headOwner.toLowerCase() === owner.toLowerCase() && i.pull.headRef === ref,
    );
  }
  if (base) pulls = pulls.filter((i) => i.pull?.baseRef === base);
  const direction = c.query.get('direction') ?? 'desc';
  pulls.sort((a, b) => (direction === 'asc' ? a.number - b.number : b.number - a.number));
  return Promise.all(pulls.map((i) => pullJson(c.state, c.repo, i)));
}

/** Creates a PR from a branch of the same repository, refusing what GitHub refuses (in its words). */
async function createPull(c: Ctx): Promise<StoredIssue> {
  const b = asRecord(c.body);
  const title = optString(b, 'title');
  const headSpec = optString(b, 'head');
  const base = optString(b, 'base');
  if (c.state.forbidPullCreation) {
    fail(403, 'GitHub Actions is not permitted to create or approve pull requests.');
  }
  if (!title || !headSpec || !base)
    fail(422, 'Validation Failed', [{ resource: 'PullRequest', code: 'missing_field' }]);
  checkBodyLength(optString(b, 'body'), 'PullRequest');
  const [headOwner, headRef] = headSpec.includes(':') ? splitOnce(headSpec, ':') : [c.repo.owner, headSpec];
  if (headOwner.toLowerCase() !== c.repo.owner.toLowerCase()) {
    validationFailed(`head: cross-repository pull requests are not supported by FakeGitHub (${headSpec})`);
  }
  const full = `${c.repo.owner}/${c.repo.name}`;
  const existing = [...c.repo.issues.values()].find(
    (i) =>
      i.state === 'open' &&
      i.pull?.headRef === headRef &&
      i.pull.headOwner.toLowerCase() === headOwner.toLowerCase(),
  );
  if (existing) validationFailed(`A pull request already exists for ${headOwner}:${headRef}.`);
  if (c.state.resolveBranch) {
    const headSha = await c.state.resolveBranch(full, headRef);
    const baseSha = await c.state.resolveBranch(full, base);
    if (!headSha)
      fail(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    if (!baseSha)
      fail(422, 'Validation Failed', [{ resource: 'PullRequest', field: 'base', code: 'invalid' }]);
    if (headSha === baseSha) validationFailed(`No commits between ${base} and ${headRef}`);
  }
  const issue = c.state.newIssue(c.repo, title, optString(b, 'body') ?? null, c.state.tokenUser);
  issue.pull = { headRef, headOwner: c.repo.owner, headRepo: full, baseRef: base, draft: b.draft === true };
  return issue;
}

export const pullRoutes: Route[] = [
  route('GET', `${REPO}/pulls`, async (c) => paginate(c, await listPulls(c))),
  route('POST', `${REPO}/pulls`, async (c) => ({
    status: 201,
    body: await pullJson(c.state, c.repo, await createPull(c)),
  })),
  route('GET', `${REPO}/pulls/:number`, async (c) => ({
    status: 200,
    body: await pullJson(c.state, c.repo, pullAt(c)),
  })),
  route('PATCH', `${REPO}/pulls/:number`, async (c) => {
    const issue = pullAt(c);
    const b = asRecord(c.body);
    editIssue(issue, b, 'PullRequest', c.state.now());
    const base = optString(b, 'base');
    if (base !== undefined && issue.pull) issue.pull.baseRef = base;
    // `draft` is deliberately ignored: GitHub's REST API cannot change it on an existing PR.
    return { status: 200, body: await pullJson(c.state, c.repo, issue) };
  }),
];
