import { describe, expect, it } from 'vitest';
import {
  adviceFor,
  parseSessionMarkers,
  prTitle,
  sessionMarker,
  withEarlierRuns,
} from '../../src/action/pr-text.js';

describe('session markers', () => {
  it('round-trip, survive a "--" in a value, and come back newest first', () => {
    const a = sessionMarker({
      sessionId: 'aaa',
      runId: '1',
      artifact: 'gemini-run-1-1',
      mode: 'interactive',
    });
    const b = sessionMarker({ sessionId: 'b--b', runId: '2', artifact: 'gemini-run-2-1', mode: 'headless' });
    expect(b).not.toMatch(/b--b/); // "--" would end the HTML comment early
    const body = withEarlierRuns(`new\n\n${b}`, `<!-- gemini-run:summary -->\nold\n\n${a}`);
    expect(parseSessionMarkers(body).map((r) => r.sessionId)).toEqual(['b--b', 'aaa']);
  });

  it('ignores hand-edited markers', () => {
    expect(parseSessionMarkers('<!-- gemini-run:session {"sessionId": 1} -->')).toEqual([]);
    expect(parseSessionMarkers('<!-- gemini-run:session {nope} -->')).toEqual([]);
  });
});

describe('withEarlierRuns', () => {
  it('keeps the first run below the new one, folded', () => {
    const body = withEarlierRuns('## run 2', '<!-- gemini-run:summary -->\n## run 1');
    expect(body.indexOf('## run 2')).toBeLessThan(body.indexOf('## run 1'));
    expect(body).toContain('<details><summary>Earlier runs on this pull request</summary>');
    expect(body).not.toContain('<!-- gemini-run:summary -->');
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
});
