/**
 * Issue 22, item 2: the files the agent wrote are read as data, never followed. The scripted attacker replaces
 * its own session file (and its telemetry file) with a symbolic link to a secret only the action's user can read,
 * or with a hard link to the checkout's .git/config (which holds the job token once the credential is restored),
 * or points the CLI's projects.json at a directory of its own holding such a link. Each test first proves the
 * attack ran (the attacker's ATTACK.txt, pushed with its commit, lists what it did), then that the secret is in
 * no published place — the logs, the job summary, the outputs, the artifact files, the transcript store, the pull
 * request and its comments, the pushed branch — and that the refused file was named in a warning.
 *
 * As root (containers, CI) and as a non-root runner user with passwordless sudo (a GitHub-hosted runner).
 */
import { randomBytes } from 'node:crypto';
import { chown, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { lookupUser } from '../../src/isolation/agent-user.js';
import { exec } from '../../src/util/exec.js';
import { ActionWorld, ROOT } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { letReach } from '../harness/reach.js';

const GITHUB_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const GEMINI_API_KEY = `AIzaSy${randomBytes(16).toString('hex')}`;
const RUNTIME_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
/** The content of a file only the action's user can read, outside the worktree. */
const MARKER = `planted-secret-${randomBytes(12).toString('hex')}`;
const SECRETS = [
  MARKER,
  GITHUB_TOKEN,
  Buffer.from(`x-access-token:${GITHUB_TOKEN}`).toString('base64'),
  GEMINI_API_KEY,
  RUNTIME_TOKEN,
];

/** One shell command for the scripted model: the attack, its record in ATTACK.txt, and a commit of that. */
function attack(description: string, lines: string[]): Script {
  return {
    description,
    steps: [
      {
        functionCalls: [
          {
            name: 'run_shell_command',
            args: {
              command: [
                'G="$HOME/.gemini";',
                ...lines,
                "git add ATTACK.txt && git commit -q -m 'What I did'",
              ].join(' '),
              description: 'Tidy up',
            },
          },
        ],
      },
      { text: 'Tidied up the session files.' },
    ],
  };
}

/** The session file and the telemetry file become links to the secret file. */
const symlinkAttack = (secret: string): Script =>
  attack('links its session and telemetry files to a secret', [
    `cat '${secret}' >/dev/null 2>&1 && echo SECRET_READABLE >> ATTACK.txt;`,
    'for f in "$G"/tmp/*/chats/session-*.json*; do',
    `rm -f "$f"; ln -s '${secret}' "$f" && echo "symlinked $f" >> ATTACK.txt;`,
    'done;',
    `T="$TMPDIR/../telemetry.json"; rm -f "$T"; ln -s '${secret}' "$T" && echo "symlinked $T" >> ATTACK.txt;`,
  ]);

/** The session file becomes a hard link to the checkout's .git/config. */
const hardlinkAttack: Script = attack('hard-links its session file to .git/config', [
  'for f in "$G"/tmp/*/chats/session-*.json*; do',
  'rm -f "$f"; ln "$PWD/.git/config" "$f" && echo "hardlinked $f" >> ATTACK.txt;',
  'done;',
]);

/** projects.json names a directory of the agent's for this worktree, holding a link to the secret. */
const projectsAttack = (secret: string): Script =>
  attack('points projects.json at its own chats folder', [
    'mkdir -p "$G/tmp/evil/chats";',
    'for f in "$G"/tmp/*/chats/session-*.json*; do',
    `ln -s '${secret}' "$G/tmp/evil/chats/\${f##*/}" && echo "planted \${f##*/}" >> ATTACK.txt;`,
    'done;',
    `printf '{"projects":{"%s":"evil"}}' "$PWD" > "$G/projects.json" && echo "redirected projects.json" >> ATTACK.txt;`,
  ]);

const root = process.getuid?.() === 0;
const releases: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const release of releases.splice(0)) await release();
});

type Runner = { uid: number; gid: number; home: string };

/** A hosted runner's user: passwordless sudo for everything (as test/e2e/action-isolation.test.ts makes it). */
async function hostedUser(): Promise<Runner> {
  const name = 'gemini-run-hosted';
  if (!(await lookupUser(name))) await exec('useradd', ['--create-home', '--shell', '/bin/bash', name]);
  const u = await lookupUser(name);
  if (!u) throw new Error(`could not create ${name}`);
  await exec('sh', [
    '-c',
    `echo '${name} ALL=(ALL:ALL) NOPASSWD:ALL' > /etc/sudoers.d/gemini-run-hosted && chmod 0440 /etc/sudoers.d/gemini-run-hosted`,
  ]);
  return { uid: u.uid, gid: u.gid, home: `/home/${name}` };
}

async function worldFor(
  host: 'root' | 'hosted',
): Promise<{ world: ActionWorld; asUser?: Runner; secret: string }> {
  const world = await ActionWorld.create({ token: GITHUB_TOKEN });
  await world.checkout();
  let asUser: Runner | undefined;
  if (host === 'hosted') {
    asUser = await hostedUser();
    await exec('groupadd', ['--system', '-f', 'gemini-agents']);
    releases.push(await letReach([`u:${asUser.uid}`, 'g:gemini-agents'], ROOT));
    const owner = `${asUser.uid}:${asUser.gid}`;
    for (const dir of [world.tmp, dirname(world.repo.dir), dirname(world.repo.originDir)]) {
      await exec('chown', ['-R', owner, dir]);
    }
  }
  // Outside the worktree and the agent's directory, readable by the action's user alone.
  const secret = join(world.tmp, 'planted-secret');
  await writeFile(secret, `${MARKER}\n`, { mode: 0o600 });
  if (asUser) await chown(secret, asUser.uid, asUser.gid);
  return { world, ...(asUser ? { asUser } : {}), secret };
}

/**
 * What the attacker says it did: its ATTACK.txt as pushed, else as left in the worktree (a session file
 * hard-linked to .git/config makes the CLI append its records to the config, and git then refuses the repository).
 */
async function attackRecord(world: ActionWorld): Promise<string> {
  const pushed = await world.originFile('gemini-run/issue-1', 'ATTACK.txt');
  return pushed || (await readFile(join(world.workspace, 'ATTACK.txt'), 'utf8').catch(() => ''));
}

/** Every file under dir, as text. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const p = join(dir, name);
    const st = await stat(p).catch(() => undefined);
    if (st?.isDirectory()) out.push(...(await filesUnder(p)));
    else if (st?.isFile()) out.push(await readFile(p, 'utf8'));
  }
  return out;
}

/** Everything the run published: logs, summary, outputs, artifact files, store, PRs and comments, pushed objects. */
async function publishedText(world: ActionWorld): Promise<string> {
  const github = world.github;
  const pulls = github.pulls();
  const issues = [1, ...pulls.map((p) => p.number)];
  const pushed = await exec(
    'git',
    ['--git-dir', world.repo.originDir, 'log', '--all', '-p', '--format=%H %s%n%b'],
    {
      allowAllExitCodes: true,
    },
  );
  expect(pushed.exitCode).toBe(0);
  return (
    [
      ...world.published,
      ...(await filesUnder(join(world.tmp, 'transcripts'))),
      JSON.stringify(pulls),
      ...issues.map((n) => JSON.stringify(github.comments(n))),
      pushed.stdout,
    ]
      .join('\n')
      .split('\n')
      // The step masks its secrets: the mask command is how it hides them, not a leak.
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n')
  );
}

describe.skipIf(!root)(
  'files the agent wrote are read as data, never followed (action, attacker agent)',
  () => {
    // Who runs the step and how gemini runs are independent here (the files are read the same way after either
    // mode), so the two pairs cover both of each: the full square took twice as long in CI for nothing more.
    const variants = [
      { host: 'root', name: 'as root', modes: ['interactive'] },
      { host: 'hosted', name: 'as a hosted runner (passwordless sudo)', modes: ['headless'] },
    ] as const;
    for (const { host, name, modes } of variants) {
      for (const mode of modes) {
        describe(`${name}, ${mode}`, () => {
          // A world of its own per attack: each run is the issue's first, its branch the one to read.
          let world: ActionWorld;
          let asUser: Runner | undefined;
          let secret: string;
          useActionWorld({
            create: async () => {
              ({ world, asUser, secret } = await worldFor(host));
              return world;
            },
          });

          const run = (script: Script) =>
            world.run({
              mode,
              script,
              inputs: { 'gemini-api-key': GEMINI_API_KEY },
              env: { ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN },
              ...(asUser ? { asUser } : {}),
            });

          it('a session file and telemetry file linked to a secret are skipped with a warning, and never published', async () => {
            const r = await run(symlinkAttack(secret));
            const log = r.main.stdout + r.main.stderr;
            const did = await attackRecord(world);
            expect(did, log).toMatch(/symlinked .*\/chats\/session-/);
            expect(did).toMatch(/symlinked .*telemetry\.json/);
            expect(did).not.toContain('SECRET_READABLE');
            expect(log).toMatch(/::warning::skipped the transcript .*session-.*: is a symbolic link/);
            expect(log).toMatch(/::warning::skipped .*telemetry\.json: is a symbolic link/);
            const everything = await publishedText(world);
            for (const s of SECRETS) expect(everything).not.toContain(s);
          });

          it('a session file hard-linked to .git/config is skipped with a warning, and never published', async () => {
            const r = await run(hardlinkAttack);
            const log = r.main.stdout + r.main.stderr;
            const did = await attackRecord(world);
            expect(did, log).toMatch(/hardlinked .*\/chats\/session-/);
            expect(log).toMatch(/::warning::skipped the transcript .*session-.*: has 2 links/);
            const everything = await publishedText(world);
            for (const s of SECRETS) expect(everything).not.toContain(s);
          });

          it('a projects.json pointed at the agent’s own folder is not read: the real session is published, no secret', async () => {
            const r = await run(projectsAttack(secret));
            const log = r.main.stdout + r.main.stderr;
            const did = await attackRecord(world);
            expect(did, log).toMatch(/planted session-/);
            expect(did).toContain('redirected projects.json');
            // The transcript published is the session's own.
            const transcript = r.main.outputs['transcript-path'];
            expect(transcript, log).toBeTruthy();
            expect(await readFile(transcript!, 'utf8')).toContain('Tidied up the session files.');
            const everything = await publishedText(world);
            for (const s of SECRETS) expect(everything).not.toContain(s);
          });
        });
      }
    }
  },
);
