import { describe, expect, it } from 'vitest';
import { rateLimitOf, retriable } from '../../src/github/request-policy.js';

const NOW = Date.parse('2026-12-06T12:00:00Z');
const failure = (status: number, message: string, headers: Record<string, string> = {}, data?: unknown) => ({
  status,
  message,
  response: { headers, data },
});

describe('rateLimitOf: what GitHub answers when a limit is hit', () => {
  it('a secondary limit by its message, waiting retry-after or else a minute', () => {
    const msg = 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.';
    expect(rateLimitOf(failure(403, msg, { 'retry-after': '7' }), false, NOW)).toEqual({
      kind: 'secondary',
      retryAfter: 7,
    });
    expect(rateLimitOf(failure(429, msg), false, NOW)).toEqual({ kind: 'secondary', retryAfter: 60 });
  });

  it('a primary limit by x-ratelimit-remaining 0, until a second after the reset', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 30) };
    expect(rateLimitOf(failure(403, 'API rate limit exceeded', headers), false, NOW)).toEqual({
      kind: 'primary',
      retryAfter: 31,
    });
    // A reset already past: ask again at once.
    const past = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 - 5) };
    expect(rateLimitOf(failure(429, 'x', past), false, NOW)?.retryAfter).toBe(0);
  });

  it("GraphQL's RATE_LIMITED error in a 200 is the primary limit; a 401 is never a limit", () => {
    const data = { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] };
    const headers = { 'x-ratelimit-reset': String(NOW / 1000 + 10) };
    expect(rateLimitOf(failure(200, 'GraphQL Rate Limit Exceeded', headers, data), true, NOW)).toEqual({
      kind: 'primary',
      retryAfter: 11,
    });
    expect(rateLimitOf(failure(401, 'secondary rate', {}, data), true, NOW)).toBeUndefined();
  });

  it('a 403 without the signs of a limit is a refusal, never waited for', () => {
    const refused = failure(403, 'Resource not accessible by integration', {
      'x-ratelimit-remaining': '4999',
    });
    expect(rateLimitOf(refused, false, NOW)).toBeUndefined();
    expect(retriable(refused)).toBe(false);
  });
});

describe('retriable: what may answer differently next time', () => {
  it('a 5xx (a network failure is one to Octokit) and the odd 4xx; never 400, 401, 404, 410, 422, 451', () => {
    for (const status of [500, 502, 503, 504, 409])
      expect(retriable(failure(status, 'x')), `${status}`).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 422, 429, 451])
      expect(retriable(failure(status, 'x')), `${status}`).toBe(false);
  });
});
