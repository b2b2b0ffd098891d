/**
 * `fix-ci` through the whole pipeline (issue 26): a failed `workflow_run` on the action's own pull request, at a
 * commit it pushed, starts a run that resumes the same session with the failure's evidence, pushes its fix to the
 * same pull request and records the attempt; the loop stops (said once on the PR) at the attempt limit or when the
 * same failure comes back; everything that is not the action's own to fix is skipped with its reason.
 */
import { describe, expect, it } from 'vitest';
import { sessionMarker } from '../../src/action/pr-text.js';
import { SUMMARY_MARKER } from '../../src/action/resume.js';
import { ended, PipelineWorld, usePipelineWorld } from '../harness/pipeline-world.js';

let w: PipelineWorld;
usePipelineWorld((world) => (w = world));

const RESUMABLE = 'fixtures/gemini-0.42.0/plain-answer-headless/transcript.jsonl';
const SESSION = '59a5b615-5d0e-4568-a47c-c548122c16b5';
const BRANCH = 'gemini-run/issue-1';
const FIX = { 'fix-ci': 'true' };

const originTip = (branch = BRANCH) => w.world.originTip(branch);

const testLog = (error: string) =>
  [
    '2026-12-04T10:00:00.0000000Z ##[group]Run npm test',
    '2026-12-04T10:00:00.0000000Z npm test',
    '2026-12-04T10:00:00.0000000Z ##[endgroup]',
    '2026-12-04T10:00:01.0000000Z  FAIL  test/notes.test.ts > notes > has a title',
    `2026-12-04T10:00:01.0000000Z ${error}`,
    '2026-12-04T10:00:01.0000000Z ##[error]Process completed with exit code 1.',
  ].join('\n');

let nextRun = 9000;
/** A failed CI run at `headSha` in the fake (its jobs, steps and log), and its event's payload. */
function failedRun(headSha: string, o: { error?: string; pull?: number; branch?: string } = {}) {
  return w.world.failedCiRun({
    id: nextRun++,
    headSha,
    branch: o.branch ?? BRANCH,
    pull: o.pull ?? 2,
    steps: [
      { name: 'Set up job', conclusion: 'success' },
      { name: 'Run npm test', conclusion: 'failure' },
    ],
    log: testLog(o.error ?? 'AssertionError: expected "" to contain "# Notes"'),
  });
}

/** Run 1: the label run that opens PR #2 with a resumable session. */
async function opened(): Promise<string> {
  const first = await w.run({
    play: { commits: { 'Add notes': { 'NOTES.md': 'notes\n' } }, transcript: RESUMABLE },
  });
  expect(ended(first).outputs).toMatchObject({ status: 'finished', 'pr-number': '2' });
  return originTip();
}

const fixRun = (payload: unknown, play = {}, inputs: Record<string, string> = FIX) =>
  w.run({ eventName: 'workflow_run', payload, play, inputs });

describe('fix-ci (issue 26)', () => {
  it('resumes the same session with the evidence, pushes the fix to the same PR; the same failure again stops', async () => {
    const head = await opened();
    const r = await fixRun(failedRun(head), {
      commits: { 'Give NOTES.md a title': { 'NOTES.md': '# Notes\n' } },
      transcript: RESUMABLE,
    });
    const { outputs } = ended(r);
    expect(outputs).toMatchObject({ status: 'finished', 'pr-number': '2', branch: BRANCH });
    const seen = r.seen[0]!;
    expect(seen.resume?.sessionId).toBe(SESSION);
    expect(seen.task.instruction).toMatch(
      /^Fixing CI: the check `CI` \/ `test` failed on commit [0-9a-f]{12}/,
    );
    expect(seen.task.instruction).toMatch(/AssertionError: expected "" to contain "# Notes"/);
    expect(seen.task.instruction).toMatch(/Do not weaken, skip or delete the failing test/);
    const fixed = await originTip();
    expect(fixed).not.toBe(head);
    expect(w.github.pulls()).toHaveLength(1);
    const tracking = w.github.comments(2).find((c) => c.body.includes('gemini-run:progress'))?.body ?? '';
    expect(tracking).toMatch(/🔧 Fixing CI: `CI` \/ `test` \(attempt 1\)/);
    const summary = w.github.comments(2).find((c) => c.body.includes('gemini-run:summary'))?.body ?? '';
    expect(summary).toMatch(/\*\*Task:\*\* Fixing CI: CI \/ test \(Add a notes file\)/);
    expect(r.summary).toMatch(/\*\*Task:\*\* Fixing CI: CI \/ test/);
    expect(w.github.pulls()[0]!.title).toBe('Add a notes file');
    // Admitted because the pull request and the commit are the action's own; approved by the approval its record
    // carries, checked again: the person who labelled the issue still has write access.
    expect(
      w
        .requestsOf(r)
        .filter((q) => q.path.includes('/collaborators/'))
        .map((q) => q.path),
    ).toEqual(['/repos/acme/widgets/collaborators/alice/permission']);
    expect(await w.savedSummary(r)).toMatchObject({
      trigger: { event: 'workflow_run', via: 'ci-fix', issue: { number: 2, isPullRequest: true } },
      ciFix: { attempt: 1 },
      pullRequest: { number: 2, operation: 'updated' },
    });

    // The fix's CI fails the same way: the loop stops, says so once, pushes nothing.
    const again = await fixRun(failedRun(fixed), { commits: { 'Another try': { 'x.md': 'x\n' } } });
    expect(ended(again).outputs.status).toBe('skipped');
    expect(again.seen).toHaveLength(0);
    expect(await originTip()).toBe(fixed);
    const stops = w.github.comments(2).filter((c) => c.body.includes('gemini-run:ci-fix-stop'));
    expect(stops).toHaveLength(1);
    expect(stops[0]!.body).toMatch(/stopped fixing CI on this pull request: the same failure came back/);
    expect(stops[0]!.body).toMatch(
      /Last failure: `CI` \/ `test` \/ `Run npm test` on [0-9a-f]{12}: ` FAIL test\/notes\.test\.ts/,
    );
    expect(again.summary).toMatch(/^## gemini-run: stopped fixing CI/);
  });

  it('stops at max-fix-attempts, whatever the failure; a person’s follow-up starts the count again', async () => {
    const head = await opened();
    const one = await fixRun(
      failedRun(head),
      { commits: { Fix: { 'a.md': 'a\n' } } },
      { ...FIX, 'max-fix-attempts': '1' },
    );
    expect(ended(one).outputs.status).toBe('finished');
    const next = await fixRun(
      failedRun(await originTip(), { error: 'TypeError: x is not a function' }),
      {},
      {
        ...FIX,
        'max-fix-attempts': '1',
      },
    );
    expect(ended(next).outputs.status).toBe('skipped');
    expect(next.seen).toHaveLength(0);
    expect(
      w.github
        .comments(2)
        .map((c) => c.body)
        .join('\n'),
    ).toMatch(/it made 1 fix attempt\(s\) in a row/);

    // A /gemini follow-up is a person's guidance: the count starts again for what it pushes.
    const follow = await w.run({
      eventName: 'issue_comment',
      payload: w.world.commentPayload('/gemini use the other approach', { issue: 2, isPull: true }),
      play: { commits: { Other: { 'b.md': 'b\n' } } },
    });
    expect(ended(follow).outputs.status).toBe('finished');
    const after = await fixRun(
      failedRun(await originTip(), { error: 'TypeError: y' }),
      { commits: { F: { 'c.md': 'c\n' } } },
      {
        ...FIX,
        'max-fix-attempts': '1',
      },
    );
    expect(ended(after).outputs.status).toBe('finished');
  });

  it('skips, with the reason, what is not its own to fix', async () => {
    const head = await opened();
    const skipped = async (payload: unknown, reason: RegExp, inputs: Record<string, string> = FIX) => {
      const r = await fixRun(payload, { commits: { Nope: { 'n.md': 'n\n' } } }, inputs);
      expect(ended(r).outputs.status).toBe('skipped');
      expect(r.seen).toHaveLength(0);
      expect(r.log.join('\n')).toMatch(reason);
    };
    await skipped(failedRun(head), /'fix-ci' is not 'true'/, {});
    // GitHub refuses the failed run's jobs (a token without actions: read): skipped with GitHub's word, no crash.
    w.github.failNext({ method: 'GET', path: /\/actions\/runs\/\d+\/jobs$/, kind: 'forbidden' });
    await skipped(
      failedRun(head),
      /the failed run could not be checked: .*Resource not accessible by integration/,
    );
    await skipped(
      w.world.workflowRunPayload({ id: 1, branch: BRANCH, headSha: head, pull: 2, conclusion: 'success' }),
      /concluded 'success'/,
    );
    await skipped(
      w.world.workflowRunPayload({
        id: 2,
        branch: BRANCH,
        headSha: head,
        pull: 2,
        headRepo: 'mallory/widgets',
      }),
      /a fork's failure is the fork's to fix/,
    );
    await skipped(
      w.world.workflowRunPayload({ id: 3, branch: 'feature/x', headSha: head }),
      /not one of gemini-run's/,
    );
    // A person pushes to the run's branch: their commit's failure is theirs.
    await w.world.repo.git(['fetch', '--quiet', 'origin', BRANCH]);
    await w.world.repo.git(['switch', '--quiet', '-c', 'theirs', 'FETCH_HEAD']);
    await w.world.repo.git(['commit', '--quiet', '--allow-empty', '-m', 'A person’s commit']);
    await w.world.repo.git(['push', '--quiet', 'origin', `theirs:${BRANCH}`]);
    const theirs = await originTip();
    await skipped(failedRun(theirs), /not one gemini-run pushed \(someone else's push\)/);
    // And the failure of the commit before theirs is out of date.
    await skipped(failedRun(head), /head moved on from/);
    // Without the action's own record, a forged one claiming their commit, in someone else's comment, admits
    // nothing (it would, were records read from any author: its head is the pull request's head).
    const own = w.github.comments(2).find((c) => c.body.includes('gemini-run:summary'))!;
    w.github.deleteComment(own.id);
    const forged = sessionMarker({
      sessionId: SESSION,
      runId: '1',
      artifact: 'gemini-run-1-1',
      mode: 'headless',
      pr: 2,
      repo: 'acme/widgets',
      head: theirs,
    });
    w.github.addComment({ issue: 2, body: `${SUMMARY_MARKER}\n${forged}\nSummary.`, user: 'mallory' });
    await skipped(failedRun(theirs), /has no session record of gemini-run's: it holds none/);
    expect(await originTip()).toBe(theirs);
    expect(w.github.comments(2).some((c) => c.body.includes('ci-fix-stop'))).toBe(false);
  });

  it("another CI's failed check suite: the same loop, the evidence from its check runs' output", async () => {
    const head = await opened();
    const suite = (
      id: number,
      sha: string,
      o: { slug?: string; conclusion?: string; forkPull?: boolean } = {},
    ) => {
      const app = {
        slug: o.slug ?? 'circleci-checks',
        name: o.slug === 'github-actions' ? 'GitHub Actions' : 'CircleCI Checks',
      };
      w.github.addCheckSuite({
        id,
        app,
        headBranch: BRANCH,
        headSha: sha,
        runs: [
          {
            name: 'test: unit',
            conclusion: 'failure',
            output: {
              title: '1 test failed',
              text: 'not ok 1 - notes has a title\n  AssertionError: expected "" to contain "# Notes"',
            },
            annotations: [{ path: 'NOTES.md', startLine: 1, level: 'failure', message: 'no title' }],
          },
        ],
      });
      return w.world.checkSuitePayload({
        id,
        app,
        branch: BRANCH,
        headSha: sha,
        pull: 2,
        ...(o.conclusion ? { conclusion: o.conclusion } : {}),
        ...(o.forkPull ? { forkPull: true } : {}),
      });
    };
    const run = (payload: unknown, play = {}) =>
      w.run({ eventName: 'check_suite', payload, play, inputs: FIX });
    const skipped = async (payload: unknown, reason: RegExp) => {
      const r = await run(payload, { commits: { Nope: { 'n.md': 'n\n' } } });
      expect(ended(r).outputs.status).toBe('skipped');
      expect(r.seen).toHaveLength(0);
      expect(r.log.join('\n')).toMatch(reason);
    };
    await skipped(
      suite(501, head, { slug: 'github-actions' }),
      /GitHub Actions' own suites are read from workflow_run/,
    );
    await skipped(suite(502, head, { conclusion: 'neutral' }), /check suite concluded 'neutral'/);
    await skipped(suite(503, head, { forkPull: true }), /a fork's failure is the fork's to fix/);

    const r = await run(suite(504, head), {
      commits: { 'Give NOTES.md a title': { 'NOTES.md': '# Notes\n' } },
      transcript: RESUMABLE,
    });
    expect(ended(r).outputs).toMatchObject({ status: 'finished', 'pr-number': '2', branch: BRANCH });
    const seen = r.seen[0]!;
    expect(seen.resume?.sessionId).toBe(SESSION);
    expect(seen.task.instruction).toMatch(
      /^Fixing CI: the check `CircleCI Checks` \/ `test: unit` failed on commit/,
    );
    expect(seen.task.instruction).toMatch(/### Check `test: unit` failed\nOutput: /);
    expect(seen.task.instruction).toMatch(/AssertionError: expected "" to contain "# Notes"/);
    expect(seen.task.instruction).toContain('- `NOTES.md:1` (failure): no title');
    expect(r.log.join('\n')).toMatch(/Reading the failed check suite 504 \(CircleCI Checks\)/);
    const tracking = w.github.comments(2).find((c) => c.body.includes('gemini-run:progress'))?.body ?? '';
    // Published: the name's colon is escaped (GitHub could read `test:` as a link's scheme).
    expect(tracking).toContain('🔧 Fixing CI: `CircleCI Checks` / `test: unit` (attempt 1)');
    const fixed = await originTip();
    expect(fixed).not.toBe(head);

    // The same failure on the fix: stopped, once, nothing pushed.
    const again = await run(suite(505, fixed), { commits: { 'Another try': { 'x.md': 'x\n' } } });
    expect(ended(again).outputs.status).toBe('skipped');
    expect(await originTip()).toBe(fixed);
    expect(w.github.comments(2).filter((c) => c.body.includes('gemini-run:ci-fix-stop'))).toHaveLength(1);
  });
});
