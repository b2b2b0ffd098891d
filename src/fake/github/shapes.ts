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
  return {
    login: u.login,
    id: u.id,
    node_id: nodeId('User', u.id),
    type: u.type,
    site_admin: false,
    url: `${s.baseUrl}/users/${encodeURIComponent(u.login)}`,
    html_url: `${s.serverUrl}/${u.login}`,
  };
}

export function repoJson(s: GitHubState, r: StoredRepo): Record<string, unknown> {
  return {
    id: r.id,
    node_id: nodeId('Repository', r.id),
    name: r.name,
    full_name: `${r.owner}/${r.name}`,
    owner: userJson(s, s.user(r.owner)),
    private: r.private,
    fork: false,
    html_url: htmlRepoUrl(s, r),
    url: apiRepoUrl(s, r),
    clone_url: `${htmlRepoUrl(s, r)}.git`,
    default_branch: r.defaultBranch,
    visibility: r.private ? 'private' : 'public',
  };
}

/** A repository JSON for a PR head that lives elsewhere (a fork). */
export function foreignRepoJson(s: GitHubState, full: string): Record<string, unknown> {
  const [owner = 'ghost', name = full] = full.split('/');
  const id = Number.parseInt(fakeSha(full).slice(0, 6), 16);
  return {
    id,
    node_id: nodeId('Repository', id),
    name,
    full_name: full,
    owner: userJson(s, s.user(owner)),
    private: false,
    fork: true,
    html_url: `${s.serverUrl}/${full}`,
    url: `${s.baseUrl}/repos/${full}`,
  };
}

export function labelsJson(labels: string[]): Record<string, unknown>[] {
  return labels.map((name) => {
    const id = Number.parseInt(fakeSha(`label:${name}`).slice(0, 8), 16);
    return { id, node_id: nodeId('Label', id), name, color: 'ededed', default: false, description: null };
  });
}

export function association(r: StoredRepo, u: StoredUser): string {
  if (u.login.toLowerCase() === r.owner.toLowerCase()) return 'OWNER';
  const role = r.permissions.get(u.login.toLowerCase())?.role;
  return role && role !== 'none' ? 'COLLABORATOR' : 'NONE';
}
