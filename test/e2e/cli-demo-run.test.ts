/**
 * The README's first command (`gemini-run demo`) and `gemini-run run`, through dist/cli.js as a user runs them.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeGemini } from '../../src/fake/gemini-api.js';
import { exec } from '../../src/util/exec.js';
import { ACTION_NODE, ROOT } from '../harness/action-job.js';
import { GEMINI_LATEST_BIN } from '../harness/gemini-launcher.js';
import { OAuthProxy } from '../harness/oauth-proxy.js';
import { letReach } from '../harness/reach.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';

function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd = ROOT,
  asUser?: { uid: number; gid: number },
): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ACTION_NODE, [join(ROOT, 'dist', 'cli.js'), ...args], {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asUser ? { uid: asUser.uid, gid: asUser.gid } : {}),
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, out, err }));
  });
}

/** A run against the fake Gemini API with an API key (the fake accepts any). */
const apiKeyEnv = (repo: WorkRepo, fake: FakeGemini) => ({
  ...baseEnv(),
  ...repo.env,
  GEMINI_API_KEY: 'fake-key',
  GOOGLE_GEMINI_BASE_URL: fake.url,
  NO_PROXY: '127.0.0.1',
});

const baseEnv = () => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  LANG: 'C.UTF-8',
  CI: 'true',
  GITHUB_ACTIONS: 'true',
});

describe('gemini-run demo', () => {
  it('runs the whole job offline and prints the PR, the scrubbed commits and the summary', async () => {
    const started = Date.now();
    const r = await cli(['demo'], baseEnv());
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('Pull request #2: Add a farewell function');
    expect(r.out).toContain('Closes #1');
    expect(r.out).toContain('Add farewell() beside greet()');
    const commits = r.out.slice(r.out.indexOf('── Commits'), r.out.indexOf('── Summary comment'));
    expect(commits).not.toMatch(/Co-authored-by|Generated with/i);
    expect(r.out).toContain('Gemini run: ✅ finished');
    expect(r.out).toMatch(/status: finished {2}commits: 1/);
    // The tracking comment was seen working, then finished with the PR link.
    expect(r.out).toMatch(/tracking comment v1: \*\*gemini-run\*\* is working/);
    expect(r.out).toMatch(/Tracking comment on issue #1 \((\d+) version/);
    expect(Number(/Tracking comment on issue #1 \((\d+) version/.exec(r.out)?.[1])).toBeGreaterThanOrEqual(2);
    expect(r.out).toMatch(
      /`finished` after .*\n[\s\S]*Pull request: https:\/\/github.com\/octo-org\/hello-world\/pull\/2/,
    );
    expect(r.out).not.toContain('AIzaSy');
    expect(Date.now() - started).toBeLessThan(60_000);
    // It says what is fake, and the artifact it names is there after it exited.
    expect(r.out).toMatch(
      /The GitHub here is a local fake \(http:\/\/127\.0\.0\.1:\d+\), and so is the model/,
    );
    const artifact = /Saved the artifact: (\S+)/.exec(r.out)?.[1];
    expect(artifact, r.out).toBeDefined();
    expect((await readdir(artifact!)).sort()).toEqual(['run-summary.json', 'summary.md', 'transcript.jsonl']);
    await rm(dirname(dirname(dirname(artifact!))), { recursive: true, force: true });
    // Its tool lines are in order: each start (with its target) before its end. Calls of one turn may overlap
    // (start, start, end, end), so each end is matched to an earlier open start of the same tool.
    const tools = r.out.split('\n').filter((l) => /^\s*tool /.test(l));
    expect(tools.length, r.out).toBeGreaterThan(1);
    const open = new Map<string, number>();
    for (const line of tools) {
      const start = /^\s*tool (\S+) \[\w+\]: /.exec(line);
      const end = /^\s*tool (\S+) \[\w+\] (?:ok|FAILED)/.exec(line);
      expect(start ?? end, line).not.toBeNull();
      const name = (start ?? end)![1]!;
      if (start) open.set(name, (open.get(name) ?? 0) + 1);
      else {
        expect(open.get(name) ?? 0, `an end before its start: ${line}\n${r.out}`).toBeGreaterThan(0);
        open.set(name, open.get(name)! - 1);
      }
    }
    expect(
      [...open.values()].every((n) => n === 0),
      `a start without an end:\n${r.out}`,
    ).toBe(true);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'as root the agent has its own user; as a plain user without sudo the demo says so and still runs',
    async () => {
      const root = await cli(['demo', '--mode', 'headless'], baseEnv());
      expect(root.code, root.out + root.err).toBe(0);
      expect(root.out + root.err).toMatch(/The agent runs as gemini-agent-\d+/);

      const name = 'gemini-run-plain';
      if ((await exec('id', ['-u', name], { allowAllExitCodes: true })).exitCode !== 0) {
        await exec('useradd', ['--create-home', '--shell', '/bin/bash', name]);
      }
      const uid = Number((await exec('id', ['-u', name])).stdout.trim());
      const gid = Number((await exec('id', ['-g', name])).stdout.trim());
      const release = await letReach([`u:${uid}`], ROOT);
      const plain = await cli(['demo', '--mode', 'headless'], { ...baseEnv(), HOME: `/home/${name}` }, '/', {
        uid,
        gid,
      }).finally(release);
      expect(plain.code, plain.out + plain.err).toBe(0);
      expect(plain.out + plain.err).toContain('The agent runs as you, not as its own user');
      expect(plain.out).toMatch(/status: finished {2}commits: 1/);
      // The artifacts the demos kept, as they said.
      for (const m of (root.out + plain.out).matchAll(
        /Saved the artifact: (\/tmp\/gemini-run-demo-artifact-[^/\s]+)\//g,
      ))
        await rm(m[1]!, { recursive: true, force: true });
    },
  );

  it('rejects bad usage in one line with exit 2', async () => {
    const r = await cli(['demo', '--mode', 'tui'], baseEnv());
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')[0]).toMatch(/--mode must be interactive or headless/);
  });
});

describe('gemini-run run', () => {
  let repo: WorkRepo | undefined;
  let fake: FakeGemini | undefined;
  afterEach(async () => {
    await fake?.close();
    await repo?.[Symbol.asyncDispose]();
  });

  it('leaves the agent’s scrubbed commits on a new branch of a local repository', async () => {
    repo = await createWorkRepo();
    fake = await FakeGemini.start('edit-and-commit');
    const env = apiKeyEnv(repo, fake);
    const r = await cli(
      ['run', '--repo', repo.dir, '--prompt', 'Add a notes file', '--branch', 'try-1', '--mode', 'headless'],
      env,
    );
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('finished: 1 commit(s) on branch try-1.');
    const log = await exec('git', ['log', '--format=%B', 'main..try-1'], { cwd: repo.dir, env: repo.env });
    expect(log.stdout).toContain('Add NOTES.md');
    expect(log.stdout).not.toMatch(/Co-authored-by/i);
    // The task never went into argv: only the fixed instruction did.
    expect(JSON.stringify(fake.modelRequests()[0]?.body)).toContain('Add a notes file');
  });

  it('offers a skills folder to the agent for the run only', async () => {
    repo = await createWorkRepo();
    fake = await FakeGemini.start('plain-answer');
    const skills = join(repo.dir, '..', 'skills');
    await mkdir(join(skills, 'release-notes'), { recursive: true });
    await writeFile(
      join(skills, 'release-notes', 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes in the house style.\n---\n\nUse short bullet points.\n',
    );
    const env = apiKeyEnv(repo, fake);
    const r = await cli(
      ['run', '--repo', repo.dir, '--prompt', 'Say hi', '--skills', skills, '--mode', 'headless'],
      env,
    );
    expect(r.code, r.out + r.err).toBe(0);
    expect(JSON.stringify(fake.modelRequests()[0]?.body)).toContain('release-notes');
    const status = await exec('git', ['status', '--porcelain', '--ignored'], {
      cwd: repo.dir,
      env: repo.env,
    });
    expect(status.stdout).not.toContain('.gemini');
  });

  it('at the timeout nothing more runs on 0.61.0: the model proxy is fenced, so its auto-nudges get no answer', async () => {
    repo = await createWorkRepo();
    const late = (n: number) => ({
      // Faster than the engine's Escapes: only the fence keeps this from running.
      delayMs: 100,
      functionCalls: [
        {
          name: 'run_shell_command',
          args: { command: `echo late > LATE${n}.md && git add -A && git commit -q -m 'Late ${n}'` },
        },
      ],
    });
    fake = await FakeGemini.start({
      description: 'commits, then hangs; the nudges would be answered with commits',
      steps: [
        {
          functionCalls: [
            {
              name: 'run_shell_command',
              args: { command: "echo partial > PARTIAL.md && git add -A && git commit -q -m 'Partial work'" },
            },
          ],
        },
        { hang: true },
        late(1),
        late(2),
      ],
    });
    const env = apiKeyEnv(repo, fake);
    const args = [
      'run',
      '--repo',
      repo.dir,
      '--prompt',
      'Work',
      '--branch',
      'try-2',
      '--timeout-minutes',
      '0.25',
    ];
    const r = await cli([...args, '--gemini', GEMINI_LATEST_BIN], env);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain('timed-out: 1 commit(s) on branch try-2.');
    const log = await exec('git', ['log', '--format=%s', 'main..try-2'], { cwd: repo.dir, env: repo.env });
    expect(log.stdout.trim()).toBe('Partial work');
    expect(JSON.stringify(fake.modelRequests().map((q) => q.body))).not.toContain(
      'You successfully executed a tool',
    );
  });

  it("with this host's login: the tokens stay in the model proxy, and a refreshed token goes back to the host", async () => {
    repo = await createWorkRepo();
    const google = await OAuthProxy.start({ reply: 'Nothing to change here.' });
    try {
      const host = join(repo.dir, '..', 'host-home');
      const seeded = await google.seedHostLogin(host);
      const env = { ...baseEnv(), ...repo.env, GEMINI_RUN_HOST_HOME: host, ...google.env(), NO_PROXY: '' };
      const r = await cli(
        ['run', '--repo', repo.dir, '--prompt', 'Look', '--mode', 'headless', '--model', 'gemini-2.5-flash'],
        env,
      );
      expect(r.code, r.out + r.err).toBe(0);
      expect(r.out).toContain('The OAuth tokens stay in the model proxy');
      const after = await google.hostCreds(host);
      expect(after.access_token).not.toBe(seeded.access_token);
      expect(google.accepts(after.access_token)).toBe(true);
      expect(after.refresh_token).toBe(seeded.refresh_token);
    } finally {
      await google.close();
    }
  });

  it("in a HOME with no git identity: the toolkit's own commits the work, and `--resume` continues the session", async () => {
    repo = await createWorkRepo();
    // Nothing names who commits: no repository, global or system identity, and no GIT_AUTHOR_* either.
    await repo.git(['config', '--unset', 'user.name']);
    await repo.git(['config', '--unset', 'user.email']);
    const home = await mkdtemp(join(tmpdir(), 'gemini-run-nobody-'));
    try {
      fake = await FakeGemini.start('edit-and-commit');
      const env = { ...apiKeyEnv(repo, fake), HOME: home };
      const r = await cli(
        ['run', '--repo', repo.dir, '--prompt', 'Add a notes file', '--mode', 'headless'],
        env,
      );
      expect(r.code, r.out + r.err).toBe(0);
      expect(r.out).toMatch(/^finished: 1 commit\(s\) on branch (gemini-run\/local-\S+)\./m);
      const branch = /on branch (\S+)\./.exec(r.out)![1]!;
      const authors = await exec('git', ['log', '--format=%an <%ae>|%cn <%ce>', `main..${branch}`], {
        cwd: repo.dir,
        env: repo.env,
      });
      expect(authors.stdout.trim()).toBe(
        'gemini-run <gemini-run@localhost>|gemini-run <gemini-run@localhost>',
      );
      // The session is kept where --resume finds it, and the hint says how.
      const id = /--resume (\S+) --prompt/.exec(r.out)?.[1];
      expect(id, r.out).toMatch(/^[0-9a-f-]{36}$/);
      expect((await readdir(join(home, '.local', 'state', 'gemini-run', 'sessions'))).sort()).toEqual([
        `${id}.json`,
        `${id}.jsonl`,
      ]);

      await fake.close();
      fake = await FakeGemini.start('plain-answer');
      const again = await cli(
        [
          'run',
          '--repo',
          repo.dir,
          '--resume',
          id!,
          '--prompt',
          'Now say what you did',
          '--mode',
          'headless',
        ],
        { ...env, GOOGLE_GEMINI_BASE_URL: fake.url },
      );
      expect(again.code, again.out + again.err).toBe(0);
      expect(again.out).toContain(`continuing session ${id}`);
      // The model was sent the earlier conversation: the first task and the tool call that committed it.
      const sent = JSON.stringify(fake.modelRequests().at(-1)?.body);
      expect(sent).toContain('Add a notes file');
      expect(sent).toContain('Now say what you did');
      expect(sent).toContain("git commit -q -m 'Add NOTES.md'");
      // On the session's branch: the earlier commit is there, and nothing new was needed.
      expect(again.out).toMatch(
        new RegExp(`^finished: 0 commit\\(s\\) on branch ${branch.replace(/[/.]/g, '\\$&')}\\.`, 'm'),
      );
      const nope = await cli(
        ['run', '--repo', repo.dir, '--resume', 'no-such-session', '--prompt', 'x'],
        env,
      );
      expect(nope.code).toBe(1);
      expect(nope.err.trim()).toMatch(/^gemini-run run: No session no-such-session was kept in .*sessions/);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  it('a commit that fails is a failed run, with the reason on stdout', async () => {
    repo = await createWorkRepo();
    // The agent writes a file and leaves git's index locked: neither it nor the engine can commit the work.
    fake = await FakeGemini.start({
      description: 'writes a file, then locks the index',
      steps: [
        {
          functionCalls: [
            { name: 'run_shell_command', args: { command: 'echo note > NOTE.md && touch .git/index.lock' } },
          ],
        },
        { text: 'I wrote NOTE.md and committed it.' },
      ],
    });
    const r = await cli(
      ['run', '--repo', repo.dir, '--prompt', 'Write a note', '--mode', 'headless'],
      apiKeyEnv(repo, fake),
    );
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toMatch(/^crashed: 0 commit\(s\) on branch /m);
    expect(r.out).toMatch(/> the agent's uncommitted changes could not be committed \(git (add|commit): /);
    expect(r.out).not.toMatch(/✅ finished/);
  });

  it('refuses a dirty repository and a missing task, each in one line', async () => {
    repo = await createWorkRepo();
    const env = { ...baseEnv(), ...repo.env, GEMINI_API_KEY: 'k' };
    expect((await cli(['run', '--repo', repo.dir], env)).err).toMatch(/a task is needed/);
    await exec('sh', ['-c', 'echo x >> README.md'], { cwd: repo.dir });
    const dirty = await cli(['run', '--repo', repo.dir, '--prompt', 'x'], env);
    expect(dirty.code).toBe(1);
    expect(dirty.err.trim()).toMatch(/uncommitted changes/);
    expect(dirty.err.trim().split('\n')).toHaveLength(1);
  });
});
