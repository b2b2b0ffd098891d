/** A collaborator's permission, as the action's write-access check reads it. */
import { fail } from './http.js';
import { REPO, route, type Route } from './route.js';
import { userJson } from './shapes.js';
import type { RepoRole } from './state.js';

/** Roles map to the legacy `permission` field the way GitHub does it. */
function legacyPermission(role: RepoRole): 'admin' | 'write' | 'read' | 'none' {
  if (role === 'admin') return 'admin';
  if (role === 'maintain' || role === 'write') return 'write';
  if (role === 'triage' || role === 'read') return 'read';
  return 'none';
}

/** The flags GitHub lists under a collaborator's `permissions`, each level implying those below it. */
function permissionFlags(role: RepoRole): Record<string, boolean> {
  const order: RepoRole[] = ['read', 'triage', 'write', 'maintain', 'admin'];
  const at = order.indexOf(role);
  return { pull: at >= 0, triage: at >= 1, push: at >= 2, maintain: at >= 3, admin: at >= 4 };
}

export const permissionRoutes: Route[] = [
  route('GET', `${REPO}/collaborators/:user/permission`, (c) => {
    const entry = c.repo.permissions.get((c.params.user ?? '').toLowerCase());
    if (!entry) fail(404, `${c.params.user} is not a user`);
    return {
      status: 200,
      body: {
        permission: legacyPermission(entry.role),
        role_name: entry.roleName,
        user: {
          ...userJson(c.state, entry.user),
          role_name: entry.roleName,
          permissions: permissionFlags(entry.role),
        },
      },
    };
  }),
];
