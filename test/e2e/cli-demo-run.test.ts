/**
 * The README's first command (`gemini-run demo`) and `gemini-run run`, through dist/cli.js as a user runs them.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
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

/** What gemini-run can leave on a host, as the host's own tools list it. */
interface HostTraces {
  chains: Set<string>;
  users: Set<string>;
  group: boolean;
  /** Claim files and the pid that holds each. */
  claims: Map<string, number>;
}

async function hostTraces(): Promise<HostTraces> {
  const saved = await Promise.all(
    ['iptables-save', 'ip6tables-save'].map((c) => exec(c, [], { allowAllExitCodes: true })),
  );
  const chains = new Set(
    saved.flatMap((r) => r.stdout.split('\n').flatMap((l) => /^:(GEMINI-RUN-\S+)/.exec(l)?.[1] ?? [])),
  );
  const passwd = await exec('getent', ['passwd'], { allowAllExitCodes: true });
  for (const l of passwd.stdout.split('\n')) {
    const m = /^(gemini-agent-\d+):[^:]*:(\d+):/.exec(l);
    if (m) uidOf.set(m[1]!, Number(m[2]));
  }
  const users = new Set(passwd.stdout.split('\n').flatMap((l) => /^(gemini-agent-\d+):/.exec(l)?.[1] ?? []));
  const group =
    (await exec('getent', ['group', 'gemini-agents'], { allowAllExitCodes: true })).exitCode === 0;
  const claims = new Map<string, number>();
  for (const name of await readdir(CLAIMS).catch(() => [] as string[])) {
    if (!name.endsWith('.lock') || name.startsWith('.')) continue;
    const text = await readFile(join(CLAIMS, name), 'utf8').catch(() => '');
    claims.set(name, Number(text.split(' ')[0]));
  }
  return { chains, users, group, claims };
}

const CLAIMS = '/tmp/gemini-run-agent-claims';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What appeared between two looks and is not another live run's (tests of other files run at once on this host):
 * a chain or user whose uid a live process other than `ours` claims now is theirs.
 */
function leftBy(before: HostTraces, after: HostTraces, ours: number[]): string[] {
  const othersHold = new Set(
    [...after.claims]
      .filter(([, pid]) => !ours.includes(pid) && alive(pid))
      .map(([f]) => f.slice(0, -'.lock'.length)),
  );
  const left: string[] = [];
  for (const c of after.chains) if (!before.chains.has(c)) left.push(`chain ${c}`);
  for (const u of after.users) if (!before.users.has(u) && !othersHold.has(u)) left.push(`user ${u}`);
  if (after.group && !before.group) left.push('group gemini-agents');
  for (const [file, pid] of after.claims) if (ours.includes(pid)) left.push(`claim ${file}`);
  // A new chain of another live run names its uid, not its user: keep only those no other run holds.
  return left.filter((l) => !l.startsWith('chain') || !chainOfOthers(l.slice('chain '.length), othersHold));
}

function chainOfOthers(chain: string, users: Set<string>): boolean {
  const uid = Number(/^GEMINI-RUN-(\d+)-/.exec(chain)?.[1]);
  return [...users].some((u) => uidOf.get(u) === uid);
}

/** Pool users' uids, as the last look saw them. */
const uidOf = new Map<string, number>();

/**
 * Runs the CLI in a process group of its own and sends the group SIGINT after `ms`, or as soon as its output
 * matches `when`, as Ctrl-C does.
 */
function interrupted(
  args: string[],
  env: NodeJS.ProcessEnv,
  when: number | RegExp,
): Promise<{ how: string; out: string; err: string; pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(ACTION_NODE, [join(ROOT, 'dist', 'cli.js'), ...args], {
      env,
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    let sent = false;
    const ctrlC = () => {
      if (sent) return;
      sent = true;
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // already done
      }
    };
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (when instanceof RegExp && when.test(out)) ctrlC();
    });
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const timer = setTimeout(ctrlC, typeof when === 'number' ? when : 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ how: signal ?? `exit ${code}`, out, err, pid: child.pid! });
    });
  });
}

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
    'as root it changes nothing on the host unless --isolate asks; as a plain user without sudo it runs all the same',
    async () => {
      const before = await hostTraces();
      const asRoot = await cli(['demo', '--mode', 'headless'], baseEnv());
      expect(asRoot.code, asRoot.out + asRoot.err).toBe(0);
      expect(asRoot.out).toContain('The agent runs as you (isolation: none, network: open)');
      expect(asRoot.out).not.toMatch(/The agent runs as gemini-agent-\d+/);
      expect(leftBy(before, await hostTraces(), [])).toEqual([]);

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
      expect(plain.out).toContain('The agent runs as you');
      expect(plain.out).toMatch(/status: finished {2}commits: 1/);
      const refused = await cli(['demo', '--isolate'], { ...baseEnv(), HOME: `/home/${name}` }, '/', {
        uid,
        gid,
      });
      expect(refused.code).toBe(1);
      expect(refused.err.trim()).toMatch(
        /^gemini-run demo: --isolate needs what this host lacks .*: run it as root\.$/,
      );
      // The artifacts the demos kept, as they said.
      for (const m of (asRoot.out + plain.out).matchAll(
        /Saved the artifact: (\/tmp\/gemini-run-demo-artifact-[^/\s]+)\//g,
      ))
        await rm(m[1]!, { recursive: true, force: true });
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'with --isolate, Ctrl-C at 1, 3 and 5 s, and as it ends, leaves no chain, ACL, claim, user or directory it made',
    async () => {
      // The last: as it prints its last lines, its run over and the artifact named.
      for (const at of [1, 3, 5, /── Pull request #\d+:/]) {
        // Its own temp dir, closed to others, so the agent needs (and gets) an ACL entry to traverse it.
        const tmp = await mkdtemp(join(tmpdir(), 'gemini-run-ctrl-c-'));
        await chmod(tmp, 0o700);
        try {
          const before = await hostTraces();
          const r = await interrupted(
            ['demo', '--isolate'],
            { ...baseEnv(), TMPDIR: tmp },
            typeof at === 'number' ? at * 1000 : at,
          );
          const ran = `${String(at)}: ${r.how}\n${r.out}${r.err}`;
          // Ended by the signal (130, or the signal itself), or done before it: never a crash.
          expect(['SIGINT', 'exit 130', 'exit 0'], ran).toContain(r.how);
          expect(r.err, ran).not.toMatch(/^\s+at |EPIPE|Unhandled/m);
          // The artifact it named, once the run was over (a signal after that, as it prints its last lines, finds
          // nothing left to remove: then the process just ends, and the named artifact stays).
          const named = /Saved the artifact: (\S+)/.exec(r.out)?.[1];
          // Once it had made something to remove, it says what it does about the signal.
          if (r.how !== 'exit 0' && r.out.includes('The GitHub here is a local fake') && !named)
            expect(r.err, ran).toMatch(/gemini-run: SIGINT: stopping, and removing what this run changed/);
          expect(leftBy(before, await hostTraces(), [r.pid]), ran).toEqual([]);
          // Nothing of it in its temp dir (a finished demo keeps the artifact it named), and no ACL there.
          const kept = (await readdir(tmp)).filter(
            (n) => !(named?.startsWith(join(tmp, n) + '/') && n.startsWith('gemini-run-demo-artifact-')),
          );
          expect(kept, ran).toEqual([]);
          const acl = await exec('getfacl', ['-R', '--skip-base', '--absolute-names', tmp]);
          expect(acl.stdout.trim(), ran).toBe('');
        } finally {
          await rm(tmp, { recursive: true, force: true });
        }
      }
    },
  );

  it('piped into head, it ends quietly: exit 0, no stack, and it still finishes its run', async () => {
    const script = `set -o pipefail; "$NODE" "$CLI" demo --mode headless 2>"$ERR" | head -3 >/dev/null; echo "code=$?"`;
    const err = join(tmpdir(), `gemini-run-demo-head-${process.pid}.err`);
    const r = await exec('bash', ['-c', script], {
      env: { ...baseEnv(), NODE: ACTION_NODE, CLI: join(ROOT, 'dist', 'cli.js'), ERR: err },
      allowAllExitCodes: true,
    });
    const stderr = await readFile(err, 'utf8').finally(() => rm(err, { force: true }));
    expect(r.stdout.trim(), stderr).toBe('code=0');
    expect(stderr).not.toMatch(/EPIPE|^\s+at |Unhandled/m);
  });

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
