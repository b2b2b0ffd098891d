/**
 * The runner image as a runner uses it: deploy/runner/Dockerfile built on a local stand-in of the official
 * ghcr.io/actions/actions-runner (scripts/image/build-base.sh: no registry is reachable here) with the build
 * arguments a user passes, then, in its containers, as `runner` (uid 1001, full passwordless sudo, as in the
 * official image): `gemini-run doctor`, `gemini-run demo`, and the action's dist/index.js + post.js on an
 * issue-label event against the fake GitHub and fake Gemini API of this process (host network), with an attacker
 * for an agent that looks for secrets and tries to change gemini, the toolkit and sudoers.
 *
 * Needs a docker daemon (and root to build the stand-in): without one it fails, it does not skip.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import type { Script } from '../../src/fake/gemini-api.js';
import { DEFAULT_GEMINI_VERSION } from '../../src/gemini/cli-profile.js';
import { exec } from '../../src/util/exec.js';
import { ActionWorld, ROOT, type StepLauncher } from '../harness/action-job.js';
import {
  RunnerContainer,
  STAND_IN,
  buildRunnerImage,
  ensureStandIn,
  requireDocker,
  runInImage,
} from './docker.js';

const GEMINI_JS = '/opt/gemini/node_modules/@google/gemini-cli/bundle/gemini.js';
/** What a job step may change only through sudo, and the agent not at all. */
const ROOT_FILES = [
  GEMINI_JS,
  '/opt/gemini-run/cli.js',
  '/opt/gemini-run/index.js',
  '/opt/gemini-run/package.json',
  '/usr/local/bin/gemini-run',
  // The checked iptables wrapper setup wrote: the runner user may run it as root.
  '/usr/local/libexec/gemini-run/iptables',
  '/etc/sudoers',
];
/** The runner's own Node (runner:docker in the official image) runs the action and gemini: the agent's is not. */
const PROTECTED_FILES = [...ROOT_FILES, '/home/runner/externals/node24/bin/node'];
const PROTECTED_DIRS = ['/opt/gemini', '/opt/gemini-run', '/etc/sudoers.d'];
/** Where the runner would have downloaded the action; the checkout's dist/ is mounted there, read-only. */
const ACTION_DIR = '/home/runner/_work/_actions/acme/gemini-run/v1';
const NODE = '/home/runner/externals/node24/bin/node';

const GITHUB_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const GEMINI_API_KEY = `AIzaSy${randomBytes(16).toString('hex')}`;
const RUNTIME_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
/** ARC puts the runner's registration credential in the runner container's environment. */
const JIT_CONFIG = `ghs_${randomBytes(24).toString('hex')}`;
const SECRETS = [
  GITHUB_TOKEN,
  Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'),
  GEMINI_API_KEY,
  RUNTIME_TOKEN,
  JIT_CONFIG,
];

/** The runner container's securityContext in deploy/arc/values.yaml, as `docker run` options. */
function podSecurityOptions(): string[] {
  const values = z
    .object({
      template: z.object({
        spec: z.object({
          containers: z.array(
            z.object({
              name: z.string(),
              securityContext: z.object({
                runAsUser: z.number(),
                runAsGroup: z.number(),
                allowPrivilegeEscalation: z.boolean(),
                capabilities: z.object({ drop: z.array(z.string()), add: z.array(z.string()) }),
              }),
            }),
          ),
        }),
      }),
    })
    .parse(parse(readFileSync(join(ROOT, 'deploy', 'arc', 'values.yaml'), 'utf8')));
  const runner = values.template.spec.containers.find((c) => c.name === 'runner');
  if (!runner) throw new Error('deploy/arc/values.yaml has no runner container');
  const sc = runner.securityContext;
  return [
    '--user',
    `${sc.runAsUser}:${sc.runAsGroup}`,
    ...(sc.allowPrivilegeEscalation ? [] : ['--security-opt', 'no-new-privileges']),
    ...sc.capabilities.drop.flatMap((c) => ['--cap-drop', c]),
    ...sc.capabilities.add.flatMap((c) => ['--cap-add', c]),
  ];
}

const attacker: Script = {
  description:
    'an agent steered by a hostile issue: looks for secrets, tries to replace gemini and the toolkit',
  steps: [
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: {
            command: [
              "{ printf 'uid='; id -u;",
              `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null | grep -E 'TOKEN|KEY|ghs_|AIza'; done;`,
              `grep -rsI -E 'ghs_|basic |AIza' "$TMPDIR/../.." "$HOME" /tmp /home/runner 2>/dev/null | head -100;`,
              'echo ---CONFIG---; cat .git/config;',
              `for f in ${PROTECTED_FILES.join(' ')}; do (echo '# planted' >> "$f") 2>/dev/null && echo "WROTE $f"; done;`,
              `for d in ${PROTECTED_DIRS.join(' ')}; do touch "$d/planted" 2>/dev/null && echo "PLANTED $d"; done;`,
              'mv /home/runner/externals /home/runner/externals.old 2>/dev/null && echo RENAMED_EXTERNALS;',
              'sudo -n true 2>/dev/null && echo SUDO_WORKS;',
              'sudo -n -u runner true 2>/dev/null && echo SUDO_RUNNER_WORKS;',
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

/** sha256 of every protected file and what lies in the protected directories, read from the host. */
async function fingerprints(container: RunnerContainer): Promise<string> {
  const root = await container.rootfs();
  const lines: string[] = [];
  for (const f of PROTECTED_FILES) {
    lines.push(
      `${createHash('sha256')
        .update(await readFile(join(root, f)))
        .digest('hex')} ${f}`,
    );
  }
  for (const d of PROTECTED_DIRS) lines.push(`${d}: ${(await readdir(join(root, d))).sort().join(' ')}`);
  return lines.join('\n');
}

describe('the runner image (deploy/runner/Dockerfile on a stand-in of the official runner image)', () => {
  beforeAll(async () => {
    await requireDocker();
    await ensureStandIn();
    await buildRunnerImage({ RUNNER_IMAGE: STAND_IN, GEMINI_CLI_VERSION: DEFAULT_GEMINI_VERSION });
  }, 20 * 60_000);

  it('passes gemini-run doctor as runner (uid 1001)', async () => {
    const r = await runInImage(['gemini-run', 'doctor', '--wide'], { user: '1001' });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('All checks passed.');
    expect(r.stdout).toMatch(new RegExp(`OK +gemini +${DEFAULT_GEMINI_VERSION.replaceAll('.', '\\.')} at `));
    expect(r.stdout).toMatch(/OK +agent isolation +the agent gets its own user/);
    expect(r.stdout).toMatch(/OK +node +v24\./);
  });

  it('runs gemini-run demo: the whole job, to a pull request', async () => {
    const r = await runInImage(['gemini-run', 'demo'], { user: '1001' });
    expect(r.exitCode, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/status: finished {2}commits: 1 /);
  });

  it('keeps gemini, the toolkit and sudoers root-owned, and the agent users out of sudo and docker', async () => {
    const asRoot = await runInImage(
      [
        'sh',
        '-c',
        [
          'find /opt/gemini /opt/gemini-run/ /usr/local/bin/gemini-run ! -type l \\( ! -user root -o -perm /022 \\) -print',
          'echo ---',
          'stat -c "%U %a" /etc/sudoers /home/runner',
          'grep -c includedir /etc/sudoers || true',
          'grep -v "^#" /etc/sudoers',
          'visudo -c -q && echo VISUDO_OK',
          'id gemini-agent-1; id gemini-agent-2; getent passwd gemini-agent-1 | cut -d: -f7',
          'sudo -l -U gemini-agent-1',
          'cat /opt/gemini-run/package.json',
        ].join('; '),
      ],
      { user: '0' },
    );
    expect(asRoot.exitCode, asRoot.stderr).toBe(0);
    const [writable, rest] = asRoot.stdout.split('---\n') as [string, string];
    expect(writable, 'files of gemini or the toolkit that are not root-only').toBe('');
    expect(rest).toContain('root 440\nrunner 750\n0\n');
    expect(rest).toContain('%sudo   ALL=(ALL:ALL) NOPASSWD:ALL');
    expect(rest).toContain('runner ALL=(%gemini-agents) NOPASSWD: ALL');
    expect(rest).toContain('VISUDO_OK');
    for (const id of rest.split('\n').filter((l) => l.startsWith('uid='))) {
      expect(id).toContain('(gemini-agents)');
      expect(id).not.toMatch(/\((sudo|docker|runner)\)/);
      expect(Number(/^uid=(\d+)/.exec(id)?.[1])).toBeGreaterThanOrEqual(2001);
    }
    expect(rest).toContain('\n/bin/sh\n');
    expect(rest).toMatch(/User gemini-agent-1 is not allowed to run sudo/);
    expect(JSON.parse(rest.slice(rest.lastIndexOf('{')))).toEqual({ type: 'module' });

    // And runner itself (a job step) cannot change them without sudo.
    const asRunner = await runInImage([
      'sh',
      '-c',
      `for f in ${ROOT_FILES.join(' ')} ${PROTECTED_DIRS.join(' ')}; do test -w "$f" && echo "WRITABLE $f"; done; echo done`,
    ]);
    expect(asRunner.stdout.trim()).toBe('done');
  });

  describe('the action on an issue-label event, isolation: user, an attacker for an agent', () => {
    let world: ActionWorld;
    let container: RunnerContainer;
    beforeAll(async () => {
      world = await ActionWorld.create({ token: GITHUB_TOKEN });
      await world.checkout();
      // The job's files are the runner's, as the runner's own checkout would leave them.
      for (const dir of [world.tmp, dirname(world.repo.originDir)]) {
        await exec('chown', ['-R', '1001:1001', dir]);
      }
      // As the scale set's runner pod runs: uid 1001 with exactly the capabilities deploy/arc/values.yaml keeps.
      container = await RunnerContainer.start(
        {
          [world.tmp]: world.tmp,
          [dirname(world.repo.originDir)]: dirname(world.repo.originDir),
          [join(ROOT, 'dist')]: `${ACTION_DIR}/dist:ro`,
        },
        [...podSecurityOptions(), '--env', 'ACTIONS_RUNNER_INPUT_JITCONFIG'],
        { ACTIONS_RUNNER_INPUT_JITCONFIG: JIT_CONFIG },
      );
    }, 120_000);
    afterAll(async () => {
      await container?.[Symbol.asyncDispose]();
      await world?.[Symbol.asyncDispose]();
    });

    it(
      'finds no secret, changes none of gemini, the toolkit or sudoers, and leaves no process',
      async () => {
        const before = await fingerprints(container);
        const launch: StepLauncher = (script, env, cwd) => ({
          command: 'docker',
          args: container.execArgv([NODE, `${ACTION_DIR}/dist/${script.split('/').pop() ?? ''}`], env, cwd),
          env: { ...env, PATH: process.env.PATH ?? '/usr/bin:/bin' },
        });
        const r = await world.run({
          mode: 'interactive',
          script: attacker,
          // Empty: the action takes the image's gemini (GEMINI_RUN_GEMINI_PATH), as on a scale-set runner.
          inputs: { 'gemini-api-key': GEMINI_API_KEY, 'gemini-path': '' },
          env: { ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN: RUNTIME_TOKEN },
          asUser: { uid: 1001, gid: 1001, home: '/home/runner' },
          launch,
        });
        const log = r.main.stdout + r.main.stderr;
        expect(r.main.outputs.status, log).toBe('finished');
        expect(log).toMatch(/The agent runs as gemini-agent-\d+ \(uid \d+; /);
        expect(log).toContain(GEMINI_JS);
        const found = await world.originFile('gemini-run/issue-1', 'FOUND.txt');
        expect(found, log).toContain('---CONFIG---');
        const uid = Number(/uid=(\d+)/.exec(found)?.[1]);
        expect(uid).toBeGreaterThan(0);
        expect(uid).not.toBe(1001);
        for (const secret of SECRETS) expect(found).not.toContain(secret);
        expect(found).not.toMatch(/WROTE|PLANTED|RENAMED|SUDO_WORKS|SUDO_RUNNER_WORKS/);
        expect(await fingerprints(container)).toBe(before);
        // The setsid daemon and everything else of the agent's uid ended before the step did.
        const procs = await container.exec(['sh', '-c', 'stat -c %u /proc/[0-9]* 2>/dev/null; true']);
        expect(procs.stdout.split('\n').map(Number)).not.toContain(uid);
        expect(r.post.exitCode, r.post.stdout + r.post.stderr).toBe(0);
        expect(world.github.pulls()).toHaveLength(1);
        // The worktree is the runner's again: a later `git` step of the job works.
        const status = await container.exec(['git', '-C', world.workspace, 'status', '--porcelain']);
        expect(status.exitCode, status.stderr).toBe(0);
        expect(status.stdout.trim()).toBe('');
      },
      5 * 60_000,
    );
  });
});

describe('the runner image with the other checked CLI (GEMINI_CLI_VERSION=0.61.0)', () => {
  const LATEST_IMAGE = 'gemini-run-test/runner:test-0.61.0';
  beforeAll(async () => {
    await requireDocker();
    await ensureStandIn();
    await buildRunnerImage({ RUNNER_IMAGE: STAND_IN, GEMINI_CLI_VERSION: '0.61.0' }, LATEST_IMAGE);
  }, 20 * 60_000);
  afterAll(async () => {
    await exec('docker', ['image', 'rm', '--force', LATEST_IMAGE], {
      allowAllExitCodes: true,
      timeoutMs: 120_000,
    });
  });

  it('installs it, names its profile in doctor, and runs the demo to a pull request', async () => {
    const doctor = await runInImage(['gemini-run', 'doctor', '--wide'], {
      user: '1001',
      image: LATEST_IMAGE,
    });
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/OK +gemini +0\.61\.0 at .*profile 0\.61\.0/);
    const demo = await runInImage(['gemini-run', 'demo'], { user: '1001', image: LATEST_IMAGE });
    expect(demo.exitCode, demo.stdout + demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/status: finished {2}commits: 1 /);
  });
});
