/**
 * The daily budget's arithmetic (src/domain/daily-budget.ts) and its words (src/action/daily-budget.ts): the order
 * GitHub numbered the entries in decides who gets what is left, so runs that start at the same second cannot both
 * take it; a settled entry charges what it spent; another day's entries do not count.
 */
import { describe, expect, it } from 'vitest';
import {
  dayIsTheLimit,
  dayReset,
  daySpend,
  grantFor,
  utcDay,
  wanted,
  type LedgerEntry,
} from '../../src/domain/daily-budget.js';
import { budgetSummaryLine, underDailyBudget } from '../../src/action/daily-budget.js';
import type { BudgetFigures, Reservation } from '../../src/action/spend-ledger.js';
import { emptyTranscript } from '../../src/gemini/transcript-fold.js';
import { summarizeUsage } from '../../src/gemini/telemetry.js';
import type { RunResult } from '../../src/run/types.js';

const DAY = '2026-12-06';
const at = (s: number) => new Date(Date.parse(`${DAY}T10:00:00Z`) + s * 1000).toISOString();
const entry = (id: number, reserved: number, spent?: number, when = at(id)): LedgerEntry => ({
  id,
  createdAt: when,
  reserved,
  ...(spent !== undefined ? { spent } : {}),
});

describe('the day of an entry and its reset', () => {
  it('is the UTC day of when GitHub wrote it; the budget resets at the next midnight UTC', () => {
    expect(utcDay('2026-12-06T23:59:59Z')).toBe('2026-12-06');
    expect(utcDay('2026-12-07T00:00:00Z')).toBe('2026-12-07');
    expect(utcDay('2026-12-06T19:00:00-05:00')).toBe('2026-12-07');
    expect(dayReset('2026-12-31')).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('grantFor', () => {
  it('gives a run what it asked for when the day has it, and only the rest when it does not', () => {
    const entries = [entry(1, 0, 40_000), entry(2, 30_000)];
    expect(grantFor({ cap: 100_000, maxTokens: 20_000, entries, mine: entry(3, 0) })).toEqual({
      before: 70_000,
      granted: 20_000,
    });
    expect(grantFor({ cap: 100_000, maxTokens: 0, entries, mine: entry(3, 0) })).toEqual({
      before: 70_000,
      granted: 30_000,
    });
    expect(grantFor({ cap: 60_000, maxTokens: 0, entries, mine: entry(3, 0) }).granted).toBe(0);
  });

  it('charges a settled entry what it spent (a release, or more than it reserved), an open one its reservation', () => {
    expect(
      grantFor({ cap: 50_000, maxTokens: 0, entries: [entry(1, 40_000, 5_000)], mine: entry(2, 0) }),
    ).toEqual({ before: 5_000, granted: 45_000 });
    // The answer that crossed the limit counts whole: the day is charged it.
    expect(
      grantFor({ cap: 50_000, maxTokens: 0, entries: [entry(1, 40_000, 41_500)], mine: entry(2, 0) }).before,
    ).toBe(41_500);
  });

  it('does not count entries written after its own, nor of another day', () => {
    const entries = [entry(1, 10_000), entry(5, 90_000), entry(2, 50_000, undefined, '2026-12-05T23:59:59Z')];
    expect(grantFor({ cap: 100_000, maxTokens: 0, entries, mine: entry(3, 0) })).toEqual({
      before: 10_000,
      granted: 90_000,
    });
  });

  it('two runs that wrote at the same second: the first numbered gets its share, the second only the rest', () => {
    // Both wrote before either read (the worst interleaving): each sees both entries, each asking for max-tokens.
    const cap = 30_000;
    const maxTokens = 20_000;
    const a = entry(10, wanted(cap, maxTokens), undefined, at(0));
    const b = entry(11, wanted(cap, maxTokens), undefined, at(0));
    const ga = grantFor({ cap, maxTokens, entries: [a, b], mine: a });
    const gb = grantFor({ cap, maxTokens, entries: [a, b], mine: b });
    expect([ga.granted, gb.granted]).toEqual([20_000, 10_000]);
    expect(ga.granted + gb.granted).toBeLessThanOrEqual(cap);
  });

  it('never grants more than the cap in all, in any order of writes and reads, when every read sees the earlier writes', () => {
    const cap = 100_000;
    for (let seed = 1; seed <= 200; seed++) {
      let x = seed;
      const rand = (n: number) => ((x = (x * 1103515245 + 12345) % 2 ** 31), x % n);
      const runs = 2 + rand(6);
      const maxTokens = rand(3) === 0 ? 0 : 10_000 * (1 + rand(8));
      // Each run writes its entry (asking for wanted()), later reads; reads may come in any order after the writes.
      const entries = Array.from({ length: runs }, (_, i) =>
        entry(i + 1, wanted(cap, maxTokens), undefined, at(0)),
      );
      const order = entries.map((e) => e.id).sort(() => rand(3) - 1);
      let total = 0;
      for (const id of order) {
        const mine = entries.find((e) => e.id === id)!;
        const { granted } = grantFor({ cap, maxTokens, entries, mine });
        mine.reserved = granted; // the run writes its grant back
        total += granted;
      }
      expect(total, `seed ${seed}`).toBeLessThanOrEqual(cap);
    }
  });

  it('asks for the cap without max-tokens, for max-tokens (at most the cap) with it', () => {
    expect(wanted(50_000, 0)).toBe(50_000);
    expect(wanted(50_000, 20_000)).toBe(20_000);
    expect(wanted(50_000, 80_000)).toBe(50_000);
  });

  it('sums the day: every entry of the day, settled ones at their spend', () => {
    expect(daySpend([entry(1, 9, 3), entry(2, 5), entry(3, 7, undefined, '2026-12-07T00:00:01Z')], DAY)).toBe(
      8,
    );
  });
});

describe('which limit stopped the run', () => {
  it('is the day when its remainder is smaller than max-tokens, or there is no max-tokens', () => {
    expect(dayIsTheLimit(10_000, 20_000)).toBe(true);
    expect(dayIsTheLimit(10_000, 0)).toBe(true);
    expect(dayIsTheLimit(20_000, 20_000)).toBe(false);
  });
});

const FIGURES: BudgetFigures = {
  cap: 100_000,
  day: DAY,
  resetsAt: dayReset(DAY),
  before: 60_000,
  granted: 40_000,
};

function result(status: RunResult['status'], tokens: number, limit = 40_000): RunResult {
  return {
    status,
    message: 'token budget exceeded',
    mode: 'headless',
    sessionId: 's',
    transcript: emptyTranscript(),
    usage: { ...summarizeUsage([]), totalTokens: tokens },
    exitCode: 0,
    startedAt: at(0),
    durationMs: 1,
    geminiLifetimeMs: 1,
    baseSha: 'a',
    headSha: 'a',
    commits: [],
    filesChanged: [],
    leftoverCommitted: false,
    maxTokens: limit,
    served: { tokens, answers: 3, refusedAtLimit: 2 },
  };
}

describe('underDailyBudget', () => {
  const budget = { figures: FIGURES } as Reservation;

  it('names a stop at the day’s remainder daily-budget-exceeded, with the figures and the proxy’s count', () => {
    const r = underDailyBudget(result('budget-exceeded', 41_234), budget, 0);
    expect(r.status).toBe('daily-budget-exceeded');
    expect(r.message).toMatch(
      /^the repository's daily token budget ran out: this run spent 41,234 tokens of the 40,000 left to it \(60,000 of the 100,000 tokens of 2026-12-06 \(UTC\) were spent or held by other runs\); it resets at 2026-12-07 00:00:00Z \(in .*\) \(the model proxy refused 2 further model call\(s\)\)$/,
    );
    expect(r.maxTokens).toBeUndefined();
  });

  it('leaves a stop at max-tokens budget-exceeded, and the result’s budget max-tokens', () => {
    const r = underDailyBudget(
      result('budget-exceeded', 21_000, 20_000),
      { figures: { ...FIGURES, granted: 20_000 } } as Reservation,
      20_000,
    );
    expect(r.status).toBe('budget-exceeded');
    expect(r.maxTokens).toBe(20_000);
    expect(underDailyBudget(result('finished', 1_000), budget, 0).status).toBe('finished');
    const none = result('budget-exceeded', 41_234);
    expect(underDailyBudget(none, undefined, 0)).toBe(none);
  });
});

describe('the job summary line', () => {
  it('says the day’s spend against the cap, the run’s part and the reset', () => {
    expect(budgetSummaryLine({ ...FIGURES, spent: 12_000, daySpent: 72_000 })).toMatch(
      /^\*\*Daily token budget\*\* \(`max-daily-tokens`, 2026-12-06 UTC\): 72,000 of 100,000 tokens spent or held today \(72 %\); this run spent 12,000 of the 40,000 it could\. It resets at 2026-12-07 00:00:00Z/,
    );
    expect(budgetSummaryLine({ ...FIGURES, before: 100_000, granted: 0 })).toMatch(
      /100,000 of 100,000 tokens spent or held today \(100 %\); this run had nothing left to spend\./,
    );
  });
});
