/**
 * Where the CLI keeps a session's file (records: transcript-parse.ts): finding the one a run wrote, whether
 * `gemini --resume` can take it, and putting a saved one back for `--resume`.
 */
import { lstat, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  AGENT_FILE_LIMITS,
  copyAgentFile,
  openAgentFile,
  ownerUids,
  ownFile,
  readAgentFileChunks,
  type AgentFilePolicy,
} from '../util/agent-file.js';
import { parseBoundedJson } from '../util/bounded-json.js';
import { contentText, forEachLine, rewindHistory, stripToolOutput } from './transcript-parse.js';

/** A user message the CLI's loader does not count as resumable (`isIgnoredUserContent`, 0.61.0). */
const IGNORED_USER_TEXT = /^(\/|\?|<session_context>|<hook_context>|$)/;

function resumableRecord(r: Record<string, unknown>): boolean {
  if (r['type'] === 'user') return !IGNORED_USER_TEXT.test(contentText(r['content']).trim());
  if (r['type'] !== 'gemini') return false;
  const many = (k: string) => Array.isArray(r[k]) && (r[k] as unknown[]).length > 0;
  return contentText(r['content']).trim() !== '' || many('toolCalls') || many('thoughts');
}

/**
 * Whether `gemini --resume` can take this session: read the way 0.61.0's loader reads it (a `$set.messages`
 * snapshot replaces the history before it, `$rewindTo` cuts it), at least one message must be resumable.
 * A first turn the timeout cancelled is rolled back to nothing on 0.61.0, which then refuses the session ("No
 * previous sessions found", exit 42); a follow-up starts afresh instead.
 */
export async function transcriptResumable(
  file: string,
  policy = ownFile(file, AGENT_FILE_LIMITS.transcript),
): Promise<boolean> {
  // Per id (in history order) only whether it is resumable: a session file can be hundreds of MB.
  const history = new Map<string, boolean>();
  await forEachLine(file, policy, (buf, start, end) => {
    // Tool output is cut first; what is left still says whether a record counts. A record too large to read
    // (util/bounded-json.ts) counts as the torn line it most likely is.
    const parsed = parseBoundedJson(stripToolOutput(buf.subarray(start, end)));
    if (!parsed.ok) return;
    const r = parsed.value;
    if (!r || typeof r !== 'object' || Array.isArray(r)) return;
    const rec = r as Record<string, unknown>;
    const set = rec['$set'] as Record<string, unknown> | undefined;
    if (set && typeof set === 'object' && Array.isArray(set['messages'])) {
      history.clear();
      for (const m of set['messages'] as unknown[]) {
        if (m && typeof m === 'object' && typeof (m as { id?: unknown }).id === 'string') {
          history.set((m as { id: string }).id, resumableRecord(m as Record<string, unknown>));
        }
      }
    } else if (typeof rec['$rewindTo'] === 'string') {
      rewindHistory(history, rec['$rewindTo']);
    } else if (typeof rec['id'] === 'string' && typeof rec['type'] === 'string') {
      history.set(rec['id'], resumableRecord(rec));
    }
  });
  return [...history.values()].some(Boolean);
}

/** The CLI's project slug for a directory (projectRegistry.slugify), before collision suffixes. */
export function slugify(dir: string): string {
  return (
    path
      .basename(dir)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '-')
      .replace(/-+/g, '-')
      .replace(/^-|-$/g, '') || 'project'
  );
}

/** The CLI's sanitised session id prefix used in file names. */
function sid8(sessionId: string): string {
  return sessionId.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 8);
}

/**
 * `names` in `dir` newest first, by their own mtime (a link's, not its target's). A link or a fifo stays in the
 * list: the read refuses it, and the refusal is what tells the run's log.
 */
async function newestFirst(dir: string, names: string[]): Promise<string[]> {
  const withTime = await Promise.all(
    names.map(async (n) => {
      try {
        const st = await lstat(path.join(dir, n));
        return { n, t: st.isDirectory() ? -1 : st.mtimeMs };
      } catch {
        return { n, t: -1 };
      }
    }),
  );
  return withTime
    .filter((x) => x.t >= 0)
    .sort((a, b) => b.t - a.t || b.n.localeCompare(a.n))
    .map((x) => x.n);
}

// Each field on its own: a malformed start time must not cost the session id.
const HeaderFields = z.object({
  sessionId: z.string().optional().catch(undefined),
  startTime: z.string().optional().catch(undefined),
});

async function readHeader(file: string, policy: AgentFilePolicy): Promise<z.infer<typeof HeaderFields>> {
  const f = await openAgentFile(file, policy);
  let head = '';
  try {
    const parts: Buffer[] = [];
    await readAgentFileChunks(f, 64 * 1024, (c) => void parts.push(Buffer.from(c)), 64 * 1024);
    head = Buffer.concat(parts).toString('utf8');
  } finally {
    await f.fh.close();
  }
  const json = parseBoundedJson(head.split('\n', 1)[0] ?? '');
  const parsed = json.ok ? HeaderFields.safeParse(json.value) : undefined;
  return parsed?.success ? parsed.data : {};
}

async function headerSessionId(file: string, policy: AgentFilePolicy): Promise<string | undefined> {
  const none: { sessionId?: string } = {};
  return (await readHeader(file, policy).catch(() => none)).sessionId;
}

/** `yyyy-MM-ddTHH-mm` (UTC), the minute stamp the CLI names session files with. */
function minuteStamp(d: Date): string {
  return d.toISOString().slice(0, 16).replace(/:/g, '-');
}

/** The directories under `dir` that are real directories (no links), by name. */
async function realDirs(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: string[] = [];
  for (const n of names) {
    const st = await lstat(path.join(dir, n)).catch(() => undefined);
    if (st?.isDirectory()) out.push(n);
  }
  return out;
}

/**
 * Finds the transcript of a session run in `worktree` under the Gemini home `home` (GEMINI_CLI_HOME).
 * Nothing the agent can edit decides where we look — not the CLI's projects.json (worktree path → slug), which
 * the agent could point anywhere: the project dirs are the ones the CLI names for the worktree, its slug
 * (`<slug>`, or `<slug>-<n>` after a collision), and they must be real directories. The file is the one named
 * for the session id whose header names it, else the newest `session-*.jsonl` there (after `/clear` the CLI
 * continues in a new file with a new id, and each run has its own home and worktree, so the newest file is the
 * current epoch). The path is only where to look: the read (util/agent-file.ts) checks the file itself.
 */
export async function locateTranscript(
  home: string,
  worktree: string,
  sessionId: string,
  policy: AgentFilePolicy = {
    root: home,
    uids: ownerUids(undefined),
    maxBytes: AGENT_FILE_LIMITS.transcript,
  },
): Promise<string | undefined> {
  const tmp = path.join(home, '.gemini', 'tmp');
  const base = slugify(path.resolve(worktree));
  const collision = new RegExp(`^${base}-\\d+$`);
  const dirs = (await realDirs(tmp)).filter((d) => d === base || collision.test(d));
  // The slug itself first, then its collision suffixes in order.
  dirs.sort((a, b) => a.length - b.length || a.localeCompare(b));
  const prefix = sid8(sessionId);
  const found: { chats: string; names: string[] }[] = [];
  for (const slug of dirs) {
    const chats = path.join(tmp, slug, 'chats');
    if (!(await lstat(chats).catch(() => undefined))?.isDirectory()) continue;
    const names = (await readdir(chats).catch(() => [] as string[])).filter(
      (n) => n.startsWith('session-') && /\.jsonl?$/.test(n),
    );
    found.push({ chats, names });
    const named = await newestFirst(
      chats,
      names.filter((n) => n.replace(/\.jsonl?$/, '').endsWith(`-${prefix}`)),
    );
    for (const n of named) {
      // The 8-char prefix can collide; the header names the session exactly.
      const id = await headerSessionId(path.join(chats, n), policy);
      if (id === undefined || id === sessionId) return path.join(chats, n);
    }
  }
  for (const { chats, names } of found) {
    const newest = await newestFirst(
      chats,
      names.filter((n) => n.endsWith('.jsonl')),
    );
    if (newest[0]) return path.join(chats, newest[0]);
  }
  return undefined;
}

/**
 * Puts a saved session file where `gemini --resume <id>` run in `worktree` with home `home` (a fresh one, that
 * no agent ran in yet) will find it: `<home>/.gemini/tmp/<slug>/chats/<same file name>`, with the projects.json
 * entry and the `.project_root` ownership markers the CLI's project registry checks. The saved file is read as
 * the policy says (util/agent-file.ts); the restored one is a new file of ours. Returns its path.
 */
export async function restoreTranscript(
  home: string,
  worktree: string,
  transcriptFile: string,
  policy = ownFile(transcriptFile, AGENT_FILE_LIMITS.transcript),
): Promise<string> {
  const geminiDir = path.join(home, '.gemini');
  const abs = path.resolve(worktree);
  // The home is new: its registry is ours to write, with the one project it serves.
  const slug = slugify(abs);
  await mkdir(geminiDir, { recursive: true, mode: 0o700 });
  const registry = path.join(geminiDir, `projects.json.${process.pid}.tmp`);
  await writeFile(registry, JSON.stringify({ projects: { [abs]: slug } }, null, 2));
  await rename(registry, path.join(geminiDir, 'projects.json'));
  for (const dir of [path.join(geminiDir, 'tmp', slug), path.join(geminiDir, 'history', slug)]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(path.join(dir, '.project_root'), abs);
  }
  const chats = path.join(geminiDir, 'tmp', slug, 'chats');
  await mkdir(chats, { recursive: true, mode: 0o700 });
  let name = path.basename(transcriptFile);
  if (!/^session-.*\.jsonl?$/.test(name)) {
    // The CLI only lists `session-*` files; keep the id prefix so --resume <id> matches by file name. The stamp
    // is the session's own start, the name the CLI gave the file: named for the current minute it would be the
    // very file the resumed CLI starts for itself (its header appended into the history we restore).
    const header = await readHeader(transcriptFile, policy);
    const started = new Date(header.startTime ?? '');
    const own = Number.isNaN(started.getTime()) ? '' : minuteStamp(started);
    const stamp = /^\d{4}-\d\d-\d\dT\d\d-\d\d$/.test(own) ? own : minuteStamp(new Date(Date.now() - 60_000));
    name = `session-${stamp}-${sid8(header.sessionId ?? 'restored')}.jsonl`;
  }
  const dest = path.join(chats, name);
  await copyAgentFile(transcriptFile, dest, policy);
  return dest;
}
