import { hasStatus, type GitHubClient, type RepoRef } from './client.js';

/** Roles that may push, open PRs and therefore start a run. */
const WRITE_ROLES = new Set(['admin', 'maintain', 'write']);
/** Built-in roles below write. Custom roles are judged by the legacy `permission` they map to. */
const READ_ROLES = new Set(['triage', 'read', 'none']);

/**
 * Whether `actor` has write, maintain or admin on the repository. `role_name` is preferred because the legacy
 * `permission` field folds maintain into write and triage into read; a custom role has a `role_name` we do not
 * know, so its base `permission` decides. A login that is no collaborator (404) has no write access.
 */
export async function hasWriteAccess(client: GitHubClient, repo: RepoRef, actor: string): Promise<boolean> {
  if (!actor) return false;
  try {
    const { data } = await client.rest.repos.getCollaboratorPermissionLevel({ ...repo, username: actor });
    const role = (data.role_name ?? '').toLowerCase();
    if (WRITE_ROLES.has(role)) return true;
    if (READ_ROLES.has(role)) return false;
    return data.permission === 'admin' || data.permission === 'write';
  } catch (error) {
    if (hasStatus(error, 404)) return false;
    throw error;
  }
}
