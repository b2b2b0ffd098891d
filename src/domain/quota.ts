/**
 * When a quota wall lifts, from what the model API said. Gemini's 429 RESOURCE_EXHAUSTED carries a QuotaFailure
 * (its quotaId names the window: `…PerDay…`, `…PerMinute…`) and a RetryInfo (`retryDelay: "43s"`), and its message
 * ends "Please retry in 43.5s." When none of that says when, the documented windows apply: a daily quota resets at
 * midnight Pacific time, a per-minute one within the minute. Pure: `now` is given.
 */

export type QuotaScope = 'daily' | 'per-minute' | 'unknown';

export interface QuotaReset {
  scope: QuotaScope;
  /** When the model may answer again (ISO 8601, UTC). */
  resetAt: string;
  /** How the time is known: the API's own retry delay, or the window's documented reset. */
  source: 'retry-delay' | 'window';
}

const PER_DAY = /PerDay|per[ _-]?day|daily/i;
const PER_MINUTE = /PerMinute|per[ _-]?minute/i;
/** `"retryDelay": "43s"` (RetryInfo) or "Please retry in 43.518s" (the message). */
const RETRY_DELAY = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"|retry in (\d+(?:\.\d+)?)\s*s\b/i;

/** What `text` (an error's JSON or message, a dialog line) says of its quota: the window and the retry delay. */
export function quotaFacts(text: string): { scope?: Exclude<QuotaScope, 'unknown'>; delayS?: number } {
  const scope = PER_DAY.test(text) ? 'daily' : PER_MINUTE.test(text) ? 'per-minute' : undefined;
  const m = RETRY_DELAY.exec(text);
  const delayS = m ? Number(m[1] ?? m[2]) : undefined;
  return {
    ...(scope ? { scope } : {}),
    ...(delayS !== undefined && Number.isFinite(delayS) ? { delayS } : {}),
  };
}

/** The reset of a quota wall described by `text` (an error's JSON or message, a dialog line). */
export function quotaReset(text: string, now: Date, known: QuotaScope = 'unknown'): QuotaReset {
  const facts = quotaFacts(text);
  const scope = facts.scope ?? known;
  const delayS = facts.delayS;
  if (delayS !== undefined) {
    return {
      scope,
      resetAt: new Date(now.getTime() + Math.ceil(delayS * 1000)).toISOString(),
      source: 'retry-delay',
    };
  }
  const resetAt = scope === 'daily' ? nextPacificMidnight(now) : new Date(now.getTime() + 60_000);
  return { scope, resetAt: resetAt.toISOString(), source: 'window' };
}

/** The next midnight in America/Los_Angeles (PST or PDT, whichever is in force then). */
export function nextPacificMidnight(now: Date): Date {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  // Midnight of the next Pacific day is 08:00 UTC in winter (UTC-8) and 07:00 UTC in summer (UTC-7).
  for (const hourUtc of [7, 8]) {
    const candidate = new Date(Date.UTC(get('year'), get('month') - 1, get('day') + 1, hourUtc));
    const hour = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hour: 'numeric',
      hourCycle: 'h23',
    }).format(candidate);
    if (Number(hour) === 0) return candidate;
  }
  return new Date(Date.UTC(get('year'), get('month') - 1, get('day') + 1, 8));
}

/** "at 08:00 UTC (in 3 h 12 min)": a reset for people. */
export function describeReset(r: QuotaReset, now: Date): string {
  const at = new Date(r.resetAt);
  const ms = Math.max(0, at.getTime() - now.getTime());
  const min = Math.round(ms / 60_000);
  const inText =
    ms < 90_000
      ? `${Math.round(ms / 1000)} s`
      : min < 90
        ? `${min} min`
        : `${Math.floor(min / 60)} h ${min % 60} min`;
  const time = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace('T', ' ');
  return `${time} (in ${inText})`;
}
