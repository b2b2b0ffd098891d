/**
 * Issues (a pull request is one too, to these endpoints): read one, list the open ones with a label, put a label on
 * or take it off, and who last put a label on.
 */
import type { GitHubClient, RepoRef } from './client.js';

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

function infoOf(i: IssueData): IssueInfo {
  return {
    number: i.number,
    title: i.title,
    body: i.body ?? '',
    htmlUrl: i.html_url,
    isPullRequest: i.pull_request != null,
  };
}

export async function getIssue(client: GitHubClient, repo: RepoRef, number: number): Promise<IssueInfo> {
  const { data } = await client.rest.issues.get({ ...repo, issue_number: number });
  return infoOf(data);
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

export async function addLabel(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
): Promise<void> {
  await client.rest.issues.addLabels({ ...repo, issue_number: number, labels: [label] });
}

export async function removeLabel(
  client: GitHubClient,
  repo: RepoRef,
  number: number,
  label: string,
): Promise<void> {
  await client.rest.issues.removeLabel({ ...repo, issue_number: number, name: label });
}

/** The repository's default branch. */
export async function defaultBranch(client: GitHubClient, repo: RepoRef): Promise<string> {
  return (await client.rest.repos.get({ ...repo })).data.default_branch;
}
