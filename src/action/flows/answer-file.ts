/**
 * The file a review or triage agent answers in: at a path the action names in the task, at the top of the
 * workspace (where the CLI's own file tools may write). Whatever the checkout had at that path is removed before
 * the agent starts (a pull request cannot answer for the agent), and what is there afterwards is read as data
 * (util/agent-file.ts: no link followed, one link, the agent's or ours, bounded) and parsed with bounds before any
 * schema sees it. Every way it can fail is a one-line problem the review or triage then says, never a throw.
 */
import { lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentFileRefused, ownerUids, readAgentFile } from '../../util/agent-file.js';
import { parseBoundedJson } from '../../util/bounded-json.js';
import { getErrorMessage } from '../../util/errors.js';

/** Far above any answer a model writes, far below anything that could hurt. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export type AnswerFile<T> = { kind: 'read'; value: T } | { kind: 'problem'; what: string };

/** Removes whatever is at the answer's path (a file, a link, a directory the checkout had), without following it. */
export async function clearAnswerFile(worktree: string, name: string): Promise<boolean> {
  const path = join(worktree, name);
  const there = await lstat(path).catch(() => undefined);
  if (!there) return false;
  await rm(path, { recursive: true, force: true });
  return true;
}

/**
 * JSON whose strings hold raw control characters (a newline, a tab) with those escaped again. gemini 0.42.0's
 * `write_file` unescapes the content it writes for every model but Gemini 3 (an escaped newline in a string becomes a raw one), so a
 * model's valid JSON with a multi-line string lands as invalid JSON; this reads it as the model wrote it. Nothing
 * else is changed: an unescaped quote stays the error it is.
 */
function escapeRawControls(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (!inString) inString = ch === '"';
    else if (escaped) escaped = false;
    else if (ch === '\\') escaped = true;
    else if (ch === '"') inString = false;
    else if (code < 0x20) {
      out +=
        code === 10
          ? '\\n'
          : code === 9
            ? '\\t'
            : code === 13
              ? '\\r'
              : `\\u${code.toString(16).padStart(4, '0')}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** A zod issue as one line: where, and what was wrong. */
export function issueLine(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'it does not have the shape asked for';
  const where = issue.path.map(String).join('.');
  return `${where ? `${where}: ` : ''}${issue.message}`;
}

/**
 * The agent's answer at `name` in the worktree, read as data and parsed by `schema`; the problem in one line when
 * there is none, it cannot be read, or it does not parse.
 */
export async function readAnswerFile<T>(o: {
  worktree: string;
  name: string;
  /** The agent's own uid (isolation: user); undefined when it ran as us. */
  agentUid: number | undefined;
  schema: z.ZodType<T>;
}): Promise<AnswerFile<T>> {
  let bytes: Buffer;
  try {
    bytes = await readAgentFile(join(o.worktree, o.name), {
      root: o.worktree,
      uids: ownerUids(o.agentUid),
      maxBytes: MAX_ANSWER_BYTES,
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      return { kind: 'problem', what: `the agent wrote no \`${o.name}\`` };
    const why = e instanceof AgentFileRefused ? e.reason : getErrorMessage(e);
    return { kind: 'problem', what: `\`${o.name}\` could not be read (${why})` };
  }
  let parsed = parseBoundedJson(bytes);
  if (!parsed.ok && parsed.why === 'invalid')
    parsed = parseBoundedJson(escapeRawControls(bytes.toString('utf8')));
  if (!parsed.ok)
    return {
      kind: 'problem',
      what: `\`${o.name}\` is ${parsed.why === 'invalid' ? 'not valid JSON' : 'too large or too deeply nested to read'}`,
    };
  const checked = o.schema.safeParse(parsed.value);
  if (!checked.success)
    return {
      kind: 'problem',
      what: `\`${o.name}\` is not in the shape asked for (${issueLine(checked.error)})`,
    };
  return { kind: 'read', value: checked.data };
}
