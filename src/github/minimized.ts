/**
 * Which comments a maintainer hid ("minimized": off-topic, spam, abuse, outdated…). GitHub folds them away on the
 * page, so a reader approving a run did not read them, and they must not reach the agent. REST does not say so;
 * GraphQL's `isMinimized` does, asked here for many comments at once by their `node_id`.
 */
import { z } from 'zod';
import type { GitHubClient } from './client.js';

const MINIMIZED_QUERY = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    ... on IssueComment { id isMinimized minimizedReason }
    ... on PullRequestReviewComment { id isMinimized minimizedReason }
  }
}`;

const nodesSchema = z.object({
  nodes: z.array(
    z.object({ id: z.string().optional(), isMinimized: z.boolean().optional() }).loose().nullable(),
  ),
});

/** GitHub's limit on `nodes(ids:)`. */
const PAGE = 100;

/**
 * The node ids among `ids` whose comment is minimized. Throws (one line) when GitHub does not answer the question
 * (no GraphQL, a token without read access, an answer of another shape): the caller decides what that means. A
 * comment deleted meanwhile comes back as null with an error beside the data; the rest of the answer still counts.
 */
export async function minimizedCommentIds(client: GitHubClient, ids: string[]): Promise<Set<string>> {
  const hidden = new Set<string>();
  for (let i = 0; i < ids.length; i += PAGE) {
    let data: unknown;
    try {
      data = await client.graphql<unknown>(MINIMIZED_QUERY, { ids: ids.slice(i, i + PAGE) });
    } catch (error) {
      // A GraphqlResponseError carries the partial data; anything else (HTTP 401/403/404) has none.
      data = typeof error === 'object' && error !== null && 'data' in error ? error.data : undefined;
      if (data == null) throw new Error(`GitHub did not say which comments are minimized: ${oneLine(error)}`);
    }
    const parsed = nodesSchema.safeParse(data);
    if (!parsed.success) throw new Error('GitHub answered the minimized-comments query in an unknown shape');
    for (const n of parsed.data.nodes) if (n?.isMinimized && n.id) hidden.add(n.id);
  }
  return hidden;
}

function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.slice(0, 200) ?? '';
}
