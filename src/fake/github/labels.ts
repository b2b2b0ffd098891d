/** An issue's labels: list, add, remove. */
import { asRecord, fail } from './http.js';
import { issueAt, paginate, REPO, route, type Route } from './route.js';
import { labelsJson } from './shapes.js';

export const labelRoutes: Route[] = [
  route('GET', `${REPO}/issues/:number/labels`, (c) =>
    paginate(c, labelsJson(c.state, c.repo, issueAt(c).labels)),
  ),
  route('POST', `${REPO}/issues/:number/labels`, (c) => {
    const issue = issueAt(c);
    const raw = Array.isArray(c.body) ? c.body : asRecord(c.body).labels;
    if (!Array.isArray(raw)) fail(422, 'Invalid request.\n\n"labels" wasn\'t supplied.');
    for (const l of raw.map((x) => (typeof x === 'string' ? x : String(asRecord(x).name)))) {
      if (!issue.labels.includes(l)) issue.labels.push(l);
    }
    return { status: 200, body: labelsJson(c.state, c.repo, issue.labels) };
  }),
  route('DELETE', `${REPO}/issues/:number/labels/:name`, (c) => {
    const issue = issueAt(c);
    const name = c.params.name ?? '';
    if (!issue.labels.includes(name)) fail(404, 'Label does not exist');
    issue.labels = issue.labels.filter((l) => l !== name);
    return { status: 200, body: labelsJson(c.state, c.repo, issue.labels) };
  }),
];
