/**
 * The fields of GitHub's event payloads the triggers read, as zod schemas, and the one-line error for a payload
 * that does not fit. Everything else in a payload is let through unread.
 */
import { z } from 'zod';
import { UserError } from '../util/errors.js';

export const userSchema = z.object({ login: z.string(), type: z.string().nullish() });

const issueSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  user: userSchema.nullish(),
  html_url: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  // Present (an object with URLs) when the "issue" is a pull request.
  pull_request: z.object({}).loose().nullish(),
});

export const issuesEventSchema = z.object({
  action: z.string(),
  label: z.object({ name: z.string() }).optional(),
  assignee: userSchema.nullish(),
  issue: issueSchema,
  sender: userSchema,
  // `opened` for an issue transferred in from another repository names the issue it was.
  changes: z
    .object({ old_issue: z.object({ html_url: z.string().optional() }).loose().nullish() })
    .loose()
    .optional(),
});

const commentSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  user: userSchema,
  created_at: z.string().optional(),
});

export const issueCommentEventSchema = z.object({
  action: z.string(),
  comment: commentSchema.extend({ html_url: z.string().optional() }),
  issue: issueSchema,
  sender: userSchema,
});

const pullRequestSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string().nullish(),
  html_url: z.string().optional(),
  updated_at: z.string().optional(),
});

/** `pull_request` (flow: review): the pull request as the event has it; its head is read again from the API. */
export const pullRequestEventSchema = z.object({
  action: z.string(),
  pull_request: pullRequestSchema.extend({
    user: userSchema.nullish(),
    draft: z.boolean().nullish(),
    created_at: z.string().optional(),
  }),
  sender: userSchema,
});

export const reviewCommentEventSchema = z.object({
  action: z.string(),
  comment: commentSchema.extend({
    path: z.string(),
    line: z.number().int().nullish(),
    original_line: z.number().int().nullish(),
    diff_hunk: z.string().nullish(),
  }),
  pull_request: pullRequestSchema,
  sender: userSchema,
});

export const reviewEventSchema = z.object({
  action: z.string(),
  review: z.object({
    id: z.number().int(),
    body: z.string().nullish(),
    user: userSchema,
    submitted_at: z.string().nullish(),
  }),
  pull_request: pullRequestSchema,
  sender: userSchema,
});

export const workflowDispatchEventSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).nullish(),
  sender: userSchema.optional(),
});

/** `schedule`: nothing in it is read (a scheduled run sweeps the deferred runs). */
export const scheduleEventSchema = z.object({ schedule: z.string().optional() });

/** `workflow_run` (a CI run completed): what the CI-fix loop reads; the rest is checked against the API. */
export const workflowRunEventSchema = z.object({
  action: z.string(),
  workflow_run: z.object({
    id: z.number().int().positive(),
    name: z.string().nullish(),
    head_branch: z.string().nullish(),
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    conclusion: z.string().nullish(),
    run_attempt: z.number().int().positive().optional(),
    head_repository: z.object({ full_name: z.string() }).nullish(),
    pull_requests: z
      .array(z.object({ number: z.number().int().positive(), head: z.object({ ref: z.string() }) }))
      .optional(),
  }),
  repository: z.object({ full_name: z.string() }),
  sender: userSchema,
});

/** A pull request as a check suite's payload lists it: its head's repository by id, not by name. */
const suitePullSchema = z.object({
  number: z.number().int().positive(),
  head: z.object({ ref: z.string(), repo: z.object({ id: z.number().int() }).nullish() }),
});

export const checkSuiteEventSchema = z.object({
  action: z.string(),
  check_suite: z.object({
    id: z.number().int().positive(),
    head_branch: z.string().nullish(),
    head_sha: z.string().regex(/^[0-9a-f]{40}$/),
    conclusion: z.string().nullish(),
    // Absent only for a suite no app owns, which no CI makes.
    app: z.object({ slug: z.string().nullish(), name: z.string().nullish() }).nullish(),
    pull_requests: z.array(suitePullSchema).optional(),
  }),
  repository: z.object({ id: z.number().int(), full_name: z.string() }),
  sender: userSchema,
});

/** The payload as `schema` reads it, or a UserError naming the first field that is missing or invalid. */
export function parsePayload<T>(event: string, schema: z.ZodType<T>, payload: unknown): T {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new UserError(
      `The ${event} event payload is not a JSON object; is GITHUB_EVENT_PATH the event's file?`,
    );
  }
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') || '(root)';
  const missing = issue ? valueAt(payload, issue.path) == null : true;
  throw new UserError(
    `The ${event} event payload is broken: ${path} is ${missing ? 'missing' : 'invalid'}` +
      ` (${parsed.error.issues.length} problem${parsed.error.issues.length === 1 ? '' : 's'}); is GITHUB_EVENT_PATH the event's file?`,
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}
