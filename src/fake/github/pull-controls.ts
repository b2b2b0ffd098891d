/**
 * A pull request's assignees and requested reviewers (users and teams), as GitHub answers the add endpoints:
 * - `POST /issues/{n}/assignees` adds (never replaces) up to 10 and silently drops a login that may not be
 *   assigned (no access to the repository): the answer, the issue, lists who is assigned;
 * - `POST /pulls/{n}/requested_reviewers` refuses the whole request with a 422 when one login or team is not a
 *   collaborator, or is the pull request's author, and answers 201 with the pull request otherwise.
 * Kept beside the issue, not in it, so the stored shapes the other resources share stay as they are.
 */
import { asRecord, fail } from './http.js';
import { issueJson } from './issues.js';
import { pullJson } from './pulls.js';
import { issueAt, pullAt, REPO, route, type Ctx, type Route } from './route.js';
import { fakeSha, nodeId, userJson } from './shapes.js';
import type { GitHubState, StoredIssue, StoredRepo, StoredUser } from './state.js';

interface Controls {
  assignees: StoredUser[];
  reviewers: StoredUser[];
  teams: string[];
}

const CONTROLS = new WeakMap<StoredIssue, Controls>();
const TEAMS = new WeakMap<StoredRepo, Set<string>>();

export function controlsOf(issue: StoredIssue): Controls {
  let c = CONTROLS.get(issue);
  if (!c) CONTROLS.set(issue, (c = { assignees: [], reviewers: [], teams: [] }));
  return c;
}

/** A team of the repository's organisation with access to it: only such a team can be asked to review. */
export function addTeam(repo: StoredRepo, slug: string): void {
  let teams = TEAMS.get(repo);
  if (!teams) TEAMS.set(repo, (teams = new Set()));
  teams.add(slug.toLowerCase());
}

function isCollaborator(r: StoredRepo, login: string): boolean {
  if (login.toLowerCase() === r.owner.toLowerCase()) return true;
  const role = r.permissions.get(login.toLowerCase())?.role;
  return role !== undefined && role !== 'none';
}

function teamJson(s: GitHubState, r: StoredRepo, slug: string): Record<string, unknown> {
  const id = Number.parseInt(fakeSha(`team:${r.owner}/${slug}`).slice(0, 7), 16);
  const url = `${s.baseUrl}/organizations/${r.id}/team/${id}`;
  return {
    id,
    node_id: nodeId('Team', id),
    url,
    html_url: `${s.serverUrl}/orgs/${r.owner}/teams/${slug}`,
    name: slug,
    slug,
    description: null,
    privacy: 'closed',
    notification_setting: 'notifications_enabled',
    permission: 'push',
    members_url: `${url}/members{/member}`,
    repositories_url: `${url}/repos`,
    parent: null,
    type: 'organization',
  };
}

function strings(b: Record<string, unknown>, key: string): string[] {
  const v = b[key];
  if (v === undefined) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    fail(422, `Invalid request.\n\nFor '${key}', ${JSON.stringify(v)} is not an array of strings.`);
  }
  return v as string[];
}

function assigneeFields(s: GitHubState, issue: StoredIssue): Record<string, unknown> {
  const { assignees } = controlsOf(issue);
  const first = assignees[0];
  return { assignee: first ? userJson(s, first) : null, assignees: assignees.map((u) => userJson(s, u)) };
}

function addAssignees(c: Ctx): Record<string, unknown> {
  const issue = issueAt(c);
  const controls = controlsOf(issue);
  for (const login of strings(asRecord(c.body), 'assignees').slice(0, 10)) {
    if (!isCollaborator(c.repo, login)) continue;
    const user = c.state.user(login);
    if (!controls.assignees.includes(user) && controls.assignees.length < 10) controls.assignees.push(user);
  }
  return { ...issueJson(c.state, c.repo, issue), ...assigneeFields(c.state, issue) };
}

const NOT_COLLABORATOR = (r: StoredRepo) =>
  `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${r.owner}/${r.name} repository.`;

async function requestReviewers(c: Ctx): Promise<Record<string, unknown>> {
  const issue = pullAt(c);
  const b = asRecord(c.body);
  const logins = strings(b, 'reviewers');
  const teams = strings(b, 'team_reviewers');
  if (logins.some((l) => l.toLowerCase() === issue.user.login.toLowerCase())) {
    fail(422, 'Review cannot be requested from pull request author.');
  }
  const known = TEAMS.get(c.repo) ?? new Set<string>();
  if (logins.some((l) => !isCollaborator(c.repo, l)) || teams.some((t) => !known.has(t.toLowerCase()))) {
    fail(422, NOT_COLLABORATOR(c.repo));
  }
  const controls = controlsOf(issue);
  for (const login of logins) {
    const user = c.state.user(login);
    if (!controls.reviewers.includes(user)) controls.reviewers.push(user);
  }
  for (const t of teams) if (!controls.teams.includes(t.toLowerCase())) controls.teams.push(t.toLowerCase());
  return {
    ...(await pullJson(c.state, c.repo, issue)),
    ...assigneeFields(c.state, issue),
    requested_reviewers: controls.reviewers.map((u) => userJson(c.state, u)),
    requested_teams: controls.teams.map((t) => teamJson(c.state, c.repo, t)),
  };
}

export const pullControlRoutes: Route[] = [
  route('POST', `${REPO}/issues/:number/assignees`, (c) => ({ status: 201, body: addAssignees(c) })),
  route('POST', `${REPO}/pulls/:number/requested_reviewers`, async (c) => ({
    status: 201,
    body: await requestReviewers(c),
  })),
];
