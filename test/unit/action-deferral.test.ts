import { describe, expect, it } from 'vitest';
import { approvedHash } from '../../src/github/approval.js';
import {
  decideDeferral,
  deferralComment,
  deferralRecordOf,
  DEFERRAL_MARKER,
  dueDeferrals,
  resumeTrigger,
  type DeferralRecord,
} from '../../src/action/deferral.js';
import type { RunTrigger } from '../../src/github/trigger.js';
import { testApproval } from '../harness/approvals.js';

const NOW = new Date('2026-12-05T01:00:00.000Z');
const RESET = { scope: 'daily' as const, resetAt: '2026-12-05T08:00:00.000Z', source: 'window' as const };
const labelRun: RunTrigger = {
  kind: 'run',
  actor: 'alice',
  number: 1,
  isPullRequest: false,
  instruction: '',
  via: 'label',
  approved: { title: 'Add notes', body: 'Please.' },
};

const APPROVAL = await testApproval({ title: 'Add notes', body: 'Please.', at: '2026-12-04T23:00:00.000Z' });
const made = { approval: APPROVAL, runId: '77' };

function record(o: Partial<DeferralRecord> = {}): DeferralRecord {
  const d = decideDeferral({
    trigger: labelRun,
    ...made,
    maxDeferrals: 3,
    reset: RESET,
    now: NOW,
    repo: 'acme/demo',
  });
  if (d.kind !== 'defer') throw new Error(d.why);
  return { ...d.record, ...o };
}

describe('decideDeferral', () => {
  it('defers on the pull request that holds the work, else on the issue; counts attempts; gives up at the limit', () => {
    const onIssue = record();
    expect(onIssue).toMatchObject({ number: 1, isPullRequest: false, attempt: 1, resetAt: RESET.resetAt });
    // The record carries the approval: who, when, and the hash of what they approved.
    expect(onIssue.approval).toMatchObject({
      approver: 'alice',
      at: '2026-12-04T23:00:00.000Z',
      via: 'label',
    });
    expect(onIssue.approval.hash).toBe(
      approvedHash({ title: 'Add notes', body: 'Please.', instruction: '', isPullRequest: false }),
    );
    expect(onIssue.runId).toBe('77');
    const onPull = decideDeferral({
      trigger: { ...labelRun, instruction: 'x' },
      ...made,
      maxDeferrals: 3,
      reset: RESET,
      now: NOW,
      repo: 'acme/demo',
      pull: { number: 2 },
    });
    expect(onPull).toMatchObject({
      kind: 'defer',
      // The instruction as approved is kept, whatever item the deferral waits on.
      record: { number: 2, isPullRequest: true, instruction: 'x' },
    });
    const third = decideDeferral({
      trigger: { ...labelRun, deferrals: 2 },
      ...made,
      maxDeferrals: 3,
      reset: RESET,
      now: NOW,
      repo: 'acme/demo',
    });
    expect(third).toMatchObject({ kind: 'defer', record: { attempt: 3 } });
    expect(
      decideDeferral({
        trigger: { ...labelRun, deferrals: 3 },
        ...made,
        maxDeferrals: 3,
        reset: RESET,
        now: NOW,
        repo: 'a/b',
      }),
    ).toMatchObject({ kind: 'no', gaveUp: true });
    expect(
      decideDeferral({ trigger: labelRun, ...made, maxDeferrals: 0, reset: RESET, now: NOW, repo: 'a/b' }),
    ).toMatchObject({ kind: 'no', gaveUp: true });
    const { number: _n, ...dispatch } = labelRun;
    expect(
      decideDeferral({ trigger: dispatch, ...made, maxDeferrals: 3, reset: RESET, now: NOW, repo: 'a/b' }),
    ).toMatchObject({
      kind: 'no',
      why: expect.stringMatching(/no issue or pull request/),
    });
  });
});

describe('the deferral record', () => {
  it('round-trips through its comment, and only from the first lines', () => {
    const r = record({ instruction: 'a -- b --> <!-- c' });
    const body = `${DEFERRAL_MARKER}\n${deferralComment({ record: r, reset: RESET, maxDeferrals: 3, label: 'l', now: NOW })}`;
    expect(body).not.toMatch(/a -- b -->/);
    expect(deferralRecordOf(body)).toEqual(r);
    expect(deferralRecordOf(`text\n${body}`)).toBeUndefined();
    expect(deferralRecordOf(body.replace('"attempt":1', '"attempt":0'))).toBeUndefined();
    expect(deferralRecordOf(body.replace(RESET.resetAt, 'tomorrow'))).toBeUndefined();
  });

  it('is due after its reset, oldest deferral first, at most max', () => {
    const f = (resetAt: string, since: string, n: number) => ({ n, record: record({ resetAt, since }) });
    const found = [
      f('2026-12-05T00:30:00.000Z', '2026-12-04T20:00:00.000Z', 1),
      f('2026-12-05T00:10:00.000Z', '2026-12-04T10:00:00.000Z', 2),
      f('2026-12-05T09:00:00.000Z', '2026-12-04T09:00:00.000Z', 3),
      f('2026-12-05T00:59:00.000Z', '2026-12-04T15:00:00.000Z', 4),
    ];
    const { due, waiting, nextAt } = dueDeferrals(found, NOW, 2);
    expect(due.map((d) => d.n)).toEqual([2, 4]);
    expect(waiting).toBe(1);
    expect(nextAt).toBe('2026-12-05T09:00:00.000Z');
  });

  it("resumes by the action's own identity, with the task kept and later comments left out", () => {
    const t = resumeTrigger(
      record({ instruction: 'add a title', attempt: 2 }),
      { title: 'T', body: 'B' },
      'bot',
      APPROVAL,
    );
    expect(t).toMatchObject({
      actor: 'bot',
      via: 'resume',
      number: 1,
      deferrals: 2,
      // Comments after the approval (not after the deferral) are left out.
      approved: { title: 'T', body: 'B', at: APPROVAL.at },
    });
    expect(t.instruction).toMatch(/^Continue the task: .*deferral 2/);
    expect(t.instruction).toMatch(/git log.*git status/);
    expect(t.instruction).toMatch(/The task as it was given:\n\nadd a title$/);
  });
});
