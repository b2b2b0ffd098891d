/**
 * `run-summary.json`, the machine-readable record of one run in its artifact: written by the action's report phase,
 * read back by `gemini-run report` (and by anything that sums runs up, such as a spend ledger). One schema for both
 * directions, so the writer cannot drift from the reader.
 *
 * Version 1 (no `schemaVersion`) held what the engine saw: its status, tokens, timings and commits. Version 2 adds
 * what only the action knows: the run's final status as the `status` output gives it, the workflow run, the trigger
 * and its time, the issue served, the pull request opened or updated, a CI fix's attempt and when the run ended. A
 * reader treats a version 1 summary's missing facts as unknown, never as a default.
 */
import { z } from 'zod';

export const RUN_SUMMARY_VERSION = 2;

const ISO = z.iso.datetime({ offset: true });
/** A status word (`finished`, `timed-out`, or one a newer version adds): never free text. */
const STATUS_WORD = z.string().regex(/^[a-z][a-z-]{0,39}$/);
const COUNT = z.number().int().nonnegative();
const WEB_URL = z.url({ protocol: /^https?$/ }).max(2000);

/** What version 2 adds: the action's facts about the run. */
const runFactsSchema = z.object({
  schemaVersion: z.literal(RUN_SUMMARY_VERSION),
  /** The `status` and `conclusion` outputs. */
  outcome: z.object({ status: STATUS_WORD, conclusion: z.enum(['success', 'failure']) }),
  /** The workflow run (and attempt) the summary belongs to. */
  run: z.object({
    repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
    id: COUNT,
    attempt: z.number().int().positive(),
    url: WEB_URL,
  }),
  trigger: z.object({
    /** The workflow's event (`issues`, `issue_comment`, `workflow_run`, …). */
    event: z.string().max(100),
    /** How the event asked for the run (`label`, `comment`, `ci-fix`, `resume`, …). */
    via: z.string().max(40),
    /** When the trigger happened (the comment's creation, the labelled issue's update); absent for a dispatch. */
    at: ISO.optional(),
    /** The issue or pull request the run served. */
    issue: z.object({ number: z.number().int().positive(), isPullRequest: z.boolean() }).optional(),
  }),
  /** The pull request the run opened or updated; null when it published none. */
  pullRequest: z
    .object({
      number: z.number().int().positive(),
      url: WEB_URL,
      operation: z.enum(['created', 'updated']),
    })
    .nullable(),
  /** A `fix-ci` run: which attempt in a row it was. */
  ciFix: z.object({ attempt: z.number().int().positive() }).optional(),
  /**
   * Under `max-daily-tokens`: the UTC day the run counted for, the cap, what other runs had spent or held before
   * it, what it could spend and spent, the day's spend once it settled, and when the day's budget resets.
   */
  dailyBudget: z
    .object({
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      cap: COUNT,
      before: COUNT,
      granted: COUNT,
      spent: COUNT.optional(),
      daySpent: COUNT.optional(),
      resetsAt: ISO,
    })
    .optional(),
  endedAt: ISO,
});

export type RunFacts = z.infer<typeof runFactsSchema>;

/**
 * A summary as a reader takes it: the version 1 fields a report needs (tokens, timings, the engine's status, a
 * deferral), and the version 2 facts when the summary has them. Anything else in the file is ignored.
 */
export const runSummarySchema = z.object({
  /** The engine's status (how gemini's run ended), in every version. */
  status: STATUS_WORD,
  message: z.string().max(20_000).optional(),
  startedAt: ISO,
  durationMs: COUNT,
  usage: z.object({ totalTokens: COUNT }),
  commits: z.array(z.unknown()).optional(),
  deferral: z.object({ attempt: z.number().int().positive(), resetAt: ISO }).optional(),
  ...runFactsSchema.partial().shape,
  // A newer version keeps these fields' meaning; the number alone does not make a summary unreadable.
  schemaVersion: z.number().int().positive().optional(),
});

export type RunSummary = z.infer<typeof runSummarySchema>;
