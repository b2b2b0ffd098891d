/** The route table, assembled from the resources, and the dispatch of a request to its route. */
import { artifactRoutes } from './artifacts.js';
import { commentRoutes } from './comments.js';
import { gitDataRoutes } from './git-data.js';
import { graphql } from './graphql.js';
import { fail, type Reply } from './http.js';
import { issueRoutes } from './issues.js';
import { labelRoutes } from './labels.js';
import { permissionRoutes } from './permissions.js';
import { pullControlRoutes } from './pull-controls.js';
import { pullRoutes } from './pulls.js';
import { reactionRoutes } from './reactions.js';
import { repoRoutes } from './repos.js';
import { reviewCommentRoutes } from './review-comments.js';
import { reviewRoutes } from './reviews.js';
import type { Route } from './route.js';
import type { GitHubState, RecordedRequest } from './state.js';
import { workflowRunRoutes } from './workflow-runs.js';
import { contentRoute, workflowRoutes } from './workflows.js';

/** Every REST route, tried in this order. */
const ROUTES: readonly Route[] = [
  ...repoRoutes,
  ...issueRoutes,
  ...commentRoutes,
  ...reactionRoutes,
  ...labelRoutes,
  ...pullRoutes,
  ...pullControlRoutes,
  ...reviewCommentRoutes,
  ...reviewRoutes,
  ...permissionRoutes,
  ...artifactRoutes,
  ...workflowRunRoutes,
  ...workflowRoutes,
  contentRoute,
  ...gitDataRoutes,
];

/**
 * The reply of the route the request names. An unknown route, or a repository the test never added, is a 404
 * and lands in `unexpected`: a mistake in the code under test, not a GitHub answer to expect.
 */
export async function dispatch(
  s: GitHubState,
  method: string,
  url: URL,
  record: RecordedRequest,
): Promise<Reply> {
  if (method === 'POST' && url.pathname === '/graphql') return graphql(s, record);
  for (const r of ROUTES) {
    if (r.method !== method) continue;
    const m = r.pattern.exec(url.pathname);
    if (!m) continue;
    const params: Record<string, string> = {};
    r.keys.forEach((k, i) => (params[k] = decodeURIComponent(m[i + 1] ?? '')));
    const repo = s.repos.get(`${params.owner}/${params.repo}`.toLowerCase());
    if (!repo) {
      s.unexpected.push(record);
      fail(404, 'Not Found');
    }
    return r.handler({
      method,
      path: url.pathname,
      query: url.searchParams,
      body: record.body,
      params,
      repo,
      state: s,
    });
  }
  s.unexpected.push(record);
  fail(404, 'Not Found');
}
