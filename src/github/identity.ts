/**
 * Whose name the commits the action makes carry: the identity of the token it pushes with, as GitHub shows it.
 * An App installation token is `<slug>[bot]` with its user id's noreply address (the form GitHub links to the
 * App), the workflow token `github-actions[bot]`, a personal token its user. Asked once through GraphQL's
 * `viewer`, which answers for all three (REST `GET /user` refuses an installation token).
 */
import { z } from 'zod';
import type { GitHubClient } from './client.js';

export interface Identity {
  name: string;
  email: string;
}

/** The workflow token's bot: its user id is fixed (41898282) and its address the one actions/checkout documents. */
export const ACTIONS_BOT: Identity = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

/** The author and committer of the commits the action makes. */
export interface CommitIdentity {
  author: Identity;
  committer: Identity;
}

const viewerSchema = z.object({
  viewer: z.object({ login: z.string().min(1), databaseId: z.number().int().positive().nullable() }),
});

/** The identity of `login` (user id `id`) as GitHub attributes a commit to it. Pure. */
export function noreplyIdentity(login: string, id: number | null): Identity {
  if (login === ACTIONS_BOT.name || id === null) return { ...ACTIONS_BOT };
  return { name: login, email: `${id}+${login}@users.noreply.github.com` };
}

/** The pushing token's identity; throws when GitHub does not name it. */
export async function tokenCommitIdentity(client: GitHubClient): Promise<Identity> {
  const data = await client.graphql<unknown>('query { viewer { login databaseId } }');
  const parsed = viewerSchema.safeParse(data);
  if (!parsed.success) throw new Error('GitHub did not name the token identity (viewer.login missing)');
  return noreplyIdentity(parsed.data.viewer.login, parsed.data.viewer.databaseId);
}
