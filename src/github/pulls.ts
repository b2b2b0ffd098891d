/**
 * Pull requests, idempotently: one open PR per head branch, found again and updated on every later run.
 */
import { hasStatus, type GitHubClient, type RepoRef } from './client.js';
import { capBody } from './limits.js';

export interface PullInfo {
  number: number;
  htmlUrl: string;
  nodeId: string;
  state: string;
  draft: boolean;
  title: string;
  body: string | null;
  author: string;
  headRef: string;
  headSha: string;
  /** `owner/name` of the head repository; null when it was deleted. Differs from the base for forks. */
  headRepo: string | null;
  baseRef: string;
}

export interface PullSpec {
  /** Branch name in the base repository (no `owner:` prefix). */
  head: string;
  base: string;
  title: string;
  body: string;
  /** Draft on create; on update an existing PR is flipped through GraphQL (REST cannot change draft). */
  draft: boolean;
}

export interface ReviewComment {
  id: number;
  /** GraphQL id, to ask whether the comment is minimized. */
  nodeId: string;
  author: string;
  authorType: string;
  body: string;
  path: string;
  line: number | null;
  createdAt: string;
  updatedAt: string;
}

interface RawPull {
  number: number;
  html_url: string;
  node_id: string;
  state: string;
  draft?: boolean;
  title: string;
  body: string | null;
  user: { login: string } | null;
  head: { ref: string; sha: string; repo: { full_name: string } | null };
  base: { ref: string };
}

function toPullInfo(p: RawPull): PullInfo {
  return {
    number: p.number,
    htmlUrl: p.html_url,
    nodeId: p.node_id,
    state: p.state,
    draft: p.draft ?? false,
    title: p.title,
    body: p.body,
    author: p.user?.login ?? 'ghost',
    headRef: p.head.ref,
    headSha: p.head.sha,
    headRepo: p.head.repo?.full_name ?? null,
    baseRef: p.base.ref,
  };
}

/**
 * The open PR whose head is `branch` in this repository. The `owner:` prefix matters: without it GitHub ignores
 * the head filter and lists every open PR.
 */
export async function findOpenPullForBranch(
  client: GitHubClient,
  repo: RepoRef,
  branch: string,
): Promise<PullInfo | undefined> {
  const { data } = await client.rest.pulls.list({
    ...repo,
    state: 'open',
    head: `${repo.owner}:${branch}`,
    per_page: 100,
  });
  const own = `${repo.owner}/${repo.repo}`.toLowerCase();
  // Double-check the filter: a PR from a fork whose owner happens to match is not ours.
  const hit = data.find((p) => p.head.ref === branch && p.head.repo?.full_name.toLowerCase() === own);
  return hit ? toPullInfo(hit) : undefined;
}

export async function getPull(client: GitHubClient, repo: RepoRef, number: number): Promise<PullInfo> {
  const { data } = await client.rest.pulls.get({ ...repo, pull_number: number });
  return toPullInfo(data);
}

/**
 * Updates the open PR for `spec.head`, or creates it. A create that loses a race with another run (422 "already
 * exists") falls back to updating the PR that won.
 */
export async function createOrUpdatePull(
  client: GitHubClient,
  repo: RepoRef,
  spec: PullSpec,
): Promise<{ pull: PullInfo; created: boolean }> {
  const existing = await findOpenPullForBranch(client, repo, spec.head);
  if (existing) return { pull: await updatePull(client, repo, existing, spec), created: false };
  try {
    const { data } = await client.rest.pulls.create({
      ...repo,
      head: spec.head,
      base: spec.base,
      title: spec.title,
      body: capBody(spec.body),
      draft: spec.draft,
      maintainer_can_modify: true,
    });
    return { pull: toPullInfo(data), created: true };
  } catch (error) {
    if (!hasStatus(error, 422)) throw error;
    const raced = await findOpenPullForBranch(client, repo, spec.head);
    if (!raced) throw error;
    return { pull: await updatePull(client, repo, raced, spec), created: false };
  }
}

async function updatePull(
  client: GitHubClient,
  repo: RepoRef,
  pull: PullInfo,
  spec: PullSpec,
): Promise<PullInfo> {
  const { data } = await client.rest.pulls.update({
    ...repo,
    pull_number: pull.number,
    title: spec.title,
    body: capBody(spec.body),
    ...(pull.baseRef !== spec.base ? { base: spec.base } : {}),
  });
  const updated = toPullInfo(data);
  if (updated.draft === spec.draft) return updated;
  return { ...updated, draft: await setPullDraft(client, updated, spec.draft) };
}

const READY_MUTATION = `mutation($pullRequestId: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $pullRequestId }) { pullRequest { isDraft } }
}`;
const DRAFT_MUTATION = `mutation($pullRequestId: ID!) {
  convertPullRequestToDraft(input: { pullRequestId: $pullRequestId }) { pullRequest { isDraft } }
}`;

/**
 * Marks a PR ready for review or converts it back to a draft. Only GraphQL can do this; the REST update ignores
 * `draft`. Returns the draft state GitHub reports afterwards.
 */
export async function setPullDraft(
  client: GitHubClient,
  pull: Pick<PullInfo, 'nodeId' | 'draft'>,
  draft: boolean,
): Promise<boolean> {
  if (pull.draft === draft) return draft;
  type Result = Record<string, { pullRequest: { isDraft: boolean } } | null>;
  const result = await client.graphql<Result>(draft ? DRAFT_MUTATION : READY_MUTATION, {
    pullRequestId: pull.nodeId,
  });
  const key = draft ? 'convertPullRequestToDraft' : 'markPullRequestReadyForReview';
  return result[key]?.pullRequest.isDraft ?? pull.draft;
}

/** Inline review comments of a PR (all pages), oldest first. */
export async function listReviewComments(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
): Promise<ReviewComment[]> {
  const all = await client.paginate(client.rest.pulls.listReviewComments, {
    ...repo,
    pull_number: number,
    per_page: 100,
  });
  return all.map((c) => ({
    id: c.id,
    nodeId: c.node_id,
    author: c.user?.login ?? 'ghost',
    authorType: c.user?.type ?? 'User',
    body: c.body,
    path: c.path,
    line: c.line ?? null,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  }));
}
