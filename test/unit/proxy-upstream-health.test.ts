import { describe, expect, it } from 'vitest';
import { GIVE_UP, UpstreamHealth, checkUpstreamUrl, silenceFor } from '../../src/proxy/upstream-health.js';

describe('checkUpstreamUrl', () => {
  it('refuses port 0, which Node would silently turn into port 80, naming the variable', () => {
    expect(checkUpstreamUrl('http://127.0.0.1:0', 'GOOGLE_GEMINI_BASE_URL')).toMatch(
      /^GOOGLE_GEMINI_BASE_URL names port 0 \(127\.0\.0\.1:0\): a port must be 1-65535/,
    );
  });

  it.each([
    ['http://127.0.0.1:65536', /is not a URL/],
    ['http://127.0.0.1:-1', /is not a URL/],
    ['127.0.0.1:8080', /is not a URL/],
    ['ftp://example.com', /must be an http\(s\) URL/],
    ['http://', /is not a URL/],
    ['not a url', /is not a URL/],
    ['https://user:pw@example.com', /must not carry credentials/],
    ['https://example.com/?key=1', /must not carry credentials, a query/],
  ])('refuses %s in one line naming the variable', (raw, why) => {
    const problem = checkUpstreamUrl(raw, 'V');
    expect(problem).toMatch(why);
    expect(problem).toMatch(/^V /);
    expect(problem).not.toContain('\n');
    // The operator's text is not quoted back (it could hold a key).
    expect(problem).not.toContain('pw');
  });

  it.each(['https://generativelanguage.googleapis.com', 'http://127.0.0.1:1', 'http://[::1]:65535/v1beta'])(
    'takes %s',
    (raw) => expect(checkUpstreamUrl(raw, 'V')).toBeUndefined(),
  );
});

describe('UpstreamHealth', () => {
  const noAnswer = { kind: 'no-answer', error: 'connect ECONNREFUSED 127.0.0.1:9' } as const;

  it('warns at the first failure and gives up after three calls without an answer over 10 s', () => {
    const h = new UpstreamHealth('127.0.0.1:9');
    expect(h.record(noAnswer, 0)).toEqual({
      kind: 'first-failure',
      message: 'the model API at 127.0.0.1:9 failed a call: no answer (connect ECONNREFUSED 127.0.0.1:9)',
    });
    expect(h.record(noAnswer, 6_000)).toBeUndefined();
    // Three calls, but within 10 s: the CLI's first retries of one call come that fast.
    expect(h.record(noAnswer, 9_000)).toBeUndefined();
    const down = h.record(noAnswer, 16_000);
    expect(down?.kind).toBe('down');
    expect(down?.message).toMatch(
      /^the model API at 127\.0\.0\.1:9 is unavailable: 4 call\(s\) in 16 s failed/,
    );
    expect(down?.message).toContain('ECONNREFUSED');
    // Said once.
    expect(h.record(noAnswer, 30_000)).toBeUndefined();
  });

  it('gives up on 5xx answers only after four over 30 s, within the minute the CLI retries', () => {
    const h = new UpstreamHealth('model:443');
    const at = [0, 5_000, 15_000, 29_000];
    for (const t of at) expect(h.record({ kind: 'answer', status: 503 }, t)?.kind ?? 'none').not.toBe('down');
    const down = h.record({ kind: 'answer', status: 503 }, 35_000);
    expect(down?.kind).toBe('down');
    expect(down?.message).toMatch(/the last: HTTP 503$/);
    expect(GIVE_UP.serverError.overMs).toBeLessThanOrEqual(45_000);
  });

  it('starts over at any answer below 500 (a 4xx is the caller, a 429 the quota walls)', () => {
    const h = new UpstreamHealth('m');
    h.record(noAnswer, 0);
    h.record(noAnswer, 8_000);
    // A 429 is the model being there: the streak starts over, and the wait it asks for is told.
    expect(h.record({ kind: 'answer', status: 429, detail: 'per-minute quota, retry in 2s' }, 9_000)).toEqual(
      {
        kind: 'quota-wait',
        message: 'the model API asked to wait: HTTP 429 (per-minute quota, retry in 2s)',
      },
    );
    expect(h.record(noAnswer, 20_000)?.kind).toBe('first-failure');
    expect(h.record(noAnswer, 25_000)).toBeUndefined();
    expect(h.record({ kind: 'answer', status: 200 }, 26_000)).toBeUndefined();
    expect(h.record(noAnswer, 40_000)?.kind).toBe('first-failure');
  });
});

describe('UpstreamHealth: a call that hears nothing', () => {
  it('gives the upstream up once a call in flight heard nothing for the silence bound, and only once', () => {
    const h = new UpstreamHealth('model.example:443', GIVE_UP, 20_000);
    h.heard(1, 0);
    expect(h.silence(19_999)).toBeUndefined();
    expect(h.silence(20_000)).toEqual({
      kind: 'down',
      message: 'the model API at model.example:443 stopped answering: a call has heard nothing for 20 s',
    });
    expect(h.silence(60_000)).toBeUndefined();
  });

  it('counts silence from the last thing heard: a slow stream is not silent', () => {
    const h = new UpstreamHealth('m', GIVE_UP, 20_000);
    h.heard(1, 0);
    for (let t = 15_000; t <= 120_000; t += 15_000) {
      h.heard(1, t);
      expect(h.silence(t + 5_000)).toBeUndefined();
    }
  });

  it('forgets a call that ended, and judges each open call by its own silence', () => {
    const h = new UpstreamHealth('m', GIVE_UP, 20_000);
    h.heard(1, 0);
    h.ended(1);
    expect(h.silence(100_000)).toBeUndefined();
    h.heard(2, 100_000);
    h.heard(3, 110_000);
    h.heard(3, 125_000);
    expect(h.silence(119_000)).toBeUndefined();
    expect(h.silence(121_000)?.message).toMatch(/heard nothing for 21 s$/);
  });

  it('says nothing more once the upstream was given up by failed calls', () => {
    const h = new UpstreamHealth(
      'm',
      { noAnswer: { calls: 1, overMs: 0 }, serverError: GIVE_UP.serverError },
      1000,
    );
    h.record({ kind: 'no-answer', error: 'x' }, 0);
    expect(h.record({ kind: 'no-answer', error: 'x' }, 1)?.kind).toBe('down');
    h.heard(1, 0);
    expect(h.silence(10_000)).toBeUndefined();
  });

  it('bounds silence by a quarter of the run, between 20 s and 5 min', () => {
    expect(silenceFor(60_000)).toBe(20_000);
    expect(silenceFor(2 * 60_000)).toBe(30_000);
    expect(silenceFor(10 * 60_000)).toBe(150_000);
    expect(silenceFor(30 * 60_000)).toBe(300_000);
    expect(silenceFor(6 * 60 * 60_000)).toBe(300_000);
  });
});
