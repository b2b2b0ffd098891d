import { describe, expect, it } from 'vitest';
import { describeReset, nextPacificMidnight, quotaReset } from '../../src/domain/quota.js';

const NOW = new Date('2026-12-04T21:00:00Z');

describe('quotaReset', () => {
  it("the API's retry delay, from RetryInfo or the message", () => {
    const json =
      '{"error":{"code":429,"details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaId":"GenerateRequestsPerMinutePerProjectPerModel-FreeTier"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2s"}]}}';
    expect(quotaReset(json, NOW)).toEqual({
      scope: 'per-minute',
      resetAt: '2026-12-04T21:00:02.000Z',
      source: 'retry-delay',
    });
    expect(quotaReset('You exceeded your current quota. Please retry in 43.518029s.', NOW, 'daily')).toEqual({
      scope: 'daily',
      resetAt: '2026-12-04T21:00:43.519Z',
      source: 'retry-delay',
    });
  });

  it('without a delay: midnight Pacific for a daily quota, a minute for a per-minute one', () => {
    expect(quotaReset('quotaId: GenerateRequestsPerDayPerProjectPerModel-FreeTier', NOW)).toEqual({
      scope: 'daily',
      resetAt: '2026-12-05T08:00:00.000Z',
      source: 'window',
    });
    expect(quotaReset('Usage limit reached for gemini-2.5-flash.', NOW, 'daily').resetAt).toBe(
      '2026-12-05T08:00:00.000Z',
    );
    expect(quotaReset('per-minute quota', NOW).resetAt).toBe('2026-12-04T21:01:00.000Z');
  });
});

describe('nextPacificMidnight', () => {
  it('PST in winter, PDT in summer, and the next day when it is already past midnight there', () => {
    expect(nextPacificMidnight(new Date('2026-12-04T21:00:00Z')).toISOString()).toBe(
      '2026-12-05T08:00:00.000Z',
    );
    expect(nextPacificMidnight(new Date('2026-07-01T06:59:00Z')).toISOString()).toBe(
      '2026-07-01T07:00:00.000Z',
    );
    expect(nextPacificMidnight(new Date('2026-07-01T07:00:00Z')).toISOString()).toBe(
      '2026-07-02T07:00:00.000Z',
    );
  });
});

describe('describeReset', () => {
  it('says when, and in how long', () => {
    expect(describeReset(quotaReset('daily', NOW), NOW)).toBe('2026-12-05 08:00:00Z (in 11 h 0 min)');
    expect(describeReset(quotaReset('retry in 2s', NOW), NOW)).toBe('2026-12-04 21:00:02Z (in 2 s)');
  });
});
