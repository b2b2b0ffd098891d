import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  rename,
  rm,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { Git, ownRepoEnv } from './git.js';
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
 *
 * A second checkout into a path inside the workspace (`path: tools`) persists its own token the same ways, in its
 * own `.git/config` (and its own file in RUNNER_TEMP): every repository nested in the worktree that the caller
 * names gets the same treatment, its config read and written as that file alone (`git config --file`, from a
 * directory of the action's: git never works inside it), and gets its credentials back only if the run left it
 * as it was (the workspace rebuild decides: src/git/nested-repos.ts).
 */

/** Keys whose values carry or lead to a credential. Matched against git's canonical (lower-cased) key names. */
const CREDENTIAL_KEY = /^(http\.(.+\.)?extraheader|credential\..+|core\.sshcommand)$/i;
const INCLUDE_KEY = /^(include\.path|includeif\..+\.path)$/i;
/** A config file in which none of these words stands has none of those keys (a name cannot be split). */
const MAY_HOLD_CREDENTIALS = /extraheader|credential|sshcommand|include/i;

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
  /** Included credential files moved into the stash, the nested repositories' too. */
  files: z.array(z.object({ original: z.string(), stashed: z.string() })),
  /**
   * Each nested repository whose config held a credential (its git directory, relative to the worktree): the keys
   * removed, and a 0600 copy in the stash of its config as it was, put back byte for byte.
   */
  nested: z
    .array(z.object({ gitDir: z.string(), removedKeys: z.array(z.string()), original: z.string() }))
    .default([]),
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
  /** Git directories of repositories nested in the worktree, relative to it (`tools/.git`, a bare `fixtures/x.git`). */
  nested?: readonly string[];
}

/** One repository's own config file: `--local` in the worktree, `--file <git dir>/config` for a nested one. */
interface RepoConfig {
  git: Git;
  scope: readonly string[];
}

/** What came out of one repository's config. */
interface Removed {
  /** The credential entries themselves (secret). */
  entries: ConfigEntry[];
  /** The includes of credential files (paths). */
  includes: ConfigEntry[];
  removedKeys: string[];
  /** The credential files those includes named, to be moved into the stash. */
  files: string[];
}

/**
 * Removes every credential entry, and every include of a file holding one, from one repository's config; `dir` is
 * where its relative include paths start (the config file's directory).
 */
async function removeCredentials(c: RepoConfig, dir: string): Promise<Removed> {
  const { git, scope } = c;
  const local = parseConfigList((await git.run(['config', ...scope, '--list', '-z'])).stdout);
  const entries = local.filter((e) => CREDENTIAL_KEY.test(e.key));
  const files = new Set<string>();
  for (const inc of local.filter((e) => INCLUDE_KEY.test(e.key) && e.value)) {
    const file = resolveIncludePath(inc.value ?? '', dir);
    if (await holdsCredentials(git, file)) files.add(file);
  }
  // checkout also writes an include for the container's view of the same file (/github/runner_temp/<name>),
  // which does not exist on the host; it goes with its host twin.
  const fileNames = new Set([...files].map((f) => basename(f)));
  const includes = local.filter(
    (e) =>
      INCLUDE_KEY.test(e.key) &&
      e.value &&
      (files.has(resolveIncludePath(e.value, dir)) || fileNames.has(basename(e.value))),
  );
  const removedKeys: string[] = [];
  for (const key of new Set(entries.map((e) => e.key))) {
    await git.run(['config', ...scope, '--unset-all', key], { allowAllExitCodes: true });
    removedKeys.push(key);
  }
  for (const inc of includes) {
    await git.run(['config', ...scope, '--fixed-value', '--unset-all', inc.key, inc.value ?? ''], {
      allowAllExitCodes: true,
    });
    if (!removedKeys.includes(inc.key)) removedKeys.push(inc.key);
  }
  return { entries, includes, removedKeys, files: [...files] };
}

/** A nested repository's config and git directory, when both are what they look like (no link). */
async function nestedConfig(
  worktree: string,
  gitDir: string,
  stashDir: string,
): Promise<(RepoConfig & { dir: string; file: string }) | undefined> {
  const dir = join(worktree, gitDir);
  const file = join(dir, 'config');
  const [d, f] = await Promise.all([lstat(dir), lstat(file)].map((p) => p.catch(() => undefined)));
  if (!d?.isDirectory() || !f?.isFile()) return undefined;
  // From the stash (the action's own directory), as that file alone: git neither enters nor discovers the repository.
  return { git: Git.create(stashDir, ownRepoEnv()), scope: ['--file', file], dir, file };
}

/**
 * Puts a nested repository's config back as it was, byte for byte (git would re-add keys in its canonical spelling):
 * a new file beside it, then a rename over it, so no link is followed.
 */
async function putBackConfig(file: string, original: string): Promise<void> {
  const bytes = await readFile(original);
  const mode = (await lstat(file)).mode & 0o7777;
  const next = `${file}.gemini-run-${randomBytes(4).toString('hex')}`;
  await writeFile(next, bytes, { mode, flag: 'wx' });
  await rename(next, file);
}

/**
 * Removes from the worktree's repository, and from each nested one `opts.nested` names, every credential
 * actions/checkout (or a user) persisted in its local config, for the agent's lifetime. Returns what
 * restoreCheckoutCredentials needs to put it all back.
 */
export async function isolateCheckoutCredentials(
  worktree: string,
  opts: IsolateOptions = {},
): Promise<SavedCredentials> {
  const git = Git.forUntrusted(worktree);
  const commonDir = await git.output(['rev-parse', '--path-format=absolute', '--git-common-dir']);
  const stashDir =
    opts.stashDir ?? (await mkdtemp(join(process.env.RUNNER_TEMP || tmpdir(), 'gemini-run-creds-')));
  await mkdir(stashDir, { recursive: true, mode: 0o700 });
  await chmod(stashDir, 0o700);

  const top = await removeCredentials({ git, scope: ['--local'] }, commonDir);
  const saved: SavedCredentials = {
    version: 1,
    stashDir,
    removedKeys: top.removedKeys,
    includes: top.includes,
    files: [],
    nested: [],
  };
  if (top.entries.length > 0) {
    saved.entriesFile = join(stashDir, 'config-entries.json');
    await writeFile(saved.entriesFile, JSON.stringify(top.entries), { mode: 0o600 });
  }
  const files = new Set(top.files);
  for (const gitDir of opts.nested ?? []) {
    const config = await nestedConfig(worktree, gitDir, stashDir);
    if (!config) continue;
    const bytes = await readFile(config.file);
    // Most nested repositories (vendored dependencies) hold none: no git started for them.
    if (!MAY_HOLD_CREDENTIALS.test(bytes.toString('latin1'))) continue;
    const removed = await removeCredentials(config, config.dir);
    if (removed.removedKeys.length === 0) continue;
    const original = join(stashDir, `nested-config-${saved.nested.length}`);
    await writeFile(original, bytes, { mode: 0o600 });
    saved.nested.push({ gitDir, removedKeys: removed.removedKeys, original });
    for (const f of removed.files) files.add(f);
  }
  let n = 0;
  for (const original of files) {
    const stashed = join(stashDir, `included-${n++}.config`);
    await move(original, stashed);
    saved.files.push({ original, stashed });
  }
  return saved;
}

/** Adds back to one repository's config the entries and includes that are not there. */
async function addBack(
  c: RepoConfig,
  includes: ConfigEntry[],
  entriesFile: string | undefined,
): Promise<void> {
  let entries: ConfigEntry[] = [];
  if (entriesFile && (await pathExists(entriesFile))) {
    entries = z.array(configEntrySchema).parse(JSON.parse(await readFile(entriesFile, 'utf8')));
  }
  for (const e of [...includes, ...entries]) {
    const value = e.value ?? '';
    const present = await c.git.run(['config', ...c.scope, '--fixed-value', '--get-all', e.key, value], {
      allowAllExitCodes: true,
    });
    if (present.exitCode === 0) continue;
    // A key with no value (`[credential] helper`) cannot be re-created through the CLI; an empty value is
    // what git reads it as for every key we remove.
    await c.git.run(['config', ...c.scope, '--add', e.key, value]);
  }
}

/**
 * Puts back what isolateCheckoutCredentials removed: the worktree's own, and each nested repository's that
 * `keptNested` names (the rebuild found it as the action left it; one the run changed was removed, and what it
 * held goes with the stash). Idempotent: a second call finds nothing to do.
 */
export async function restoreCheckoutCredentials(
  worktree: string,
  saved: SavedCredentials,
  keptNested: ReadonlySet<string> = new Set(),
): Promise<void> {
  for (const f of saved.files) {
    if (!(await pathExists(f.stashed))) continue;
    await mkdir(dirname(f.original), { recursive: true });
    await move(f.stashed, f.original);
  }
  await addBack({ git: Git.forUntrusted(worktree), scope: ['--local'] }, saved.includes, saved.entriesFile);
  for (const n of saved.nested) {
    if (!keptNested.has(n.gitDir) || !(await pathExists(n.original))) continue;
    const config = await nestedConfig(worktree, n.gitDir, saved.stashDir);
    if (config) await putBackConfig(config.file, n.original);
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
