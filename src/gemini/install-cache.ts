import { readdir } from 'node:fs/promises';
import { arch, platform } from 'node:os';

/**
 * Keeps a gemini install between jobs. On GitHub-hosted runners every job starts with an empty tool cache, so
 * without this each run pays a full `npm install`; the Actions cache (`@actions/cache`) carries the install over.
 */
export interface InstallCache {
  /** Restores `dir` from the newest entry matching one of the key prefixes; returns the key that hit. */
  restore(dir: string, primaryKey: string, prefixes: string[]): Promise<string | undefined>;
  /** Saves `dir` under `key`; false when the service did not take it (already logged by the client). */
  save(dir: string, key: string): Promise<boolean>;
}

/**
 * The cache keys of a gemini install. An install is saved under `<base>-<variant>-<run>`: `js` when it holds no
 * native addon (0.42.0 with optional dependencies omitted holds none), `node<ABI>` when it does, since an addon
 * only loads into the Node ABI it was built for. A restore asks for this run's own key (never saved yet) and falls
 * back on the prefixes, so the newest entry of the right variant wins: a broken entry is superseded by the next
 * good save rather than served forever (entries are immutable).
 */
export function installCacheKeys(o: {
  version: string;
  runId: string;
  platform?: string;
  arch?: string;
  abi?: string;
}): { primary: string; prefixes: string[]; save(native: boolean): string } {
  const base = `gemini-run-gemini-cli-${o.version}-${o.platform ?? platform()}-${o.arch ?? arch()}`;
  const native = `${base}-node${o.abi ?? process.versions.modules}-`;
  const js = `${base}-js-`;
  const run = o.runId.replace(/[^A-Za-z0-9._-]/g, '_') || 'local';
  return {
    primary: `${native}${run}`,
    prefixes: [native, js],
    save: (hasNative) => `${hasNative ? native : js}${run}`,
  };
}

/** Whether an install holds a native addon (a `.node` file), which ties it to one Node ABI. */
export async function hasNativeAddons(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.some((e) => e.isFile() && e.name.endsWith('.node'));
}

/**
 * The Actions cache of a GitHub-hosted job, or undefined where there is none: self-hosted runners keep their tool
 * cache between jobs, so they keep today's path (and need no cache service).
 */
export function hostedInstallCache(env: NodeJS.ProcessEnv): InstallCache | undefined {
  if (env.RUNNER_ENVIRONMENT !== 'github-hosted') return undefined;
  if (!env.ACTIONS_RUNTIME_TOKEN || !(env.ACTIONS_RESULTS_URL || env.ACTIONS_CACHE_URL)) return undefined;
  return {
    // Loaded on use: the cache client and its Azure SDK are a fifth of the bundle, evaluated only by a run that caches.
    restore: async (dir, primaryKey, prefixes) =>
      (await import('@actions/cache')).restoreCache([dir], primaryKey, prefixes),
    save: async (dir, key) => (await (await import('@actions/cache')).saveCache([dir], key)) !== -1,
  };
}
