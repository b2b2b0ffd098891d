import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isolateCheckoutCredentials,
  parseConfigList,
  parseSavedCredentials,
  restoreCheckoutCredentials,
} from '../../src/git/credentials.js';
import { Git } from '../../src/git/git.js';
import { createVault } from '../../src/git/vault.js';
import {
  inspectWorkspace,
  isolateWorkspaceCredentials,
  rebuildWorkspaceGit,
} from '../../src/git/workspace.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const TOKEN = 'ghs_FAKEtoken1234567890abcdefghijklmnop';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');
const HEADER = `AUTHORIZATION: basic ${BASIC}`;

/** Every file under dir, recursively, as text. */
async function allText(dir: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'latin1');
  }
  return text;
}

describe('checkout credential isolation', () => {
  let root: string;
  let work: string;
  let runnerTemp: string;
  let git: Git;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'git-creds-'));
    work = join(root, 'workspace', 'repo');
    runnerTemp = join(root, '_temp');
    await mkdir(work, { recursive: true });
    await mkdir(runnerTemp);
    git = Git.create(work, ENV);
    await git.run(['init', '-q', '-b', 'main']);
    await git.run(['config', 'gc.auto', '0']);
    await git.run(['config', 'user.name', 'T']);
    await git.run(['config', 'user.email', 't@example.com']);
    await git.run(['remote', 'add', 'origin', 'https://github.com/o/r']);
    await git.run(['commit', '-q', '--allow-empty', '-m', 'init']);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function effectiveConfig(dir = work): Promise<string> {
    return (await Git.create(dir, ENV).run(['config', '--list', '--show-origin'])).stdout;
  }
  async function localConfigSorted(): Promise<string[]> {
    return parseConfigList((await git.run(['config', '--local', '--list', '-z'])).stdout)
      .map((e) => `${e.key}=${e.value ?? ''}`)
      .sort();
  }

  it('removes and restores the checkout v4 extraheader and credential helpers', async () => {
    await git.run(['config', '--local', 'http.https://github.com/.extraheader', HEADER]);
    await git.run(['config', '--local', '--add', 'credential.helper', '']);
    await git.run(['config', '--local', '--add', 'credential.helper', 'store --file=/tmp/never']);
    await git.run(['config', '--local', 'core.sshCommand', 'ssh -i /tmp/key']);
    expect(await effectiveConfig()).toContain(BASIC); // the fixture really holds the token
    const before = await localConfigSorted();

    const saved = await isolateCheckoutCredentials(work, { stashDir: join(runnerTemp, 'stash') });

    expect(await effectiveConfig()).not.toContain(BASIC);
    expect(await effectiveConfig()).not.toMatch(/credential\.helper|sshcommand/i);
    expect(await allText(work)).not.toContain(BASIC);
    expect(saved.removedKeys.sort()).toEqual(
      ['core.sshcommand', 'credential.helper', 'http.https://github.com/.extraheader'].sort(),
    );
    // The state is not secret: it only says where things went.
    const state = JSON.stringify(saved);
    expect(state).not.toContain(BASIC);
    expect(state).not.toContain(TOKEN);
    expect(((await stat(saved.stashDir)).mode & 0o777).toString(8)).toBe('700');
    expect(((await stat(saved.entriesFile ?? '')).mode & 0o777).toString(8)).toBe('600');
    // The rest of the config is untouched.
    expect(await git.output(['config', 'remote.origin.url'])).toBe('https://github.com/o/r');

    await restoreCheckoutCredentials(work, parseSavedCredentials(state));
    expect(await localConfigSorted()).toEqual(before);
    expect(await git.output(['config', '--get-all', 'credential.helper'])).toBe('\nstore --file=/tmp/never');
    await expect(stat(saved.stashDir)).rejects.toThrow();
    // A second restore (post step after main already restored) changes nothing.
    await restoreCheckoutCredentials(work, saved);
    expect(await localConfigSorted()).toEqual(before);
  });

  it('removes and restores the checkout v5/v6 includeIf credentials file', async () => {
    const credFile = join(runnerTemp, `git-credentials-${randomUUID()}.config`);
    await git.run(['config', '--file', credFile, 'http.https://github.com/.extraheader', HEADER]);
    const credText = await readFile(credFile, 'utf8');
    const gitDir = join(work, '.git');
    const container = `/github/runner_temp/${credFile.split('/').at(-1)}`;
    await git.run(['config', '--local', `includeIf.gitdir:${gitDir}.path`, credFile]);
    await git.run(['config', '--local', `includeIf.gitdir:${gitDir}/worktrees/*.path`, credFile]);
    await git.run(['config', '--local', 'includeIf.gitdir:/github/workspace/.git.path', container]);
    await git.run([
      'config',
      '--local',
      'includeIf.gitdir:/github/workspace/.git/worktrees/*.path',
      container,
    ]);
    // An unrelated include must survive.
    const other = join(root, 'other.config');
    await writeFile(other, '[alias]\n\tst = status\n');
    await git.run(['config', '--local', 'include.path', other]);
    // A linked worktree sees the credential through the worktrees/* include.
    const linked = join(root, 'linked');
    await git.run(['worktree', 'add', '-q', '-b', 'agent', linked]);
    expect(await effectiveConfig()).toContain(BASIC);
    expect(await effectiveConfig(linked)).toContain(BASIC);
    const before = await localConfigSorted();

    const saved = await isolateCheckoutCredentials(linked, { stashDir: join(runnerTemp, 'stash') });

    for (const dir of [work, linked]) {
      const cfg = await effectiveConfig(dir);
      expect(cfg).not.toContain(BASIC);
      expect(cfg).not.toContain('git-credentials-');
      expect(cfg).toContain('alias.st=status');
    }
    expect(await allText(work)).not.toContain(BASIC);
    expect(await allText(linked)).not.toContain(BASIC);
    await expect(stat(credFile)).rejects.toThrow(); // not left where its name gives it away
    expect(saved.includes).toHaveLength(4);
    expect(saved.files).toEqual([
      { original: credFile, stashed: expect.stringContaining(join(runnerTemp, 'stash')) },
    ]);
    expect(JSON.stringify(saved)).not.toContain(BASIC);

    await restoreCheckoutCredentials(work, JSON.parse(JSON.stringify(saved)));
    expect(await localConfigSorted()).toEqual(before);
    expect(await readFile(credFile, 'utf8')).toBe(credText);
    expect(await effectiveConfig(linked)).toContain(BASIC);
  });

  it('moves the credentials of second checkouts inside the workspace out too, and gives them back where the run left the checkout alone', async () => {
    // The workspace's own checkout (v4), and second checkouts earlier steps made inside it, each with a token of its
    // own: `tools` by v4 (the header in its config), `vendor` by v5 (includeIf, host and container paths, to a file
    // of its own in RUNNER_TEMP), `mirror.git` a bare clone with the header, `changed` one the agent will alter.
    const basics = ['tools', 'vendor', 'mirror', 'changed'].map((n) =>
      Buffer.from(`x-access-token:ghs_${n}${'x'.repeat(30)}`).toString('base64'),
    );
    const [tools, vendor, mirror, changed] = basics as [string, string, string, string];
    const headerOf = (basic: string) => `AUTHORIZATION: basic ${basic}`;
    await git.run(['config', '--local', 'http.https://github.com/.extraheader', HEADER]);
    const nested = async (name: string, bare = false) => {
      await git.run(['init', '-q', ...(bare ? ['--bare'] : []), join(work, name)]);
      return Git.create(join(work, name), ENV);
    };
    const extraheader = 'http.https://github.com/.extraheader';
    await (await nested('tools')).run(['config', extraheader, headerOf(tools)]);
    await (await nested('mirror.git', true)).run(['config', extraheader, headerOf(mirror)]);
    await (await nested('changed')).run(['config', extraheader, headerOf(changed)]);
    const vendorGit = await nested('vendor');
    const credFile = join(runnerTemp, `git-credentials-${randomUUID()}.config`);
    await vendorGit.run(['config', '--file', credFile, extraheader, headerOf(vendor)]);
    const credText = await readFile(credFile, 'utf8');
    const container = `/github/runner_temp/${credFile.split('/').at(-1)}`;
    for (const [dir, file] of [
      [join(work, 'vendor', '.git'), credFile],
      [join(work, 'vendor', '.git', 'worktrees', '*'), credFile],
      ['/github/workspace/vendor/.git', container],
      ['/github/workspace/vendor/.git/worktrees/*', container],
    ] as const)
      await vendorGit.run(['config', '--add', `includeIf.gitdir:${dir}.path`, file]);
    const kept = ['mirror.git', 'tools/.git', 'vendor/.git'];
    /** The kept checkouts' config files as one string, compared as a boolean (a failing diff would print a token). */
    const keptConfigs = async () =>
      JSON.stringify(await Promise.all(kept.map((d) => readFile(join(work, d, 'config'), 'utf8'))));
    const before = await keptConfigs();
    for (const dir of ['tools', 'vendor'])
      expect(await effectiveConfig(join(work, dir))).toMatch(/extraheader/);

    const run = join(root, 'run');
    const snapshot = await inspectWorkspace(work, join(run, 'workspace-git'));
    const vault = await createVault({ worktree: work, dir: join(run, 'vault.git'), objectFormat: 'sha1' });
    const saved = await isolateWorkspaceCredentials(snapshot, join(run, 'credentials'));

    // Nothing the agent can read holds a token: not the worktree, nor RUNNER_TEMP.
    const readable = (await allText(work)) + (await allText(runnerTemp));
    for (const basic of [BASIC, ...basics])
      expect(readable.includes(basic), 'a token is left where the agent reads').toBe(false);
    for (const dir of ['tools', 'vendor'])
      expect(await effectiveConfig(join(work, dir))).not.toMatch(/extraheader/);
    await expect(stat(credFile)).rejects.toThrow();
    expect(saved.nested.map((n) => n.gitDir).sort()).toEqual(['changed/.git', ...kept]);
    expect(saved.nested.find((n) => n.gitDir === 'vendor/.git')?.removedKeys).toHaveLength(4);
    const state = JSON.stringify(saved);
    for (const basic of [BASIC, ...basics])
      expect(state.includes(basic), 'the saved state holds a token').toBe(false);

    // The agent alters one of them; after the run the rebuild keeps the others as the action left them.
    await Git.create(join(work, 'changed'), ENV).run(['config', 'core.fsmonitor', 'false']);
    const report = await rebuildWorkspaceGit({ snapshot, vault: vault.dir });
    expect(report.kept).toEqual(kept);
    expect(report.removed).toEqual(['changed/.git']);
    await restoreCheckoutCredentials(work, parseSavedCredentials(state), new Set(report.kept));

    expect((await keptConfigs()) === before, 'the kept checkouts have their configs back').toBe(true);
    expect(await readFile(credFile, 'utf8')).toBe(credText);
    expect((await effectiveConfig(join(work, 'vendor'))).includes(vendor), 'vendor reads it again').toBe(
      true,
    );
    expect((await effectiveConfig()).includes(BASIC), 'the workspace has its own back').toBe(true);
    // The altered checkout went whole, and its token with the stash: it is left nowhere.
    await expect(stat(saved.stashDir)).rejects.toThrow();
    expect((await allText(root)).includes(changed), 'the altered checkout left its token').toBe(false);

    // A post step after a main step that put them back and died: the checkouts are kept again, as they are.
    const again = await rebuildWorkspaceGit({ snapshot, vault: vault.dir });
    expect(again.kept).toEqual(kept);
    await restoreCheckoutCredentials(work, saved, new Set(again.kept));
    expect((await keptConfigs()) === before, 'and keep them').toBe(true);
  });

  it('does nothing harmful on a repository without persisted credentials', async () => {
    const before = await localConfigSorted();
    const saved = await isolateCheckoutCredentials(work);
    expect(saved.removedKeys).toEqual([]);
    expect(saved.files).toEqual([]);
    await restoreCheckoutCredentials(work, saved);
    expect(await localConfigSorted()).toEqual(before);
    expect(() => parseSavedCredentials('{"version":2}')).toThrow();
  });
});
