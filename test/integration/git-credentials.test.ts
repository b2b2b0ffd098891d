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
