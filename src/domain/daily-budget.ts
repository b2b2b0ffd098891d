/**
 * The repository's token budget per UTC day (`max-daily-tokens`), shared by every run, as arithmetic over the
 * ledger's entries (the I/O is src/action/spend-ledger.ts). Each run writes one entry at its start, reserving what
 * it may spend, and settles it at its end with what it spent; an entry charges the day its reservation until it is
 * settled, then its real spend.
 *
 * Concurrency: GitHub numbers the entries (comment ids) in the order it wrote them. A run writes its entry first,
 * then reads the day, and may spend what is left after every entry numbered before its own, each charged at most
 * what that run asked for; entries numbered after its own are the later runs' to count (they count this one).
 * So of two runs starting at the same second the second to write sees the first and gets only the rest, and what
 * the day spends stays within the cap, plus, where GitHub showed a reader the day without an entry it had already
 * numbered, that entry's reservation. Pure.
 */

/** One run's entry in the ledger, as GitHub gave it back and the run wrote it. */
export interface LedgerEntry {
  /** GitHub's id of the record: a smaller id was written first. */
  id: number;
  /** When GitHub wrote the entry (ISO 8601): its UTC day is the day it counts for, whatever the runner's clock says. */
  createdAt: string;
  /** Tokens the run may spend: what it asked for, or, once it read the day, what it was granted. */
  reserved: number;
  /** What it spent, once settled. */
  spent?: number;
}

/** `YYYY-MM-DD` of an instant in UTC. */
export function utcDay(at: string | Date): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** When the day `YYYY-MM-DD` begins (ISO 8601, UTC). */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** When the budget of `day` resets: the next midnight UTC (ISO 8601). */
export function dayReset(day: string): string {
  return new Date(Date.parse(dayStart(day)) + 86_400_000).toISOString();
}

/** What an entry charges its day: its spend once settled, its reservation until then. */
function charge(e: Pick<LedgerEntry, 'reserved' | 'spent'>): number {
  return e.spent ?? e.reserved;
}

/** What a run asks for at its start: its own budget when it has one (never more than the cap), else the cap. */
export function wanted(cap: number, maxTokens: number): number {
  return maxTokens > 0 ? Math.min(maxTokens, cap) : cap;
}

export interface Grant {
  /** The day's charges of the entries written before this run's: what was spent or held when it started. */
  before: number;
  /** What this run may spend: the smaller of what it asked for and what the cap leaves; 0 when nothing is left. */
  granted: number;
}

/**
 * What the run whose entry is `mine` may spend, from the day's entries (authenticated ones only; `mine` among them
 * or not). Entries of another day and entries written after `mine` do not count.
 */
export function grantFor(o: {
  cap: number;
  maxTokens: number;
  entries: readonly LedgerEntry[];
  mine: Pick<LedgerEntry, 'id' | 'createdAt'>;
}): Grant {
  const day = utcDay(o.mine.createdAt);
  const before = o.entries
    .filter((e) => e.id < o.mine.id && utcDay(e.createdAt) === day)
    .reduce((n, e) => n + charge(e), 0);
  return { before, granted: Math.max(0, Math.min(wanted(o.cap, o.maxTokens), o.cap - before)) };
}

/** What the day `day` has spent or holds: every entry of that day charged. */
export function daySpend(entries: readonly LedgerEntry[], day: string): number {
  return entries.filter((e) => utcDay(e.createdAt) === day).reduce((n, e) => n + charge(e), 0);
}

/**
 * Whether the day's remainder, rather than `max-tokens`, is the run's limit: then a stop at the limit is the day's
 * (`daily-budget-exceeded`), not the run's own (`budget-exceeded`).
 */
export function dayIsTheLimit(granted: number, maxTokens: number): boolean {
  return maxTokens === 0 || granted < maxTokens;
}
