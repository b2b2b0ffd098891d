/** The JSON shapes several resources share: users, repositories, labels, node ids and author associations. */
import { createHash } from 'node:crypto';
import type { GitHubState, StoredRepo, StoredUser } from './state.js';

export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export function nodeId(kind: string, id: number): string {
  return Buffer.from(`${kind}:${id}`).toString('base64').replace(/=+$/, '');
}

export function apiRepoUrl(s: GitHubState, r: StoredRepo): string {
  return `${s.baseUrl}/repos/${r.owner}/${r.name}`;
}

export function htmlRepoUrl(s: GitHubState, r: StoredRepo): string {
  return `${s.serverUrl}/${r.owner}/${r.name}`;
}

export function userJson(s: GitHubState, u: StoredUser): Record<string, unknown> {
  const api = `${s.baseUrl}/users/${encodeURIComponent(u.login)}`;
  // An app's bot has no profile page of its own: GitHub links it to the app's page.
  const app = /^(.+)\[bot\]$/.exec(u.login)?.[1];
  return {
    login: u.login,
    id: u.id,
    node_id: nodeId('User', u.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${u.id}?v=4`,
    gravatar_id: '',
    url: api,
    html_url: app ? `${s.serverUrl}/apps/${app}` : `${s.serverUrl}/${u.login}`,
    followers_url: `${api}/followers`,
    following_url: `${api}/following{/other_user}`,
    gists_url: `${api}/gists{/gist_id}`,
    starred_url: `${api}/starred{/owner}{/repo}`,
    subscriptions_url: `${api}/subscriptions`,
    organizations_url: `${api}/orgs`,
    repos_url: `${api}/repos`,
    events_url: `${api}/events{/privacy}`,
    received_events_url: `${api}/received_events`,
    type: u.type,
    user_view_type: 'public',
    site_admin: false,
  };
}

/** The URLs every repository JSON carries, GitHub's URI templates included. */
function repoUrls(api: string, html: string): Record<string, string> {
  const t = (path: string): string => `${api}/${path}`;
  return {
    html_url: html,
    url: api,
    archive_url: t('{archive_format}{/ref}'),
    assignees_url: t('assignees{/user}'),
    blobs_url: t('git/blobs{/sha}'),
    branches_url: t('branches{/branch}'),
    collaborators_url: t('collaborators{/collaborator}'),
    comments_url: t('comments{/number}'),
    commits_url: t('commits{/sha}'),
    compare_url: t('compare/{base}...{head}'),
    contents_url: t('contents/{+path}'),
    contributors_url: t('contributors'),
    deployments_url: t('deployments'),
    downloads_url: t('downloads'),
    events_url: t('events'),
    forks_url: t('forks'),
    git_commits_url: t('git/commits{/sha}'),
    git_refs_url: t('git/refs{/sha}'),
    git_tags_url: t('git/tags{/sha}'),
    hooks_url: t('hooks'),
    issue_comment_url: t('issues/comments{/number}'),
    issue_events_url: t('issues/events{/number}'),
    issues_url: t('issues{/number}'),
    keys_url: t('keys{/key_id}'),
    labels_url: t('labels{/name}'),
    languages_url: t('languages'),
    merges_url: t('merges'),
    milestones_url: t('milestones{/number}'),
    notifications_url: t('notifications{?since,all,participating}'),
    pulls_url: t('pulls{/number}'),
    releases_url: t('releases{/id}'),
    stargazers_url: t('stargazers'),
    statuses_url: t('statuses/{sha}'),
    subscribers_url: t('subscribers'),
    subscription_url: t('subscription'),
    tags_url: t('tags'),
    teams_url: t('teams'),
    trees_url: t('git/trees{/sha}'),
    clone_url: `${html}.git`,
    git_url: `${html.replace(/^https?:/, 'git:')}.git`,
    ssh_url: `git@${new URL(html).host}:${new URL(html).pathname.slice(1)}.git`,
    svn_url: html,
  };
}

/** A repository's JSON as GitHub gives it (the full shape of GET /repos/{owner}/{repo}). */
function repositoryJson(
  s: GitHubState,
  r: { id: number; owner: string; name: string; private: boolean; fork: boolean; defaultBranch: string },
): Record<string, unknown> {
  const full = `${r.owner}/${r.name}`;
  return {
    id: r.id,
    node_id: nodeId('Repository', r.id),
    name: r.name,
    full_name: full,
    owner: userJson(s, s.user(r.owner)),
    private: r.private,
    fork: r.fork,
    description: null,
    homepage: null,
    language: null,
    mirror_url: null,
    license: null,
    ...repoUrls(`${s.baseUrl}/repos/${full}`, `${s.serverUrl}/${full}`),
    default_branch: r.defaultBranch,
    visibility: r.private ? 'private' : 'public',
    forks: 0,
    forks_count: 0,
    stargazers_count: 0,
    watchers: 0,
    watchers_count: 0,
    open_issues: 0,
    open_issues_count: 0,
    network_count: 0,
    subscribers_count: 0,
    size: 0,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    archived: false,
    disabled: false,
    pushed_at: '2026-01-01T00:00:00Z',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };
}

export function repoJson(s: GitHubState, r: StoredRepo): Record<string, unknown> {
  return repositoryJson(s, { ...r, fork: false });
}

/** A repository JSON for a PR head that lives elsewhere (a fork). */
export function foreignRepoJson(s: GitHubState, full: string): Record<string, unknown> {
  const [owner = 'ghost', name = full] = full.split('/');
  const id = Number.parseInt(fakeSha(full).slice(0, 6), 16);
  return repositoryJson(s, { id, owner, name, private: false, fork: true, defaultBranch: 'main' });
}

export function labelsJson(s: GitHubState, r: StoredRepo, labels: string[]): Record<string, unknown>[] {
  return labels.map((name) => {
    const id = Number.parseInt(fakeSha(`label:${name}`).slice(0, 8), 16);
    return {
      id,
      node_id: nodeId('Label', id),
      url: `${apiRepoUrl(s, r)}/labels/${encodeURIComponent(name)}`,
      name,
      color: 'ededed',
      default: false,
      description: null,
    };
  });
}

/** The reaction counts GitHub puts on an issue or comment (the fake keeps none in them). */
export function reactionRollup(url: string): Record<string, unknown> {
  return {
    url,
    total_count: 0,
    '+1': 0,
    '-1': 0,
    laugh: 0,
    confused: 0,
    heart: 0,
    hooray: 0,
    eyes: 0,
    rocket: 0,
  };
}

export function association(r: StoredRepo, u: StoredUser): string {
  if (u.login.toLowerCase() === r.owner.toLowerCase()) return 'OWNER';
  const role = r.permissions.get(u.login.toLowerCase())?.role;
  return role && role !== 'none' ? 'COLLABORATOR' : 'NONE';
}
