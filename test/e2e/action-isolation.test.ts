/**
 * The action with an attacker for an agent: `node dist/index.js` as a runner runs it, with the GitHub token,
 * the API key and ACTIONS_RUNTIME_TOKEN in the step's environment and the checkout's credential in
 * .git/config. The scripted model dumps every readable /proc/<pid>/environ, greps the runner temp (the run dir
 * and the credential stash live there), $HOME and /tmp, reads .git/config, tries sudo, leaves a setsid daemon,
 * and commits what it found. The pushed branch must hold none of it; no process of the agent's uid may be left.
 *
 * Both as root (containers, CI) and as a non-root user with passwordless sudo (a GitHub-hosted runner).
 */
import { randomBytes } from 'node:crypto';
import { readlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { AGENT_POOL_SIZE, lookupUser } from '../../src/isolation/agent-user.js';
import { setupAgentHost } from '../../src/isolation/host-setup.js';
import { pidsOfUid } from '../../src/isolation/procs.js';
import { sandboxStateSchema } from '../../src/isolation/sandbox.js';
import { exec } from '../../src/util/exec.js';
import { ActionWorld, ROOT } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { letReach } from '../harness/reach.js';

/**
 * The processes of the agent's uid that belong to this run (their working directory is under its world, as the
 * daemon the attack leaves is): the pool may hand the same uid to a run of another test file as soon as this one
 * released it.
 */
async function pidsOfRun(uid: number, root: string): Promise<number[]> {
  const mine: number[] = [];
  for (const pid of await pidsOfUid(uid)) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => undefined);
    if (cwd !== undefined && cwd.startsWith(root)) mine.push(pid);
  }
  return mine;
}

// Made up per test run, so that no file on the host (a compile cache of this very test, say) already holds them.
const GITHUB_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const GEMINI_API_KEY = `AIzaSy${randomBytes(16).toString('hex')}`;
const RUNTIME_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const SECRETS = [
  GITHUB_TOKEN,
  Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'),
  GEMINI_API_KEY,
  RUNTIME_TOKEN,
];

const attacker: Script = {
  description: 'an agent steered by a hostile issue, looking for secrets',
  steps: [
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: {
            command: [
              "{ printf 'uid='; id -u;",
              `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null | grep -E 'TOKEN|KEY|ghs_|AIza'; done;`,
              `grep -rsI -E 'ghs_|basic |AIza' "$TMPDIR/../.." "$HOME" /tmp 2>/dev/null | head -100;`,
              'echo ---CONFIG---; cat .git/config;',
              'sudo -n true 2>/dev/null && echo SUDO_WORKS;',
              "(setsid sh -c 'exec sleep 300' >/dev/null 2>&1 &);",
              "} > FOUND.txt 2>&1; git add FOUND.txt && git commit -q -m 'What I found'",
            ].join(' '),
            description: 'Look around',
          },
        },
      ],
    },
    { text: 'Looked around.' },
  ],
};

const root = process.getuid?.() === 0;
/** Traverse entries that let the runner users reach this checkout; taken back after the file. */
const releases: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const release of releases.splice(0)) await release();
});
type Host = 'root' | 'hosted' | 'self-hosted' | 'plain';

async function ensureUser(name: string): Promise<{ uid: number; gid: number; home: string }> {
  if (!(await lookupUser(name))) await exec('useradd', ['--create-home', '--shell', '/bin/bash', name]);
  const u = await lookupUser(name);
  if (!u) throw new Error(`could not create ${name}`);
  return { uid: u.uid, gid: u.gid, home: `/home/${name}` };
}

/**
 * The runner user of each host kind: a hosted runner's (passwordless sudo for everything), a self-hosted runner
 * prepared by `gemini-run setup --agent-users` (sudo only to the agent users), and a plain user (no sudo).
 */
async function runnerUser(host: Exclude<Host, 'root'>): Promise<{ uid: number; gid: number; home: string }> {
  const name = `gemini-run-${host}`;
  const user = await ensureUser(name);
  if (host === 'hosted') {
    await exec('sh', [
      '-c',
      `echo '${name} ALL=(ALL:ALL) NOPASSWD:ALL' > /etc/sudoers.d/gemini-run-hosted && chmod 0440 /etc/sudoers.d/gemini-run-hosted`,
    ]);
  }
  if (host === 'self-hosted') await setupAgentHost({ agents: AGENT_POOL_SIZE, runnerUser: name });
  return user;
}

async function worldFor(
  host: Host,
): Promise<{ world: ActionWorld; asUser?: { uid: number; gid: number; home: string } }> {
  const world = await ActionWorld.create({ token: GITHUB_TOKEN });
  await world.checkout();
  if (host === 'root') return { world };
  const asUser = await runnerUser(host);
  // The agent users are started through sudo, which gives them their groups (gemini-agents among them).
  await exec('groupadd', ['--system', '-f', 'gemini-agents']);
  releases.push(await letReach([`u:${asUser.uid}`, 'g:gemini-agents'], ROOT));
  const owner = `${asUser.uid}:${asUser.gid}`;
  for (const dir of [world.tmp, dirname(world.repo.dir), dirname(world.repo.originDir)]) {
    await exec('chown', ['-R', owner, dir]);
  }
  return { world, asUser };
}

describe.skipIf(!root)('the agent cannot reach a secret (action, attacker agent)', () => {
  // Every runner in both modes: the tmux server and a headless spawn put the agent in its user differently, and
  // each runner makes the user switch its own way.
  const both = ['interactive', 'headless'] as const;
  const hosts: { host: Host; name: string; modes: readonly ('interactive' | 'headless')[] }[] = [
    { host: 'root', name: 'as root', modes: both },
    { host: 'hosted', name: 'as a hosted runner (passwordless sudo)', modes: both },
    {
      host: 'self-hosted',
      name: "as a self-hosted runner prepared by 'gemini-run setup --agent-users'",
      modes: both,
    },
  ];
  for (const { host, name, modes } of hosts) {
    for (const mode of modes) {
      describe(`${name}, ${mode}`, () => {
        let world: ActionWorld;
        let asUser: { uid: number; gid: number; home: string } | undefined;
        useActionWorld({
          shared: true,
          create: async () => {
            ({ world, asUser } = await worldFor(host));
            return world;
          },
        });

        it('finds no secret, runs as another uid without sudo, and leaves no process', async () => {
          const r = await world.run({
            mode,
            script: attacker,
            // The default network: restricted everywhere; on the prepared self-hosted host the runner user (sudo
            // only to the agents) installs its packet filter through setup's checked iptables wrapper.
            inputs: { 'gemini-api-key': GEMINI_API_KEY },
            env: { ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN: RUNTIME_TOKEN },
            ...(asUser ? { asUser } : {}),
          });
          expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
          expect(r.main.stdout).toMatch(/The agent runs as gemini-agent-\d+ \(uid \d+; /);
          // The packet filter is in place on every host kind (self-hosted: through setup's iptables wrapper).
          expect(r.main.stdout).toContain('network: restricted — the agent reaches the model proxy');
          const found = await world.originFile('gemini-run/issue-1', 'FOUND.txt');
          expect(found).toContain('---CONFIG---');
          const uid = Number(/uid=(\d+)/.exec(found)?.[1]);
          expect(uid).toBeGreaterThan(0);
          expect(uid).not.toBe(asUser?.uid ?? 0);
          expect(found).not.toContain('SUDO_WORKS');
          for (const secret of SECRETS) expect(found).not.toContain(secret);
          // The daemon and everything else of the agent's uid ended before the step did.
          expect(await pidsOfRun(uid, world.tmp)).toEqual([]);
          const saved = r.main.state.sandbox;
          if (saved) expect(sandboxStateSchema.safeParse(JSON.parse(saved)).success).toBe(true);
          expect(r.post.exitCode).toBe(0);
          // The worktree is the runner's again: a later `git` step works.
          const asRunner = asUser
            ? ['setpriv', `--reuid=${asUser.uid}`, `--regid=${asUser.gid}`, '--clear-groups']
            : [];
          const [file, ...args] = [...asRunner, 'git', 'status', '--porcelain'];
          const status = await exec(file, args, {
            cwd: world.workspace,
            allowAllExitCodes: true,
            env: { ...process.env, HOME: asUser?.home ?? process.env.HOME },
          });
          expect(status.exitCode, status.stderr).toBe(0);
          expect(status.stdout.trim()).toBe('');
        });
      });
    }
  }

  describe('on a host that cannot isolate (no root, no sudo, no agent users)', () => {
    let world: ActionWorld;
    let asUser: { uid: number; gid: number; home: string } | undefined;
    useActionWorld({
      shared: true,
      create: async () => {
        ({ world, asUser } = await worldFor('plain'));
        return world;
      },
    });

    it('refuses with one line naming the fixes, before anything runs', async () => {
      const r = await world.run({ mode: 'headless', script: attacker, ...(asUser ? { asUser } : {}) });
      expect(r.main.exitCode).toBe(1);
      const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error::'));
      expect(errors).toEqual([
        expect.stringMatching(/cannot be isolated.*gemini-run setup.*isolation: none/),
      ]);
      expect(r.gemini.modelRequests()).toHaveLength(0);
      expect(world.github.pulls()).toHaveLength(0);
    });

    it("runs with 'isolation: none', and says loudly what that gives up", async () => {
      const r = await world.run({
        mode: 'headless',
        script: attacker,
        inputs: { isolation: 'none', network: 'open' },
        ...(asUser ? { asUser } : {}),
      });
      expect(r.main.outputs.status, r.main.stdout).toBe('finished');
      expect(r.main.stdout).toMatch(/::warning::isolation: none .* can read the GitHub token/);
      const found = await world.originFile('gemini-run/issue-1', 'FOUND.txt');
      // The agent runs as the runner user: the proof the default protects something.
      expect(found).toContain(`uid=${asUser?.uid}`);
    });
  });
});
