/**
 * `max-daily-tokens` through the whole pipeline (issue 43): the real phases, the fake GitHub holding the ledger
 * (an issue of the repository's own), the real model proxy in front of the fake model, and a stub agent that calls
 * the model through that proxy. What a concurrent run, a forger or a hostile agent can do to the ledger comes first:
 * two runs that write at the same second under a cap of 1.5 runs' worth (one finishes, the other is stopped at what
 * the first left, or deferred), entries anyone else wrote or edited, an agent's answer shaped like an entry; then a
 * run that finds nothing left (it ends before gemini is installed), the reset at midnight UTC, defer against fail,
 * and a ledger GitHub refuses.
 *
 * The clocks: each test has a day of its own, later than the one before (Date never moves back: Octokit's
 * throttling schedules by it, for the whole process). The fake GitHub's clock (GitHub's timestamps) starts at its
 * midnight and moves a second per write; the runner's Date is noon of it, so a deferral until midnight is not yet
 * due, until a test moves both to the next day.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFERRAL_MARKER, deferralRecordOf } from '../../src/action/deferral.js';
import { hiddenRecord } from '../../src/action/pr-text.js';
import { FakeGemini } from '../../src/fake/gemini-api.js';
import { commentMarker } from '../../src/github/comments.js';
import { OWNER, REPO, WORKFLOW_PATH } from '../harness/action-job.js';
import { ended, PipelineWorld, usePipelineWorld, type PipelineRun } from '../harness/pipeline-world.js';
import type { AgentPlay } from '../harness/stub-engine.js';

let w: PipelineWorld;
usePipelineWorld((world) => (w = world));

let gemini: FakeGemini;
beforeAll(async () => {
  gemini = await FakeGemini.start({ description: 'utility answers only', steps: [{ text: 'ok' }] });
});
afterAll(async () => {
  await gemini.close();
});
/** The UTC day `n` days after `d`. */
const after = (d: string, n = 1) =>
  new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** This test's day (GitHub's), and the next. */
let day = after(new Date().toISOString().slice(0, 10), 2);
let tomorrow = after(day);
beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
});
afterAll(() => {
  vi.useRealTimers();
});
beforeEach(() => {
  day = after(day, 3);
  tomorrow = after(day);
  vi.setSystemTime(Date.parse(`${day}T12:00:00Z`));
  w.github.setClock(`${day}T00:00:00Z`);
});

/** The next day on both clocks: GitHub's just after midnight, the runner's in the morning. */
function nextDay(): void {
  vi.setSystemTime(Date.parse(`${tomorrow}T06:00:00Z`));
  w.github.setClock(`${tomorrow}T00:00:10Z`);
}

/** A RegExp from a template (raw, so `\(` stays an escape) with the day's dates in it. */
const re = (s: TemplateStringsArray, ...v: string[]) => new RegExp(String.raw(s, ...v));

const TOKEN_USER = 'github-actions[bot]';
const LABEL = 'gemini-run:ledger';
const LEDGER = commentMarker('ledger');
const SPEND = commentMarker('spend');
/** A run's worth: what one run may spend (`max-tokens`); the agent below spends about 16,100 of it. */
const RUN = 20_000;
/** 1.5 runs' worth. */
const CAP = 30_000;
/** Four model calls of about 4,030 tokens each by the fake model's count (a quarter of the request's bytes). */
const CALLS = { times: 4, promptChars: 16_000 };
const DEFER = { 'on-quota': 'defer' };

function run(o: Parameters<PipelineWorld['run']>[0] & { cap?: number }): Promise<PipelineRun> {
  const { cap = CAP, ...rest } = o;
  return w.run({
    ...rest,
    env: { GOOGLE_GEMINI_BASE_URL: gemini.url, ...rest.env },
    inputs: { 'max-daily-tokens': String(cap), ...rest.inputs },
  });
}

const work = (file: string, calls = CALLS): AgentPlay => ({
  commits: { [`Add ${file}`]: { [file]: `${file}\n` } },
  modelCalls: calls,
});

/** The ledger issue as gemini-run would have made it (the token's identity, the label, the marker). */
function seedLedger(user = TOKEN_USER): number {
  return w.github.addIssue({
    title: 'gemini-run: daily token ledger (max-daily-tokens)',
    body: `${LEDGER}\nThe ledger.`,
    user,
    labels: [LABEL],
    state: 'closed',
  });
}

let nextRun = 9000;

/**
 * An entry as a run wrote it: the workflow run recorded (of gemini-run's workflow unless said), the comment written
 * while it ran (by the token's identity unless said), then the run completed.
 */
function seedEntry(
  issue: number,
  o: { reserved: number; spent?: number; workflowPath?: string; user?: string; runId?: number },
): number {
  const id = o.runId ?? nextRun++;
  w.github.recordRun({
    id,
    workflowName: 'gemini-run',
    headBranch: 'main',
    headSha: '0'.repeat(40),
    workflowPath: o.workflowPath ?? WORKFLOW_PATH,
    event: 'issues',
    status: 'in_progress',
  });
  const record = {
    runId: String(id),
    attempt: 1,
    reserved: o.reserved,
    ...(o.spent !== undefined ? { spent: o.spent } : {}),
    cap: CAP,
  };
  const comment = w.github.addComment({
    issue,
    body: `${SPEND}\n${hiddenRecord('spend', record)}\n🧾 Run ${id}.`,
    user: o.user ?? TOKEN_USER,
  });
  w.github.updateRun(id, { status: 'completed', conclusion: 'success' });
  return comment;
}

interface Entry {
  id: number;
  user: string;
  runId: string;
  reserved: number;
  spent?: number;
}

function entries(issue: number): Entry[] {
  return w.github
    .comments(issue)
    .filter((c) => c.body.startsWith(SPEND))
    .map((c) => ({
      id: c.id,
      user: c.user,
      ...(JSON.parse(/<!-- gemini-run:spend (\{.*\}) -->/.exec(c.body)![1]!) as Omit<Entry, 'id' | 'user'>),
    }));
}

/** The ledger issues gemini-run made (the token's identity, the label), among the first 20 issue numbers. */
function ledgers(): number[] {
  return Array.from({ length: 20 }, (_, i) => w.github.issue(i + 1))
    .filter((i) => i !== undefined && i.labels.includes(LABEL) && i.user === TOKEN_USER)
    .map((i) => i!.number);
}

/** Resolves once `done()` holds (polled), or rejects after 20 s so a broken run cannot hang the test. */
async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('until: timed out');
    await sleep(5);
  }
}

/** Both runs' entries are written before either reads the day: GitHub holds the two reads until then. */
function bothWriteFirst(ledger: number): void {
  const path = `/repos/${OWNER}/${REPO}/issues/${ledger}/comments`;
  const writes = () => w.github.requests.filter((q) => q.method === 'POST' && q.path === path).length;
  w.github.holdNext({ method: 'GET', path, times: 2, until: until(() => writes() >= 2) });
}

async function secondJob(): Promise<{ issue: number; workspace: string }> {
  const issue = w.github.addIssue({ title: 'Second', body: 'Add a second file.', user: 'alice' });
  const workspace = join(w.world.tmp, 'workspace-2', REPO);
  await w.world.checkout('main', workspace);
  return { issue, workspace };
}

const spentBy = (r: PipelineRun) => Number(r.result?.outputs['total-tokens'] || 0);

/** A run stopped before gemini by GitHub's refusal of the ledger, in one line naming the permissions it needs. */
function expectLedgerRefused(r: PipelineRun): void {
  const out = ended(r);
  expect(out.outputs.status).toBe('crashed');
  expect(out.failure).toMatch(
    /GitHub refused the spend ledger of 'max-daily-tokens' \(Resource not accessible by integration.*\): the workflow's token needs 'issues: write' and 'actions: read'\./,
  );
  expect(r.seen).toHaveLength(0);
}

describe('max-daily-tokens: concurrent runs', () => {
  it('two runs that write at the same second under 1.5 runs’ worth: one finishes, the other is stopped at what the first left; the day spends at most the cap', async () => {
    const ledger = seedLedger();
    const second = await secondJob();
    bothWriteFirst(ledger);
    const inputs = { 'max-tokens': String(RUN) };
    const [a, b] = await Promise.all([
      run({ inputs, play: work('A.md') }),
      run({
        inputs,
        play: work('B.md'),
        payload: w.world.labeledPayload('gemini-run', 'alice', second.issue),
        workspace: second.workspace,
      }),
    ]);
    const written = entries(ledger);
    expect(written).toHaveLength(2);
    const [firstId, secondId] = written.map((e) => e.runId);
    const first = [a, b].find((r) => r.runId === firstId)!;
    const later = [a, b].find((r) => r.runId === secondId)!;

    // The first GitHub numbered got its max-tokens; the other only the rest, through the proxy's one limit.
    expect(ended(first).outputs.status).toBe('finished');
    expect(first.seen[0]?.maxTokens).toBe(RUN);
    expect(later.seen[0]?.maxTokens).toBe(CAP - RUN);
    const stopped = ended(later);
    expect(stopped.outputs.status).toBe('daily-budget-exceeded');
    expect(stopped.failure).toMatch(
      re`^gemini ended daily-budget-exceeded: the repository's daily token budget ran out: this run spent [\d,]+ tokens of the 10,000 left to it \(20,000 of the 30,000 tokens of ${day} \(UTC\) were spent or held by other runs\); it resets at ${tomorrow} 00:00:00Z \(in 12 h`,
    );
    // Its work is pushed as a draft, and the issue says why and what to do.
    expect(
      w.github.pulls().find((p) => p.head.endsWith(`issue-${second.issue}`) || p.head.endsWith('issue-1')),
    ).toBeDefined();
    const stoppedIssue = later === b ? second.issue : 1;
    expect(
      w.github
        .comments(stoppedIssue)
        .map((c) => c.body)
        .join('\n'),
    ).toMatch(
      /gemini-run ended `daily-budget-exceeded`: the repository's daily token budget ran out: this run spent/,
    );
    expect(later.summary).toMatch(
      re`\*\*Daily token budget\*\* \(\`max-daily-tokens\`, ${day} UTC\): [\d,]+ of 30,000`,
    );

    // The proxy's count: past what it was left (the answer that crossed counts whole), never past the cap and one reservation.
    expect(spentBy(later)).toBeGreaterThanOrEqual(CAP - RUN);
    expect(spentBy(first)).toBeLessThan(RUN);
    expect(spentBy(first) + spentBy(later)).toBeLessThanOrEqual(CAP + RUN);
    // Each entry settled with what its run spent.
    expect(entries(ledger).map((e) => [e.runId, e.reserved, e.spent])).toEqual([
      [first.runId, RUN, spentBy(first)],
      [later.runId, CAP - RUN, spentBy(later)],
    ]);
  });

  it('under on-quota: defer, the run that finds the day held waits for midnight UTC without starting; a scheduled run on the new day starts it', async () => {
    const ledger = seedLedger();
    const second = await secondJob();
    bothWriteFirst(ledger);
    // No max-tokens: each asks for the whole day.
    const [a, b] = await Promise.all([
      run({ inputs: DEFER, play: work('A.md') }),
      run({
        inputs: DEFER,
        play: work('B.md'),
        payload: w.world.labeledPayload('gemini-run', 'alice', second.issue),
        workspace: second.workspace,
      }),
    ]);
    const [firstEntry] = entries(ledger);
    const first = [a, b].find((r) => r.runId === firstEntry?.runId)!;
    const waiting = first === a ? b : a;
    const waitingIssue = waiting === b ? second.issue : 1;
    expect(ended(first).outputs.status).toBe('finished');
    expect(first.seen[0]?.maxTokens).toBe(CAP);
    const out = ended(waiting);
    expect(out.outputs.status).toBe('deferred');
    expect(out.failure).toBeUndefined();
    // Nothing of it ran: no agent, and its entry was taken back.
    expect(waiting.seen).toHaveLength(0);
    expect(entries(ledger).map((e) => e.runId)).toEqual([first.runId]);
    expect(w.github.issue(waitingIssue)?.labels).toContain('gemini-run:deferred');
    const comment = w.github.comments(waitingIssue).find((c) => c.body.startsWith(DEFERRAL_MARKER))!;
    expect(deferralRecordOf(comment.body)).toMatchObject({
      number: waitingIssue,
      cause: 'daily-budget',
      resetAt: `${tomorrow}T00:00:00.000Z`,
      attempt: 1,
    });
    expect(comment.body).toMatch(
      re`waiting for the daily token budget\.\*\* The repository's \`max-daily-tokens\` for today is spent; it resets at ${tomorrow} 00:00:00Z`,
    );
    expect(waiting.summary).toMatch(
      re`^## gemini-run: ⏸️ deferred until the quota resets\n\n\*\*Daily token budget\*\* \(\`max-daily-tokens\`, ${day} UTC\): 30,000 of 30,000 tokens spent or held today \(100 %\); this run had nothing left to spend\.`,
    );
    const tracking = w.github
      .comments(waitingIssue)
      .find((c) => c.body.includes('gemini-run:progress'))?.body;
    expect(tracking).toMatch(
      /The repository's daily token budget is spent: the run starts after it resets at midnight UTC/,
    );

    const sweep = () =>
      run({
        eventName: 'schedule',
        payload: {
          schedule: '*/15 * * * *',
          repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
        },
        inputs: DEFER,
        play: work('LATER.md'),
      });
    // Before midnight (the runner's clock): nothing is due.
    const early = await sweep();
    expect(ended(early).outputs.status).toBe('skipped');
    expect(early.seen).toHaveLength(0);

    // The next day, on both clocks: the budget reset, and the deferred run starts with all of it.
    nextDay();
    await w.world.checkout();
    const resumed = await sweep();
    expect(ended(resumed).outputs.status).toBe('finished');
    expect(resumed.seen[0]?.maxTokens).toBe(CAP);
    expect(resumed.seen[0]?.task.instruction).toMatch(
      /^Continue the task: the previous run stopped when the repository's daily token budget was spent \(deferral 1\)/,
    );
    expect(w.github.issue(waitingIssue)?.labels).not.toContain('gemini-run:deferred');
    expect(resumed.summary).toMatch(
      re`\(\`max-daily-tokens\`, ${tomorrow} UTC\): [\d,]+ of 30,000 tokens spent or held today`,
    );
    expect((await w.savedSummary(resumed)).dailyBudget).toMatchObject({
      day: tomorrow,
      before: 0,
      granted: CAP,
    });
  });
});

describe('max-daily-tokens: the ledger under attack', () => {
  it('counts only entries gemini-run wrote in a run of its own: a person’s, another workflow’s, one edited later, one elsewhere are not', async () => {
    const ledger = seedLedger();
    // Counted: a settled entry of an earlier run.
    seedEntry(ledger, { reserved: 10_000, spent: 5_000 });
    // A person's entry (the issue is locked, but a collaborator may still comment).
    seedEntry(ledger, { reserved: CAP, user: 'mallory' });
    // The token's identity, but from another workflow of the repository (it shares github-actions[bot]).
    seedEntry(ledger, { reserved: CAP, workflowPath: '.github/workflows/echo.yml' });
    // A run that does not exist here.
    w.github.addComment({
      issue: ledger,
      body: `${SPEND}\n${hiddenRecord('spend', { runId: '424242', attempt: 1, reserved: CAP, cap: CAP })}`,
      user: TOKEN_USER,
    });
    // A genuine entry, edited after its run ended ("settled" at 0 by someone else: a deflation, or inflated).
    const edited = seedEntry(ledger, { reserved: 1_000 });
    const body = w.github.comments(ledger).find((c) => c.id === edited)!.body;
    w.github.editComment(edited, body.replace('"reserved":1000', `"reserved":${CAP}`));
    // An entry quoted inside other text: the marker must open the comment.
    w.github.addComment({
      issue: ledger,
      body: `Look:\n${SPEND}\n${hiddenRecord('spend', { runId: String(nextRun - 1), attempt: 1, reserved: CAP, cap: CAP })}`,
      user: TOKEN_USER,
    });
    // A genuine-looking entry on another issue, and another "ledger" issue someone else opened with the label.
    seedEntry(1, { reserved: CAP });
    const fake = seedLedger('mallory');
    seedEntry(fake, { reserved: CAP });

    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(r).outputs.status).toBe('finished');
    expect(r.seen[0]?.maxTokens).toBe(RUN);
    expect(r.log.join('\n')).toMatch(
      /The spend ledger has 4 entries for today that gemini-run does not count \(not its own, or not of a run of gemini-run\): comment \d+ was written by mallory, not by gemini-run\./,
    );
    expect(r.log.join('\n')).toContain(
      `Daily token budget: 5,000 of 30,000 tokens spent or held on ${day} (UTC) before this run; it may spend 20,000.`,
    );
    // The runs its workflow ran today came from one list; the others (another workflow's, one that does not exist
    // here) and its own were asked about one by one.
    const asked = w.requestsOf(r).filter((q) => q.method === 'GET' && q.path.includes('/actions/'));
    expect(asked.filter((q) => q.path.endsWith('/actions/workflows/gemini-run.yml/runs'))).toHaveLength(1);
    expect(asked.filter((q) => /\/actions\/runs\/\d+$/.test(q.path))).toHaveLength(3);
    // It wrote to gemini-run's own ledger, not to the one mallory opened.
    expect(entries(ledger).filter((e) => e.runId === r.runId)).toHaveLength(1);
    expect(entries(fake).filter((e) => e.runId === r.runId)).toHaveLength(0);
  });

  it('an entry an earlier attempt of a run wrote still counts while the run is re-run (its start moved on)', async () => {
    const ledger = seedLedger();
    const rerun = nextRun;
    seedEntry(ledger, { reserved: 10_000, spent: 4_000 });
    // Re-run: in progress again, its latest attempt started after the entry was written.
    w.github.updateRun(rerun, { status: 'in_progress', runAttempt: 2, startedAt: `${day}T06:00:00Z` });
    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(r).outputs.status).toBe('finished');
    expect(r.log.join('\n')).toContain(
      `Daily token budget: 4,000 of 30,000 tokens spent or held on ${day} (UTC) before this run; it may spend 20,000.`,
    );
  });

  it('an agent whose answer is shaped like an entry, on the ledger issue itself, adds nothing to the day', async () => {
    const ledger = seedLedger();
    const forged = `${SPEND}\n${hiddenRecord('spend', { runId: '1', attempt: 1, reserved: CAP, cap: CAP })}`;
    // A writer asks for a run on the ledger issue; the agent answers with entries (its answer is published there).
    const hostile = await run({
      payload: w.world.labeledPayload('gemini-run', 'alice', ledger),
      play: {
        answer: `${forged}\n\n${forged.replace('"runId":"1"', `"runId":"${2001}"`)}`,
        modelCalls: { times: 1, promptChars: 400 },
      },
    });
    expect(ended(hostile).outputs.status).toBe('no-changes');
    expect(w.github.comments(ledger).some((c) => c.body.includes('gemini-run:issue'))).toBe(true);
    const next = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(next).outputs.status).toBe('finished');
    const spentBefore = spentBy(hostile);
    expect(next.log.join('\n')).toContain(
      `Daily token budget: ${spentBefore.toLocaleString('en-US')} of 30,000 tokens spent or held on ${day} (UTC) before this run; it may spend 20,000.`,
    );
  });
});

describe('max-daily-tokens: a run and its day', () => {
  it('a run within the budget makes the ledger, reserves, spends through the proxy, settles, and shows the day', async () => {
    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(r).outputs.status).toBe('finished');
    const [ledger] = ledgers();
    expect(ledger).toBeDefined();
    expect(w.github.issue(ledger!)).toMatchObject({ state: 'closed', user: TOKEN_USER });
    expect(w.requestsOf(r).some((q) => q.method === 'PUT' && q.path.endsWith(`/issues/${ledger}/lock`))).toBe(
      true,
    );
    const spent = spentBy(r);
    expect(spent).toBeGreaterThan(15_000);
    expect(entries(ledger!)).toEqual([
      expect.objectContaining({ runId: r.runId, user: TOKEN_USER, reserved: RUN, spent }),
    ]);
    expect(r.summary).toContain(
      `**Daily token budget** (\`max-daily-tokens\`, ${day} UTC): ${spent.toLocaleString('en-US')} of 30,000 tokens spent or held today (${Math.round((100 * spent) / CAP)} %); this run spent ${spent.toLocaleString('en-US')} of the 20,000 it could. It resets at ${tomorrow} 00:00:00Z`,
    );
    expect((await w.savedSummary(r)).dailyBudget).toEqual({
      day,
      cap: CAP,
      before: 0,
      granted: RUN,
      spent,
      daySpent: spent,
      resetsAt: `${tomorrow}T00:00:00.000Z`,
    });
  });

  it('a run that starts with nothing left ends before gemini is installed or started, with the figures on the issue and in the summary', async () => {
    const ledger = seedLedger();
    seedEntry(ledger, { reserved: CAP, spent: CAP });
    const calls = gemini.requests.length;
    const r = await run({
      play: work('NOTES.md'),
      deps: { installGemini: () => Promise.reject(new Error('gemini was installed')) },
    });
    const out = ended(r);
    expect(out.outputs.status).toBe('daily-budget-exceeded');
    expect(out.failure).toMatch(
      re`^the repository's daily token budget is spent: 30,000 of the 30,000 tokens of ${day} \(UTC\) were spent or held by other runs when this run started, so it did not start; it resets at ${tomorrow} 00:00:00Z \(in 12 h`,
    );
    expect(r.seen).toHaveLength(0);
    expect(gemini.requests.length).toBe(calls);
    // Its entry is taken back: the day holds only what was spent.
    expect(entries(ledger)).toHaveLength(1);
    const comment = w.github
      .comments(1)
      .map((c) => c.body)
      .join('\n');
    expect(comment).toMatch(
      /gemini-run ended `daily-budget-exceeded`: the repository's daily token budget is spent: 30,000 of the 30,000 tokens/,
    );
    expect(comment).toMatch(
      /it resets at midnight UTC\. Re-run after the reset, raise the cap, or set `on-quota: defer`/,
    );
    expect(r.summary).toMatch(/^## gemini-run: 📅 daily token budget spent\n/);
    expect(r.summary).toContain(
      "**What happened:** the repository's daily token budget is spent: 30,000 of the 30,000 tokens",
    );
    expect(w.github.pulls()).toHaveLength(0);
  });

  it('a triage (flow: triage) spends from the same day: with nothing left it ends before gemini, no label added', async () => {
    const ledger = seedLedger();
    seedEntry(ledger, { reserved: CAP, spent: CAP });
    w.github.addRepoLabel('bug');
    const r = await run({
      eventName: 'issues',
      payload: w.world.openedPayload(1),
      inputs: { flow: 'triage' },
      play: { leftovers: { 'gemini-triage.json': '{"labels": ["bug"]}' } },
      deps: { installGemini: () => Promise.reject(new Error('gemini was installed')) },
    });
    expect(ended(r).outputs.status).toBe('daily-budget-exceeded');
    expect(r.seen).toHaveLength(0);
    expect(w.github.issue(1)?.labels).toEqual([]);
  });

  it('a run that fails after it reserved (gemini cannot be installed) gives the reservation back and still shows the day', async () => {
    const r = await run({
      inputs: { 'max-tokens': String(RUN) },
      play: work('NOTES.md'),
      deps: { installGemini: () => Promise.reject(new Error('the npm registry is unreachable')) },
    });
    expect(ended(r).outputs.status).toBe('crashed');
    expect(r.seen).toHaveLength(0);
    const [ledger] = ledgers();
    expect(entries(ledger!)).toEqual([expect.objectContaining({ runId: r.runId, reserved: RUN, spent: 0 })]);
    expect(r.summary).toContain(
      `**Daily token budget** (\`max-daily-tokens\`, ${day} UTC): 0 of 30,000 tokens spent or held today (0 %); this run spent 0 of the 20,000 it could.`,
    );
  });

  it('yesterday’s spend does not count today', async () => {
    const ledger = seedLedger();
    seedEntry(ledger, { reserved: CAP, spent: CAP });
    nextDay();
    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(r).outputs.status).toBe('finished');
    expect(r.seen[0]?.maxTokens).toBe(RUN);
    expect(r.log.join('\n')).toContain(
      `Daily token budget: 0 of 30,000 tokens spent or held on ${tomorrow} (UTC)`,
    );
  });

  it('stopped by the day’s remainder under on-quota: defer: the work is pushed and the pull request waits for midnight UTC', async () => {
    const ledger = seedLedger();
    seedEntry(ledger, { reserved: CAP - 10_000, spent: CAP - 10_000 });
    const r = await run({ inputs: DEFER, play: work('NOTES.md') });
    const out = ended(r);
    expect(out.outputs.status).toBe('deferred');
    const pr = Number(out.outputs['pr-number']);
    expect(r.seen[0]?.maxTokens).toBe(10_000);
    expect(await w.savedSummary(r)).toMatchObject({
      status: 'daily-budget-exceeded',
      deferral: { attempt: 1 },
    });
    const record = deferralRecordOf(
      w.github.comments(pr).find((c) => c.body.startsWith(DEFERRAL_MARKER))!.body,
    );
    expect(record).toMatchObject({ number: pr, cause: 'daily-budget', resetAt: `${tomorrow}T00:00:00.000Z` });
    expect(r.summary).toMatch(/The repository's daily token budget ran out\. The work so far is pushed/);
    expect(
      w.github
        .comments(1)
        .map((c) => c.body)
        .join('\n'),
    ).toMatch(
      new RegExp(
        `The repository's daily token budget ran out: gemini-run's partial work is in #${pr}, where it continues after the reset`,
      ),
    );
  });

  it('a token without actions: read is refused on the first run (an empty ledger), before gemini, and its entry is taken back', async () => {
    w.github.failNext({
      method: 'GET',
      path: new RegExp(`^/repos/${OWNER}/${REPO}/actions/runs/\\d+$`),
      kind: 'forbidden',
    });
    const r = await run({ play: work('NOTES.md') });
    expectLedgerRefused(r);
    const [ledger] = ledgers();
    expect(entries(ledger!)).toEqual([]);
  });

  it('GitHub failing the day’s read past its retries (502) stops the run before gemini in one line, and takes its entry back', async () => {
    const ledger = seedLedger();
    seedEntry(ledger, { reserved: 5_000, spent: 5_000 });
    w.github.failNext({
      method: 'GET',
      path: `/repos/${OWNER}/${REPO}/issues/${ledger}/comments`,
      times: 10,
      kind: 'bad-gateway',
    });
    const r = await run({ play: work('NOTES.md') });
    const out = ended(r);
    expect(out.outputs.status).toBe('crashed');
    expect(out.failure).toMatch(
      /^GitHub's API failed: Could not reserve from the daily token budget: Server Error.* \(GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/issues\/\d+\/comments\)$/,
    );
    expect(out.failure).not.toContain('\n');
    expect(r.seen).toHaveLength(0);
    expect(entries(ledger).map((e) => e.runId)).not.toContain(r.runId);
  });

  it('an entry GitHub refuses to settle (403) keeps charging the day its whole reservation', async () => {
    const ledger = seedLedger();
    const path = () => {
      const mine = entries(ledger)[0];
      return mine && `/repos/${OWNER}/${REPO}/issues/comments/${mine.id}`;
    };
    // Once the run wrote its entry (and long before its agent stops), every edit of it fails.
    const refused = until(() => path() !== undefined).then(() =>
      w.github.failNext({ method: 'PATCH', path: path()!, kind: 'forbidden' }),
    );
    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    await refused;
    expect(ended(r).outputs.status).toBe('finished');
    expect(r.log.join('\n')).toMatch(
      /Could not settle this run's entry in the spend ledger \(#\d+\): Resource not accessible by integration.*; it keeps charging the day its reservation of 20,000 tokens\./,
    );
    expect(entries(ledger)).toEqual([expect.objectContaining({ runId: r.runId, reserved: RUN })]);
    expect(entries(ledger)[0]?.spent).toBeUndefined();
    const next = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('LATER.md') });
    expect(next.log.join('\n')).toContain(
      `Daily token budget: 20,000 of 30,000 tokens spent or held on ${day} (UTC) before this run; it may spend 10,000.`,
    );
  });

  it('a ledger whose label GitHub dropped is labelled again, or the run stops: an unlabelled ledger no later run would find', async () => {
    w.github.dropNewIssueLabels = true;
    w.github.failNext({ method: 'POST', path: /\/issues\/\d+\/labels$/, kind: 'forbidden' });
    const refused = await run({ play: work('NOTES.md') });
    expect(ended(refused).outputs.status).toBe('crashed');
    expect(ended(refused).failure).toMatch(/GitHub refused the spend ledger of 'max-daily-tokens'/);
    expect(refused.seen).toHaveLength(0);
    expect(ledgers()).toEqual([]);
    // The issue it made is closed (and locked): no open issue is left behind.
    const made = Array.from({ length: 20 }, (_, i) => w.github.issue(i + 1)).filter((i) =>
      i?.title.startsWith('gemini-run: daily token ledger'),
    );
    expect(made.map((i) => i?.state)).toEqual(['closed']);

    const r = await run({ inputs: { 'max-tokens': String(RUN) }, play: work('NOTES.md') });
    expect(ended(r).outputs.status).toBe('finished');
    const [ledger] = ledgers();
    expect(entries(ledger!).map((e) => e.runId)).toEqual([r.runId]);
  });

  it('a ledger GitHub refuses stops the run before gemini, naming the permissions it needs', async () => {
    w.github.failNext({ method: 'POST', path: `/repos/${OWNER}/${REPO}/issues`, kind: 'forbidden' });
    const r = await run({ play: work('NOTES.md') });
    expectLedgerRefused(r);
  });
});
