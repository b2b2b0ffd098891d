/** An issue's labels: list, add, remove; each change is an event on the issue's timeline (GET …/events). */
import { asRecord, fail } from './http.js';
import { issueAt, paginate, REPO, route, type Route } from './route.js';
import { apiRepoUrl, labelsJson, nodeId, userJson } from './shapes.js';
import type { GitHubState, StoredIssue, StoredRepo, StoredUser } from './state.js';

/** Records a label event on the issue's timeline. */
export function labelEvent(
  s: GitHubState,
  issue: StoredIssue,
  event: 'labeled' | 'unlabeled',
  label: string,
  actor: StoredUser,
): void {
  (issue.events ??= []).push({ id: s.id(), event, actor, label, createdAt: s.now() });
}

function eventJson(s: GitHubState, r: StoredRepo, issue: StoredIssue): Record<string, unknown>[] {
  return (issue.events ?? []).map((e) => {
    const [label] = labelsJson(s, r, [e.label]);
    return {
      id: e.id,
      node_id: nodeId('LabeledEvent', e.id),
      url: `${apiRepoUrl(s, r)}/issues/events/${e.id}`,
      actor: userJson(s, e.actor),
      event: e.event,
      commit_id: null,
      commit_url: null,
      created_at: e.createdAt,
      performed_via_github_app: null,
      label: { name: label?.name, color: label?.color },
    };
  });
}

export const labelRoutes: Route[] = [
  route('GET', `${REPO}/labels`, (c) =>
    paginate(
      c,
      c.repo.repoLabels.map((l) => {
        const [json] = labelsJson(c.state, c.repo, [l.name]);
        return { ...json, description: l.description };
      }),
    ),
  ),
  route('GET', `${REPO}/issues/:number/labels`, (c) =>
    paginate(c, labelsJson(c.state, c.repo, issueAt(c).labels)),
  ),
  route('POST', `${REPO}/issues/:number/labels`, (c) => {
    const issue = issueAt(c);
    const raw = Array.isArray(c.body) ? c.body : asRecord(c.body).labels;
    if (!Array.isArray(raw)) fail(422, 'Invalid request.\n\n"labels" wasn\'t supplied.');
    for (const l of raw.map((x) => (typeof x === 'string' ? x : String(asRecord(x).name)))) {
      if (issue.labels.includes(l)) continue;
      issue.labels.push(l);
      labelEvent(c.state, issue, 'labeled', l, c.state.tokenUser);
    }
    return { status: 200, body: labelsJson(c.state, c.repo, issue.labels) };
  }),
  route('DELETE', `${REPO}/issues/:number/labels/:name`, (c) => {
    const issue = issueAt(c);
    const name = c.params.name ?? '';
    if (!issue.labels.includes(name)) fail(404, 'Label does not exist');
    issue.labels = issue.labels.filter((l) => l !== name);
    labelEvent(c.state, issue, 'unlabeled', name, c.state.tokenUser);
    return { status: 200, body: labelsJson(c.state, c.repo, issue.labels) };
  }),
  route('GET', `${REPO}/issues/:number/events`, (c) => paginate(c, eventJson(c.state, c.repo, issueAt(c)))),
];
