/**
 * What a workflow asks to be done to the run's pull request besides its text: labels, assignees, reviewers and
 * team reviewers. Only ever added (GitHub's add endpoints), on every run, so a label or reviewer a person
 * removed on purpose comes back only when the workflow still names it, and nobody's own is taken away.
 *
 * Every step is best effort: a refusal is a warning, never the run's failure (the pull request exists; a
 * reviewer who is not a collaborator must not cost the agent's work its status).
 */
import { hasStatus, type GitHubClient, type RepoRef } from './client.js';
import { getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';

export interface PullControls {
  labels: readonly string[];
  assignees: readonly string[];
  reviewers: readonly string[];
  teamReviewers: readonly string[];
}

/** GitHub's answer to a failed call in one line: status and message, no stack, no headers. */
function describe(error: unknown): string {
  const e = error as { status?: unknown; response?: { data?: { message?: unknown } } };
  const message =
    typeof e.response?.data?.message === 'string' ? e.response.data.message : getErrorMessage(error);
  return oneLine(typeof e.status === 'number' ? `${e.status} ${message}` : message);
}

/** Lists in the log as `a, b`; logins and slugs passed the input's pattern, labels are the workflow's text. */
const named = (xs: readonly string[]) => xs.join(', ');

async function addLabels(c: GitHubClient, repo: RepoRef, n: number, labels: readonly string[], log: Logger) {
  if (labels.length === 0) return;
  await c.rest.issues
    .addLabels({ ...repo, issue_number: n, labels: [...labels] })
    .then(() => log.info(`Labels on #${n}: ${named(labels)}`))
    .catch((e: unknown) => log.warning(`Could not label #${n} with ${named(labels)}: ${describe(e)}`));
}

/** GitHub drops a login it cannot assign without an error: the answer says who was assigned, the rest is told. */
async function addAssignees(
  c: GitHubClient,
  repo: RepoRef,
  n: number,
  assignees: readonly string[],
  log: Logger,
) {
  if (assignees.length === 0) return;
  try {
    const { data } = await c.rest.issues.addAssignees({
      ...repo,
      issue_number: n,
      assignees: [...assignees],
    });
    const now = new Set((data.assignees ?? []).map((a) => a.login.toLowerCase()));
    const dropped = assignees.filter((a) => !now.has(a.toLowerCase()));
    const kept = assignees.filter((a) => now.has(a.toLowerCase()));
    if (kept.length) log.info(`Assigned #${n} to ${named(kept)}`);
    if (dropped.length) {
      log.warning(
        `GitHub did not assign #${n} to ${named(dropped)}: only people with access to the repository can be assigned.`,
      );
    }
  } catch (e) {
    log.warning(`Could not assign #${n} to ${named(assignees)}: ${describe(e)}`);
  }
}

type Ask = { reviewers: string[]; team_reviewers: string[] };

/**
 * Asks for reviews. GitHub refuses the whole request (422) when one login or team is not a collaborator, so a
 * refused request is asked again one reviewer at a time: the others are still asked, each refused one warned of.
 */
async function requestReviewers(
  c: GitHubClient,
  repo: RepoRef,
  n: number,
  o: { reviewers: readonly string[]; teamReviewers: readonly string[] },
  log: Logger,
) {
  const ask = (a: Ask) => c.rest.pulls.requestReviewers({ ...repo, pull_number: n, ...a });
  const all: Ask = { reviewers: [...o.reviewers], team_reviewers: [...o.teamReviewers] };
  if (all.reviewers.length + all.team_reviewers.length === 0) return;
  try {
    await ask(all);
    log.info(
      `Review of #${n} requested from ${named([...all.reviewers, ...all.team_reviewers.map((t) => `team ${t}`)])}`,
    );
    return;
  } catch (e) {
    if (!hasStatus(e, 422)) {
      log.warning(`Could not request reviews on #${n}: ${describe(e)}`);
      return;
    }
  }
  const singles: [string, Ask][] = [
    ...all.reviewers.map((r): [string, Ask] => [r, { reviewers: [r], team_reviewers: [] }]),
    ...all.team_reviewers.map((t): [string, Ask] => [`team ${t}`, { reviewers: [], team_reviewers: [t] }]),
  ];
  for (const [who, one] of singles) {
    await ask(one)
      .then(() => log.info(`Review of #${n} requested from ${who}`))
      .catch((e: unknown) =>
        log.warning(`GitHub refused to request a review of #${n} from ${who}: ${describe(e)}`),
      );
  }
}

/** Adds the workflow's labels, assignees and reviewers to pull request `n`. Never throws. */
export async function applyPullControls(
  client: GitHubClient,
  repo: RepoRef,
  n: number,
  controls: PullControls,
  log: Logger,
): Promise<void> {
  await addLabels(client, repo, n, controls.labels, log);
  await addAssignees(client, repo, n, controls.assignees, log);
  await requestReviewers(client, repo, n, controls, log);
}
