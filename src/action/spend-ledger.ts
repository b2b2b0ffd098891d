/**
 * The ledger of `max-daily-tokens`: one issue of the repository's own (labelled `gemini-run:ledger`, closed and
 * locked), on which every run writes one comment at its start, reserving what it may spend, and edits it at its end
 * with what it spent. The arithmetic is src/domain/daily-budget.ts; this is the I/O.
 *
 * Why comments on an issue: GitHub numbers them in the order it wrote them (the order the reservations are granted
 * in), timestamps them itself (the UTC day an entry counts for is GitHub's, not a runner's clock), keeps them (no
 * eviction, unlike the Actions cache; no per-run scope, unlike artifacts), lets a run edit its own entry in place,
 * and tells who wrote each, so every entry is authenticated the way the session records are
 * (github/record-origin.ts): written by the token's identity, naming a workflow run that GitHub says is gemini-run's,
 * of this repository, and last written while that run ran. An entry anyone else wrote, or one edited after its run
 * ended, is not counted (and said in the log).
 *
 * Bounded: a reader lists only the day's comments (`since` midnight), asks once per workflow run named, and a run
 * that settles deletes a few of its own entries older than two days, so the issue stays far from GitHub's limit of
 * comments per issue.
 */
import { z } from 'zod';
import {
  dayReset,
  dayStart,
  daySpend,
  grantFor,
  utcDay,
  wanted,
  type LedgerEntry,
} from '../domain/daily-budget.js';
import type { GitHubClient, RepoRef } from '../github/client.js';
import {
  commentMarker,
  createComment,
  deleteComment,
  listComments,
  updateComment,
} from '../github/comments.js';
import { addLabel, closeIssue, createIssue, issuesLabelled, lockIssue } from '../github/issues.js';
import {
  ownWorkflowRunOrigins,
  workflowRunOrigin,
  writtenOutside,
  type RunOrigin,
  type RunProvenance,
} from '../github/record-origin.js';
import { getErrorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { pool } from '../util/pool.js';
import { neutralize } from '../util/untrusted-text.js';
import { hiddenRecord, hiddenRecordOf } from './pr-text.js';

const LEDGER_LABEL = 'gemini-run:ledger';
const LEDGER_MARKER = commentMarker('ledger');
const SPEND_MARKER = commentMarker('spend');
const TITLE = 'gemini-run: daily token ledger (max-daily-tokens)';
/** Entries older than this many days are deleted by the runs that settle (a few each). */
const KEEP_DAYS = 2;
const PRUNE_PER_RUN = 10;
/** Workflow runs asked about at once. */
const LOOKUPS_AT_ONCE = 8;
/** From this many workflow runs to ask about, the day's runs of this workflow are listed instead. */
const LIST_FROM = 3;

const TOKENS = z.number().int().min(0).max(1e12);

const spendRecordSchema = z.object({
  /** The workflow run that wrote the entry: it counts only when GitHub says the run is gemini-run's. */
  runId: z.string().regex(/^\d{1,20}$/),
  attempt: z.number().int().min(1).max(1000),
  reserved: TOKENS,
  spent: TOKENS.optional(),
  /** The cap the run was under (for people reading the ledger). */
  cap: TOKENS,
});

type SpendRecord = z.infer<typeof spendRecordSchema>;

/** Who the ledger is read and written as. */
export interface LedgerContext {
  client: GitHubClient;
  repo: RepoRef;
  /** The token's identity: only its comments and issues are the ledger's. */
  self: string;
  /** This run's workflow: an entry counts only when a run of gemini-run wrote it (record-origin.ts). */
  origin: RunOrigin;
  runId: string;
  attempt: number;
  runUrl: string;
  /** Makes text the action assembled publishable (markdown/publish.ts). */
  publish(text: string): string;
  log: Logger;
}

/** The day's figures as a run saw them. */
export interface BudgetFigures {
  cap: number;
  /** The UTC day (`YYYY-MM-DD`) the run's entry counts for. */
  day: string;
  /** When the day's budget resets (ISO 8601): the next midnight UTC. */
  resetsAt: string;
  /** What the day had spent or held before this run's entry. */
  before: number;
  /** What this run may spend (0: nothing was left). */
  granted: number;
  /** What it spent, once settled. */
  spent?: number;
  /** The day's spend with this run's settled, as read after settling (absent when that read failed). */
  daySpent?: number;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** The ledger issues: the token identity's issues with the label and the ledger's marker, oldest first. */
async function findLedgers(c: LedgerContext): Promise<number[]> {
  const issues = await issuesLabelled(c.client, c.repo, LEDGER_LABEL);
  return issues
    .filter(
      (i) => i.user?.toLowerCase() === c.self.toLowerCase() && i.body.trimStart().startsWith(LEDGER_MARKER),
    )
    .map((i) => i.number)
    .sort((a, b) => a - b);
}

/**
 * The ledger issues, the first made now when there is none. Two runs that both found none both make one: each
 * reads the list again and writes to the oldest, and every reader counts the entries of all of them.
 */
async function ledgers(c: LedgerContext): Promise<number[]> {
  const found = await findLedgers(c);
  if (found.length > 0) return found;
  const body = c.publish(
    [
      "This issue is gemini-run's ledger for `max-daily-tokens`, the repository's token budget per UTC day. Each",
      'comment below is one run: what it reserved at its start and, once it ended, what it spent. gemini-run reads',
      'only its own comments here, each checked against the workflow run that wrote it; editing or deleting them',
      "changes the day's count, and deleting this issue starts a new ledger.",
    ].join(' '),
  );
  const issue = await createIssue(c.client, c.repo, {
    title: TITLE,
    body: `${LEDGER_MARKER}\n${body}`,
    labels: [LEDGER_LABEL],
  });
  c.log.info(`Made the spend ledger, issue #${issue.number}.`);
  // Closed (out of the open list) and locked (only collaborators may comment); the entries need neither.
  await lockIssue(c.client, c.repo, issue.number).catch((e: unknown) =>
    c.log.warning(`Could not lock the ledger #${issue.number}: ${getErrorMessage(e)}`),
  );
  await closeIssue(c.client, c.repo, issue.number).catch((e: unknown) =>
    c.log.warning(`Could not close the ledger #${issue.number}: ${getErrorMessage(e)}`),
  );
  // GitHub drops the labels of a new issue silently when the token may not set them; an unlabelled ledger would
  // be found by no later run (each would make its own, and no cap would hold), so the label is put on again, or
  // the run stops here.
  if (!issue.labels.includes(LEDGER_LABEL)) {
    const labels = await addLabel(c.client, c.repo, issue.number, LEDGER_LABEL);
    if (!labels.includes(LEDGER_LABEL))
      throw new Error(`GitHub did not put the label ${LEDGER_LABEL} on the spend ledger #${issue.number}`);
  }
  const again = await findLedgers(c);
  return again.length > 0 ? again : [issue.number];
}

function entryText(c: LedgerContext, r: SpendRecord, day: string): string {
  const run = `Run [${r.runId}](${c.runUrl})${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}`;
  const of = `of the ${fmt(r.cap)} of ${day} (UTC)`;
  const text =
    r.spent === undefined
      ? `🧾 ${run} may spend up to ${fmt(r.reserved)} tokens ${of}.`
      : `🧾 ${run} spent ${fmt(r.spent)} tokens (it could spend ${fmt(r.reserved)}) ${of}.`;
  return `${SPEND_MARKER}\n${hiddenRecord('spend', r)}\n${c.publish(text)}`;
}

interface DayRead {
  entries: LedgerEntry[];
  /** Entries found but not counted, with the first reason. */
  ignored: number;
  firstReason?: string;
}

/**
 * The day's authenticated entries on every ledger issue (`own`: this run's entry, which it wrote itself). `origins`
 * caches what GitHub said of each workflow run (a second read, at the end, asks only about runs it did not see).
 */
async function readDay(
  c: LedgerContext,
  issues: readonly number[],
  day: string,
  origins: Map<string, Promise<RunProvenance>>,
  own: number,
): Promise<DayRead> {
  const found: { id: number; createdAt: string; updatedAt: string; record: SpendRecord }[] = [];
  const trusted: LedgerEntry[] = [];
  let ignored = 0;
  let firstReason: string | undefined;
  const ignore = (why: string) => {
    ignored++;
    firstReason ??= why;
  };
  for (const issue of issues) {
    const comments = await listComments(c.client, c.repo, issue, { since: dayStart(day) });
    for (const cm of comments) {
      if (utcDay(cm.createdAt) !== day) continue;
      const body = cm.body;
      const record = hiddenRecordOf(body, SPEND_MARKER, 'spend', spendRecordSchema);
      if (cm.id === own && record) {
        const { reserved, spent } = record;
        trusted.push({
          id: cm.id,
          createdAt: cm.createdAt,
          reserved,
          ...(spent !== undefined ? { spent } : {}),
        });
        continue;
      }
      if (!body.trimStart().startsWith(SPEND_MARKER)) continue;
      if (cm.user?.toLowerCase() !== c.self.toLowerCase()) {
        ignore(`comment ${cm.id} was written by ${cm.user ?? 'nobody known'}, not by gemini-run`);
        continue;
      }
      if (!record) {
        ignore(`comment ${cm.id} holds no readable entry`);
        continue;
      }
      found.push({ id: cm.id, createdAt: cm.createdAt, updatedAt: cm.updatedAt, record });
    }
  }
  let runIds = [...new Set(found.map((f) => f.record.runId))].filter((id) => !origins.has(id));
  // Many runs to ask about: the day's runs of this workflow are listed first (a page per 100 runs); the rest (another
  // workflow that runs gemini-run, a run queued since yesterday) are asked about one by one.
  if (runIds.length >= LIST_FROM) {
    const listed = await ownWorkflowRunOrigins(c.client, c.repo, new Set(runIds), day, c.origin);
    for (const [id, provenance] of listed) origins.set(id, Promise.resolve(provenance));
    runIds = runIds.filter((id) => !listed.has(id));
  }
  await pool(runIds, LOOKUPS_AT_ONCE, async (id) => {
    const asked = workflowRunOrigin(c.client, c.repo, id, c.origin);
    origins.set(id, asked);
    await asked.catch(() => undefined);
  });
  const entries: LedgerEntry[] = trusted;
  for (const f of found) {
    const origin = await origins.get(f.record.runId)!;
    // From the run's first attempt: an entry an earlier attempt wrote (and settled) still counts once the run is
    // re-run, which moves its start on.
    const why =
      'problem' in origin
        ? origin.problem
        : writtenOutside({ ...origin.window, start: origin.window.created }, f.record.runId, f.updatedAt);
    if (why) {
      ignore(`comment ${f.id}: ${why}`);
      continue;
    }
    const { reserved, spent } = f.record;
    entries.push({ id: f.id, createdAt: f.createdAt, reserved, ...(spent !== undefined ? { spent } : {}) });
  }
  return { entries, ignored, ...(firstReason ? { firstReason } : {}) };
}

function logIgnored(c: LedgerContext, read: DayRead): void {
  if (read.ignored === 0) return;
  c.log.warning(
    `The spend ledger has ${read.ignored} entr${read.ignored === 1 ? 'y' : 'ies'} for today that gemini-run does not count (not its own, or not of a run of gemini-run): ${neutralize(read.firstReason ?? '')}.`,
  );
}

/**
 * One run's reservation: written at its start, granted what the day leaves, settled at its end. `settle` is
 * idempotent (the first call counts) and never throws: an entry left unsettled charges the day its reservation,
 * which only ever errs on the side of spending less.
 */
export class Reservation {
  private settling: Promise<void> | undefined;
  private figures_: BudgetFigures;

  constructor(
    private readonly c: LedgerContext,
    private readonly at: { issue: number; comment: number | undefined; ledgers: number[] },
    figures: BudgetFigures,
    private readonly origins: Map<string, Promise<RunProvenance>>,
  ) {
    this.figures_ = figures;
  }

  get figures(): BudgetFigures {
    return this.figures_;
  }

  settle(spent: number): Promise<void> {
    this.settling ??= this.write(spent);
    return this.settling;
  }

  private async write(spent: number): Promise<void> {
    const { c, at } = this;
    const f = this.figures_;
    if (at.comment === undefined) return;
    const record: SpendRecord = {
      runId: c.runId,
      attempt: c.attempt,
      reserved: f.granted,
      spent,
      cap: f.cap,
    };
    try {
      await updateComment(c.client, c.repo, at.comment, entryText(c, record, f.day));
      this.figures_ = { ...f, spent };
    } catch (e) {
      c.log.warning(
        `Could not settle this run's entry in the spend ledger (#${at.issue}): ${getErrorMessage(e)}; it keeps charging the day its reservation of ${fmt(f.granted)} tokens.`,
      );
      return;
    }
    try {
      const read = await readDay(c, at.ledgers, f.day, this.origins, at.comment);
      this.figures_ = { ...this.figures_, daySpent: daySpend(read.entries, f.day) };
    } catch (e) {
      c.log.warning(`Could not read the day's spend again: ${getErrorMessage(e)}`);
    }
    await prune(c, at.issue, f.day).catch((e: unknown) =>
      c.log.debug(`Could not prune the spend ledger: ${getErrorMessage(e)}`),
    );
  }
}

/** Deletes a few of the token identity's entries older than KEEP_DAYS (the oldest come first in the listing). */
async function prune(c: LedgerContext, issue: number, day: string): Promise<void> {
  const before = Date.parse(dayStart(day)) - KEEP_DAYS * 86_400_000;
  const data = await listComments(c.client, c.repo, issue, { first: 30 });
  const old = data
    .filter(
      (cm) =>
        cm.user?.toLowerCase() === c.self.toLowerCase() &&
        cm.body.trimStart().startsWith(SPEND_MARKER) &&
        Date.parse(cm.createdAt) < before,
    )
    .slice(0, PRUNE_PER_RUN);
  for (const cm of old) await deleteComment(c.client, c.repo, cm.id);
  if (old.length > 0) c.log.debug(`Deleted ${old.length} spend ledger entries older than ${KEEP_DAYS} days.`);
}

/** Deletes this run's entry (it will spend nothing); a refusal is said and leaves it charging the day. */
async function takeBack(c: LedgerContext, comment: number): Promise<boolean> {
  try {
    await deleteComment(c.client, c.repo, comment);
    return true;
  } catch (e) {
    c.log.warning(`Could not take back this run's entry in the spend ledger: ${getErrorMessage(e)}`);
    return false;
  }
}

/**
 * Reserves what this run may spend of the day's `cap`: writes its entry asking for `max-tokens` (or the cap),
 * reads the day, and keeps the smaller of that and what the entries written before it leave. Nothing left: the
 * entry is deleted again and the reservation grants 0. Throws when the ledger cannot be read or written (the run
 * does not start: a cap nobody can check is no cap).
 */
export async function reserve(c: LedgerContext & { cap: number; maxTokens: number }): Promise<Reservation> {
  const issues = await ledgers(c);
  const issue = issues[0]!;
  const want = wanted(c.cap, c.maxTokens);
  // The entry's day is GitHub's: the day of the comment as GitHub timestamps it.
  const asked: SpendRecord = { runId: c.runId, attempt: c.attempt, reserved: want, cap: c.cap };
  const today = utcDay(new Date());
  const mine = await createComment(c.client, c.repo, issue, entryText(c, asked, today));
  const day = utcDay(mine.createdAt);
  // This run's own workflow run is asked about too, with the others: a token without `actions: read` is refused
  // here, on the first run, not on the first run that finds another's entry to check.
  const own = workflowRunOrigin(c.client, c.repo, c.runId, c.origin);
  const origins = new Map<string, Promise<RunProvenance>>([[c.runId, own]]);
  let read: DayRead;
  try {
    [read] = await Promise.all([readDay(c, issues, day, origins, mine.id), own]);
  } catch (error) {
    // The run does not start: its entry must not hold the day for the runs that can.
    await takeBack(c, mine.id);
    throw error;
  }
  logIgnored(c, read);
  const { before, granted } = grantFor({
    cap: c.cap,
    maxTokens: c.maxTokens,
    entries: read.entries,
    mine: { id: mine.id, createdAt: mine.createdAt },
  });
  const figures: BudgetFigures = { cap: c.cap, day, resetsAt: dayReset(day), before, granted };
  // Either write refused, the entry keeps asking for more than the run may spend: the day is charged more, never less.
  let comment: number | undefined = mine.id;
  if (granted === 0) {
    if (await takeBack(c, mine.id)) comment = undefined;
  } else if (granted < want || day !== today) {
    await updateComment(c.client, c.repo, mine.id, entryText(c, { ...asked, reserved: granted }, day)).catch(
      (e: unknown) => c.log.warning(`Could not write this run's grant: ${getErrorMessage(e)}`),
    );
  }
  return new Reservation(c, { issue, comment, ledgers: issues }, figures, origins);
}
