/**
 * Where the toolkit's own pieces live on a runner host, one answer for every command: the tool cache `setup`
 * installs gemini into (and `doctor` and `login` look in), and the runner's `.env`, where `setup`'s printed
 * lines go and from which the runner's jobs get GEMINI_RUN_GEMINI_PATH and GEMINI_RUN_HOST_HOME.
 */
import { constants, promises as fs } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { CHECKED_VERSIONS, DEFAULT_GEMINI_VERSION } from '../gemini/cli-profile.js';
import { geminiBinIn, toolCacheDir } from '../gemini/install.js';
import { UserError } from '../util/errors.js';
import { pathExists } from '../util/fs.js';

/**
 * The tool cache of this host: $RUNNER_TOOL_CACHE inside a job, else ~/.cache/gemini-run/tool-cache — what a
 * shell has, where the README's `gemini-run setup` runs.
 */
export function toolkitToolCache(env: NodeJS.ProcessEnv): string | undefined {
  if (env.RUNNER_TOOL_CACHE) return env.RUNNER_TOOL_CACHE;
  return env.HOME ? join(env.HOME, '.cache', 'gemini-run', 'tool-cache') : undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await fs.access(path, constants.X_OK);
    return (await fs.stat(path)).isFile();
  } catch {
    return false;
  }
}

/** First `name` on PATH that is executable. */
export async function whichOnPath(name: string, pathVar: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (dir && (await isExecutable(join(dir, name)))) return join(dir, name);
  }
  return undefined;
}

/**
 * Where the gemini to use is, and how it was found: --gemini, GEMINI_RUN_GEMINI_PATH, PATH, then the tool
 * cache (--tool-cache, else toolkitToolCache) — the default first, so a cache holding both checked versions
 * is checked against the pin.
 */
export async function locateGemini(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  toolCache?: string,
): Promise<{ path: string; source: string } | undefined> {
  if (flag) return { path: flag, source: '--gemini' };
  if (env.GEMINI_RUN_GEMINI_PATH)
    return { path: env.GEMINI_RUN_GEMINI_PATH, source: 'GEMINI_RUN_GEMINI_PATH' };
  const onPath = await whichOnPath('gemini', env.PATH);
  if (onPath) return { path: onPath, source: 'PATH' };
  const cache = toolCache ?? toolkitToolCache(env);
  if (!cache) return undefined;
  const versions = [DEFAULT_GEMINI_VERSION, ...CHECKED_VERSIONS.filter((v) => v !== DEFAULT_GEMINI_VERSION)];
  for (const version of versions) {
    const bin = geminiBinIn(toolCacheDir(cache, version));
    try {
      await fs.access(bin);
      return { path: bin, source: 'tool cache' };
    } catch {
      // not installed there
    }
  }
  return undefined;
}

/**
 * Pure: a runner `.env` as the runner reads it — one `KEY=VALUE` a line, split at the first `=`, no quoting;
 * blank lines and `#` comments (setup prints some) are skipped.
 */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** GitHub's instructions install a runner into ~/actions-runner; a configured one holds `.runner`. */
const DEFAULT_RUNNER_DIR = 'actions-runner';

/**
 * The runner's `.env`, read: `--runner-dir <dir>` (its `.env` must exist), else the current directory when it
 * is a runner's (it holds `.runner` or `config.sh`) and has a `.env`, else ~/actions-runner/.env when there is
 * one. Undefined when none is found.
 */
export async function readRunnerEnv(
  flag: string | undefined,
  io: { env: NodeJS.ProcessEnv; cwd: string },
): Promise<{ file: string; values: Record<string, string> } | undefined> {
  const read = async (file: string) => ({ file, values: parseDotEnv(await fs.readFile(file, 'utf8')) });
  if (flag) {
    const file = join(resolve(io.cwd, flag), '.env');
    try {
      return await read(file);
    } catch {
      throw new UserError(
        `--runner-dir: ${file} cannot be read; pass the runner's directory (it holds .env)`,
      );
    }
  }
  const isRunnerDir = async (dir: string) =>
    (await pathExists(join(dir, '.runner'))) || (await pathExists(join(dir, 'config.sh')));
  const candidates = [io.cwd, ...(io.env.HOME ? [join(io.env.HOME, DEFAULT_RUNNER_DIR)] : [])];
  for (const [i, dir] of candidates.entries()) {
    const file = join(dir, '.env');
    if (!(await pathExists(file))) continue;
    if (i === 0 && !(await isRunnerDir(dir))) continue;
    return await read(file).catch(() => undefined);
  }
  return undefined;
}
