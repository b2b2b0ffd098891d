/**
 * Settling the run's commits before the push (their messages neutralised, their identity set) can fail; then the
 * commits as the agent left them must not reach the remote: they go into the bundle and the issue is told.
 */
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishWork, settleCommits } from '../../src/action/publish.js';
import { Git } from '../../src/git/git.js';
import { createMemoryLogger } from '../../src/util/log.js';

const ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

describe('a run whose commits cannot be settled', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'publish-settle-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('pushes nothing: the commits go to the bundle, and the problem says why', async () => {
    const repo = join(dir, 'vault');
    await mkdir(repo);
    const git = Git.create(repo, ENV);
    await git.run(['init', '-q', '-b', 'gemini-run/issue-1']);
    const commit = async (file: string, message: string) => {
      await writeFile(join(repo, file), `${file}\n`);
      await git.run(['add', file]);
      await git.run(['-c', 'user.name=A', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', message]);
      return git.headSha();
    };
    const base = await commit('base.md', 'Base');
    await commit('work.md', 'Fixes #9 [skip ci]');
    const log = createMemoryLogger();

    const settled = await settleCommits({
      repo,
      baseSha: base,
      known: [],
      scrub: () => {
        throw new Error('the neutraliser broke');
      },
      log,
    });
    expect(settled.unsettled).toBe('the neutraliser broke');
    expect(settled.commits.map((c) => c.subject)).toEqual(['Fixes #9 [skip ci]']);

    const unreachable = () => {
      throw new Error('nothing may be pushed or asked of GitHub');
    };
    const outcome = await publishWork({
      client: new Proxy({}, { get: unreachable }) as never,
      repo: { owner: 'acme', repo: 'widgets' },
      serverUrl: 'https://github.com',
      repoDir: repo,
      originUrl: join(dir, 'no-such-origin.git'),
      token: 't',
      plan: { branch: 'gemini-run/issue-1', base: 'main' },
      startTip: null,
      known: [base],
      unsettled: settled.unsettled,
      divertBranch: 'gemini-run/issue-1-run-1',
      outDir: await mkdtemp(join(dir, 'out-')),
      artifactName: 'gemini-run-1-1',
      pullSpec: unreachable,
      log,
    });
    expect(outcome.pushedTo).toBeUndefined();
    expect(outcome.bundle).toMatch(/gemini-run\.bundle$/);
    expect((await stat(outcome.bundle!)).size).toBeGreaterThan(0);
    expect(outcome.problem?.headline).toBe(
      "the run's commits could not be rewritten before the push (the neutraliser broke); nothing was pushed",
    );
    expect(outcome.problem?.todo).toContain('`gemini-run-1-1` as `gemini-run.bundle`');
  });
});
