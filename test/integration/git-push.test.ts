import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Git } from '../../src/git/git.js';
import { fetchBranch } from '../../src/git/fetch.js';
import { buildPushConfigEnv, httpOrigin, listRemoteRefs, pushBranch } from '../../src/git/push.js';
import { exec } from '../../src/util/exec.js';

const TOKEN = 'ghs_PUSHtoken0987654321zyxwvutsrqponm';
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

describe('buildPushConfigEnv', () => {
  it('scopes the auth header to the URL origin and disables helpers and hooks', () => {
    const env = buildPushConfigEnv('https://user:pw@github.com/owner/repo.git', TOKEN);
    expect(env).toEqual({
      GIT_CONFIG_COUNT: '4',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: '/dev/null',
      GIT_CONFIG_KEY_1: 'credential.helper',
      GIT_CONFIG_VALUE_1: '',
      GIT_CONFIG_KEY_2: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_2: '',
      GIT_CONFIG_KEY_3: 'http.https://github.com/.extraheader',
      GIT_CONFIG_VALUE_3: `AUTHORIZATION: basic ${BASIC}`,
    });
    expect(
      Object.entries(env)
        .filter(([k]) => k.startsWith('GIT_CONFIG_KEY'))
        .join(),
    ).not.toContain(TOKEN);
  });
  it('adds no header without a token or for non-http transports', () => {
    expect(buildPushConfigEnv('https://github.com/o/r').GIT_CONFIG_COUNT).toBe('2');
    expect(buildPushConfigEnv('file:///tmp/o.git', TOKEN).GIT_CONFIG_COUNT).toBe('2');
    expect(buildPushConfigEnv('git@github.com:o/r.git', TOKEN).GIT_CONFIG_COUNT).toBe('2');
    expect(httpOrigin('http://127.0.0.1:8080/a/b')).toBe('http://127.0.0.1:8080');
    expect(httpOrigin('not a url')).toBeUndefined();
  });
});

describe('pushBranch against real remotes', () => {
  let root: string;
  let work: string;
  let origin: string;
  let git: Git;
  let argvLog: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'git-push-'));
    work = join(root, 'work');
    origin = join(root, 'origin.git');
    await mkdir(work);
    vi.stubEnv('GIT_CONFIG_GLOBAL', '/dev/null');
    vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
    // A git in front of the real one records every argv and environment our code hands it.
    const realGit = (await exec('sh', ['-c', 'command -v git'])).stdout.trim();
    const bin = join(root, 'bin');
    argvLog = join(root, 'argv.log');
    await mkdir(bin);
    await writeFile(
      join(bin, 'git'),
      `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec '${realGit}' "$@"\n`,
    );
    await chmod(join(bin, 'git'), 0o755);
    vi.stubEnv('PATH', `${bin}:${process.env.PATH ?? ''}`);
    vi.stubEnv('TMPDIR', join(root, 'tmp'));
    await mkdir(join(root, 'tmp'));
    git = Git.create(work);
    await exec('git', ['init', '-q', '--bare', origin]);
    await git.run(['init', '-q', '-b', 'main']);
    await git.run(['config', 'gc.auto', '0']);
    await git.run(['config', 'user.name', 'T']);
    await git.run(['config', 'user.email', 't@example.com']);
    await git.run(['remote', 'add', 'origin', `file://${origin}`]);
    await git.run(['commit', '-q', '--allow-empty', '-m', 'one']);
    await git.run(['push', '-q', 'origin', 'main']);
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(root, { recursive: true, force: true });
  });

  async function remoteSha(branch: string): Promise<string | undefined> {
    return Git.create(origin).tryRevParse(`refs/heads/${branch}`);
  }

  it('pushes, refuses a non-fast-forward, and forces only with a matching lease', async () => {
    await git.run(['commit', '-q', '--allow-empty', '-m', 'two']);
    const two = await git.headSha();
    await pushBranch({ worktree: work, remote: 'origin', branch: 'gemini/issue-1', token: TOKEN });
    expect(await remoteSha('gemini/issue-1')).toBe(two);
    expect(await git.revParse('refs/remotes/origin/gemini/issue-1')).toBe(two);

    await git.run(['commit', '-q', '--amend', '--allow-empty', '-m', 'two, rewritten']);
    const amended = await git.headSha();
    await expect(pushBranch({ worktree: work, remote: 'origin', branch: 'gemini/issue-1' })).rejects.toThrow(
      /gemini\/issue-1.*(rejected|non-fast-forward)/,
    );
    // Null lease = "must not exist": the branch exists, so no force.
    await expect(
      pushBranch({
        worktree: work,
        remote: 'origin',
        branch: 'gemini/issue-1',
        force: { expectedSha: null },
      }),
    ).rejects.toThrow(/stale info|rejected/);
    const head = await git.revParse('HEAD~1');
    await expect(
      pushBranch({
        worktree: work,
        remote: 'origin',
        branch: 'gemini/issue-1',
        force: { expectedSha: head },
      }),
    ).rejects.toThrow(/stale info|rejected/);
    expect(await remoteSha('gemini/issue-1')).toBe(two);
    await pushBranch({
      worktree: work,
      remote: 'origin',
      branch: 'gemini/issue-1',
      force: { expectedSha: two },
    });
    expect(await remoteSha('gemini/issue-1')).toBe(amended);
    await pushBranch({ worktree: work, remote: 'origin', branch: 'fresh', force: { expectedSha: null } });
    expect(await remoteSha('fresh')).toBe(amended);
  });

  it('says why a push was refused, lists the remote heads, and fetches without running the worktree hooks', async () => {
    await git.run(['commit', '-q', '--allow-empty', '-m', 'two']);
    await pushBranch({ worktree: work, remote: 'origin', branch: 'run' });
    await git.run(['commit', '-q', '--amend', '--allow-empty', '-m', 'two, rewritten']);
    await expect(pushBranch({ worktree: work, remote: 'origin', branch: 'run' })).rejects.toMatchObject({
      name: 'PushRejectedError',
      kind: 'moved',
      branch: 'run',
    });
    const refs = await listRemoteRefs({ url: `file://${origin}` });
    expect([...refs.keys()].filter((r) => r.startsWith('refs/heads/')).sort()).toEqual([
      'refs/heads/main',
      'refs/heads/run',
    ]);
    expect(refs.get('refs/heads/main')).toBe(await remoteSha('main'));

    const marker = join(root, 'hook-ran');
    await writeFile(join(work, '.git', 'hooks', 'reference-transaction'), `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(join(work, '.git', 'hooks', 'reference-transaction'), 0o755);
    expect(await fetchBranch({ worktree: work, url: `file://${origin}`, branch: 'run' })).toBe(
      await remoteSha('run'),
    );
    expect(await git.revParse('refs/remotes/origin/run')).toBe(await remoteSha('run'));
    expect(await fetchBranch({ worktree: work, url: `file://${origin}`, branch: 'absent' })).toBeUndefined();
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('ignores what the agent planted in the repository config and hooks', async () => {
    const marker = join(root, 'hook-ran');
    for (const hook of ['pre-push', 'reference-transaction']) {
      await writeFile(join(work, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`);
      await chmod(join(work, '.git', 'hooks', hook), 0o755);
    }
    const decoy = join(root, 'decoy.git');
    await exec('git', ['init', '-q', '--bare', decoy]);
    await git.run(['config', `url.file://${decoy}.insteadOf`, `file://${origin}`]);
    await pushBranch({ worktree: work, remote: 'origin', branch: 'b', url: `file://${origin}` });
    expect(await remoteSha('b')).toBe(await git.headSha());
    expect(await Git.create(decoy).tryRevParse('refs/heads/b')).toBeUndefined();
    expect(await git.revParse('refs/remotes/origin/b')).toBe(await git.headSha());
    await expect(readFile(marker)).rejects.toThrow();
  });

  it('pushes from a shallow clone', async () => {
    await git.run(['commit', '-q', '--allow-empty', '-m', 'two']);
    await git.run(['push', '-q', 'origin', 'main']);
    const shallow = join(root, 'shallow');
    await exec('git', ['clone', '-q', '--depth=1', `file://${origin}`, shallow]);
    const sg = Git.create(shallow);
    await sg.run([
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@e',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'three',
    ]);
    await pushBranch({ worktree: shallow, remote: 'origin', branch: 'from-shallow' });
    expect(await remoteSha('from-shallow')).toBe(await sg.headSha());
  });

  it('sends the token as a header to the http origin only, never in argv or on disk', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      res.statusCode = 403;
      res.end('no');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const error = await pushBranch({
        worktree: work,
        remote: 'origin',
        branch: 'b',
        url: `http://127.0.0.1:${port}/o/r.git`,
        token: TOKEN,
      }).catch((e: unknown) => e);
      expect(String(error)).toMatch(/git push to branch 'b' failed/);
      expect(String(error)).not.toContain(TOKEN);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]?.authorization).toBe(`basic ${BASIC}`);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const argv = await readFile(argvLog, 'utf8');
    expect(argv).toContain('push');
    expect(argv).not.toContain(TOKEN);
    expect(argv).not.toContain(BASIC);
    for (const entry of await readdir(join(work, '.git'), { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        expect(await readFile(join(entry.parentPath, entry.name), 'latin1')).not.toContain(BASIC);
    }
    expect(await readdir(join(root, 'tmp'))).toEqual([]); // the push repository is gone
  });
});
