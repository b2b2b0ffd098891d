import { chmod, copyFile, mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { Git } from './git.js';
import { pathExists } from '../util/fs.js';

/*
 * actions/checkout leaves the job token where any process in the worktree can use it:
 *  - v4 and earlier: `http.https://github.com/.extraheader = AUTHORIZATION: basic <base64>` in .git/config;
 *  - v5/v6: the header lives in $RUNNER_TEMP/git-credentials-<uuid>.config, pulled in by
 *    `includeIf.gitdir:<gitdir>.path` entries (host and container paths, and `<gitdir>/worktrees/*`);
 *  - with `ssh-key`: `core.sshCommand` naming the key file; and users may add credential helpers.
 *
 * Choice: the removed material is moved aside, not copied into the action's state. Local config entries go to
 * a 0600 file and included credential files are renamed into a 0700 stash directory outside the worktree; the
 * state we hand back holds only paths and config keys, so it is not secret, can be saved with core.saveState
 * (whose file sits on disk while the agent runs) and may appear in debug logs. Moving the included file also
 * disarms every includeIf that points at it, submodules' included, without having to find them all.
 */

/** Keys whose values carry or lead to a credential. Matched against git's canonical (lower-cased) key names. */
const CREDENTIAL_KEY = /^(http\.(.+\.)?extraheader|credential\..+|core\.sshcommand)$/i;
const INCLUDE_KEY = /^(include\.path|includeif\..+\.path)$/i;

const configEntrySchema = z.object({ key: z.string(), value: z.string().nullable() });
export type ConfigEntry = z.infer<typeof configEntrySchema>;

const savedCredentialsSchema = z.object({
  version: z.literal(1),
  /** Where removed material waits for the post step; removed on restore. */
  stashDir: z.string(),
  /** A 0600 JSON file in stashDir with the removed local config entries (these values can be secret). */
  entriesFile: z.string().optional(),
  /** The removed keys, for the log. */
  removedKeys: z.array(z.string()),
  /** Removed include entries; their values are paths, not secrets. */
  includes: z.array(configEntrySchema),
  /** Included credential files moved into the stash. */
  files: z.array(z.object({ original: z.string(), stashed: z.string() })),
});
export type SavedCredentials = z.infer<typeof savedCredentialsSchema>;

/** Parses saved state from the post step (JSON text or an object); throws on anything else. */
export function parseSavedCredentials(raw: unknown): SavedCredentials {
  return savedCredentialsSchema.parse(typeof raw === 'string' ? JSON.parse(raw) : raw);
}

/** Parses `git config --list -z`: `key\nvalue\0`, or `key\0` for a key with no value. */
export function parseConfigList(out: string): ConfigEntry[] {
  return out
    .split('\0')
    .filter((r) => r !== '')
    .map((r) => {
      const nl = r.indexOf('\n');
      return nl === -1 ? { key: r, value: null } : { key: r.slice(0, nl), value: r.slice(nl + 1) };
    });
}

export interface IsolateOptions {
  /** Where to stash what is removed (created 0700). Default: a new directory under RUNNER_TEMP or the OS temp. */
  stashDir?: string;
}

/**
 * Removes from the worktree's repository every credential actions/checkout (or a user) persisted in its local
 * config, for the agent's lifetime. Returns what restoreCheckoutCredentials needs to put it all back.
 */
export async function isolateCheckoutCredentials(
  worktree: string,
  opts: IsolateOptions = {},
): Promise<SavedCredentials> {
  const git = Git.forUntrusted(worktree);
  const commonDir = await git.output(['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const local = parseConfigList((await git.run(['config', '--local', '--list', '-z'])).stdout);

  const secretEntries = local.filter((e) => CREDENTIAL_KEY.test(e.key));
  const credentialFiles = new Set<string>();
  for (const inc of local.filter((e) => INCLUDE_KEY.test(e.key) && e.value)) {
    const file = resolveIncludePath(inc.value ?? '', commonDir);
    if (await holdsCredentials(git, file)) credentialFiles.add(file);
  }
  // checkout also writes an include for the container's view of the same file (/github/runner_temp/<name>),
  // which does not exist on the host; it goes with its host twin.
  const fileNames = new Set([...credentialFiles].map((f) => basename(f)));
  const includes = local.filter(
    (e) =>
      INCLUDE_KEY.test(e.key) &&
      e.value &&
      (credentialFiles.has(resolveIncludePath(e.value, commonDir)) || fileNames.has(basename(e.value))),
  );

  const stashDir =
    opts.stashDir ?? (await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'gemini-run-creds-')));
  await mkdir(stashDir, { recursive: true, mode: 0o700 });
  await chmod(stashDir, 0o700);
  const saved: SavedCredentials = { version: 1, stashDir, removedKeys: [], includes: [], files: [] };

  if (secretEntries.length > 0) {
    saved.entriesFile = join(stashDir, 'config-entries.json');
    await writeFile(saved.entriesFile, JSON.stringify(secretEntries), { mode: 0o600 });
    for (const key of new Set(secretEntries.map((e) => e.key))) {
      await git.run(['config', '--local', '--unset-all', key], { allowAllExitCodes: true });
      saved.removedKeys.push(key);
    }
  }
  for (const inc of includes) {
    await git.run(['config', '--local', '--fixed-value', '--unset-all', inc.key, inc.value ?? ''], {
      allowAllExitCodes: true,
    });
    saved.includes.push(inc);
    if (!saved.removedKeys.includes(inc.key)) saved.removedKeys.push(inc.key);
  }
  let n = 0;
  for (const original of credentialFiles) {
    const stashed = join(stashDir, `included-${n++}.config`);
    await move(original, stashed);
    saved.files.push({ original, stashed });
  }
  return saved;
}

/** Puts back what isolateCheckoutCredentials removed. Idempotent: a second call finds nothing to do. */
export async function restoreCheckoutCredentials(worktree: string, saved: SavedCredentials): Promise<void> {
  const git = Git.forUntrusted(worktree);
  for (const f of saved.files) {
    if (!(await pathExists(f.stashed))) continue;
    await mkdir(dirname(f.original), { recursive: true });
    await move(f.stashed, f.original);
  }
  let entries: ConfigEntry[] = [];
  if (saved.entriesFile && (await pathExists(saved.entriesFile))) {
    entries = z.array(configEntrySchema).parse(JSON.parse(await readFile(saved.entriesFile, 'utf8')));
  }
  for (const e of [...saved.includes, ...entries]) {
    const value = e.value ?? '';
    const present = await git.run(['config', '--local', '--fixed-value', '--get-all', e.key, value], {
      allowAllExitCodes: true,
    });
    if (present.exitCode === 0) continue;
    // A key with no value (`[credential] helper`) cannot be re-created through the CLI; an empty value is
    // what git reads it as for every key we remove.
    await git.run(['config', '--local', '--add', e.key, value]);
  }
  await rm(saved.stashDir, { recursive: true, force: true });
}

/** include paths are relative to the including file (the common git dir here), with `~/` meaning $HOME. */
function resolveIncludePath(path: string, configDir: string): string {
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(configDir, path);
}

async function holdsCredentials(git: Git, file: string): Promise<boolean> {
  if (!(await pathExists(file))) return false;
  const r = await git.run(['config', '--file', file, '--list', '-z'], { allowAllExitCodes: true });
  if (r.exitCode !== 0) return false;
  return parseConfigList(r.stdout).some((e) => CREDENTIAL_KEY.test(e.key));
}

async function move(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await copyFile(from, to);
    await unlink(from);
  }
}
