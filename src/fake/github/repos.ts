/** `GET /repos/{owner}/{repo}`. */
import { REPO, route, type Route } from './route.js';
import { repoJson } from './shapes.js';

export const repoRoutes: Route[] = [
  route('GET', REPO, (c) => ({ status: 200, body: repoJson(c.state, c.repo) })),
];
