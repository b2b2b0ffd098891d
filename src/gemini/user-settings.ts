/**
 * What a workflow may add to the run's Gemini settings: its own `settings` JSON and the tool lists. They are
 * written under the keys the product owns (auth, auto-update, telemetry, context file names, the shell mode),
 * which always win; the caller logs the keys that were overridden.
 */
import { UserError } from '../util/errors.js';
import { OWNED_SETTINGS, RUN_HOME_SETTINGS, deletePath, readSettings, writeAtomic } from './settings.js';

/**
 * Subtrees the product owns beyond the keys it writes: telemetry is set through the environment and must keep
 * going to our file; `general.sessionRetention` must never be written (the run needs its transcript).
 */
const PRODUCT_SUBTREES = ['telemetry', 'security.auth', 'general.sessionRetention', 'privacy'];

/** The settings the workflow asked for: its JSON object, with the tool inputs on top. */
export interface UserSettingsInput {
  settings: Record<string, unknown>;
  /** `allowed-tools`: the only built-in tools the CLI registers (0.42.0 `tools.core`). */
  allowedTools: string[];
  /** `exclude-tools`: tools the CLI never declares to the model (0.42.0 `tools.exclude`). */
  excludeTools: string[];
}

/** The `settings` input → a JSON object; empty → {}. A one-line error otherwise. */
export function parseSettingsInput(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const why = e instanceof SyntaxError ? (e.message.split('\n')[0] ?? 'unreadable') : 'unreadable';
    throw new UserError(`'settings' is not valid JSON (${why}): pass one JSON object`);
  }
  if (!isPlainObject(value)) throw new UserError('\'settings\' must be a JSON object like {"ui": {...}}');
  return value;
}

/** A separated list input → trimmed, non-empty, unique entries. */
export function parseToolList(text: string, separator: RegExp, name: string): string[] {
  const items = text
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    if (/[\0\r\n]/.test(item)) throw new UserError(`'${name}' has an entry with a control character`);
  }
  return [...new Set(items)];
}

/** Every dotted path the product owns in a run home (keys it writes and subtrees it keeps). */
function productOwnedPaths(): string[] {
  // The auth kind changes only a value, not which paths are owned.
  return [...Object.keys(OWNED_SETTINGS('api-key')), ...Object.keys(RUN_HOME_SETTINGS), ...PRODUCT_SUBTREES];
}

/**
 * The settings object to write before the product's own keys go on top, and the workflow's keys that the
 * product overrides (dotted paths, for the log).
 */
export function buildUserSettings(
  input: UserSettingsInput,
  owned: readonly string[] = productOwnedPaths(),
): { settings: Record<string, unknown>; overridden: string[] } {
  const settings = structuredClone(input.settings);
  const tools: Record<string, unknown> = isPlainObject(settings.tools) ? settings.tools : {};
  if (input.allowedTools.length > 0) tools.core = [...input.allowedTools];
  if (input.excludeTools.length > 0) {
    const earlier = Array.isArray(tools.exclude) ? tools.exclude.filter((t) => typeof t === 'string') : [];
    tools.exclude = [...new Set([...earlier, ...input.excludeTools])];
  }
  if (Object.keys(tools).length > 0) settings.tools = tools;

  const overridden: string[] = [];
  for (const path of leafPaths(settings)) {
    const hit = owned.find((o) => path === o || path.startsWith(`${o}.`) || o.startsWith(`${path}.`));
    if (hit === undefined) continue;
    overridden.push(path);
    deletePath(settings, path);
  }
  return { settings, overridden };
}

/** Pure: `extra` deep-merged into `base` (objects merge, everything else replaces). */
function deepMerge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(base);
  for (const [k, v] of Object.entries(extra)) {
    const cur = out[k];
    out[k] = isPlainObject(cur) && isPlainObject(v) ? deepMerge(cur, v) : structuredClone(v);
  }
  return out;
}

/**
 * Writes the workflow's settings into a run home whose product keys are already merged. They never touch a
 * product path (buildUserSettings dropped those), so the product's values stay as they are.
 */
export async function writeUserSettings(settingsPath: string, user: Record<string, unknown>): Promise<void> {
  if (Object.keys(user).length === 0) return;
  const current = await readSettings(settingsPath);
  await writeAtomic(settingsPath, `${JSON.stringify(deepMerge(user, current), null, 2)}\n`, 0o600);
}

/** Dotted paths of every leaf (arrays and scalars are leaves). */
function leafPaths(obj: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && Object.keys(v).length > 0) out.push(...leafPaths(v, path));
    else out.push(path);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
