/**
 * `on-quota: defer`: a run that hit the model's quota wall is a pause, not an end. Its issue or pull request gets
 * the deferred label and a comment of the action's own whose hidden record says when the quota resets, which
 * session and branch to continue, and how many deferrals in a row it has had; a scheduled run resumes it after the
 * reset (phases/sweep.ts). Only the action's own comment counts, read as its first two lines, and a resumed or
 * cancelled deferral's record is cleared, so a label added by anyone else, or added again, resumes nothing.
 *
 * Pure: the record, its text and the decisions. The I/O is in phases/defer.ts and phases/sweep.ts.
 */
import { z } from 'zod';
import { approvalRecordSchema, recordOf, type Approval } from '../github/approval.js';
import { describeReset, type QuotaReset } from '../domain/quota.js';
import { commentMarker } from '../github/comments.js';
import type { RunTrigger } from '../github/trigger.js';
import { hiddenRecord, hiddenRecordOf } from './pr-text.js';

export const DEFERRAL_MARKER = commentMarker('deferred');

/** An instruction longer than this is not kept for later: the run ends `quota-exhausted` as without `defer`. */
const MAX_INSTRUCTION = 16_000;

const ISO = z.iso.datetime({ offset: true });

/** What the run waits for: the model's quota, or the repository's daily token budget (`max-daily-tokens`). */
export type DeferralCause = 'quota' | 'daily-budget';

const deferralSchema = z.object({
  /** The issue or pull request the record is on, and its repository: a record elsewhere is not this one's. */
  number: z.number().int().positive(),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  isPullRequest: z.boolean(),
  resetAt: ISO,
  /** What it waits for; absent (records of earlier versions): the model's quota. */
  cause: z.enum(['quota', 'daily-budget']).optional(),
  /** When the run was deferred. */
  since: ISO,
  /** Deferrals in a row, this one included. */
  attempt: z.number().int().min(1).max(100),
  sessionId: z.string().max(100).optional(),
  branch: z.string().max(300).optional(),
  /** The run's instruction as approved (the comment after the trigger phrase; empty: the issue is the task). */
  instruction: z.string().max(MAX_INSTRUCTION),
  /** The workflow run that wrote the record: it is trusted only when GitHub says that run is gemini-run's. */
  runId: z.string().regex(/^\d{1,20}$/),
  /** What a writer approved (time, approver, hash of the text): the resumed run is exactly that work. */
  approval: approvalRecordSchema,
  /** A deferred CI fix: its attempt count and failure, so the loop's bounds hold across the wait. */
  ciFix: z
    .object({
      attempts: z.number().int().min(1).max(1000),
      signature: z.string().max(2000),
      workflow: z.string().max(200),
      job: z.string().max(200),
    })
    .optional(),
});

export type DeferralRecord = z.infer<typeof deferralSchema>;

/** A run that was deferred: its record and when the quota resets (ISO 8601). */
export interface Deferred {
  record: DeferralRecord;
  resets: string;
}

/** The deferral record of one of the action's own comments, if its first lines hold one. */
export function deferralRecordOf(body: string): DeferralRecord | undefined {
  return hiddenRecordOf(body, DEFERRAL_MARKER, 'deferral', deferralSchema);
}

export type DeferDecision =
  | { kind: 'defer'; record: DeferralRecord }
  /** `on-quota: defer`, but not this time: why (the run ends `quota-exhausted`). */
  | { kind: 'no'; why: string; gaveUp?: true };

/** Whether a run that ended `quota-exhausted` is deferred, and its record. */
export function decideDeferral(o: {
  trigger: RunTrigger;
  approval: Approval;
  /** The workflow run deferring it (the record's origin). */
  runId: string;
  /** A CI fix's attempt and failure. */
  ciFix?: { attempts: number; signature: string; workflow: string; job: string };
  maxDeferrals: number;
  reset: QuotaReset;
  now: Date;
  repo: string;
  /** The pull request that holds the run's work, if any: the deferral goes there. */
  pull?: { number: number };
  sessionId?: string;
  branch?: string;
  cause?: DeferralCause;
}): DeferDecision {
  const { trigger } = o;
  const attempt = (trigger.deferrals ?? 0) + 1;
  if (attempt > o.maxDeferrals)
    return {
      kind: 'no',
      why: `it was deferred ${attempt - 1} time(s) in a row, the most \`max-deferrals\` allows`,
      gaveUp: true,
    };
  const number = o.pull?.number ?? trigger.number;
  if (number === undefined)
    return { kind: 'no', why: 'the run has no issue or pull request to wait on (a dispatch without one)' };
  // What was approved, not what a resumed run was told (which wraps it).
  const instruction = trigger.approvedInstruction ?? trigger.instruction;
  if (instruction.length > MAX_INSTRUCTION)
    return { kind: 'no', why: `its instruction is longer than ${MAX_INSTRUCTION} characters` };
  return {
    kind: 'defer',
    record: {
      number,
      repo: o.repo,
      isPullRequest: o.pull !== undefined || trigger.isPullRequest,
      resetAt: o.reset.resetAt,
      ...(o.cause === 'daily-budget' ? { cause: o.cause } : {}),
      since: o.now.toISOString(),
      attempt,
      ...(o.sessionId ? { sessionId: o.sessionId } : {}),
      ...(o.branch ? { branch: o.branch } : {}),
      instruction,
      runId: o.runId,
      approval: recordOf(o.approval),
      ...(o.ciFix ? { ciFix: o.ciFix } : {}),
    },
  };
}

/** The deferral comment: the record, then what happens next, for people. */
export function deferralComment(o: {
  record: DeferralRecord;
  reset: QuotaReset;
  maxDeferrals: number;
  label: string;
  now: Date;
}): string {
  const { record } = o;
  const waits =
    record.cause === 'daily-budget'
      ? `⏸️ **gemini-run is waiting for the daily token budget.** The repository's \`max-daily-tokens\` for today is spent; it resets at ${describeReset(o.reset, o.now)}.`
      : `⏸️ **gemini-run is waiting for the model quota.** The ${o.reset.scope === 'unknown' ? '' : `${o.reset.scope} `}quota ran out; it resets at ${describeReset(o.reset, o.now)}.`;
  return [
    hiddenRecord('deferral', record),
    waits,
    '',
    `A scheduled run of the workflow continues this session after that (deferral ${record.attempt} of ${o.maxDeferrals}). Remove the label \`${o.label}\` to cancel.`,
  ].join('\n');
}

/** The deferrals due at `now`, oldest first, at most `max`; and when the next of the others is due. */
export function dueDeferrals<T extends { record: DeferralRecord }>(
  found: readonly T[],
  now: Date,
  max: number,
): { due: T[]; waiting: number; nextAt?: string } {
  const ready = found.filter((f) => Date.parse(f.record.resetAt) <= now.getTime());
  const later = found
    .filter((f) => Date.parse(f.record.resetAt) > now.getTime())
    .map((f) => f.record.resetAt)
    .sort();
  ready.sort((a, b) => Date.parse(a.record.since) - Date.parse(b.record.since));
  return { due: ready.slice(0, max), waiting: later.length, ...(later[0] ? { nextAt: later[0] } : {}) };
}

/**
 * The resumed run's trigger: the same issue or pull request, by the action's own identity (admitted by its own
 * record), carrying the original approval (checked again by the sweep: approver, text). The task is built with the
 * approval's time, so nothing written after the approval reaches the agent, and a deferred CI fix stays a CI fix.
 */
export function resumeTrigger(
  record: DeferralRecord,
  item: { title: string; body: string | null | undefined; htmlUrl?: string },
  self: string,
  carried: Approval,
): RunTrigger {
  const why =
    record.cause === 'daily-budget'
      ? "the repository's daily token budget was spent"
      : "the model's quota ran out";
  const told = [
    `Continue the task: the previous run stopped when ${why} (deferral ${record.attempt}), and this run resumes it after the reset.`,
    'Check `git log` and `git status` first to see what was already done, then finish the work and commit it.',
  ];
  if (record.instruction) told.push('', 'The task as it was given:', '', record.instruction);
  return {
    kind: 'run',
    actor: self,
    number: record.number,
    isPullRequest: record.isPullRequest,
    instruction: told.join('\n'),
    via: 'resume',
    deferrals: record.attempt,
    ...(item.htmlUrl ? { url: item.htmlUrl } : {}),
    approved: { title: item.title, body: item.body ?? '', at: carried.at },
    approvedInstruction: record.instruction,
    carried,
    ...(record.ciFix ? { ciFixCarried: record.ciFix, noHumanHistory: true } : {}),
  };
}
