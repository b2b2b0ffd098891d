import { getExecOutput } from '@actions/exec';
import { mkdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { arch } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { exec } from '../util/exec.js';
import { UserError, getErrorMessage, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { pathExists } from '../util/fs.js';
import { hasNativeAddons, hostedInstallCache, installCacheKeys, type InstallCache } from './install-cache.js';

export const GEMINI_PACKAGE = '@google/gemini-cli';

/** The tool-cache layout of @actions/tool-cache: <root>/<tool>/<version>/<arch>, with a `.complete` marker beside it. */
export function toolCacheDir(root: string, version: string): string {
  return join(root, 'gemini-cli', version, arch());
}

export function geminiBinIn(prefix: string): string {
  return join(prefix, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
}

/** `gemini --version` of an executable, or undefined when it does not run. */
export async function geminiVersion(
  geminiPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  const isScript = geminiPath.endsWith('.js');
  const res = await exec(
    isScript ? process.execPath : geminiPath,
    isScript ? [geminiPath, '--version'] : ['--version'],
    {
      env: { PATH: env.PATH ?? '', HOME: env.HOME ?? '', GEMINI_CLI_NO_RELAUNCH: 'true', NO_COLOR: '1' },
      allowAllExitCodes: true,
      timeoutMs: 30_000,
    },
  ).catch(() => undefined);
  if (!res || res.exitCode !== 0) return undefined;
  return res.stdout.trim().split('\n').pop()?.trim();
}

const GeminiPackageJson = z.object({ name: z.literal(GEMINI_PACKAGE), version: z.string().min(1) });

/**
 * The version of the @google/gemini-cli package a path is the bundle of (`bundle/gemini.js`, or a link to it such as
 * npm's `.bin/gemini`), read from the package's package.json; undefined for any other executable. The bundle's
 * `--version` prints exactly this, but starting the bundle to ask costs one to two seconds on every run.
 */
export async function packagedGeminiVersion(geminiPath: string): Promise<string | undefined> {
  try {
    const real = await realpath(geminiPath);
    if (basename(real) !== 'gemini.js' || basename(dirname(real)) !== 'bundle') return undefined;
    const pkg = GeminiPackageJson.safeParse(
      JSON.parse(await readFile(join(dirname(dirname(real)), 'package.json'), 'utf8')),
    );
    return pkg.success ? pkg.data.version : undefined;
  } catch {
    return undefined;
  }
}

/** The version of a gemini: its package's when it is the npm bundle (no process), else its `--version`. */
export async function geminiVersionOf(
  geminiPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string | undefined> {
  return (await packagedGeminiVersion(geminiPath)) ?? geminiVersion(geminiPath, env);
}

/**
 * Installs @google/gemini-cli@<version> with npm into a prefix the runner user owns (the tool cache), without
 * global npm and without sudo, reusing a complete earlier install. On a GitHub-hosted job (whose tool cache starts
 * empty) the install is first restored from the Actions cache and, after a cold npm install, saved there; a restore
 * whose `--version` does not match is thrown away, and a cache service error is logged, never fatal. Returns the
 * path of bundle/gemini.js.
 */
export async function installGemini(opts: {
  version: string;
  cacheRoot: string;
  log: Logger;
  npm?: string;
  /** The Actions cache to use; default: the hosted job's, found from `env` (none on self-hosted runners). */
  cache?: InstallCache | null;
  env?: NodeJS.ProcessEnv;
}): Promise<string> {
  const env = opts.env ?? process.env;
  const dir = toolCacheDir(opts.cacheRoot, opts.version);
  const bin = geminiBinIn(dir);
  if ((await pathExists(`${dir}.complete`)) && (await geminiVersionOf(bin)) === opts.version) {
    opts.log.info(`Using cached gemini ${opts.version} from ${dir}`);
    return bin;
  }
  const cache = opts.cache === undefined ? hostedInstallCache(env) : (opts.cache ?? undefined);
  const keys = installCacheKeys({
    version: opts.version,
    runId: `${env.GITHUB_RUN_ID ?? ''}-${env.GITHUB_RUN_ATTEMPT ?? '1'}`,
  });
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.complete`, { force: true });
  if (cache && (await restoreFromCache(cache, dir, keys, opts))) {
    await writeFile(`${dir}.complete`, '');
    return bin;
  }
  opts.log.info(`Installing ${GEMINI_PACKAGE}@${opts.version} into ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const res = await npmInstall(
    opts.npm ?? 'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-audit',
      '--no-fund',
      '--no-save',
      '--omit=optional',
      '--loglevel=error',
      `${GEMINI_PACKAGE}@${opts.version}`,
    ],
    opts.log,
  );
  if (res.exitCode !== 0) {
    throw new UserError(
      `Could not install ${GEMINI_PACKAGE}@${opts.version} with npm: ${oneLine(res.stderr || res.stdout)}. Check the version exists, or set 'gemini-path'.`,
    );
  }
  const got = await geminiVersion(bin);
  if (got !== opts.version) {
    throw new UserError(
      `The installed gemini reports version '${got ?? 'none'}', expected '${opts.version}'. Remove ${dir} and retry.`,
    );
  }
  await writeFile(`${dir}.complete`, '');
  if (cache) {
    const key = keys.save(await hasNativeAddons(dir));
    const saved = await cache.save(dir, key).catch((e: unknown) => {
      opts.log.warning(`Could not save gemini to the Actions cache: ${oneLine(getErrorMessage(e))}`);
      return false;
    });
    if (saved) opts.log.info(`Saved gemini ${opts.version} to the Actions cache as ${key}`);
  }
  return bin;
}

/**
 * Runs npm with @actions/exec: what npm prints belongs in the job log, so each line goes to the log as it comes,
 * through the Logger (guarded like every line the action writes, and on stderr for `gemini-run setup`, whose stdout
 * is the .env lines) rather than straight to stdout. The environment is util/exec.ts's: the runner's, not
 * interactive, C locale. @actions/exec has no kill bound of its own, so npm runs under coreutils' `timeout`, which
 * signals npm's whole process group (its lifecycle scripts too) after INSTALL_TIMEOUT_S and kills it 10 s later.
 */
async function npmInstall(
  npm: string,
  args: string[],
  log: Logger,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries({
      ...process.env,
      GIT_TERMINAL_PROMPT: '0',
      GCM_INTERACTIVE: 'Never',
      LC_ALL: 'C',
    }).filter((e): e is [string, string] => e[1] !== undefined),
  );
  // @actions/exec splits its command line at spaces outside double quotes: quoted, any path stays one word.
  const res = await getExecOutput('timeout', ['--kill-after=10', String(INSTALL_TIMEOUT_S), npm, ...args], {
    env,
    ignoreReturnCode: true,
    silent: true,
    listeners: { stdline: (l) => log.info(l), errline: (l) => log.info(l) },
  });
  // 124: timeout's own code for a command it had to stop (137 after the kill).
  if (res.exitCode === 124 || res.exitCode === 137) {
    return { ...res, stderr: `npm did not finish within ${INSTALL_TIMEOUT_S / 60} minutes and was stopped` };
  }
  return res;
}

const INSTALL_TIMEOUT_S = 600;

/** Restores a checked install from the Actions cache into dir; false (and dir removed) when there is none. */
async function restoreFromCache(
  cache: InstallCache,
  dir: string,
  keys: { primary: string; prefixes: string[] },
  opts: { version: string; log: Logger },
): Promise<boolean> {
  const hit = await cache.restore(dir, keys.primary, keys.prefixes).catch((e: unknown) => {
    opts.log.warning(
      `Could not restore gemini from the Actions cache, installing from npm instead: ${oneLine(getErrorMessage(e))}`,
    );
    return undefined;
  });
  if (!hit) return false;
  const got = await geminiVersion(geminiBinIn(dir));
  if (got === opts.version) {
    opts.log.info(`Restored gemini ${opts.version} from the Actions cache (${hit}) into ${dir}`);
    return true;
  }
  opts.log.warning(
    `The gemini restored from the Actions cache (${hit}) reports version '${got ?? 'none'}', expected '${opts.version}': installing from npm instead.`,
  );
  await rm(dir, { recursive: true, force: true });
  return false;
}

/** The pinned gemini installed next to this code by `npm ci` (dist/ or src/ both sit below the project root). */
export async function findPinnedGemini(start = dirname(fileURLToPath(import.meta.url))): Promise<string> {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
    if (await pathExists(candidate)) return candidate;
    if (dirname(dir) === dir) break;
  }
  throw new UserError(
    "The pinned gemini is not installed next to gemini-run: run 'npm ci' in the project first.",
  );
}
