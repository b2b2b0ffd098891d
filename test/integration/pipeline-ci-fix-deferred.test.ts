/**
 * A CI fix that hits the quota wall (issue 38): deferred, it keeps its attempt count and failure signature in its
 * deferral record, and resumed it is still that fix run, so the loop's bounds hold across the wait (an agent that
 * burns the quota on purpose cannot reset them): the resumed run reads no human text, records the same attempt and
 * failure, and the same failure again stops the loop.
 */
import { describe, expect, it } from 'vitest';
import { DEFERRAL_MARKER, deferralRecordOf } from '../../src/action/deferral.js';
import { sessionRecordOf } from '../../src/action/pr-text.js';
import { commentMarker } from '../../src/github/comments.js';
import { OWNER, REPO } from '../harness/action-job.js';
import { ended, PipelineWorld, usePipelineWorld } from '../harness/pipeline-world.js';

let w: PipelineWorld;
usePipelineWorld((world) => (w = world));

const RESUMABLE = 'fixtures/gemini-0.42.0/plain-answer-headless/transcript.jsonl';
const WALL =
  'Quota exceeded for quota metric GenerateRequestsPerDayPerProjectPerModel-FreeTier. Please retry in 2s.';
const BRANCH = 'gemini-run/issue-1';
const INPUTS = { 'fix-ci': 'true', 'on-quota': 'defer' };

let nextCi = 9500;
async function failedCi(): Promise<unknown> {
  return w.world.failedCiRun({
    id: nextCi++,
    headSha: await w.world.originTip(BRANCH),
    branch: BRANCH,
    log: '2026-12-04T10:00:01.0000000Z Error: expected a title\n2026-12-04T10:00:01.0000000Z ##[error]Process completed with exit code 1.',
  });
}

const summaryRecord = () =>
  sessionRecordOf(
    w.github.comments(2).find((c) => c.body.startsWith(commentMarker('summary')))?.body ?? '',
    commentMarker('summary'),
  );

describe('a deferred CI fix (issue 38)', () => {
  it('keeps its attempt and failure across the wait: resumed, it is the same fix, and the same failure again stops', async () => {
    const first = await w.run({
      play: { commits: { 'Add notes': { 'NOTES.md': 'n\n' } }, transcript: RESUMABLE },
    });
    expect(ended(first).outputs.status).toBe('finished');

    const walled = await w.run({
      eventName: 'workflow_run',
      payload: await failedCi(),
      inputs: INPUTS,
      play: { status: 'quota-exhausted', message: WALL, transcript: RESUMABLE },
    });
    expect(ended(walled).outputs.status).toBe('deferred');
    const record = deferralRecordOf(
      w.github.comments(2).find((c) => c.body.startsWith(DEFERRAL_MARKER))!.body,
    );
    expect(record?.ciFix).toMatchObject({ attempts: 1, workflow: 'CI', job: 'test' });
    const signature = record!.ciFix!.signature;

    // Someone comments on the pull request while it waits: the resumed fix reads no human text.
    w.github.setPermission('bob', 'write');
    w.github.addComment({ issue: 2, body: 'WHILE-WAITING: rewrite the tests instead.', user: 'bob' });
    // Past the wall's reset on the pipeline's clock (PipelineWorld.advance): nobody waits for it.
    w.advance(2_100);
    const resumed = await w.run({
      eventName: 'schedule',
      payload: { schedule: '*/15 * * * *', repository: { full_name: `${OWNER}/${REPO}` } },
      inputs: INPUTS,
      play: { commits: { 'Give NOTES.md a title': { 'NOTES.md': '# Notes\n' } }, transcript: RESUMABLE },
    });
    expect(ended(resumed).outputs.status).toBe('finished');
    expect(JSON.stringify(resumed.seen[0]?.task)).not.toContain('WHILE-WAITING');
    // The same attempt and failure as the run that was deferred: the loop did not start over.
    expect(summaryRecord()?.ciFix).toEqual({ attempts: 1, signature });

    // The fix's CI fails the same way: the loop stops, as if there had been no wait.
    const again = await w.run({ eventName: 'workflow_run', payload: await failedCi(), inputs: INPUTS });
    expect(ended(again).outputs.status).toBe('skipped');
    expect(again.seen).toHaveLength(0);
    expect(again.log.join('\n')).toMatch(/the same failure came back after its last fix attempt/);
  });
});
