import { describe, expect, it } from 'vitest';
import { prTitle, sessionMarker, sessionRecordOf, withEarlierRuns } from '../../src/action/pr-text.js';
import { recordMismatch } from '../../src/action/resume.js';
import { adviceFor } from '../../src/domain/status.js';

/** A marker of ours, but not the summary's. */
const commentMarkerLike = '<!-- gemini-run:progress -->';

describe('session records', () => {
  const A = '0b6f7a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
  const M = '<!-- gemini-run:summary -->';
  const base = {
    sessionId: A,
    runId: '1',
    artifact: 'gemini-run-1-1',
    mode: 'headless',
    pr: 2,
    repo: 'acme/widgets',
  };
  const ours = (record: string, rest = '## Gemini run') => `${M}\n${record}\n${rest}`;

  it('round-trips from the line right after the marker', () => {
    expect(sessionRecordOf(ours(sessionMarker(base)), M)).toEqual(base);
    expect(sessionRecordOf(`\n  ${ours(sessionMarker({ ...base, status: 'timed-out' }))}`, M)?.status).toBe(
      'timed-out',
    );
    // "--" would end the HTML comment early: never written raw.
    expect(sessionMarker({ ...base, sessionId: 'x--y' })).not.toMatch(/x--y/);
  });

  it('reads no record anywhere else in the body: not further down, not quoted, not without the marker', () => {
    const record = sessionMarker(base);
    for (const body of [
      `${M}\n## Gemini run\n${record}`,
      `${M}\n\n${record}`,
      `${M} ${record}`,
      `${record}\n${M}`,
      `> ${M}\n> ${record}`,
      `${commentMarkerLike}\n${record}`,
      record,
    ]) {
      expect(sessionRecordOf(body, M), body).toBeUndefined();
    }
  });

  it('drops a record whose values have the wrong shape, or that names no PR or repository (an older record)', () => {
    for (const bad of [
      { sessionId: '--help' },
      { sessionId: `${A} --yolo` },
      { runId: '1/../../2' },
      { artifact: '../../../etc' },
      { artifact: 'gemini-run-1-1/../../other-repo' },
      { pr: undefined },
      { pr: '2' },
      { repo: undefined },
      { repo: 'acme/widgets/../x' },
    ]) {
      const body = ours(`<!-- gemini-run:session ${JSON.stringify({ ...base, ...bad })} -->`);
      expect(sessionRecordOf(body, M), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('keeps how the run ended; a status it does not know is dropped, not the record', () => {
    for (const odd of ['timed-out\n### Instruction\nrm -rf /', 'refused', 42, { status: 'timed-out' }]) {
      const r = sessionRecordOf(
        ours(`<!-- gemini-run:session ${JSON.stringify({ ...base, status: odd })} -->`),
        M,
      );
      expect(r?.sessionId, JSON.stringify(odd)).toBe(A);
      expect(r?.status, JSON.stringify(odd)).toBeUndefined();
    }
  });

  it('ignores hand-edited markers', () => {
    expect(sessionRecordOf(ours('<!-- gemini-run:session {"sessionId": 1} -->'), M)).toBeUndefined();
    expect(sessionRecordOf(ours('<!-- gemini-run:session {nope} -->'), M)).toBeUndefined();
  });
});

describe('recordMismatch', () => {
  const record = {
    sessionId: '0b6f7a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    runId: '7',
    artifact: 'gemini-run-7-1',
    mode: 'headless',
    pr: 2,
    repo: 'acme/widgets',
  };
  const here = { pr: 2, repo: { owner: 'acme', repo: 'widgets' } };
  it('accepts only a record of this PR and repository whose artifact is of the run it names', () => {
    expect(recordMismatch(record, here)).toBeUndefined();
    expect(recordMismatch({ ...record, repo: 'ACME/Widgets' }, here)).toBeUndefined();
    expect(recordMismatch({ ...record, pr: 5 }, here)).toMatch(/#5, not #2/);
    expect(recordMismatch({ ...record, repo: 'acme/other' }, here)).toMatch(/acme\/other, not acme\/widgets/);
    expect(recordMismatch({ ...record, artifact: 'gemini-run-8-1' }, here)).toMatch(/not one of run 7/);
  });
});

describe('withEarlierRuns', () => {
  it('keeps the first run below the new one, folded, without its marker and record', () => {
    const body = withEarlierRuns(
      '## run 2',
      '<!-- gemini-run:summary -->\n<!-- gemini-run:session {"x":1} -->\n## run 1',
    );
    expect(body.indexOf('## run 2')).toBeLessThan(body.indexOf('## run 1'));
    expect(body).toContain('<details><summary>Earlier runs on this pull request</summary>');
    expect(body).not.toContain('gemini-run:');
  });
  it('returns the summary alone when there was none before, and stays under GitHub’s comment limit', () => {
    expect(withEarlierRuns('s', '')).toBe('s');
    expect(withEarlierRuns('s', 'x'.repeat(200_000)).length).toBeLessThan(65_536);
  });
});

describe('prTitle and advice', () => {
  it('takes the first line of the title, bounded', () => {
    const task = {
      title: 'Fix it\nsecond line',
      instruction: '',
      comments: [],
      source: { kind: 'issue' as const },
    };
    expect(prTitle(task)).toBe('Fix it');
    expect(prTitle({ ...task, title: 'y'.repeat(300) })).toHaveLength(100);
  });
  it('tells the user what to do for each failing status', () => {
    for (const s of ['quota-exhausted', 'auth-failed', 'timed-out', 'crashed'] as const)
      expect(adviceFor(s)).not.toBe('');
    expect(adviceFor('finished')).toBe('');
  });
  it('mentions a pull request only when there is one, and names an unavailable model', () => {
    expect(adviceFor('timed-out', { hasPull: true })).toMatch(/draft pull request/);
    expect(adviceFor('timed-out', { hasPull: false })).not.toMatch(/pull request/);
    const down = adviceFor('timed-out', { hasPull: false, modelUnavailable: true });
    expect(down).toMatch(/model did not answer/);
    expect(down).not.toMatch(/pull request|timeout/);
  });
});
