/**
 * What a writer approved, made once and carried by every later run of the same work. Only a person with write
 * access starts a run; what they approved is the issue (or pull request) and the instruction as they stood at that
 * moment. The admit step makes an `Approval` from GitHub's own facts (the event, the approver's permission asked of
 * the API); a later run of the same work (a CI fix, a resumed deferral) gets the very same approval back from the
 * action's record, checked again (`carryApproval`): the approver still has write access and, where the run reads
 * the approved text again, it has not changed. The task builder takes an `Approval` and nothing else decides what
 * human text reaches the agent: only writers' text, only as it stood at `at` (src/github/task.ts).
 *
 * An `Approval` is made only here: its brand is a symbol this module does not export, so no other code can build
 * one as an object literal, and the compiler refuses a task without one.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { GitHubClient, RepoRef } from './client.js';
import { hasWriteAccess } from './permissions.js';

const MADE: unique symbol = Symbol('approval');

/** How the approver approved. `ci-fix` never starts a chain: a fix run carries the approval of the run it fixes. */
export const APPROVAL_VIAS = [
  'label',
  'comment',
  'review-comment',
  'review',
  'dispatch',
  'opened',
  'assign',
  /** A pull request opened or pushed to (flow: review): its author's write access approves its review. */
  'pull-request',
] as const;
export type ApprovalVia = (typeof APPROVAL_VIAS)[number];

export interface Approval {
  readonly [MADE]: true;
  /** The writer whose act approved the run, checked through the API. */
  readonly approver: string;
  /** When (ISO 8601): human text created or edited later is not the task. */
  readonly at: string;
  readonly via: ApprovalVia;
  /** The issue or pull request approved; absent for a dispatch without one. */
  readonly number?: number;
  /** `approvedHash` of what was approved. */
  readonly hash: string;
}

/** An approval as the action's hidden records keep it. */
export const approvalRecordSchema = z.object({
  approver: z.string().min(1).max(100),
  at: z.iso.datetime({ offset: true }),
  via: z.enum(APPROVAL_VIAS),
  number: z.number().int().positive().optional(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/** What was approved, as text: an issue's title and body (not a pull request's: the action writes those) and the instruction. */
export interface ApprovedText {
  title: string;
  body: string;
  instruction: string;
  /** A pull request's title and body are the action's own text (it rewrites them when it publishes): not hashed. */
  isPullRequest: boolean;
}

export function approvedHash(t: ApprovedText): string {
  const parts = t.isPullRequest ? ['', '', t.instruction] : [t.title, t.body, t.instruction];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

export function recordOf(a: Approval): ApprovalRecord {
  return {
    approver: a.approver,
    at: a.at,
    via: a.via,
    ...(a.number !== undefined ? { number: a.number } : {}),
    hash: a.hash,
  };
}

export type Approved = { kind: 'approved'; approval: Approval } | { kind: 'refused'; why: string };

function made(r: ApprovalRecord): Approval {
  return { [MADE]: true, ...r };
}

/**
 * The admit step's approval of a run an event started: `approver` must have write access now. `at` is the
 * event's own time (the comment's creation, the label's event), never later.
 */
export async function approve(
  client: GitHubClient,
  repo: RepoRef,
  o: { approver: string; at: string; via: ApprovalVia; number?: number; text: ApprovedText },
): Promise<Approved> {
  if (!(await hasWriteAccess(client, repo, o.approver)))
    return { kind: 'refused', why: `${o.approver} does not have write access to ${repo.owner}/${repo.repo}` };
  return {
    kind: 'approved',
    approval: made({
      approver: o.approver,
      at: o.at,
      via: o.via,
      ...(o.number !== undefined ? { number: o.number } : {}),
      hash: approvedHash(o.text),
    }),
  };
}

/**
 * A later run's approval: the one its record carries, checked again before gemini starts. The approver must still
 * have write access; `now`, when the run reads the approved text again (a resumed deferral), must hash to what was
 * approved. A CI fix reads no approved text again (its task is the CI evidence, in the session that already holds
 * the approved task), so it passes no `now`.
 */
export async function carryApproval(
  client: GitHubClient,
  repo: RepoRef,
  record: ApprovalRecord,
  now?: ApprovedText,
): Promise<Approved> {
  if (!(await hasWriteAccess(client, repo, record.approver)))
    return {
      kind: 'refused',
      why: `${record.approver}, who approved the run, no longer has write access to ${repo.owner}/${repo.repo}`,
    };
  if (now && approvedHash(now) !== record.hash)
    return {
      kind: 'refused',
      why: `the ${now.isPullRequest ? 'instruction' : 'issue'} was changed after ${record.approver} approved the run (${record.at})`,
    };
  return { kind: 'approved', approval: made(record) };
}
