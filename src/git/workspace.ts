/**
 * The workspace's `.git` as the action sees it: inspected as data before the run, and rebuilt by the action after.
 *
 * The agent can write every file of the worktree's `.git` while it runs, and on a reused self-hosted workspace an
 * earlier agent may have. Git reads config from several scopes (`config`, `config.worktree` with
 * `extensions.worktreeConfig`, `include`/`includeIf`, `core.worktree`, a `.git` *file* redirecting `$GIT_DIR`),
 * and new keys that run commands keep appearing, so no list of bad keys can make such a repository safe to run git
 * in. Two rules instead:
 *
 * - Before the run, nothing of the workspace's `.git` is trusted until it has been read as data (never followed,
 *   never through git) and found to hold only what actions/checkout writes: an allow-list, not a deny-list. A
 *   workspace that holds anything else is refused in one line.
 * - After the run, the agent's `.git` is thrown away whole and a new one is made by the action from what it saved
 *   before the run (the config bytes, the hooks and info files it allowed) and from its own repository (the
 *   vault: objects and refs). A later workflow step (`git status`, `git push`, another actions/checkout) finds the
 *   action's `.git`, not the agent's.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import {
  chmod,
  copyFile,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UserError } from '../util/errors.js';
import { Git, ownRepoEnv } from './git.js';
import {
  isolateCheckoutCredentials,
  parseConfigList,
  type ConfigEntry,
  type SavedCredentials,
} from './credentials.js';
import { copyObjectStore } from './vault.js';
import {
  keepAsNow,
  nestedRecordSchema,
  recordNestedRepositories,
  removeNestedRepositories,
  type NestedRecord,
  type NestedRepoReport,
} from './nested-repos.js';

/** What the action saved of the workspace's `.git` before the run, to rebuild it from. Not secret: paths. */
export const workspaceSnapshotSchema = z.object({
  version: z.literal(1),
  worktree: z.string(),
  /** An action-owned directory (in the run dir) with `config`, `hooks/`, `info/`. */
  dir: z.string(),
  objectFormat: z.enum(['sha1', 'sha256']),
});
export type WorkspaceSnapshot = z.infer<typeof workspaceSnapshotSchema>;

const MAX_CONFIG_BYTES = 1 << 20;
const MAX_HOOK_BYTES = 64 << 10;

/**
 * Config keys actions/checkout (and `git clone`, `git lfs install`, sparse checkout, submodules) writes. Anything
 * else in the workspace's config was put there by someone else. Matched on git's canonical key (section and
 * variable lower-cased, subsection as written).
 */
const ALLOWED_KEYS: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|autocrlf|eol|safecrlf|longpaths|sparsecheckout|sparsecheckoutcone|compression|bigfilethreshold|checkstat|trustctime|untrackedcache|splitindex|commitgraph|multipackindex|preloadindex|protecthfs|protectntfs|abbrev|quotepath|filesreflock|packedrefstimeout|deltabasecachelimit|packedgitlimit|packedgitwindowsize)$/,
  /^extensions\.(objectformat|partialclone|preciousobjects|noop)$/,
  /^remote\.[^\n]+\.(url|pushurl|fetch|tagopt|promisor|partialclonefilter|mirror|prune|prunetags|skipdefaultupdate|skipfetchall)$/,
  /^branch\.[^\n]+\.(remote|merge|rebase|pushremote|description)$/,
  /^submodule\.[^\n]+\.(url|active|branch|fetchrecursesubmodules|ignore|shallow)$/,
  /^submodule\.(active|recurse|fetchjobs)$/,
  /^http\.([^\n]+\.)?extraheader$/,
  /^http\.([^\n]+\.)?(sslverify|sslcainfo|version|postbuffer|lowspeedlimit|lowspeedtime)$/,
  /^gc\.(auto|autodetach|autopacklimit|writecommitgraph)$/,
  /^protocol\.version$/,
  /^fetch\.(recursesubmodules|prune|writecommitgraph|parallel)$/,
  /^index\.(sparse|version|threads)$/,
  /^lfs\.[^\n]*(repositoryformatversion|url|locksverify|fetchexclude|fetchinclude)$/,
  /^maintenance\.(auto|strategy)$/,
  /^user\.(name|email|signingkey)$/,
  /^(commit|tag)\.gpgsign$/,
  /^init\.defaultbranch$/,
  /^pull\.(rebase|ff)$/,
  /^push\.(default|autosetupremote)$/,
  /^advice\.[a-z]+$/,
  /^safe\.directory$/,
];

/** What `git lfs install --local` writes: the only filter a workspace may have. */
const LFS_FILTER: Record<string, string> = {
  'filter.lfs.clean': 'git-lfs clean -- %f',
  'filter.lfs.smudge': 'git-lfs smudge -- %f',
  'filter.lfs.process': 'git-lfs filter-process',
  'filter.lfs.required': 'true',
};

/** actions/checkout v5+'s credential include: `includeIf.gitdir:<gitdir>.path = <temp>/git-credentials-<uuid>.config`. */
const CHECKOUT_INCLUDE_KEY = /^includeif\.gitdir:[^\n]+\.path$/;
const CHECKOUT_INCLUDE_FILE = /\/git-credentials-[0-9a-f-]{36}\.config$/;

/** The hooks `git lfs install` writes; nothing else may be a hook in the workspace. */
const LFS_HOOK =
  /^#!\/bin\/sh\ncommand -v git-lfs >\/dev\/null 2>&1 \|\| \{[^\n]*\}\ngit lfs (pre-push|post-checkout|post-commit|post-merge) "\$@"\n?$/;

/** The entries of a config that actions/checkout would not have written. Pure. */
export function unexpectedConfig(entries: readonly ConfigEntry[]): string[] {
  const out: string[] = [];
  for (const { key, value } of entries) {
    const lower = canonicalKey(key);
    if (LFS_FILTER[lower] !== undefined && LFS_FILTER[lower] === value) continue;
    if (CHECKOUT_INCLUDE_KEY.test(lower) && value !== null && CHECKOUT_INCLUDE_FILE.test(value)) continue;
    if (ALLOWED_KEYS.some((re) => re.test(lower))) continue;
    if (!out.includes(key)) out.push(key);
  }
  return out;
}

/** Section and variable lower-cased, the subsection kept (git's own canonical form already is). */
function canonicalKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first === -1) return key.toLowerCase();
  if (first === last) return key.toLowerCase();
  return `${key.slice(0, first).toLowerCase()}${key.slice(first, last)}${key.slice(last).toLowerCase()}`;
}

/**
 * Reads one file of the workspace's `.git` as data: no link followed (O_NOFOLLOW; the `.git` directory itself was
 * checked with lstat), a regular file, size-bounded. Undefined when it does not exist.
 */
async function readGitFile(path: string, maxBytes: number): Promise<Buffer | undefined> {
  let fh;
  try {
    fh = await open(path, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new Refusal(`${path} is a symbolic link`);
    throw e;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new Refusal(`${path} is not a regular file`);
    if (st.size > maxBytes) throw new Refusal(`${path} is larger than ${maxBytes} bytes`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

class Refusal extends Error {}

/** Parses config bytes with git, outside any repository (`--file` reads that file alone, includes not followed). */
async function parseConfigBytes(bytes: Buffer, scratch: string): Promise<ConfigEntry[]> {
  const file = join(scratch, `config-${randomBytes(4).toString('hex')}`);
  await writeFile(file, bytes, { mode: 0o600 });
  try {
    const r = await Git.create(scratch, ownRepoEnv()).run(
      ['config', '--file', file, '--no-includes', '--list', '-z'],
      {
        allowAllExitCodes: true,
      },
    );
    if (r.exitCode !== 0)
      throw new Refusal(`its config does not parse (${r.stderr.trim().split('\n')[0] ?? ''})`);
    return parseConfigList(r.stdout);
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * Checks a git directory as data: its config holds only what actions/checkout writes, it points nowhere else
 * (worktree config, a common dir, alternates), has no linked worktree or submodule, and no hook but LFS's. Returns
 * what the workspace's snapshot keeps; throws a Refusal naming the first thing found.
 */
async function checkGitDir(
  gitDir: string,
  scratch: string,
  configOptional = false,
): Promise<{ configBytes: Buffer; entries: ConfigEntry[]; hooks: Map<string, Buffer> }> {
  const read = await readGitFile(join(gitDir, 'config'), MAX_CONFIG_BYTES);
  if (!read && !configOptional) throw new Refusal('.git/config is missing');
  const configBytes = read ?? Buffer.alloc(0);
  const entries = read ? await parseConfigBytes(read, scratch) : [];
  const unexpected = unexpectedConfig(entries);
  if (unexpected.length > 0) {
    const shown = unexpected.slice(0, 5).map((k) => `'${k}'`);
    throw new Refusal(
      `.git/config sets ${shown.join(', ')}${unexpected.length > 5 ? ` and ${unexpected.length - 5} more` : ''}, which actions/checkout does not write (perhaps left by an earlier run)`,
    );
  }
  for (const name of [
    'config.worktree',
    'commondir',
    'gitdir',
    'objects/info/alternates',
    'objects/info/http-alternates',
  ]) {
    if ((await lstat(join(gitDir, name)).catch(() => undefined)) !== undefined) {
      throw new Refusal(`.git/${name} exists`);
    }
  }
  for (const dir of ['worktrees', 'modules']) {
    const entriesIn = await readdir(join(gitDir, dir)).catch(() => [] as string[]);
    if (entriesIn.length > 0) throw new Refusal(`.git/${dir}/ is not empty (linked worktrees or submodules)`);
  }
  const hooks = new Map<string, Buffer>();
  for (const name of await readdir(join(gitDir, 'hooks')).catch(() => [] as string[])) {
    if (name.endsWith('.sample')) continue;
    const hook = await readGitFile(join(gitDir, 'hooks', name), MAX_HOOK_BYTES).catch((e: unknown) => {
      if (e instanceof Refusal) throw new Refusal(`.git/hooks/${name} is not a regular file`);
      throw e;
    });
    if (!hook || !LFS_HOOK.test(hook.toString('utf8'))) throw new Refusal(`.git/hooks/${name} is a hook`);
    hooks.set(name, hook);
  }
  return { configBytes, entries, hooks };
}

/** In a snapshot: the nested repositories kept if unchanged, and every one there was (nested-repos.ts). */
const NESTED_FILE = 'nested.json';

const FIX =
  'gemini-run does not run git in a workspace it cannot trust: start from a fresh checkout (delete the workspace, or actions/checkout into a clean directory)';

/**
 * Checks the workspace's `.git` as data before any git command runs in it, and saves what the rebuild after the
 * run puts back (`config` bytes, LFS hooks, `info/exclude` and `info/attributes`) into `snapshotDir` (created 0700).
 * Throws a UserError naming what it found when the `.git` holds anything actions/checkout does not write.
 */
export async function inspectWorkspace(worktree: string, snapshotDir: string): Promise<WorkspaceSnapshot> {
  const gitDir = join(worktree, '.git');
  await mkdir(snapshotDir, { recursive: true, mode: 0o700 });
  await chmod(snapshotDir, 0o700);
  try {
    const st = await lstat(gitDir).catch(() => undefined);
    if (!st)
      throw new UserError(
        `The workspace ${worktree} is not a git checkout (no .git): run actions/checkout first.`,
      );
    if (st.isSymbolicLink()) throw new Refusal('.git is a symbolic link');
    if (st.isFile())
      throw new Refusal('.git is a file pointing elsewhere (a linked worktree or a submodule)');
    if (!st.isDirectory()) throw new Refusal('.git is not a directory');
    const selfUid = process.getuid?.() ?? 0;
    if (st.uid !== selfUid) throw new Refusal(`.git belongs to uid ${st.uid}, not to this job's user`);

    const { configBytes, entries, hooks } = await checkGitDir(gitDir, snapshotDir);
    await mkdir(join(snapshotDir, 'hooks'), { mode: 0o700 });
    for (const [name, hook] of hooks)
      await writeFile(join(snapshotDir, 'hooks', name), hook, { mode: 0o755 });
    await mkdir(join(snapshotDir, 'info'), { mode: 0o700 });
    for (const name of ['exclude', 'attributes', 'sparse-checkout']) {
      const data = await readGitFile(join(gitDir, 'info', name), MAX_CONFIG_BYTES);
      if (data) await writeFile(join(snapshotDir, 'info', name), data, { mode: 0o644 });
    }
    await writeFile(join(snapshotDir, 'config'), configBytes, { mode: 0o644 });
    // The repositories nested in the worktree now (a second checkout of an earlier step): those as safe as this
    // one stay after the run if the agent left them as they were (nested-repos.ts).
    const nested = await recordNestedRepositories(worktree, async (dir, shaped) => {
      try {
        await checkGitDir(dir, snapshotDir, shaped);
        return true;
      } catch (e) {
        if (e instanceof Refusal) return false;
        throw e;
      }
    });
    await writeFile(join(snapshotDir, NESTED_FILE), JSON.stringify(nested), { mode: 0o600 });
    const format = entries.find((e) => e.key.toLowerCase() === 'extensions.objectformat')?.value;
    return {
      version: 1,
      worktree,
      dir: snapshotDir,
      objectFormat: format?.toLowerCase() === 'sha256' ? 'sha256' : 'sha1',
    };
  } catch (e) {
    if (e instanceof Refusal) throw new UserError(`The workspace's ${e.message}: ${FIX}.`);
    throw e;
  }
}

/** The nested repositories inspectWorkspace recorded (the action's own 0700 file); none in an older snapshot. */
async function nestedRecord(snapshot: WorkspaceSnapshot): Promise<NestedRecord | undefined> {
  return readFile(join(snapshot.dir, NESTED_FILE), 'utf8')
    .then((t) => nestedRecordSchema.parse(JSON.parse(t)))
    .catch(() => undefined);
}

/**
 * Moves every credential a checkout persisted in the workspace out of the agent's reach until
 * restoreCheckoutCredentials: the workspace's own, and those of the repositories nested in it that inspectWorkspace
 * recorded (a second actions/checkout into `path: tools`). A nested repository it changed may be kept after the run
 * as it left it. Before the agent starts.
 */
export async function isolateWorkspaceCredentials(
  snapshot: WorkspaceSnapshot,
  stashDir: string,
): Promise<SavedCredentials> {
  const record = await nestedRecord(snapshot);
  const saved = await isolateCheckoutCredentials(snapshot.worktree, { stashDir, nested: record?.seen ?? [] });
  if (record && saved.nested.length > 0) {
    const changed = saved.nested.map((n) => n.gitDir);
    const updated = await keepAsNow(snapshot.worktree, record, changed);
    await writeFile(join(snapshot.dir, NESTED_FILE), JSON.stringify(updated), { mode: 0o600 });
  }
  return saved;
}

/**
 * A new .git for the workspace, in place of whatever the agent left there: made from the snapshot taken before the
 * run (config, hooks, info) and the vault's objects. Returns its path.
 */
async function freshGitDir(
  snapshot: WorkspaceSnapshot,
  vault: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const gitDir = join(snapshot.worktree, '.git');
  // rename never follows a link: whatever the agent left at .git (a directory, a file, a symlink) goes whole.
  const old = join(snapshot.worktree, `.git.gemini-run-old-${randomBytes(4).toString('hex')}`);
  await rename(gitDir, old).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await rm(old, { recursive: true, force: true });

  const emptyTemplate = join(snapshot.dir, 'empty-template');
  await mkdir(emptyTemplate, { recursive: true, mode: 0o700 });
  await Git.create(snapshot.dir, env).run([
    'init',
    '--quiet',
    '--bare',
    `--template=${emptyTemplate}`,
    `--object-format=${snapshot.objectFormat}`,
    gitDir,
  ]);
  await copyFile(join(snapshot.dir, 'config'), join(gitDir, 'config'));
  for (const sub of ['hooks', 'info'] as const) {
    await mkdir(join(gitDir, sub), { recursive: true });
    for (const name of await readdir(join(snapshot.dir, sub)).catch(() => [] as string[])) {
      await copyFile(join(snapshot.dir, sub, name), join(gitDir, sub, name));
      if (sub === 'hooks') await chmod(join(gitDir, sub, name), 0o755);
    }
  }
  await copyObjectStore(join(vault, 'objects'), join(gitDir, 'objects'));
  await copyFile(join(vault, 'shallow'), join(gitDir, 'shallow')).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  return gitDir;
}

/**
 * Throws the agent's `.git` away and makes a new one from the snapshot and the vault (the action's own repository,
 * whose refs are the pre-run refs with the run branch at the run's head). HEAD is the vault's; the index is rebuilt
 * from HEAD, the working tree is left as the agent left it. Run only after every process of the agent has ended.
 * Idempotent: it can run again from the post step.
 */
export async function rebuildWorkspaceGit(o: {
  snapshot: WorkspaceSnapshot;
  vault: string;
}): Promise<NestedRepoReport> {
  const { snapshot } = o;
  const env = ownRepoEnv();
  const gitDir = await freshGitDir(snapshot, o.vault, env);
  // The vault is ours: its refs and HEAD are read with git there, and written here with git on a .git we just made.
  const vault = Git.create(o.vault, env);
  const refs = await vault.output([
    'for-each-ref',
    '--format=%(objectname) %(refname)',
    'refs/heads',
    'refs/remotes',
    'refs/tags',
  ]);
  const head = await vault.output(['symbolic-ref', '--quiet', 'HEAD'], { allowAllExitCodes: true });
  const repo = Git.create(snapshot.worktree, env);
  const bound = [
    '--git-dir',
    gitDir,
    '--work-tree',
    snapshot.worktree,
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'core.fsmonitor=false',
  ];
  const updates = refs
    .split('\n')
    .filter((l) => /^[0-9a-f]{40,64} refs\//.test(l))
    .map((l) => {
      const [sha, ref] = [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)];
      return `update ${ref} ${sha}\n`;
    })
    .join('');
  if (updates) await repo.run([...bound, 'update-ref', '--stdin'], { input: updates });
  if (/^refs\/heads\/\S+$/.test(head)) await repo.run([...bound, 'symbolic-ref', 'HEAD', head]);
  else {
    const sha = await vault.output(['rev-parse', '--verify', 'HEAD^{commit}']);
    await repo.run([...bound, 'update-ref', '--no-deref', 'HEAD', sha]);
  }
  await repo.run([...bound, 'reset', '--quiet', '--mixed'], { allowAllExitCodes: true });
  // What the run's tree tracks, from the index just made: git reads only our own .git for this.
  const listed = await repo.run([...bound, 'ls-files', '-z'], { allowAllExitCodes: true });
  const tracked = new Set(listed.stdout.split('\0').filter((p) => p !== ''));
  // None (an older snapshot): nothing is kept.
  return removeNestedRepositories(snapshot.worktree, tracked, await nestedRecord(snapshot));
}
