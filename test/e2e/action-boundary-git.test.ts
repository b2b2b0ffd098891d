/**
 * The agent's repository never runs anything with the action's rights. An attacker-agent shapes its `.git` the ways
 * git reads config and commands (`config.worktree` behind `extensions.worktreeConfig`, `include.path`, hooks,
 * `core.worktree`, a `.git` file pointing elsewhere) so that a command it chose runs when git touches the
 * repository: each such command appends `id -u` to a marker. The marker shows the attack ran (as the agent: its
 * export runs as its own user), and never holds the action's uid; the pushed objects hold no secret; a later
 * step's `git status`, `git commit` and `git push` in the workspace, as the runner user, run none of it, nor does
 * its `git status` in a repository the agent nested in the worktree (`sub/.git`, a `gitdir:` file). The tokens
 * two second checkouts of earlier steps persisted inside the workspace (`path: tools` as actions/checkout v4 does,
 * the header in its config; `path: vendor` as v5 does, an includeIf to a file in RUNNER_TEMP) are nowhere the agent
 * can read, and both checkouts have them back after the run. A workspace an earlier agent shaped is refused before
 * anything runs. And the scrub keeps a person's commit that only a tag reaches.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script } from '../../src/fake/gemini-api.js';
import { exec } from '../../src/util/exec.js';
import { ActionWorld } from '../harness/action-job.js';
import { useActionWorld } from '../harness/action-world.js';
import { hostedRunner } from '../harness/hosted-runner.js';
import { scrubbedGitEnv } from '../harness/repo.js';

const GITHUB_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const GEMINI_API_KEY = `AIzaSy${randomBytes(16).toString('hex')}`;
const RUNTIME_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
/** The tokens second checkouts into the workspace persisted (another repository's: a token of their own). */
const TOOLS_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const VENDOR_TOKEN = `ghs_${randomBytes(18).toString('hex')}`;
const basic = (token: string) => Buffer.from(`x-access-token:${token}`).toString('base64');
const SECRETS = [
  GITHUB_TOKEN,
  basic(GITHUB_TOKEN),
  GEMINI_API_KEY,
  RUNTIME_TOKEN,
  ...[TOOLS_TOKEN, VENDOR_TOKEN].flatMap((t) => [t, basic(t)]),
];

const root = process.getuid?.() === 0;
type User = { uid: number; gid: number; home: string };

/**
 * A directory every user can write, holding the attacker's payload and the marker it appends to, and a second
 * pair for the repositories the agent nests in the worktree.
 */
async function trapDir(): Promise<{
  dir: string;
  payload: string;
  marker: string;
  leak: string;
  nestedPayload: string;
  nestedMarker: string;
  found: string;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'gemini-run-trap-'));
  await chmod(dir, 0o777);
  const marker = join(dir, 'ran-as');
  const leak = join(dir, 'leak');
  const payload = join(dir, 'pwn.sh');
  // Records who ran it, tries every secret it can see, and passes stdin through (it serves as a filter too).
  await writeFile(
    payload,
    [
      '#!/bin/sh',
      `id -u >> '${marker}'`,
      `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null; done | grep -E 'ghs_|AIza' >> '${leak}' 2>/dev/null`,
      `[ -n "$GITHUB_ENV" ] && echo 'NODE_OPTIONS=--require=/tmp/pwned.js' >> "$GITHUB_ENV" 2>/dev/null`,
      'cat',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  const nestedMarker = join(dir, 'nested-ran-as');
  const nestedPayload = join(dir, 'nested.sh');
  await writeFile(nestedPayload, `#!/bin/sh\nid -u >> '${nestedMarker}'\n`, { mode: 0o755 });
  const found = join(dir, 'credential-files');
  for (const f of [marker, leak, nestedMarker, found]) {
    await writeFile(f, '');
    await chmod(f, 0o666);
  }
  return { dir, payload, marker, leak, nestedPayload, nestedMarker, found };
}

/** The `AUTHORIZATION: basic` value actions/checkout persists: base64 of `x-access-token:<token>`. */
const header = (token: string) => `AUTHORIZATION: basic ${basic(token)}`;
/** `x-access-token:` in base64: how every such value begins, whatever the token. */
const BASIC_PREFIX = Buffer.from('x-access-token:').toString('base64').slice(0, 20);

/**
 * Two second checkouts an earlier step made inside the workspace, in directories the repository ignores: `tools`
 * as actions/checkout v4 leaves it (the header in its config) and `vendor` as v5 does (an includeIf, for the host's
 * and the container's path of its git directory and their worktrees, to a credentials file of its own in
 * RUNNER_TEMP, which fs.writeFile leaves readable by all). Returns the credentials file.
 */
async function secondCheckouts(world: ActionWorld, runnerTemp: string): Promise<string> {
  const env = scrubbedGitEnv();
  await writeFile(join(world.repo.dir, '.gitignore'), 'tools/\nvendor/\n');
  await world.repo.git(['add', '.gitignore']);
  await world.repo.git(['commit', '-q', '-m', 'Ignore the second checkouts']);
  await world.repo.git(['push', '-q', 'origin', 'main']);
  await world.checkout();
  const git = (cwd: string, args: string[]) => exec('git', args, { cwd, env });
  for (const name of ['tools', 'vendor'])
    await git(world.workspace, ['clone', '-q', world.repo.originDir, join(world.workspace, name)]);
  await git(join(world.workspace, 'tools'), [
    'config',
    'http.https://github.com/.extraheader',
    header(TOOLS_TOKEN),
  ]);
  await mkdir(runnerTemp, { recursive: true, mode: 0o755 });
  const credentials = join(runnerTemp, `git-credentials-${randomUUID()}.config`);
  await git(runnerTemp, [
    'config',
    '--file',
    credentials,
    'http.https://github.com/.extraheader',
    header(VENDOR_TOKEN),
  ]);
  await chmod(credentials, 0o644);
  const vendor = join(world.workspace, 'vendor');
  const container = `/github/runner_temp/${basename(credentials)}`;
  for (const [gitDir, file] of [
    [join(vendor, '.git'), credentials],
    [join(vendor, '.git', 'worktrees', '*'), credentials],
    ['/github/workspace/vendor/.git', container],
    ['/github/workspace/vendor/.git/worktrees/*', container],
  ] as const)
    await git(vendor, ['config', '--add', `includeIf.gitdir:${gitDir}.path`, file]);
  return credentials;
}

/** Where the planting agent nests repositories: `sub/.git`, `pkg/.git`, and `lib/.git` pointing elsewhere. */
const NESTED = ['sub', 'pkg', 'lib'];

/** Shell commands that make a repository (with a commit: the leftover `git add` takes it in) run `payload`. */
function nestedRepo(dir: string, payload: string): string[] {
  return [
    `git init -q '${dir}'`,
    `git -C '${dir}' commit -q --allow-empty -m inner`,
    `git -C '${dir}' config core.fsmonitor 'sh ${payload}'`,
  ];
}

function shell(command: string, description: string): Script['steps'][number] {
  return { functionCalls: [{ name: 'run_shell_command', args: { command, description } }] };
}

/**
 * Plants every way git runs a command, nests repositories whose fsmonitor is `nestedPayload` (one of them through a
 * `gitdir:` file into `elsewhere`, a path in the workspace: the take-back makes it the runner's, so git's ownership
 * check would not stop it), and leaves an uncommitted file so the leftover commit runs `git add`.
 */
function plantingAttacker(payload: string, nestedPayload: string, elsewhere: string, found: string): Script {
  const hooks = [
    'pre-commit',
    'post-commit',
    'post-checkout',
    'reference-transaction',
    'pre-push',
    'post-index-change',
  ];
  return {
    description: 'an agent planting commands in its .git for whoever runs git next',
    steps: [
      // First it looks for a persisted token in every file it can read below the workspace and the runner temp
      // (where its own directory is): the names of the files that hold one, never the token itself.
      shell(
        `grep -rlIi -e 'authorization: basic' -e '${BASIC_PREFIX}' . "$TMPDIR/../.." > '${found}' 2>/dev/null; true`,
        'Look around',
      ),
      shell(
        [
          'git config extensions.worktreeConfig true',
          `git config --worktree filter.pwn.clean 'sh ${payload}'`,
          `git config --worktree filter.pwn.smudge 'sh ${payload}'`,
          `printf '[core]\\n\\tfsmonitor = sh ${payload}\\n[filter "inc"]\\n\\tclean = sh ${payload}\\n' > .git/pwn.inc`,
          'git config include.path pwn.inc',
          `git config includeIf.gitdir:/.path pwn.inc`,
          `printf '* filter=pwn\\n' > .gitattributes`,
          ...hooks.map(
            (h) =>
              `printf '#!/bin/sh\\nsh ${payload} </dev/null\\n' > .git/hooks/${h} && chmod +x .git/hooks/${h}`,
          ),
          'mkdir -p .git/info && printf "* filter=pwn\\n" > .git/info/attributes',
          'echo planted > PLANTED.txt',
          ...nestedRepo('sub', nestedPayload),
          ...nestedRepo('pkg', nestedPayload),
          ...nestedRepo(elsewhere, nestedPayload),
          `mkdir lib && printf 'gitdir: ../%s/.git\\n' '${elsewhere}' > lib/.git`,
          'echo uncommitted > LEFT.txt',
        ].join(' && '),
        'Plant',
      ),
      { text: 'Planted.' },
    ],
  };
}

const coreWorktreeAttacker: Script = {
  description:
    'an agent pointing core.worktree at the runner temp, where the run dir and credential stash live',
  steps: [
    shell(
      'echo work > WORK.txt && git add WORK.txt && git commit -q -m "Some work" && git config core.worktree "$TMPDIR/../.."',
      'Redirect',
    ),
    { text: 'Redirected.' },
  ],
};

const gitFileAttacker: Script = {
  description: 'an agent replacing .git with a file that points at a repository of its own',
  steps: [
    shell(
      [
        'cp -r .git "$TMPDIR/evil.git"',
        'rm -rf .git',
        'printf "gitdir: %s\\n" "$TMPDIR/evil.git" > .git',
        'echo evil > EVIL.txt',
        'git add EVIL.txt',
        'git commit -q -m "From elsewhere"',
      ].join(' && '),
      'Move',
    ),
    { text: 'Moved.' },
  ],
};

const releases: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const release of releases.splice(0)) await release();
});

/** Runs git in the workspace as a later workflow step would: the runner user, the job's environment. */
async function laterStep(world: ActionWorld, asUser: User | undefined, args: string[]) {
  const as = asUser ? ['setpriv', `--reuid=${asUser.uid}`, `--regid=${asUser.gid}`, '--clear-groups'] : [];
  const [file, ...rest] = [...as, 'git', ...args] as [string, ...string[]];
  return exec(file, rest, {
    cwd: world.workspace,
    allowAllExitCodes: true,
    env: {
      ...scrubbedGitEnv(),
      HOME: asUser?.home ?? process.env.HOME ?? '/root',
      GIT_AUTHOR_NAME: 'Later Step',
      GIT_AUTHOR_EMAIL: 'later@example.invalid',
      GIT_COMMITTER_NAME: 'Later Step',
      GIT_COMMITTER_EMAIL: 'later@example.invalid',
    },
  });
}

/** Every object the origin holds, as text: no secret may be in any of them. */
async function originObjects(world: ActionWorld): Promise<string> {
  const r = await exec(
    'git',
    ['--git-dir', world.repo.originDir, 'cat-file', '--batch-all-objects', '--batch', '--unordered'],
    { env: scrubbedGitEnv() },
  );
  return r.stdout;
}

async function uidsIn(file: string): Promise<number[]> {
  return (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
}

describe.skipIf(!root)("the action never runs git in the agent's repository (attacker agent)", () => {
  for (const host of ['root', 'hosted'] as const) {
    for (const mode of ['interactive', 'headless'] as const) {
      describe(`as ${host === 'root' ? 'root' : 'a hosted runner (passwordless sudo)'}, ${mode}`, () => {
        let world: ActionWorld;
        let asUser: User | undefined;
        let trap: Awaited<ReturnType<typeof trapDir>>;
        /** The job's RUNNER_TEMP, where the second checkout persisted its credentials file. */
        let runnerTemp: string;
        let credentials: string;
        useActionWorld({
          shared: true,
          create: async () => {
            world = await ActionWorld.create({ token: GITHUB_TOKEN });
            runnerTemp = join(world.tmp, '_temp');
            credentials = await secondCheckouts(world, runnerTemp);
            // What the agent's search must find (so it can fail): a file in each place it reads.
            await writeFile(join(world.workspace, 'tools', 'DECOY.txt'), 'AUTHORIZATION: basic decoy\n');
            await writeFile(join(runnerTemp, 'decoy.config'), 'AUTHORIZATION: basic decoy\n', {
              mode: 0o644,
            });
            return world;
          },
        });
        beforeAll(async () => {
          if (host === 'hosted') {
            const hosted = await hostedRunner(world);
            asUser = hosted.user;
            releases.push(hosted.release);
          }
          trap = await trapDir();
        });
        afterAll(async () => {
          await rm(trap.dir, { recursive: true, force: true });
        });

        it('planted filters, includes, worktree config and hooks run only as the agent, never as us or a later step', async () => {
          const envFile = join(trap.dir, `github-env-${mode}`);
          await writeFile(envFile, '');
          if (asUser) await exec('chown', [`${asUser.uid}:${asUser.gid}`, envFile]);
          const r = await world.run({
            mode,
            script: plantingAttacker(trap.payload, trap.nestedPayload, '.hidden/elsewhere', trap.found),
            // The planted `.gitattributes` is a protected path: allowed here, so the push and a later step happen.
            inputs: { 'gemini-api-key': GEMINI_API_KEY, 'protected-paths-policy': 'allow' },
            env: { ACTIONS_RUNTIME_TOKEN: RUNTIME_TOKEN, GITHUB_ENV: envFile, RUNNER_TEMP: runnerTemp },
            ...(asUser ? { asUser } : {}),
          });
          expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
          const agentUid = Number(/The agent runs as gemini-agent-\d+ \(uid (\d+)/.exec(r.main.stdout)?.[1]);
          expect(agentUid).toBeGreaterThan(0);
          // The attack ran: the agent's own export ran its filter (git add of LEFT.txt) as the agent.
          const ranAs = await uidsIn(trap.marker);
          expect(ranAs.length).toBeGreaterThan(0);
          expect(new Set(ranAs)).toEqual(new Set([agentUid]));
          expect(await world.originFile('gemini-run/issue-1', 'LEFT.txt')).toContain('uncommitted');

          // The workspace's .git is the action's again: no key, include, hook or attribute of the agent's.
          const config = await readFile(join(world.workspace, '.git', 'config'), 'utf8');
          expect(config).not.toMatch(/worktreeConfig|pwn|fsmonitor|include/i);
          expect(config).toContain('extraheader'); // the checkout's credential is back
          await expect(readFile(join(world.workspace, '.git', 'config.worktree'))).rejects.toThrow();
          await expect(readFile(join(world.workspace, '.git', 'info', 'attributes'))).rejects.toThrow();
          await expect(readFile(join(world.workspace, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();

          // A later step works in the workspace and runs nothing the agent planted.
          const status = await laterStep(world, asUser, ['status', '--porcelain']);
          expect(status.exitCode, status.stderr).toBe(0);
          expect(status.stdout.trim()).toBe('');
          await writeFile(join(world.workspace, 'later.txt'), 'later\n');
          if (asUser)
            await exec('chown', [`${asUser.uid}:${asUser.gid}`, join(world.workspace, 'later.txt')]);
          expect((await laterStep(world, asUser, ['add', '-A'])).exitCode).toBe(0);
          const commit = await laterStep(world, asUser, ['commit', '-q', '-m', 'Later']);
          expect(commit.exitCode, commit.stderr).toBe(0);
          const push = await laterStep(world, asUser, ['push', '-q', 'origin', 'HEAD:refs/heads/later-step']);
          expect(push.exitCode, push.stderr).toBe(0);
          expect(new Set(await uidsIn(trap.marker))).toEqual(new Set([agentUid]));

          // The repositories the agent nested are gone (and named in the log): a later step's git status in
          // each finds the workspace's .git and runs none of their fsmonitors.
          for (const dir of NESTED) {
            const nested = await laterStep(world, asUser, ['-C', dir, 'status', '--porcelain']);
            expect(nested.exitCode, `${dir}: ${nested.stderr}`).toBe(0);
          }
          expect((await uidsIn(trap.nestedMarker)).filter((uid) => uid !== agentUid)).toEqual([]);
          expect(r.main.stdout).toMatch(
            /Removed 4 nested repositories left in the workspace[^\n]*: \.hidden\/elsewhere\/\.git, lib\/\.git, pkg\/\.git, sub\/\.git$/m,
          );

          // The second checkouts' tokens were nowhere the agent could read: it found only the decoys...
          const found = (await readFile(trap.found, 'utf8')).split('\n').filter(Boolean).sort();
          expect(found).toEqual(['./tools/DECOY.txt', expect.stringMatching(/\/\.\.\/\.\.\/decoy\.config$/)]);
          // ...and both checkouts are back as they were, credentials included, for a later step.
          expect(r.main.stdout).toMatch(
            /Kept 2 nested repositories that were there before the run[^\n]*: tools\/\.git, vendor\/\.git$/m,
          );
          // (Compared as booleans: a failing diff would print the token.)
          const toolsConfig = await readFile(join(world.workspace, 'tools', '.git', 'config'), 'utf8');
          expect(toolsConfig.includes(header(TOOLS_TOKEN)), 'tools has its header back').toBe(true);
          const vendorFile = await readFile(credentials, 'utf8');
          expect(vendorFile.includes(header(VENDOR_TOKEN)), 'vendor has its credentials file back').toBe(
            true,
          );
          const includes = await laterStep(world, asUser, [
            '-C',
            'vendor',
            'config',
            '--get-regexp',
            '^includeif\\.',
          ]);
          expect(includes.stdout.trim().split('\n')).toHaveLength(4);
          const vendorHeader = await laterStep(world, asUser, [
            '-C',
            'vendor',
            'config',
            'http.https://github.com/.extraheader',
          ]);
          expect(vendorHeader.stdout.trim() === header(VENDOR_TOKEN), 'vendor sees its credential').toBe(
            true,
          );

          expect(await readFile(envFile, 'utf8')).toBe('');
          const leak = await readFile(trap.leak, 'utf8');
          const objects = await originObjects(world);
          for (const secret of SECRETS) {
            expect(leak).not.toContain(secret);
            expect(objects).not.toContain(secret);
            expect(world.visibleText()).not.toContain(secret);
          }
        });
      });
    }
  }

  describe('as root, interactive', () => {
    let world: ActionWorld;
    // Each case on a repository of its own: a run branch one case left would be the next one's base.
    useActionWorld({ create: async () => (world = await ActionWorld.create({ token: GITHUB_TOKEN })) });

    it('core.worktree pointed at the runner temp publishes nothing of ours, and is gone after the run', async () => {
      await world.checkout();
      const r = await world.run({
        script: coreWorktreeAttacker,
        // What the agent's `git add` took from the runner temp holds its home's `.gemini/` (a protected path):
        // allowed here, so what was pushed can be searched.
        inputs: { 'gemini-api-key': GEMINI_API_KEY, 'protected-paths-policy': 'allow' },
      });
      expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
      // The agent's commit went out; whatever its user's `git add` then took from the runner temp is the agent's
      // own reach (its leftover commit), never ours: no secret, no credential stash, no file of the run dir.
      expect(await world.originLog('gemini-run/issue-1')).toContain('Some work');
      const tree = await exec(
        'git',
        ['--git-dir', world.repo.originDir, 'ls-tree', '-r', '--name-only', 'gemini-run/issue-1'],
        {
          env: scrubbedGitEnv(),
        },
      );
      expect(tree.stdout).not.toMatch(/credentials|included-\d|gemini-run-[A-Za-z0-9]{6}\//);
      const objects = await originObjects(world);
      for (const secret of SECRETS) expect(objects).not.toContain(secret);
      expect(objects).not.toContain('config-entries');
      const config = await readFile(join(world.workspace, '.git', 'config'), 'utf8');
      expect(config).not.toMatch(/worktree\s*=/);
      const status = await laterStep(world, undefined, ['status', '--porcelain']);
      expect(status.exitCode, status.stderr).toBe(0);
    });

    it('a .git file pointing at a repository of the agent’s is followed only by the agent; the workspace gets a .git directory back', async () => {
      await world.checkout();
      const r = await world.run({ script: gitFileAttacker, inputs: { 'gemini-api-key': GEMINI_API_KEY } });
      expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
      expect(await world.originFile('gemini-run/issue-1', 'EVIL.txt')).toContain('evil');
      const st = await exec('stat', ['-c', '%F', join(world.workspace, '.git')]);
      expect(st.stdout.trim()).toBe('directory');
      const status = await laterStep(world, undefined, ['status', '--porcelain']);
      expect(status.exitCode, status.stderr).toBe(0);
      expect(status.stdout.trim()).toBe('');
    });

    it('a workspace an earlier agent shaped is refused in one line, before anything runs', async () => {
      const trap = await trapDir();
      try {
        await world.checkout();
        const git = (args: string[]) => exec('git', args, { cwd: world.workspace, env: scrubbedGitEnv() });
        await git(['config', 'extensions.worktreeConfig', 'true']);
        await writeFile(
          join(world.workspace, '.git', 'config.worktree'),
          `[filter "pwn"]\n\tclean = sh ${trap.payload}\n`,
        );
        await writeFile(join(world.workspace, '.gitattributes'), '* filter=pwn\n');
        await git(['add', '.gitattributes']).catch(() => undefined);
        await git(['commit', '-q', '-m', 'attributes']).catch(() => undefined);
        await writeFile(trap.marker, '');
        const r = await world.run({
          script: coreWorktreeAttacker,
          inputs: { 'gemini-api-key': GEMINI_API_KEY },
        });
        expect(r.main.exitCode).toBe(1);
        const errors = r.main.stdout.split('\n').filter((l) => l.startsWith('::error::'));
        expect(errors).toEqual([expect.stringMatching(/extensions\.worktreeconfig.*fresh checkout/i)]);
        expect(r.gemini.modelRequests()).toHaveLength(0);
        expect(await uidsIn(trap.marker)).toEqual([]);
      } finally {
        await rm(trap.dir, { recursive: true, force: true });
      }
    });

    it("the scrub keeps a person's commit that only a tag of the remote reaches", async () => {
      await world.checkout();
      // A person's commit, with an attribution line of their own, reachable from the remote only by a tag.
      const originGit = (args: string[], input?: string) =>
        exec('git', ['--git-dir', world.repo.originDir, ...args], {
          env: scrubbedGitEnv(),
          ...(input ? { input } : {}),
        });
      const tree = (await originGit(['rev-parse', 'main^{tree}'])).stdout.trim();
      const parent = (await originGit(['rev-parse', 'main'])).stdout.trim();
      const human = (
        await exec('git', ['--git-dir', world.repo.originDir, 'commit-tree', tree, '-p', parent], {
          env: {
            ...scrubbedGitEnv(),
            GIT_AUTHOR_NAME: 'Pat',
            GIT_AUTHOR_EMAIL: 'pat@example.invalid',
            GIT_COMMITTER_NAME: 'Pat',
            GIT_COMMITTER_EMAIL: 'pat@example.invalid',
          },
          input: "Pat's change\n\nCo-authored-by: Gemini <gemini@example.invalid>\n",
        })
      ).stdout.trim();
      await originGit(['tag', 'pats-tag', human]);
      // The agent reaches the tagged commit (as if it fetched the tag) and builds on it.
      const script: Script = {
        description: 'an agent building on a tagged commit',
        steps: [
          shell(
            `git merge -q --ff-only ${human} && echo more > MORE.txt && git add MORE.txt && git commit -q -m "More" -m "Co-authored-by: Gemini <gemini@example.invalid>"`,
            'Build on it',
          ),
          { text: 'Built on it.' },
        ],
      };
      // The checkout has the object (as a fetch of the tag would) but no ref to it: only the remote's tag reaches it.
      await exec('git', ['fetch', '-q', '--no-tags', world.repo.originDir, 'refs/tags/pats-tag'], {
        cwd: world.workspace,
        env: scrubbedGitEnv(),
      });
      const r = await world.run({ script, inputs: { 'gemini-api-key': GEMINI_API_KEY } });
      expect(r.main.outputs.status, r.main.stdout + r.main.stderr).toBe('finished');
      const ancestor = await originGit(['merge-base', '--is-ancestor', human, 'gemini-run/issue-1']).catch(
        (e: unknown) => e,
      );
      expect(ancestor).toMatchObject({ exitCode: 0 });
      const log = await world.originLog('gemini-run/issue-1');
      // The agent's own commit lost its attribution; the person's kept theirs.
      expect(log).toContain("Pat's change\n\nCo-authored-by: Gemini");
      expect(log).toMatch(/\nMore\n/);
      expect(log.split('--end--').filter((c) => c.includes('More'))[0]).not.toContain('Co-authored-by');
    });
  });
});
