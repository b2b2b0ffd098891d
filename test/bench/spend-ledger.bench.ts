/**
 * BENCH ledger-start-ms / ledger-start-requests: what `max-daily-tokens` costs a run at its start — reserving from
 * the day's budget in the spend ledger (src/action/spend-ledger.ts: find the ledger issue, write the entry, read the
 * day's entries, ask GitHub about each workflow run they name) — on a day that already holds 20 settled entries of
 * other runs, against the fake GitHub with the real Octokit; and the same on a busy day of 100 entries
 * (`ledger-start-100-entries-*`), and what settling at the end costs (`ledger-settle-*`). Baseline, in the same run:
 * one comment written on an issue (what the tracking comment costs a run anyway). On github.com each request is a
 * round trip (~0.1–0.3 s) the local fake does not have: the requests figure is the one that carries over; the
 * workflow-run lookups go 8 at a time.
 * Runs alone: `node --import tsx test/bench/spend-ledger.bench.ts` (or `npm run bench -- spend-ledger`).
 */
import { hiddenRecord } from '../../src/action/pr-text.js';
import { reserve } from '../../src/action/spend-ledger.js';
import { FakeGitHub } from '../../src/fake/github-api.js';
import { commentMarker } from '../../src/github/comments.js';
import { createGitHubClient } from '../../src/github/client.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { bench, median } from './lib.js';

const ROUNDS = Number(process.env.RUNS ?? 7);
const TOKEN = 'ghs_benchSpendLedger00000000000000000000';
const OWNER = 'acme';
const REPO = 'demo';
const WORKFLOW = '.github/workflows/gemini-run.yml';
const CAP = 10_000_000;

interface Figures {
  startMs: number;
  startRequests: number;
  settleMs: number;
  settleRequests: number;
  commentMs: number;
}

/** A ledger whose day holds `entries` settled entries of other runs; `ROUNDS` runs reserve and settle in turn. */
async function measure(entries: number): Promise<Figures> {
  const gh = new FakeGitHub({ token: TOKEN });
  await gh.start();
  try {
    gh.addRepo({ owner: OWNER, name: REPO });
    gh.setClock(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
    const issue = gh.addIssue({ title: 'An issue', body: 'text', user: 'alice' });
    const self = 'github-actions[bot]';
    const ledger = gh.addIssue({
      title: 'gemini-run: daily token ledger (max-daily-tokens)',
      body: `${commentMarker('ledger')}\nThe ledger.`,
      user: self,
      labels: ['gemini-run:ledger'],
      state: 'closed',
    });
    let runId = 1000;
    const run = (status: 'in_progress' | 'completed') => {
      const id = runId++;
      gh.recordRun({
        id,
        workflowName: 'gemini-run',
        headBranch: 'main',
        headSha: '0'.repeat(40),
        workflowPath: WORKFLOW,
        event: 'issues',
        status,
      });
      return id;
    };
    for (let i = 0; i < entries; i++) {
      const id = run('in_progress');
      const record = { runId: String(id), attempt: 1, reserved: 50_000, spent: 20_000, cap: CAP };
      gh.addComment({
        issue: ledger,
        body: `${commentMarker('spend')}\n${hiddenRecord('spend', record)}\n🧾 Run ${id}.`,
        user: self,
      });
      gh.updateRun(id, { status: 'completed', conclusion: 'success' });
    }
    const client = createGitHubClient(TOKEN, gh.url);
    const repo = { owner: OWNER, repo: REPO };
    const start: number[] = [];
    const settle: number[] = [];
    const comment: number[] = [];
    let startRequests = 0;
    let settleRequests = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const id = run('in_progress');
      let t = performance.now();
      await client.rest.issues.createComment({ ...repo, issue_number: issue, body: `Tracking ${r}` });
      comment.push(performance.now() - t);
      const before = gh.requests.length;
      t = performance.now();
      const reservation = await reserve({
        client,
        repo,
        self,
        origin: {
          workflowRef: `${OWNER}/${REPO}/${WORKFLOW}@refs/heads/main`,
          actionRepository: 'owner/gemini-run',
        },
        runId: String(id),
        attempt: 1,
        runUrl: `https://github.com/${OWNER}/${REPO}/actions/runs/${id}`,
        publish: (text) => text,
        log: createMemoryLogger(),
        cap: CAP,
        maxTokens: 50_000,
      });
      start.push(performance.now() - t);
      startRequests = gh.requests.length - before;
      if (reservation.figures.granted !== 50_000) throw new Error(`granted ${reservation.figures.granted}`);
      const settling = gh.requests.length;
      t = performance.now();
      await reservation.settle(20_000);
      settle.push(performance.now() - t);
      settleRequests = gh.requests.length - settling;
      gh.updateRun(id, { status: 'completed', conclusion: 'success' });
    }
    return {
      startMs: median(start),
      startRequests,
      settleMs: median(settle),
      settleRequests,
      commentMs: median(comment),
    };
  } finally {
    await gh.stop();
  }
}

async function main(): Promise<void> {
  const day = await measure(20);
  const busy = await measure(100);
  const what = (n: number) =>
    `median over ${ROUNDS} runs of reserving from the day's budget with ${n} settled entries of other runs today, against the fake GitHub; baseline: one issue comment written`;
  bench('ledger-start-ms', day.startMs, 'ms', what(20), {
    baseline: day.commentMs,
    ratio: day.startMs / day.commentMs,
  });
  bench(
    'ledger-start-requests',
    day.startRequests,
    'requests',
    'REST requests of that reservation (the last run: its own entry among them)',
  );
  bench('ledger-start-100-entries-ms', busy.startMs, 'ms', what(100), {
    baseline: busy.commentMs,
    ratio: busy.startMs / busy.commentMs,
  });
  bench(
    'ledger-start-100-entries-requests',
    busy.startRequests,
    'requests',
    'REST requests of that reservation',
  );
  bench(
    'ledger-settle-ms',
    day.settleMs,
    'ms',
    "settling the run's entry at its end (the edit, the day read again) on the day of 20 entries",
  );
  bench(
    'ledger-settle-requests',
    day.settleRequests,
    'requests',
    'REST requests of settling (workflow runs seen at the start are not asked again)',
  );
}

await main();
