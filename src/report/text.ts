/** Words and numbers both renderings of the report share: formats, what the figures leave out, which links stay. */
import type { Report } from './model.js';

const fmt = new Intl.NumberFormat('en-US');

export function formatNumber(n: number): string {
  return fmt.format(n);
}

export function formatDuration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
}

/**
 * A link target only when it is a page of our own GitHub server: URLs from the API are, and one read from an
 * artifact is trusted no further than that.
 */
export function ownUrl(url: string | null | undefined, serverUrl: string): string | null {
  return url && url.startsWith(`${serverUrl}/`) && !/[\s<>"'`()]/.test(url) ? url : null;
}

/** The workflow runs the figures do not count at all, said. */
export function notCounted(r: Report): string {
  const n = r.totals.notStarted;
  return n ? `${n} workflow run(s) whose job never started (conclusion skipped) are not counted.` : '';
}

/** What the figures leave out, said rather than guessed. */
export function gaps(r: Report): string[] {
  const s = r.totals.summaries;
  const out: string[] = [];
  if (s.expired) out.push(`${s.expired} run(s) whose artifact expired before it was read`);
  if (s['no-artifact'])
    out.push(
      `${s['no-artifact']} run(s) without an artifact (they ended before the agent ran, or it was deleted)`,
    );
  if (s['no-summary'])
    out.push(`${s['no-summary']} run(s) whose artifact holds no run-summary.json (upload-transcript: false)`);
  if (s.unreadable) out.push(`${s.unreadable} run(s) whose summary could not be read`);
  if (r.totals.olderSummaries)
    out.push(
      `${r.totals.olderSummaries} run(s) with an older summary: their status is the agent's, their trigger and pull request are not known`,
    );
  return out;
}
