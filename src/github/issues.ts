/**
 * Issues (a pull request is one too, to these endpoints): read one, list the open ones with a label, put a label on
 * or take it off, and who last put a label on; the repository's own labels.
 */
import type { GitHubClient, RepoRef } from './client.js';
import { capBody } from './limits.js';

/** An issue or pull request as a run reads it. */
export interface IssueInfo {
  number: number;
  title: string;
  /** As written; empty when it has none. */
  body: string;
  htmlUrl: string;
  isPullRequest: boolean;
}

type IssueData = {
  number: number;
  title: string;
  body?: string | null;
  html_url: string;
  pull_request?: unknown;
};

/** An issue as it stands now: open or closed, and how many labels it carries. */
export interface IssueStanding extends IssueInfo {
  open: boolean;
  labelCount: number;
}

function standingOf(i: IssueData & { state: string; labels: unknown[] }): IssueStanding {
  return { ...infoOf(i), open: i.state === 'open', labelCount: i.labels.length };
}

function infoOf(i: IssueData): IssueInfo {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    htmlUrl: i.html_url,
    isPullRequest: i.pull_request != null,
  };
}

export async function getIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<IssueStanding> {
  const { data } = await client.rest.issues.get({ ...repo, issue_number: number });
  return standingOf(data);
}

/** The open issues and pull requests that carry `label`. */
export async function openIssuesLabelled(
  client: GitHubClient,
  repo: RepoRef,
  label: string,
): Promise<IssueInfo[]> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    labels: label,
    state: 'open',
    per_page: 100,
  });
  return issues.map(infoOf);
}

/** An open issue as a sweep weighs it: who opened it and how many labels it has. */
export interface OpenIssue extends IssueStanding {
  author: { login: string; type?: string | null } | undefined;
}

/** The open issues and pull requests, oldest first, a page at a time (a sweep stops reading when it has enough). */
export async function* openIssuesOldestFirst(client: GitHubClient, repo: RepoRef): AsyncGenerator<OpenIssue> {
  for await (const page of client.paginate.iterator(client.rest.issues.listForRepo, {
    ...repo,
    state: 'open',
    sort: 'created',
    direction: 'asc',
    per_page: 100,
  })) {
    for (const i of page.data) yield { ...standingOf(i), author: i.user ?? undefined };
  }
}

/** Who put `label` on the issue the last time it was put on (its events say), or undefined when they do not say. */
export async function lastLabelledBy(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
): Promise<string | undefined> {
  const events = await client.paginate(client.rest.issues.listEvents, {
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  const last = events
    .filter(
      (e) => e.event === 'labeled' && 'label' in e && e.label?.name?.toLowerCase() === label.toLowerCase(),
    )
    .at(-1);
  return last?.actor?.login || undefined;
}

/** Puts `label` on; the labels the issue has then. */
export async function addLabel(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
): Promise<string[]> {
  const { data } = await client.rest.issues.addLabels({ ...repo, issue_number: number, labels: [label] });
  return data.map((l) => l.name);
}

/** Issues (not pull requests) with `label`, open or closed, oldest first, with who opened each. */
export async function issuesLabelled(
  client: GitHubClient,
  repo: RepoRef,
  label: string,
): Promise<(IssueInfo & { user: string | undefined })[]> {
  const issues = await client.paginate(client.rest.issues.listForRepo, {
    ...repo,
    labels: label,
    state: 'all',
    sort: 'created',
    direction: 'asc',
    per_page: 100,
  });
  return issues.filter((i) => i.pull_request == null).map((i) => ({ ...infoOf(i), user: i.user?.login }));
}

/** Opens an issue; its number and the labels GitHub kept (it drops them silently for a token that may not set them). */
export async function createIssue(
  client: GitHubClient,
  repo: RepoRef,
  o: { title: string; body: string; labels: string[] },
): Promise<{ number: number; labels: string[] }> {
  const { data } = await client.rest.issues.create({ ...repo, ...o, body: capBody(o.body) });
  return {
    number: data.number,
    labels: data.labels.flatMap((l) => (typeof l === 'string' ? [l] : l.name ? [l.name] : [])),
  };
}

/** Locks the conversation: only collaborators may comment. */
export async function lockIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<void> {
  await client.rest.issues.lock({ ...repo, issue_number: number });
}

/** Closes an issue as not planned (a record, not work). */
export async function closeIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<void> {
  await client.rest.issues.update({
    ...repo,
    issue_number: number,
    state: 'closed',
    state_reason: 'not_planned',
  });
}

export async function removeLabel(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
): Promise<void> {
  await client.rest.issues.removeLabel({ ...repo, issue_number: number, name: label });
}

/** A label of the repository, as the triage agent is shown it. */
export interface RepoLabel {
  name: string;
  description: string;
}

/** The repository's labels, at most `max` (a triage shows them all to the agent, so the set is bounded). */
export async function repositoryLabels(
  client: GitHubClient,
  repo: RepoRef,
  max: number,
): Promise<RepoLabel[]> {
  const labels: RepoLabel[] = [];
  for await (const page of client.paginate.iterator(client.rest.issues.listLabelsForRepo, {
    ...repo,
    per_page: 100,
  })) {
    for (const l of page.data) labels.push({ name: l.name, description: l.description ?? '' });
    if (labels.length >= max) break;
  }
  return labels.slice(0, max);
}

/** The labels on an issue now. */
export async function labelsOn(client: GitHubClient, repo: RepoRef, number: number): Promise<string[]> {
  const { data } = await client.rest.issues.listLabelsOnIssue({
    ...repo,
    issue_number: number,
    per_page: 100,
  });
  return data.map((l) => l.name);
}

/** Adds `labels` to an issue (never removes one). */
export async function addLabels(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  labels: string[],
): Promise<void> {
  await client.rest.issues.addLabels({ ...repo, issue_number: number, labels });
}

/** The repository's default branch. */
export async function defaultBranch(client: GitHubClient, repo: RepoRef): Promise<string> {
  return (await client.rest.repos.get({ ...repo })).data.default_branch;
}
