/**
 * Workflow artifacts (GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts and
 * .../actions/artifacts/{artifact_id}/{archive_format}), as @actions/artifact's `findBy` calls them, and the
 * repository's whole list (GET .../actions/artifacts, newest first) as `gemini-run report` reads it, served from an
 * attached ArtifactsBackend; without one they are calls nobody planned for.
 */
import { DOCS, fail, HttpReply } from './http.js';
import { REPO, route, wrappedPage, type Ctx, type Route } from './route.js';
import { apiRepoUrl, fakeSha, nodeId } from './shapes.js';
import type { ArtifactsBackend, GitHubState, RestArtifact, StoredRepo } from './state.js';

function artifactsFor(c: Ctx, doc: string): ArtifactsBackend {
  if (!c.state.artifacts) {
    // Nobody attached the Actions services: the call was not planned for.
    const query = Object.fromEntries(c.query);
    c.state.unexpected.push({
      method: c.method,
      path: c.path,
      query,
      body: c.body,
      status: 404,
      authorized: true,
      at: Date.now(),
    });
    fail(404, 'Not Found');
  }
  if (c.state.actionsPermission === 'none') {
    throw new HttpReply({
      status: 403,
      body: {
        message: 'Resource not accessible by integration',
        documentation_url: `${DOCS}/actions/artifacts#${doc}`,
        status: '403',
      },
    });
  }
  return c.state.artifacts;
}

function artifactJson(s: GitHubState, r: StoredRepo, a: RestArtifact): Record<string, unknown> {
  return {
    id: a.id,
    node_id: nodeId('Artifact', a.id),
    name: a.name,
    size_in_bytes: a.sizeInBytes,
    url: `${apiRepoUrl(s, r)}/actions/artifacts/${a.id}`,
    archive_download_url: `${apiRepoUrl(s, r)}/actions/artifacts/${a.id}/zip`,
    expired: a.expired,
    digest: a.digest,
    created_at: a.createdAt,
    updated_at: a.createdAt,
    expires_at: a.expiresAt,
    workflow_run: {
      id: a.runId,
      repository_id: r.id,
      head_repository_id: r.id,
      head_branch: r.defaultBranch,
      head_sha: fakeSha(`run:${a.runId}`),
    },
  };
}

export const artifactRoutes: Route[] = [
  route('GET', `${REPO}/actions/runs/:run_id/artifacts`, (c) => {
    const backend = artifactsFor(c, 'list-workflow-run-artifacts');
    const all = backend.runArtifacts(`${c.repo.owner}/${c.repo.name}`, Number(c.params.run_id));
    if (!all) fail(404, 'Not Found');
    const name = c.query.get('name');
    const matching = all.filter((a) => name === null || a.name === name).sort((a, b) => b.id - a.id);
    return wrappedPage(c, 'artifacts', matching, (a) => artifactJson(c.state, c.repo, a));
  }),
  route('GET', `${REPO}/actions/artifacts`, (c) => {
    const backend = artifactsFor(c, 'list-artifacts-for-repository');
    const name = c.query.get('name');
    const matching = backend
      .repoArtifacts(`${c.repo.owner}/${c.repo.name}`)
      .filter((a) => name === null || a.name === name);
    return wrappedPage(c, 'artifacts', matching, (a) => artifactJson(c.state, c.repo, a));
  }),
  route('GET', `${REPO}/actions/artifacts/:artifact_id/:archive_format`, (c) => {
    const backend = artifactsFor(c, 'download-an-artifact');
    const full = `${c.repo.owner}/${c.repo.name}`;
    const artifact = backend.artifact(full, Number(c.params.artifact_id));
    if (!artifact || c.params.archive_format !== 'zip') fail(404, 'Not Found');
    if (artifact.expired) fail(410, 'Artifact has expired');
    return { status: 302, headers: { location: backend.signedZipUrl(full, artifact.id) } };
  }),
];
