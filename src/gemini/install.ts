import { mkdir, rm, writeFile } from 'node:fs/promises';
import { arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec } from '../util/exec.js';
import { UserError, oneLine } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { pathExists } from '../util/fs.js';

export const PINNED_GEMINI_VERSION = '0.42.0';
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

/**
 * Installs @google/gemini-cli@<version> with npm into a prefix the runner user owns (the tool cache), without
 * global npm and without sudo, reusing a complete earlier install. Returns the path of bundle/gemini.js.
 */
export async function installGemini(opts: {
  version: string;
  cacheRoot: string;
  log: Logger;
  npm?: string;
}): Promise<string> {
  const dir = toolCacheDir(opts.cacheRoot, opts.version);
  const bin = geminiBinIn(dir);
  if ((await pathExists(`${dir}.complete`)) && (await geminiVersion(bin)) === opts.version) {
    opts.log.info(`Using cached gemini ${opts.version} from ${dir}`);
    return bin;
  }
  opts.log.info(`Installing ${GEMINI_PACKAGE}@${opts.version} into ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await rm(`${dir}.complete`, { force: true });
  await mkdir(dir, { recursive: true });
  const res = await exec(
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
    { allowAllExitCodes: true, timeoutMs: 10 * 60_000 },
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
  return bin;
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
