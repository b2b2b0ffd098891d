/**
 * Where `gemini-run run` keeps the sessions it ran, so `gemini-run run --resume <id>` continues one: each run's
 * gemini works in a throw-away home (removed with the run), and its session file is copied out first, one file per
 * session under the user's state directory ($XDG_STATE_HOME/gemini-run/sessions, else ~/.local/state/...), private
 * to the user (0700 / 0600: a transcript holds the task, the code and the tool output).
 */
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { join } from 'node:path';
import type { ResumeSource } from '../domain/types.js';
import { AGENT_FILE_LIMITS, copyAgentFile, ownFile } from '../util/agent-file.js';
import { UserError } from '../util/errors.js';
import { UsageError } from './args.js';

export function sessionsDir(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME || (env.HOME ? join(env.HOME, '.local', 'state') : undefined);
  if (!state) throw new UserError('cannot tell where to keep sessions: set HOME or XDG_STATE_HOME');
  return join(state, 'gemini-run', 'sessions');
}

/** A session id as the CLI makes them (a UUID): nothing else names a file here. */
const SESSION_ID = /^[0-9A-Za-z][0-9A-Za-z-]{7,63}$/;

function fileOf(dir: string, sessionId: string): string {
  if (!SESSION_ID.test(sessionId))
    throw new UsageError(`'${sessionId.slice(0, 80)}' is not a session id (the run printed it)`, 'run');
  return join(dir, `${sessionId}.jsonl`);
}

/** What a kept session was run on: the repository and the branch its commits are on. */
const keptRunSchema = z.object({ repo: z.string(), branch: z.string() });
export type KeptRun = z.infer<typeof keptRunSchema>;

/** The session `--resume` names (and where it ran, when known), or a one-line error saying where it looked. */
export async function findSession(
  dir: string,
  sessionId: string,
): Promise<{ resume: ResumeSource; ran?: KeptRun }> {
  const file = fileOf(dir, sessionId);
  const found = await stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!found) {
    throw new UserError(
      `No session ${sessionId} was kept in ${dir}: 'gemini-run run' keeps the sessions it ran there (on this host, for this user).`,
    );
  }
  const ran = keptRunSchema.safeParse(
    await readFile(`${file.slice(0, -'.jsonl'.length)}.json`, 'utf8')
      .then((t) => JSON.parse(t) as unknown)
      .catch(() => undefined),
  );
  return { resume: { sessionId, transcriptFile: file }, ...(ran.success ? { ran: ran.data } : {}) };
}

/** Copies a run's session file (the engine's own copy) into the store, with where it ran. */
export async function keepSession(
  dir: string,
  sessionId: string,
  transcript: string,
  ran: KeptRun,
): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
  const file = fileOf(dir, sessionId);
  // A new file of ours, 0600, whatever was there (a resumed session's older copy) removed first.
  await copyAgentFile(transcript, file, ownFile(transcript, AGENT_FILE_LIMITS.transcript));
  await writeFile(`${file.slice(0, -'.jsonl'.length)}.json`, `${JSON.stringify(ran)}\n`, { mode: 0o600 });
}
