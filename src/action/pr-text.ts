import { z } from 'zod';
import { approvalRecordSchema, type ApprovalRecord } from '../github/approval.js';
import { codePath, type ProtectedChange } from '../domain/protected-paths.js';
import type { Task } from '../domain/types.js';
import { block, plainInline, publishedBlock, type PublishContext } from '../markdown/publish.js';
import { ENGINE_STATUSES, type EngineStatus, type RunResult } from '../run/types.js';

/**
 * What a later run needs to continue a session: recorded (hidden) in the PR summary comment, on the line right
 * after its commentMarker('summary'): the only place a record is read from (`sessionRecordOf`), so a record quoted
 * anywhere else in the body is none.
 */
export interface SessionRecord {
  sessionId: string;
  runId: string;
  artifact: string;
  mode: string;
  /** How the run ended (absent in records written before it was kept). */
  status?: EngineStatus;
  /** The pull request the summary comment is on, and its repository (`owner/repo`): a record elsewhere is not ours. */
  pr: number;
  repo: string;
  /** The commit the run left the pull request's branch at: a CI failure there is the action's to fix. */
  head?: string;
  /** Fix runs in a row up to this one (`fix-ci`), and the failure the last one was started for. */
  ciFix?: CiFixRecord;
  /** What a writer approved for the work on this pull request: a CI fix carries it (github/approval.ts). */
  approval?: ApprovalRecord;
}

export interface CiFixRecord {
  attempts: number;
  /** The normalised failure (workflow, job, step, first error line) the last fix run was started for. */
  signature: string;
}

export function sessionMarker(record: SessionRecord): string {
  return hiddenRecord('session', record);
}

/** A record as one hidden line, `<!-- gemini-run:<kind> {json} -->` (no `--` inside to end the comment early). */
export function hiddenRecord(kind: string, value: object): string {
  return `<!-- gemini-run:${kind} ${JSON.stringify(value).replace(/--/g, '\\u002d\\u002d')} -->`;
}

/**
 * The record of kind `kind` in a comment: the line right after `marker`, which must open the body, parsed by
 * `schema`. Anything else (no record there, a record of the wrong shape, records further down) is none. Read only
 * from a comment the action's own identity wrote.
 */
export function hiddenRecordOf<T>(
  body: string,
  marker: string,
  kind: string,
  schema: z.ZodType<T>,
): T | undefined {
  const [first, second] = body.trimStart().split('\n', 2);
  if (first?.trim() !== marker) return undefined;
  const line = second?.trim() ?? '';
  const prefix = `<!-- gemini-run:${kind} `;
  if (!line.startsWith(prefix) || !line.endsWith(' -->')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(prefix.length, -' -->'.length));
  } catch {
    return undefined; // A hand-edited marker is ignored rather than failing the run.
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The shape of a session record. Its values end up in a path (the artifact name), an artifact lookup (the run
 * id) and gemini's `--resume` (the session id), so each must look exactly like what a run writes. Records written
 * before the PR and repository were kept do not parse: they cannot be matched, so they are not resumed.
 */
const sessionRecordSchema = z.object({
  sessionId: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i),
  runId: z.string().regex(/^\d{1,20}$/),
  artifact: z.string().regex(/^gemini-run-\d{1,20}-\d{1,5}$/),
  mode: z.enum(['interactive', 'headless']).catch('interactive'),
  status: z.enum(ENGINE_STATUSES).optional().catch(undefined),
  pr: z.number().int().positive(),
  repo: z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/),
  head: z
    .string()
    .regex(/^[0-9a-f]{40}$/)
    .optional()
    .catch(undefined),
  ciFix: z
    .object({ attempts: z.number().int().min(1).max(1000), signature: z.string().max(2000) })
    .optional()
    .catch(undefined),
  approval: approvalRecordSchema.optional().catch(undefined),
});

/** The session record of a summary comment (`hiddenRecordOf`). */
export function sessionRecordOf(body: string, marker: string): SessionRecord | undefined {
  return hiddenRecordOf(body, marker, 'session', sessionRecordSchema);
}

export function prTitle(task: Task): string {
  const first = (task.title || task.instruction).split('\n')[0]?.trim() || 'Changes by gemini-run';
  return first.length > 100 ? `${first.slice(0, 97)}...` : first;
}

/** The task as asked: the approved text, published as a block of its own (its mentions no longer ping anyone). */
function asked(text: string, on: PublishContext, max = 3000): string {
  const t = text.trim();
  return publishedBlock(t.length > max ? `${t.slice(0, max)}\n\n…` : t, on);
}

export function prBody(o: {
  task: Task;
  result: RunResult;
  summary: string;
  closes?: number;
  runUrl?: string;
  /** Protected paths the commits change (`protected-paths-policy: allow`): a warning opens the body. */
  protectedChanges?: readonly ProtectedChange[];
  /** Where the body is published: what it may link. */
  on: PublishContext;
}): string {
  const answer = publishedBlock(o.result.transcript.finalAnswer, o.on);
  const parts = [
    ...protectedSection(o.protectedChanges ?? []),
    '## What was asked',
    block(asked(o.task.instruction || o.task.title, o.on)),
    '## What was done',
    // A block of its own: nothing the answer opens reaches the body after it, `Closes #n` included.
    block(answer || '_The agent gave no final answer._'),
    o.summary.trim(),
  ];
  if (o.result.status !== 'finished') {
    parts.push(
      '',
      `> [!WARNING]\n> The run ended \`${o.result.status}\`${o.result.message ? `: ${plainInline(o.result.message, o.on)}` : ''}. This draft holds what the agent committed before it stopped.`,
    );
  }
  if (o.runUrl) parts.push('', `Run: ${o.runUrl}`);
  if (o.closes !== undefined) parts.push('', `Closes #${o.closes}`);
  return parts.join('\n');
}

function protectedSection(changes: readonly ProtectedChange[]): string[] {
  if (changes.length === 0) return [];
  return [
    '## ⚠ Changes protected paths',
    '',
    "This pull request changes files that steer the repository's workflows or later agent runs (`protected-paths`; `protected-paths-policy: allow` let it through). Review them first:",
    '',
    ...changes.map(
      (c) =>
        `- ${codePath(c.path)}${c.stat === undefined ? ' (no net change)' : c.stat === 'binary' ? ' (binary)' : ` (+${c.stat.added} −${c.stat.removed})`}`,
    ),
    '',
  ];
}

/** Largest comment body GitHub accepts, with room to spare. */
const MAX_COMMENT = 60_000;

/**
 * The summary comment after a follow-up run: the new run's summary on top, earlier runs folded below it.
 * The result goes through the published-text rules again (idempotent), so the earlier body needs no trust.
 */
export function withEarlierRuns(summary: string, previousBody: string): string {
  // Our own markers and record lead the earlier body: the folded copy is history, never read again.
  const previous = previousBody.replace(/^\s*(?:<!-- gemini-run:[^\n]*-->[ \t]*\n?)+/, '').trim();
  if (!previous) return summary;
  const room = MAX_COMMENT - summary.length - 200;
  const kept = previous.length > room ? `${previous.slice(0, Math.max(0, room))}\n\n…` : previous;
  return `${summary}\n\n<details><summary>Earlier runs on this pull request</summary>\n\n${kept}\n\n</details>`;
}
