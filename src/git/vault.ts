/**
 * The vault: the action's own bare repository for one run, in its private run directory. Everything privileged
 * that happens to the agent's commits (listing, scrubbing, diffing, bundling, pushing) happens here, never in the
 * repository the agent could write.
 *
 * Before the run it gets a copy of the workspace's objects (files copied as data: no git runs in the workspace for
 * it, and no link is followed) and the workspace's refs. After the run the agent's commits arrive as a git bundle
 * the agent's own user wrote (src/git/export.ts): the bundle is fetched here with every object checked
 * (`transfer.fsckObjects`), so what crosses the boundary is data, and the only config git reads is the one it
 * wrote itself at `git init`.
 */
import { constants as fsConstants } from 'node:fs';
import { copyFile, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Git, ownRepoEnv } from './git.js';

const PACK_FILE = /^pack-[0-9a-f]{40,64}\.(pack|idx|rev|mtimes|promisor|keep)$/;
const LOOSE_DIR = /^[0-9a-f]{2}$/;
const LOOSE_FILE = /^[0-9a-f]{38}([0-9a-f]{24})?$/;

/**
 * Copies an object store's packs and loose objects (regular files only, names git would write, no link followed,
 * no `info/alternates`): a reflink where the filesystem has them, else a copy. The destination must exist.
 */
export async function copyObjectStore(from: string, to: string): Promise<number> {
  let copied = 0;
  const copy = async (src: string, dst: string) => {
    const st = await lstat(src).catch(() => undefined);
    if (!st?.isFile()) return;
    await copyFile(src, dst, fsConstants.COPYFILE_FICLONE);
    copied++;
  };
  const top = await lstat(from).catch(() => undefined);
  if (!top?.isDirectory()) return 0;
  await mkdir(join(to, 'pack'), { recursive: true });
  for (const name of await readdir(join(from, 'pack')).catch(() => [] as string[])) {
    if (PACK_FILE.test(name)) await copy(join(from, 'pack', name), join(to, 'pack', name));
  }
  for (const dir of await readdir(from)) {
    if (!LOOSE_DIR.test(dir)) continue;
    const st = await lstat(join(from, dir));
    if (!st.isDirectory()) continue;
    const names = (await readdir(join(from, dir))).filter((n) => LOOSE_FILE.test(n));
    if (names.length === 0) continue;
    await mkdir(join(to, dir), { recursive: true });
    for (const name of names) await copy(join(from, dir, name), join(to, dir, name));
  }
  return copied;
}

export interface Vault {
  /** The bare repository's directory. */
  readonly dir: string;
  /** The ref of the run branch in the vault (HEAD points at it). */
  readonly branchRef: string;
  readonly git: Git;
}

/**
 * Makes the vault from the workspace before the agent starts: its objects copied as data, its refs and HEAD as
 * `git for-each-ref` shows them (the workspace was inspected as data first: src/git/workspace.ts).
 */
export async function createVault(o: {
  worktree: string;
  dir: string;
  objectFormat: 'sha1' | 'sha256';
}): Promise<Vault> {
  await mkdir(o.dir, { recursive: true, mode: 0o700 });
  const env = ownRepoEnv();
  const template = join(o.dir, '..', 'vault-template');
  await mkdir(template, { recursive: true, mode: 0o700 });
  const git = Git.create(o.dir, env);
  await git.run([
    'init',
    '--quiet',
    '--bare',
    `--template=${template}`,
    `--object-format=${o.objectFormat}`,
    o.dir,
  ]);
  const gitDir = join(o.worktree, '.git');
  await copyObjectStore(join(gitDir, 'objects'), join(o.dir, 'objects'));
  const shallow = await lstat(join(gitDir, 'shallow')).catch(() => undefined);
  if (shallow?.isFile()) await copyFile(join(gitDir, 'shallow'), join(o.dir, 'shallow'));

  const work = Git.forUntrusted(o.worktree);
  const refs = await work.output(['for-each-ref', '--format=%(objectname) %(refname)']);
  const updates = refs
    .split('\n')
    .filter((l) => /^[0-9a-f]{40,64} refs\/(heads|remotes|tags)\/\S+$/.test(l))
    .map((l) => `update ${l.slice(l.indexOf(' ') + 1)} ${l.slice(0, l.indexOf(' '))}\n`)
    .join('');
  if (updates) await git.run(['update-ref', '--stdin'], { input: updates });
  const headRef = await work.headRef();
  if (!headRef) throw new Error('the workspace is not on a branch');
  await git.run(['symbolic-ref', 'HEAD', headRef]);
  return { dir: o.dir, branchRef: headRef, git };
}

/**
 * Fetches the run's head from a bundle the agent's user wrote (already copied out of the agent's reach) into the
 * vault, every object checked, and moves the run branch there. Returns the new head.
 */
export async function importBundle(vault: Vault, bundle: string): Promise<string> {
  const tmpRef = 'refs/gemini-run/imported';
  await vault.git.run(
    [
      '-c',
      'transfer.fsckObjects=true',
      'fetch',
      '--quiet',
      '--no-tags',
      '--no-write-fetch-head',
      '--no-recurse-submodules',
      bundle,
      `+HEAD:${tmpRef}`,
    ],
    { timeoutMs: 10 * 60_000 },
  );
  const head = await vault.git.revParse(tmpRef);
  await vault.git.run(['update-ref', vault.branchRef, head]);
  await vault.git.run(['update-ref', '-d', tmpRef]);
  return head;
}
