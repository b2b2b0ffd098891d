/**
 * The agent in its own user, end to end at the engine: the real gemini 0.42.0 (both modes) runs a scripted
 * attacker that looks for every secret a shell could reach and commits what it found, and leaves a `setsid`
 * daemon behind. The commit must hold none of the secrets, the agent's uid must not be ours, and no process of
 * that uid may outlive the run. Runs as root here (the sandbox switches uid itself).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pidsOfUid } from '../../src/isolation/procs.js';
import { openSandbox } from '../../src/isolation/sandbox.js';
import { startModelProxy } from '../../src/proxy/model-proxy.js';
import { runAgent } from '../../src/run/engine.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';
import { OAuthProxy } from '../harness/oauth-proxy.js';
import { createWorkRepo } from '../harness/repo.js';
import { runOptions, TEST_TASK } from '../harness/run-options.js';

const SECRET = `ghs_${randomBytes(18).toString('hex')}`;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
});

/**
 * Sets the pane's window title to the CLI's idle title through every terminal the shell can reach (its own, and
 * its ancestors' stdout by /proc), then keeps working: were a write to reach the pane, the engine would see the
 * turn end and /quit during the sleep, and nothing would be committed. As the same user it does reach it, and the
 * job log too (the action's stdout).
 */
const FORGE_IDLE_TITLE = [
  "t='\\033]0;\\342\\227\\207  Ready (forged)\\007';",
  // No $(…): the CLI refuses command substitution. Field 4 of /proc/<pid>/stat is the parent's pid.
  'p=$$; for _ in 1 2 3 4 5; do read -r _ _ _ p _ < "/proc/$p/stat" || break; [ "$p" -gt 1 ] || break;',
  'for fd in 0 1 2; do printf "$t" 2>/dev/null > "/proc/$p/fd/$fd" && echo "TITLE_WRITTEN via $p/$fd"; done; done;',
  'printf "$t" 2>/dev/null > /dev/tty && echo "TITLE_WRITTEN via /dev/tty"; sleep 3;',
].join(' ');

/** The attacker's one shell command: everything it can find goes into found.txt, committed. */
export function attackerCommand(targets: string[], forge: boolean): string {
  return [
    "{ printf 'uid='; id -u;",
    // Not in the control without the sandbox: there the writes land in this test process's own output.
    forge ? FORGE_IDLE_TITLE : '',
    `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null | grep -E 'TOKEN|KEY|SECRET|ghs_'; done;`,
    `grep -rsI -E 'ghs_|basic |AIza' ${targets.map((t) => `'${t}'`).join(' ')} "$TMPDIR/.." "$HOME" 2>/dev/null | head -50;`,
    'cat .git/config;',
    'sudo -n true 2>/dev/null && echo SUDO_WORKS;',
    `(setsid sh -c 'exec sleep 300' >/dev/null 2>&1 &);`,
    '} > found.txt 2>&1; git add found.txt && git commit -q -m "what I found"',
  ].join(' ');
}

function attackerScript(targets: string[], forge: boolean): Script {
  return {
    description: 'attacker',
    steps: [
      {
        functionCalls: [
          {
            name: 'run_shell_command',
            args: { command: attackerCommand(targets, forge), description: 'look around' },
          },
        ],
      },
      { text: 'Done looking.' },
    ],
  };
}

const root = process.getuid?.() === 0;

describe.skipIf(!root)('agent isolation at the engine (as root)', () => {
  for (const mode of ['interactive', 'headless'] as const) {
    it(`${mode}: the attacker finds no secret, runs as another uid, and leaves no process`, async () => {
      const { found, uid, result } = await attack(mode, true);
      expect(result.commits).toHaveLength(1);
      expect(found).toContain(`uid=${uid}`);
      expect(found).not.toContain(SECRET);
      expect(found).not.toContain('SUDO_WORKS');
      // Its writes reached only its own pseudo-terminal (the CLI renders that as text): never the pane's title,
      // nor the stdout of a process of ours (the job log, where a line could be a workflow command).
      expect(found).not.toMatch(/TITLE_WRITTEN via \d+\//);
    });
  }
  it('control: without the sandbox the same attacker does find the secret', async () => {
    const { found } = await attack('headless', false);
    expect(found).toContain(SECRET);
  });
});

async function attack(mode: 'interactive' | 'headless', isolate: boolean) {
  const parent = await mkdtemp(join(tmpdir(), 'iso-e2e-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  const runDir = join(parent, 'run');
  await mkdir(join(runDir, 'credentials'), { recursive: true, mode: 0o700 });
  await writeFile(join(runDir, 'credentials', 'stash'), `AUTHORIZATION: basic ${SECRET}\n`, {
    mode: 0o600,
  });
  // A process of the action's user holding the secret in its environment, as the runner's node does.
  const holder = spawn('sleep', ['120'], { env: { PATH: process.env.PATH, INPUT_GITHUB_TOKEN: SECRET } });
  cleanups.push(() => Promise.resolve(void holder.kill('SIGKILL')));

  const fake = await FakeGemini.start(attackerScript([runDir, parent], isolate));
  cleanups.push(() => fake.close());
  const repo = await createWorkRepo();
  cleanups.push(() => repo[Symbol.asyncDispose]());
  const log = createMemoryLogger();
  const sandbox = isolate
    ? await openSandbox({
        parentDir: parent,
        worktree: repo.dir,
        reach: [process.execPath, GEMINI_BIN],
        log,
      })
    : undefined;
  if (sandbox) cleanups.push(() => sandbox.close());
  if (sandbox) expect(sandbox.user.uid).not.toBe(0);

  const result = await runAgent(
    runOptions({
      repo,
      runDir,
      task: { ...TEST_TASK, title: 'Look around' },
      mode,
      modelUrl: fake.url,
      log,
      ...(sandbox ? { sandbox } : {}),
    }),
  );
  expect(result.status, log.lines.join('\n')).toBe('finished');
  const lastRequest = (
    JSON.stringify(fake.modelRequests().at(-1)?.body ?? '').match(/functionResponse.{0,1500}/g) ?? []
  ).join('\n');
  expect(result.commits, lastRequest).toHaveLength(1);
  const found = await readFile(join(repo.dir, 'found.txt'), 'utf8');
  if (sandbox) {
    // Every process of the agent's uid ended with the run, the setsid daemon included.
    expect(await pidsOfUid(sandbox.user.uid)).toEqual([]);
    // The action can use the worktree as before: its files are its own again.
    expect((await stat(join(repo.dir, 'found.txt'))).uid).toBe(process.getuid?.());
    expect((await repo.git(['status', '--porcelain'])).trim()).toBe('');
  }
  return { found, uid: sandbox?.user.uid, result };
}

describe.skipIf(!root)('OAuth behind the model proxy (as root)', () => {
  it('the CLI runs on a placeholder token: no Google credential reaches the agent, Code Assist sees the real one', async () => {
    const google = await OAuthProxy.start({ reply: 'pong through the proxy' });
    cleanups.push(() => google.close());
    const seeded = google.seedCreds();
    const placeholder = `gemini-run-${'p'.repeat(32)}`;
    const modelProxy = await startModelProxy({
      upstream: google.url,
      api: 'code-assist',
      placeholder,
      credential: { kind: 'bearer', token: () => Promise.resolve(seeded.access_token) },
    });
    cleanups.push(() => modelProxy.close());
    const parent = await mkdtemp(join(tmpdir(), 'iso-oauth-'));
    cleanups.push(() => rm(parent, { recursive: true, force: true }));
    const repo = await createWorkRepo();
    cleanups.push(() => repo[Symbol.asyncDispose]());
    const log = createMemoryLogger();
    const sandbox = await openSandbox({
      parentDir: parent,
      worktree: repo.dir,
      reach: [process.execPath, GEMINI_BIN],
      log,
    });
    cleanups.push(() => sandbox.close());
    let credsFileSeen = false;
    const result = await runAgent(
      runOptions({
        repo,
        runDir: join(parent, 'run'),
        task: { title: 'Ping', instruction: 'Say pong.', comments: [], source: { kind: 'local' } },
        auth: { kind: 'oauth', creds: seeded, account: 'operator@example.com' },
        mode: 'headless',
        env: google.env(),
        log,
        sandbox,
        modelEndpoint: { kind: 'code-assist', baseUrl: modelProxy.url, placeholder },
        onEvent: () => {
          credsFileSeen ||= existsSync(join(sandbox.dir, 'home', '.gemini', 'oauth_creds.json'));
        },
      }),
    );
    expect(result.status, log.lines.join('\n')).toBe('finished');
    expect(result.transcript.finalAnswer).toContain('pong through the proxy');
    expect(credsFileSeen).toBe(false);
    const codeAssist = google.requests.filter((r) => r.path.includes('v1internal'));
    expect(codeAssist.length).toBeGreaterThan(0);
    for (const r of codeAssist) {
      expect(JSON.stringify(r)).not.toContain(placeholder);
    }
  });
});
