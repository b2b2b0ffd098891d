/** The report's window: `--since` as a span back from now (`30d`, `12h`, `2w`) or a date or time (UTC). */
import { z } from 'zod';

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;
/** GitHub keeps a run's record 400 days at most. */
const LONGEST_MS = 400 * UNIT_MS.d;

export const sinceSchema = (now: Date) =>
  z.string().transform((value, ctx): Date => {
    const span = /^(\d{1,5})([hdw])$/.exec(value.trim());
    const at = span
      ? new Date(now.getTime() - Number(span[1]) * UNIT_MS[span[2] as keyof typeof UNIT_MS])
      : /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d))?$/.test(value.trim())
        ? new Date(/T/.test(value) ? value.trim() : `${value.trim()}T00:00:00Z`)
        : undefined;
    if (!at || Number.isNaN(at.getTime())) {
      ctx.addIssue({
        code: 'custom',
        message: `--since must be a span back from now (30d, 12h, 2w) or a date (2026-11-01), not '${value}'`,
      });
      return z.NEVER;
    }
    if (at.getTime() > now.getTime() || now.getTime() - at.getTime() > LONGEST_MS) {
      ctx.addIssue({ code: 'custom', message: '--since must be in the past, and at most 400 days back' });
      return z.NEVER;
    }
    return at;
  });
