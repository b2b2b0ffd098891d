/**
 * GraphQL: `viewer { login }`, the minimized state of comments by node id, and the two mutations REST lacks
 * (flipping a PR between draft and ready; variables carry `pullRequestId`). Anything else is unexpected.
 */
import { asRecord, type Reply } from './http.js';
import { nodeId } from './shapes.js';
import type { GitHubState, RecordedRequest } from './state.js';

export function graphql(s: GitHubState, record: RecordedRequest): Reply {
  const b = asRecord(record.body);
  const query = typeof b.query === 'string' ? b.query : '';
  const vars = asRecord(b.variables);
  if (/^\s*(query\s*\w*\s*)?\{\s*viewer\s*\{\s*login\s*\}\s*\}\s*$/.test(query)) {
    return { status: 200, body: { data: { viewer: { login: s.tokenUser.login } } } };
  }
  if (/^\s*(query\s*\w*\s*)?\{\s*viewer\s*\{\s*login\s+databaseId\s*\}\s*\}\s*$/.test(query)) {
    return {
      status: 200,
      body: { data: { viewer: { login: s.tokenUser.login, databaseId: s.tokenUser.id } } },
    };
  }
  if (/\bnodes\s*\(\s*ids\s*:/.test(query) && /\bisMinimized\b/.test(query)) {
    return minimizedNodes(s, query, vars.ids);
  }
  const op = /\b(markPullRequestReadyForReview|convertPullRequestToDraft)\s*\(/.exec(query)?.[1];
  if (!op) {
    s.unexpected.push(record);
    return {
      status: 200,
      body: { data: null, errors: [{ message: 'FakeGitHub does not know this GraphQL operation' }] },
    };
  }
  return setDraft(s, op, vars.pullRequestId);
}

/** `markPullRequestReadyForReview` or `convertPullRequestToDraft` on the PR of node id `id`. */
function setDraft(s: GitHubState, op: string, id: unknown): Reply {
  for (const repo of s.repos.values()) {
    for (const issue of repo.issues.values()) {
      if (issue.pull && nodeId('PullRequest', issue.id) === id) {
        issue.pull.draft = op === 'convertPullRequestToDraft';
        issue.updatedAt = s.now();
        return {
          status: 200,
          body: { data: { [op]: { pullRequest: { number: issue.number, isDraft: issue.pull.draft } } } },
        };
      }
    }
  }
  return {
    status: 200,
    body: {
      data: { [op]: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: [op],
          message: `Could not resolve to a node with the global id of '${String(id)}'`,
        },
      ],
    },
  };
}

/**
 * `nodes(ids: $ids) { ... on IssueComment { id isMinimized minimizedReason } ... }`: each id resolves to the
 * fields its type's fragment asks for (none for a type with no fragment), or to null with a NOT_FOUND error.
 */
function minimizedNodes(s: GitHubState, query: string, ids: unknown): Reply {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) {
    return {
      status: 200,
      body: { errors: [{ message: 'Variable $ids of type [ID!]! was provided invalid value' }] },
    };
  }
  const fragment = (type: string): string[] =>
    new RegExp(String.raw`\.\.\.\s*on\s+${type}\s*\{([^}]*)\}`)
      .exec(query)?.[1]
      ?.trim()
      .split(/[\s,]+/) ?? [];
  const errors: unknown[] = [];
  const nodes = (ids as string[]).map((id, i) => {
    for (const repo of s.repos.values()) {
      const issueComment = repo.comments.find((c) => nodeId('IssueComment', c.id) === id);
      const reviewComment = repo.reviewComments.find((c) => nodeId('PullRequestReviewComment', c.id) === id);
      const hit = issueComment ?? reviewComment;
      if (!hit) continue;
      const fields = fragment(issueComment ? 'IssueComment' : 'PullRequestReviewComment');
      const all: Record<string, unknown> = {
        id,
        isMinimized: hit.minimized !== undefined,
        minimizedReason: hit.minimized ?? null,
      };
      return Object.fromEntries(fields.filter((f) => f in all).map((f) => [f, all[f]]));
    }
    errors.push({
      type: 'NOT_FOUND',
      path: ['nodes', i],
      locations: [{ line: 2, column: 3 }],
      message: `Could not resolve to a node with the global id of '${id}'`,
    });
    return null;
  });
  return { status: 200, body: { data: { nodes }, ...(errors.length ? { errors } : {}) } };
}
