/**
 * `flow: triage`'s sweep (a `schedule`, or a `workflow_dispatch` without an issue: a trigger kind of
 * github/trigger.ts): the open issues nobody triaged yet — no label, no triage comment of the action's own, not a
 * pull request — oldest first, at most `TRIAGE_SWEEP_MAX` per run, each a run of the pipeline of its own (from its
 * preflight on: its own approval, its own share of the day's budget). The writer-approval rule is `issues: opened`'s:
 * an issue is triaged for its author, who must have write access now (approval.ts); the others are left, counted in
 * one log line (a writer's `/gemini triage` triages anyone's issue).
 */
import { approve, type Approval } from '../../github/approval.js';
import { isBotUser, type GitHubClient } from '../../github/client.js';
import { findMarkedComment } from '../../github/comments.js';
import { getIssue, openIssuesOldestFirst, type OpenIssue } from '../../github/issues.js';
import type { RunTrigger } from '../../github/trigger.js';
import { getErrorMessage, oneLine } from '../../util/errors.js';
import { ended, writeJobSummary } from '../phases/report.js';
import type { ActionResult, Basics } from '../run-record.js';
import { TRIAGE_MARKER } from './triage.js';

/** Issues one sweep triages at most: each is a whole agent run, and a schedule comes back for the rest. */
const TRIAGE_SWEEP_MAX = 5;

/** Ends after which the sweep's other runs would end the same way: the day's budget is spent. */
const DAY_SPENT = new Set(['daily-budget-exceeded', 'deferred']);

interface Found {
  picked: RunTrigger[];
  /** Untriaged issues left because their authors lack write access, or are bots. */
  strangers: number;
  bots: number;
}

/** The run of one issue: triaged for its author, with the approval made here. */
function triageTrigger(i: OpenIssue, approval: Approval, instruction: string): RunTrigger {
  return {
    kind: 'run',
    actor: approval.approver,
    number: i.number,
    isPullRequest: false,
    instruction,
    via: 'opened',
    implicit: true,
    url: i.htmlUrl,
    approved: { title: i.title, body: i.body, at: approval.at },
    carried: approval,
  };
}

/** The oldest untriaged issues whose authors have write access, at most `TRIAGE_SWEEP_MAX`; the others counted. */
async function untriaged(r: Basics, client: GitHubClient, self: string, instruction: string): Promise<Found> {
  const { repo } = r.ctx;
  const found: Found = { picked: [], strangers: 0, bots: 0 };
  // An author refused once is refused for the sweep: one permission call per person, not per issue.
  const refused = new Set<string>();
  for await (const i of openIssuesOldestFirst(client, repo)) {
    if (i.isPullRequest || i.labelCount > 0) continue;
    if (!i.author || isBotUser(i.author)) {
      found.bots++;
      continue;
    }
    const login = i.author.login;
    if (refused.has(login)) {
      found.strangers++;
      continue;
    }
    if (await findMarkedComment(client, repo, i.number, TRIAGE_MARKER, self)) continue;
    // The issue as it stands now is what its author approves (edits are the author's or other writers').
    const approved = await approve(client, repo, {
      approver: login,
      at: r.now().toISOString(),
      via: 'opened',
      number: i.number,
      text: { title: i.title, body: i.body, instruction, isPullRequest: false },
    });
    if (approved.kind === 'refused') {
      refused.add(login);
      found.strangers++;
      continue;
    }
    found.picked.push(triageTrigger(i, approved.approval, instruction));
    if (found.picked.length >= TRIAGE_SWEEP_MAX) break;
  }
  return found;
}

/**
 * Still open and unlabelled; false (left) when GitHub cannot say. A triage comment another run wrote meanwhile is
 * the run's own check (triage.ts `triagedByAnotherRun`), as for the issue's own `issues: opened` run.
 */
async function stillUntriaged(client: GitHubClient, r: Basics, number: number): Promise<boolean> {
  try {
    const now = await getIssue(client, r.ctx.repo, number);
    return now.open && now.labelCount === 0;
  } catch (e) {
    r.log.warning(
      `Could not look at #${number} again: ${oneLine(getErrorMessage(e))}; left for a later sweep.`,
    );
    return false;
  }
}

/** Triages the untriaged open issues, each as a run of the pipeline (`run`, from its preflight on). */
export async function triageSweep(
  r: Basics,
  instruction: string,
  run: (requested: RunTrigger) => Promise<ActionResult>,
): Promise<ActionResult> {
  const { log } = r;
  if (!r.github)
    return ended('misconfigured', "No GitHub token: set the 'github-token' input to triage open issues.");
  const { client } = r.github;
  let found: Found;
  try {
    const self = await r.github.identity();
    found = await log.group('Looking for untriaged issues', () => untriaged(r, client, self, instruction));
  } catch (e) {
    log.warning(`Could not look for untriaged issues: ${oneLine(getErrorMessage(e))}`);
    return ended('skipped');
  }
  const { picked, strangers, bots } = found;
  if (strangers || bots)
    log.info(
      `Not triaged: ${strangers} untriaged issue(s) whose authors do not have write access, ${bots} opened by bots (a writer's '${r.inputs.triggerPhrase} triage' triages one).`,
    );
  if (!picked.length) {
    log.info('Nothing to triage: every open issue has a label or was triaged.');
    await writeJobSummary(
      r,
      "## gemini-run: nothing to triage\n\nEvery open issue has a label, was triaged, or is not a writer's.\n",
    );
    return ended('skipped');
  }
  log.info(
    `Triaging ${picked.map((t) => `#${t.number}`).join(', ')} (oldest first, at most ${TRIAGE_SWEEP_MAX}).`,
  );
  const results: ActionResult[] = [];
  for (const [k, t] of picked.entries()) {
    // Each run takes minutes: a later issue may have been labelled or closed meanwhile. Asked again just before
    // its run, so it is not triaged twice.
    if (k > 0 && !(await stillUntriaged(client, r, t.number!))) {
      log.info(`#${t.number} was labelled or closed since the sweep listed it: left.`);
      continue;
    }
    const result = await run(t);
    results.push(result);
    if (DAY_SPENT.has(result.outputs.status)) {
      log.info("The repository's daily token budget is spent: the other issues wait for a later sweep.");
      break;
    }
  }
  // The step fails with the first run that failed; else it is the last run's.
  return results.find((x) => x.failure) ?? results.at(-1) ?? ended('skipped');
}
