/**
 * The settings merge: our keys go into a Gemini `settings.json` (the isolated run home, or an operator's real
 * `~/.gemini` through the toolkit), idempotently and reversibly. The CLI warns on unknown keys, so the record
 * of what we own lives in a sidecar file beside settings.json, never inside it. The sidecar also keeps the
 * user's earlier values (including "absent") and the original bytes, so un-merging restores the file exactly
 * when nothing else changed it meanwhile, and restores key by key when something did.
 */
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { AuthKind } from '../domain/types.js';
import { UserError } from '../util/errors.js';

/** The context files the CLI loads, all of them, in this order: our per-run file first, repo files still work. */
export const CONTEXT_FILE_NAMES = ['GEMINI.local.md', 'GEMINI.md', 'AGENTS.md'] as const;

const SELECTED_TYPE: Record<AuthKind, string> = {
  oauth: 'oauth-personal',
  'api-key': 'gemini-api-key',
  'vertex-ai': 'vertex-ai',
};

/**
 * Dotted paths → values we own. `general.sessionRetention` is deliberately absent: when unset, 0.42.0 never
 * deletes transcripts, and the run needs its transcript.
 */
export function OWNED_SETTINGS(auth: AuthKind): Record<string, unknown> {
  return {
    'context.fileName': [...CONTEXT_FILE_NAMES],
    'security.auth.selectedType': SELECTED_TYPE[auth],
    // A separate upload pipeline (Clearcut), on by default, independent of the telemetry env.
    'privacy.usageStatisticsEnabled': false,
    // An npm-installed CLI otherwise runs `npm install -g @google/gemini-cli@latest` machine-wide.
    'general.enableAutoUpdate': false,
    'general.enableAutoUpdateNotification': false,
  };
}

/**
 * Extra settings of a per-run home only (never merged into an operator's own home): the CLI strips variables
 * whose names or values look secret (…KEY, …TOKEN, …AUTH…, key-shaped values) from the environment of the
 * agent's shell commands, so the model key gemini itself needs is not handed on to every `run_shell_command`.
 * Its name patterns also catch GIT_AUTHOR_*, so the agent's identity travels as GIT_CONFIG_* (see spawn.ts).
 */
export const RUN_HOME_SETTINGS: Record<string, unknown> = {
  'security.environmentVariableRedaction.enabled': true,
  // Shell commands through child_process, not node-pty: nobody types into them in an unattended run, and 0.42.0's
  // pty resize races a finished command (`ioctl(2) failed, EBADF` in ShellExecutionService.resizePty, thrown
  // out of a React effect) and takes the whole CLI down mid-turn (seen live, about 1 run in 50 under load).
  'tools.shell.enableInteractiveShell': false,
};

/** Never written by the merge, whatever a caller passes. */
const FORBIDDEN_PATHS = ['general.sessionRetention'];

const previousSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('absent') }),
  z.object({ state: z.literal('present'), value: z.unknown() }),
]);
type Previous = z.infer<typeof previousSchema>;

const sidecarSchema = z.object({
  tool: z.literal('gemini-run'),
  version: z.literal(1),
  /** Owned dotted path → the value the user had before we first set it. */
  owned: z.record(z.string(), previousSchema),
  /** The file's bytes before our first merge; null when it did not exist. */
  original: z.string().nullable(),
  /** sha256 of the bytes we last wrote: when the file still has them, un-merge restores `original` exactly. */
  written: z.string(),
});
type Sidecar = z.infer<typeof sidecarSchema>;

/** The sidecar that records what we own in `settingsPath`. */
export function sidecarPath(settingsPath: string): string {
  return join(dirname(settingsPath), `${basename(settingsPath)}.gemini-run.json`);
}

/** Reads a settings file the way the CLI does (comments allowed). Absent or blank = `{}`. */
export async function readSettings(settingsPath: string): Promise<Record<string, unknown>> {
  const text = await readTextIfExists(settingsPath);
  return text === null ? {} : parseSettingsText(text, settingsPath);
}

/** Pure: settings text → object. Throws a UserError naming `file` when the CLI would refuse it too. */
export function parseSettingsText(text: string, file: string): Record<string, unknown> {
  const stripped = stripJsonComments(text.replace(/^\uFEFF/, ''));
  if (stripped.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(stripped);
  } catch (error) {
    const why = error instanceof SyntaxError ? error.message.split('\n')[0] : 'unreadable';
    throw new UserError(`${file} is not valid JSON (${why}); fix or remove it and try again.`);
  }
  if (!isPlainObject(value))
    throw new UserError(`${file} is not a JSON object; fix or remove it and try again.`);
  return value;
}

/**
 * Sets `owned` into `settingsPath`, recording ownership in the sidecar. Merging the same keys again changes
 * nothing on disk; merging a different set releases keys no longer owned (restoring the user's values).
 * An invalid settings file or sidecar is refused with the file untouched.
 */
export async function mergeSettings(settingsPath: string, owned: Record<string, unknown>): Promise<void> {
  for (const path of Object.keys(owned)) {
    if (FORBIDDEN_PATHS.some((f) => path === f || path.startsWith(`${f}.`))) {
      throw new Error(`refusing to own ${path}: it must never be written`);
    }
  }
  const target = await resolveTarget(settingsPath);
  const text = await readTextIfExists(target);
  const current = text === null ? {} : parseSettingsText(text, settingsPath);
  const sidecar = await readSidecar(settingsPath);

  const { settings, previous } = applyOwned(current, sidecar?.owned ?? {}, owned, settingsPath);
  const unchanged =
    sidecar !== undefined && deepEqual(settings, current) && deepEqual(previous, sidecar.owned);
  if (unchanged) return;

  // Already holding our values (say, the user set them): keep their bytes, comments included.
  const keepText = text !== null && deepEqual(settings, current);
  const newText = keepText ? text : `${JSON.stringify(settings, null, 2)}\n`;
  const next: Sidecar = {
    tool: 'gemini-run',
    version: 1,
    owned: previous,
    original: sidecar ? sidecar.original : text,
    written: sha256(newText),
  };
  const mode = await fileMode(target, 0o600);
  // Sidecar first: a crash in between leaves ownership recorded with the true earlier values, which an
  // un-merge can still restore; the other order could lose them.
  await writeAtomic(sidecarPath(settingsPath), `${JSON.stringify(next, null, 2)}\n`, 0o600);
  if (!keepText) await writeAtomic(target, newText, mode);
}

/** Pure core of the merge: returns the new settings and the ownership record. Exported for tests. */
function applyOwned(
  current: Record<string, unknown>,
  previouslyOwned: Record<string, Previous>,
  owned: Record<string, unknown>,
  file = 'settings.json',
): { settings: Record<string, unknown>; previous: Record<string, Previous> } {
  const settings = structuredClone(current);
  const previous: Record<string, Previous> = {};
  // Keys we owned before but no longer: give them back first.
  for (const [path, prev] of Object.entries(previouslyOwned)) {
    if (!(path in owned)) restorePath(settings, path, prev);
  }
  for (const [path, value] of Object.entries(owned)) {
    previous[path] = previouslyOwned[path] ?? readPath(settings, path, file);
    setPath(settings, path, structuredClone(value), file);
  }
  return { settings, previous };
}

/** Gives back everything the sidecar says we own, then removes the sidecar. No sidecar = nothing to do. */
export async function unmergeSettings(settingsPath: string): Promise<void> {
  const sidecar = await readSidecar(settingsPath);
  if (!sidecar) return;
  const target = await resolveTarget(settingsPath);
  const text = await readTextIfExists(target);
  if (text !== null && sha256(text) === sidecar.written) {
    // Nobody touched the file since our write: the user's exact bytes (comments, layout) come back.
    if (sidecar.original === null) await fs.rm(target, { force: true });
    else await writeAtomic(target, sidecar.original, await fileMode(target, 0o600));
  } else if (text !== null) {
    const settings = parseSettingsText(text, settingsPath);
    for (const [path, prev] of Object.entries(sidecar.owned)) restorePath(settings, path, prev);
    await writeAtomic(target, `${JSON.stringify(settings, null, 2)}\n`, await fileMode(target, 0o600));
  }
  await fs.rm(sidecarPath(settingsPath), { force: true });
}

/** Which dotted paths the sidecar says we own (for `doctor`/status output). */
export async function ownedPaths(settingsPath: string): Promise<string[]> {
  return Object.keys((await readSidecar(settingsPath))?.owned ?? {});
}

async function readSidecar(settingsPath: string): Promise<Sidecar | undefined> {
  const file = sidecarPath(settingsPath);
  const text = await readTextIfExists(file);
  if (text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = sidecarSchema.safeParse(value);
  if (!parsed.success) {
    throw new UserError(
      `${file} (gemini-run's record of the settings it owns) is damaged; remove it and try again.`,
    );
  }
  return parsed.data;
}

function readPath(obj: Record<string, unknown>, path: string, file: string): Previous {
  let node: unknown = obj;
  for (const key of path.split('.')) {
    if (node === undefined) return { state: 'absent' };
    if (!isPlainObject(node)) throw notAnObject(path, key, file);
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node === undefined ? { state: 'absent' } : { state: 'present', value: structuredClone(node) };
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown, file: string): void {
  const keys = path.split('.');
  let node = obj;
  for (const key of keys.slice(0, -1)) {
    const child = node[key];
    if (child === undefined) node[key] = {};
    else if (!isPlainObject(child)) throw notAnObject(path, key, file);
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** Puts back an earlier value; "absent" deletes the key and any parent objects that became empty. */
function restorePath(obj: Record<string, unknown>, path: string, prev: Previous): void {
  if (prev.state === 'present') {
    setPath(obj, path, structuredClone(prev.value), 'settings');
    return;
  }
  deletePath(obj, path);
}

/** Deletes a dotted key and any parent objects that became empty; a path through a non-object is left alone. */
export function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const chain: Record<string, unknown>[] = [obj];
  for (const key of keys.slice(0, -1)) {
    const child = chain[chain.length - 1]![key];
    if (!isPlainObject(child)) return;
    chain.push(child);
  }
  delete chain[chain.length - 1]![keys[keys.length - 1]!];
  for (let i = chain.length - 1; i > 0; i--) {
    if (Object.keys(chain[i]!).length > 0) break;
    delete chain[i - 1]![keys[i - 1]!];
  }
}

function notAnObject(path: string, key: string, file: string): UserError {
  return new UserError(
    `${file}: "${key}" is not an object, so ${path} cannot be set; fix the file and try again.`,
  );
}

/**
 * Removes // and /* *\/ comments outside strings, keeping every other character, like the
 * strip-json-comments package the CLI uses (which is not a dependency here).
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, ' ');
      i = end === -1 ? text.length : end + 2;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** A symlinked settings.json (dotfile managers) is written through, not replaced by a regular file. */
async function resolveTarget(path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch {
    return path;
  }
}

async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await fs.readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new UserError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

async function fileMode(path: string, fallback: number): Promise<number> {
  try {
    return (await fs.stat(path)).mode & 0o7777;
  } catch {
    return fallback;
  }
}

/** Temp file in the same directory + rename: readers (a starting CLI) never see a half-written file. */
export async function writeAtomic(path: string, content: string, mode: number): Promise<void> {
  await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await fs.writeFile(tmp, content, { mode, flag: 'wx' });
    await fs.chmod(tmp, mode);
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}
