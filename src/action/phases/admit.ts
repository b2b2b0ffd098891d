/**
 * The admit phase: does the event ask for a run, and may its actor have one. Interpreting the event is pure;
 * the permission check is the run's first network call, made only after the local checks (preflight) passed.
 */
import { commentMarker, createComment, upsertMarkedComment } from '../../github/comments.js';
import { interpretEvent, type SweepTrigger } from '../../github/trigger.js';
import { getIssue } from '../../github/issues.js';
import { APPROVAL_VIAS, approve, type Approval, type ApprovalVia } from '../../github/approval.js';
import { getErrorMessage } from '../../util/errors.js';
import { runUrlOf } from '../context.js';
import { neutralize } from '../../util/untrusted-text.js';
import { admitCiFix, type CiFix } from '../ci-fix.js';
import type { RunTrigger } from '../../github/trigger.js';
import { publisherFor } from '../publishing.js';
import { ended, writeJobSummary } from './report.js';
import { statusLine } from '../../domain/status.js';
import type { ActionResult, Admitted, Basics, Triggered } from '../run-record.js';

const ISSUE_MARKER = commentMarker('issue');

/** What the event asks for: a run, the deferred runs' sweep, or nothing (the step ends `skipped`). */
export type Interpreted = Triggered | { sweep: SweepTrigger } | ActionResult;

/**
 * The event as a trigger, or the skip: said in the log and in the job summary, which would otherwise be empty on
 * a green step that did nothing (why is the first thing a person looking at it wants to know).
 */
export async function interpret(r: Basics): Promise<Interpreted> {
  const trigger = interpretEvent(r.ctx.eventName, r.ctx.payload, {
    triggerLabel: r.inputs.triggerLabel,
    triggerPhrase: r.inputs.triggerPhrase,
    phraseAnywhere: r.inputs.triggerPhraseAnywhere,
    fixCi: r.inputs.fixCi,
    branchPrefix: r.inputs.branchPrefix,
    prompt: r.inputs.prompt || undefined,
    triggerAssignee: r.inputs.triggerAssignee,
    onQuota: r.inputs.onQuota,
    flow: r.inputs.flow,
  });
  if (trigger.kind === 'sweep') return { sweep: trigger };
  if (trigger.kind === 'skip') {
    const reason = neutralize(trigger.reason);
    r.log.info(`Nothing to do: ${reason}`);
    await writeJobSummary(
      r,
      `## gemini-run: ${statusLine('skipped')}\n\nNothing to do: ${reason}. Nothing ran and nothing was changed.\n`,
    );
    return ended('skipped');
  }
  return { requested: trigger };
}

/** How long a whole run may take, from its admission: the agent's time and its setup and publishing. */
function runTimeMs(timeoutMinutes: number): number {
  const agent = timeoutMinutes * 60_000;
  return agent + Math.min(agent, 10 * 60_000);
}

type Speaker = Omit<Admitted, 'self' | 'tellIssue' | 'trigger' | 'ciFix' | 'approval'>;

/** The session's token and a client for this run, and how the run speaks on GitHub (publishing.ts). */
function speaker(r: Basics & Triggered): Speaker {
  const { inputs, ctx } = r;
  // The preflight refused a run without a token, so without a session.
  const github = r.github!;
  return {
    token: github.token,
    // A rate limit is waited out within the run's own time: the agent's timeout, and as long again (at most ten
    // minutes) for everything around it; a limit that lifts later fails the call at once, naming when it lifts.
    // The real clock: the client compares it with GitHub's reset times.
    client: github.until(Date.now() + runTimeMs(inputs.timeoutMinutes)),
    repo: ctx.repo,
    runUrl: runUrlOf(ctx),
    ...publisherFor(r, r.requested.number),
  };
}

export async function admit(r: Basics & Triggered): Promise<Admitted | ActionResult> {
  const { log } = r;
  let trigger = r.requested;
  const s = speaker(r);
  const { client, repo } = s;
  let identity: Promise<string | undefined> | undefined;
  const self = () =>
    (identity ??= r.github!.identity().catch((e: unknown) => {
      log.warning(
        `Could not tell which account the token is (${getErrorMessage(e)}): earlier comments are not reused.`,
      );
      return undefined;
    }));
  let ciFix: CiFix | undefined;
  if (trigger.ciRun) {
    // Admitted because the pull request and its head commit are the action's own, not by who pushed; approved by
    // the approval the pull request's own record carries.
    const fix = await admitCiFix({
      client,
      repo,
      trigger: { ...trigger, ciRun: trigger.ciRun },
      self: await self(),
      maxAttempts: r.inputs.maxFixAttempts,
      origin: r.ctx.origin,
      publish: s.publish,
      log,
    });
    if (fix.kind !== 'run') {
      const reason = neutralize(fix.reason);
      log.info(`Nothing to do: ${reason}`);
      await writeJobSummary(
        r,
        `## gemini-run: ${fix.kind === 'stop' ? 'stopped fixing CI' : 'skipped'}\n\n${reason}.\n`,
      );
      return ended('skipped');
    }
    trigger = fix.trigger;
    ciFix = fix.ciFix;
  } else if (trigger.ciFixCarried) {
    ciFix = trigger.ciFixCarried;
  }
  const approval =
    trigger.carried ?? (await approveEvent(r, s, (trigger = await withApprovedItem(r, s, trigger))));
  if (!approval) return ended('refused');
  /** Tells the issue (or PR) how the run went when there is no pull request to say it; best effort. */
  const tellIssue = async (text: string) => {
    if (trigger.number === undefined) return;
    await upsertMarkedComment(
      client,
      repo,
      trigger.number,
      ISSUE_MARKER,
      s.publish(text),
      await self(),
    ).catch((e: unknown) => log.warning(`Could not comment on #${trigger.number}: ${getErrorMessage(e)}`));
  };
  return { ...s, self, tellIssue, trigger, approval, ...(ciFix ? { ciFix } : {}) };
}

/**
 * A dispatch that names an issue approves the issue as it is at the dispatch: read once, here, so the approval's
 * hash and the task are of the same text.
 */
async function withApprovedItem(r: Basics, s: Speaker, trigger: RunTrigger): Promise<RunTrigger> {
  if (trigger.approved || trigger.number === undefined) return trigger;
  const issue = await getIssue(s.client, s.repo, trigger.number);
  return {
    ...trigger,
    isPullRequest: trigger.isPullRequest || issue.isPullRequest,
    url: issue.htmlUrl,
    approved: { title: issue.title, body: issue.body, at: r.now().toISOString() },
  };
}

const EVENT_VIAS = new Set<string>(APPROVAL_VIAS);

/** The event's approval: its actor must have write access now, or the run is refused with a comment saying so. */
async function approveEvent(r: Basics, s: Speaker, trigger: RunTrigger): Promise<Approval | undefined> {
  const { log } = r;
  const { client, repo } = s;
  if (!EVENT_VIAS.has(trigger.via)) throw new Error(`a ${trigger.via} run carries no approval`);
  const approved = await log.group('Checking permissions', async () => {
    const result = await approve(client, repo, {
      approver: trigger.actor,
      at: trigger.approved?.at ?? r.now().toISOString(),
      via: trigger.via as ApprovalVia,
      ...(trigger.number !== undefined ? { number: trigger.number } : {}),
      text: {
        title: trigger.approved?.title ?? '',
        body: trigger.approved?.body ?? '',
        instruction: trigger.instruction,
        isPullRequest: trigger.isPullRequest,
      },
    });
    log.info(
      `${neutralize(trigger.actor)} ${result.kind === 'approved' ? 'has' : 'does not have'} write access to ${repo.owner}/${repo.repo}`,
    );
    return result;
  });
  if (approved.kind === 'approved') return approved.approval;
  // An item's own event (a push to a pull request, a new issue to triage) is refused in the log only: an outside
  // contributor would get the comment on every push; a writer's `/gemini review` or `/gemini triage` asks instead.
  if (trigger.number !== undefined && !trigger.implicit) {
    await createComment(
      client,
      repo,
      trigger.number,
      `${commentMarker('refused')}\n@${trigger.actor}, gemini-run only runs for people with write access to this repository, so this request was not run.`,
    );
  }
  return undefined;
}
