/**
 * Every mistake a new team can make in the workflow or on the runner, run through `dist/index.js` as a runner
 * does, with GitHub unreachable and again with the fake GitHub: each ends `misconfigured` within 2 s, with its
 * exact one-line `::error`, a job summary saying what to fix, no stack outside `::debug::`, no request to GitHub
 * before the mistake was found — and then, with GitHub there and the actor admitted, one comment naming the fix.
 * No gemini runs: every case fails before it would.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec } from '../../src/util/exec.js';
import { hostedRunner, type RunnerUser } from '../harness/hosted-runner.js';
import {
  ActionWorld,
  GEMINI_API_KEY,
  GEMINI_JS,
  ROOT,
  parseFileCommand,
  runNode,
} from '../harness/action-job.js';

interface Case {
  name: string;
  inputs?: Record<string, string>;
  /** Step environment changes; undefined deletes the variable. */
  env?: (dirs: Dirs) => Record<string, string | undefined>;
  /** The event file's text (default: the issue labeled by the case's actor). */
  event?: string;
  /** The `::error::` line's text, exactly. */
  error: RegExp;
  /** The event names an issue and an admitted actor, so the issue is told (default true). */
  told?: boolean;
}

interface Dirs {
  /** A PATH with no tmux, no apt-get and no setfacl (only what the cases need). */
  bare: string;
  /** A PATH whose apt-get fails. */
  aptFails: string;
  /** A PATH whose apt-get "installs" a stub tmux (into its own directory). */
  aptWorks: string;
  /** The same for a hosted runner's user, with a sudo that records how it was asked. */
  aptWorksSudo: string;
  empty: string;
}

const CREDS = { access_token: 'ya29.' + 'a'.repeat(30), refresh_token: '1//0' + 'r'.repeat(40) };
const { refresh_token: _dropped, ...ACCESS_ONLY } = CREDS;

const CASES: Case[] = [
  {
    name: 'an unknown mode',
    inputs: { mode: 'turbo' },
    // The value is echoed, so a typo shows at once.
    error: /^Invalid input: 'mode' must be interactive or headless, not 'turbo'\.$/,
  },
  {
    name: 'an unknown approval-mode',
    inputs: { 'approval-mode': 'wild' },
    error: /^Invalid input: 'approval-mode' must be one of: .*, not 'wild'\.$/,
  },
  {
    name: 'timeout-minutes 0',
    inputs: { 'timeout-minutes': '0' },
    error: /^Invalid input: 'timeout-minutes' must be .*above 0 and at most 360.*\.$/,
  },
  {
    name: 'a negative max-tokens',
    inputs: { 'max-tokens': '-5' },
    error: /^Invalid input: 'max-tokens' .*\.$/,
  },
  {
    name: 'gemini-version latest',
    inputs: { 'gemini-version': 'latest' },
    error: /^Invalid input: 'gemini-version' must be an exact version like \d+\.\d+\.\d+, not 'latest'\.$/,
  },
  {
    name: 'a branch-prefix with a space',
    inputs: { 'branch-prefix': 'my branch/' },
    error: /^Invalid input: 'branch-prefix' may only contain .*\.$/,
  },
  {
    name: 'a trigger-assignee that is no login',
    inputs: { 'trigger-assignee': 'not a login!' },
    error: /^Invalid input: 'trigger-assignee' must be a GitHub login, not 'not a login!'\.$/,
  },
  {
    name: 'settings that are not JSON',
    inputs: { settings: '{not json' },
    error: /^Invalid input: .*settings.*\.$/,
  },
  {
    name: "isolation 'root'",
    inputs: { isolation: 'root' },
    error: /^Invalid input: 'isolation' must be 'user' or 'none', not 'root'\.$/,
  },
  {
    name: "draft 'yes'",
    inputs: { draft: 'yes' },
    error: /^Invalid input: 'draft' must be 'true' or 'false', not 'yes'\.$/,
  },
  {
    name: 'two bad inputs at once',
    inputs: { mode: 'turbo', 'use-vertex-ai': 'maybe' },
    error:
      /^Invalid input: 'use-vertex-ai' must be 'true' or 'false', not 'maybe'; 'mode' must be interactive or headless, not 'turbo'\.$/,
  },
  {
    name: 'an unknown model',
    inputs: { model: 'gemini-9-ultra' },
    error: /^Unknown model 'gemini-9-ultra': use one of auto, .*gemini-2\.5-flash.* \(empty = auto\)\.$/,
  },
  {
    name: 'both an API key and OAuth creds',
    inputs: { 'gemini-oauth-creds': JSON.stringify(CREDS) },
    error:
      /^Configure exactly one Gemini auth method, not 'gemini-oauth-creds' and 'gemini-api-key': remove all but one of them\.$/,
  },
  {
    name: 'no Gemini auth at all',
    inputs: { 'gemini-api-key': '' },
    error:
      /^No Gemini auth configured: set 'gemini-api-key', 'gemini-oauth-creds' or 'use-vertex-ai', or run 'gemini-run login' on the self-hosted runner \(looked for .*oauth_creds\.json\)\.$/,
  },
  {
    name: 'OAuth creds without a refresh_token',
    inputs: { 'gemini-api-key': '', 'gemini-oauth-creds': JSON.stringify(ACCESS_ONLY) },
    error:
      /^'gemini-oauth-creds' has no refresh_token, so its access token cannot be renewed: paste the whole oauth_creds\.json that 'gemini-run login' wrote\.$/,
  },
  {
    name: 'OAuth creds that are not JSON',
    inputs: { 'gemini-api-key': '', 'gemini-oauth-creds': '{"access_token": "ya29.cut-off' },
    error:
      /^'gemini-oauth-creds' is not valid JSON \(nor base64 of JSON\): paste the whole oauth_creds\.json\.$/,
  },
  {
    name: 'Vertex AI without a project',
    inputs: { 'gemini-api-key': '', 'use-vertex-ai': 'true' },
    error: /^Vertex AI needs a project: set 'google-cloud-project' .*\.$/,
  },
  {
    name: 'a gemini-path that does not exist',
    inputs: { 'gemini-path': '/nonexistent/gemini' },
    error: /^The gemini at \/nonexistent\/gemini does not run \('--version' failed\): check 'gemini-path'\.$/,
  },
  {
    name: 'a gemini-version the gemini-path binary is not',
    inputs: { 'gemini-path': GEMINI_JS, 'gemini-version': '0.61.0' },
    error:
      /^'gemini-version' is 0\.61\.0 but the gemini at .*gemini\.js is 0\.42\.0: drop one of the two, or point 'gemini-path' at a gemini 0\.61\.0\.$/,
  },
  {
    name: 'an unchecked gemini-version',
    inputs: { 'gemini-version': '0.41.0' },
    error:
      /^gemini 0\.41\.0 has not been checked by gemini-run's probes \(checked: .*\): use one of those, or set 'allow-unchecked-gemini-version: true' .*$/,
  },
  {
    name: 'a macOS runner',
    env: () => ({ RUNNER_OS: 'macOS' }),
    error:
      /^gemini-run runs on Linux runners only, and this one is macOS: set 'runs-on: ubuntu-latest' \(or a self-hosted Linux runner\)\.$/,
  },
  {
    name: 'a Windows runner',
    env: () => ({ RUNNER_OS: 'Windows' }),
    error:
      /^gemini-run runs on Linux runners only, and this one is Windows: set 'runs-on: ubuntu-latest' .*\.$/,
  },
  {
    name: 'no GitHub token',
    inputs: { 'github-token': '' },
    env: () => ({ GITHUB_TOKEN: undefined }),
    error: /^No GitHub token: set 'github-token' \(the default is \$\{\{ github\.token \}\}\)\.$/,
    told: false,
  },
  {
    name: 'a workspace that is not a checkout',
    env: (d) => ({ GITHUB_WORKSPACE: d.empty }),
    error:
      /^The workspace .* \(GITHUB_WORKSPACE\) is not a git checkout: add a step 'uses: actions\/checkout@v5' before gemini-run\.$/,
  },
  {
    name: 'a workspace that does not exist',
    env: (d) => ({ GITHUB_WORKSPACE: join(d.empty, 'gone') }),
    error:
      /^The workspace .*gone \(GITHUB_WORKSPACE\) does not exist: add a step 'uses: actions\/checkout@v5' before gemini-run\.$/,
  },
  {
    name: 'interactive without tmux, and no apt-get to install it',
    inputs: { mode: 'interactive' },
    env: (d) => ({ PATH: d.bare }),
    error:
      /^tmux is not installed, and this runner cannot install it \(no apt-get, or no passwordless sudo\): add a step 'sudo apt-get install -y tmux' before gemini-run, or set 'mode: headless'\.$/,
  },
  {
    name: 'interactive without tmux, and apt-get fails',
    inputs: { mode: 'interactive' },
    env: (d) => ({ PATH: d.aptFails }),
    error:
      /^tmux is not installed, and installing it failed \(E: Unable to locate package tmux\): add a step 'sudo apt-get install -y tmux' .*\.$/,
  },
  {
    name: 'isolation user without setfacl',
    inputs: { isolation: 'user' },
    env: (d) => ({ PATH: d.bare }),
    // As root (CI) setfacl is what is missing; as anyone else, the sudo this PATH lacks too.
    error:
      /^The agent cannot be isolated on this host: (no 'setfacl' \(package acl\)\. Install it|it is not root, has no passwordless sudo.*'sudo gemini-run setup --agent-users 4 --runner-user \S+', then re-run).*set both 'isolation: none' and 'network: open'\.$/,
  },
  {
    name: 'an empty event file',
    event: '',
    error: /^Cannot read the event payload at .*event\.json: it is missing or not JSON\.$/,
    told: false,
  },
  {
    name: 'no GITHUB_WORKSPACE',
    env: () => ({ GITHUB_WORKSPACE: undefined }),
    error: /^This does not look like a GitHub Actions job: GITHUB_WORKSPACE is not set\.$/,
    told: false,
  },
];

const STACK = /^\s+at |SyntaxError|TypeError|node:internal/m;

let world: ActionWorld;
let dirs: Dirs;
let closedPort: number;
let cases = 0;

async function fakeBin(dir: string, files: Record<string, string>, links: string[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    await chmod(join(dir, name), 0o755);
  }
  for (const name of links) await symlink(`/usr/bin/${name}`, join(dir, name));
  return dir;
}

beforeAll(async () => {
  world = await ActionWorld.create();
  await world.checkout();
  const bin = await mkdtemp(join(world.tmp, 'bin-'));
  // The root's path and a hosted runner's (sudo -n) alike: the fake sudo only runs what it is given.
  const sudo = '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n';
  dirs = {
    bare: await fakeBin(join(bin, 'bare'), {}, []),
    aptFails: await fakeBin(
      join(bin, 'apt-fails'),
      {
        sudo,
        'apt-get':
          '#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "E: Unable to locate package tmux" >&2\nexit 100\n',
      },
      ['timeout', 'env'],
    ),
    aptWorks: join(bin, 'apt-works'),
    aptWorksSudo: '',
    empty: await mkdtemp(join(world.tmp, 'not-a-checkout-')),
  };
  const tmuxStub = '#!/bin/sh\necho "tmux 3.4"\n';
  const installs = `#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "Setting up tmux (3.4-1) ..."\nprintf '%s' '${tmuxStub}' > "$(dirname "$0")/tmux"\nchmod +x "$(dirname "$0")/tmux"\n`;
  const tools = ['timeout', 'env', 'dirname', 'chmod'];
  await fakeBin(dirs.aptWorks, { sudo, 'apt-get': installs }, tools);
  dirs.aptWorksSudo = await fakeBin(
    join(bin, 'apt-works-sudo'),
    {
      sudo: `#!/bin/sh\nprintf "%s\\n" "$*" >> "$(dirname "$0")/sudo.log"\n${sudo.slice(10)}`,
      'apt-get': installs,
    },
    [...tools, 'true'],
  );
  closedPort = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
});

afterAll(async () => {
  await world?.[Symbol.asyncDispose]();
});

/**
 * Two steps at a time, as many as CI has cores: a step's 2 s are its own, not a queue's (loading the bundle alone
 * is ~0.6 s of CPU).
 */
let running = 0;
const waiting: (() => void)[] = [];
async function slot(): Promise<void> {
  if (running >= 2) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
}
function release(): void {
  running--;
  waiting.shift()?.();
}

interface Step {
  exitCode: number;
  stdout: string;
  ms: number;
  outputs: Record<string, string>;
  summary: string;
}

/** One step of `dist/index.js` for a case: its own issue and admitted actor, its own files. */
async function runCase(
  c: Pick<Case, 'inputs' | 'env' | 'event'>,
  apiUrl: string,
  actor: string,
  issue: number,
  asUser?: RunnerUser,
): Promise<Step> {
  const dir = await mkdtemp(join(world.tmp, 'step-'));
  const files = {
    event: join(dir, 'event.json'),
    output: join(dir, 'output'),
    summary: join(dir, 'summary.md'),
  };
  await writeFile(files.event, c.event ?? JSON.stringify(world.labeledPayload('gemini-run', actor, issue)));
  for (const f of [files.output, files.summary, join(dir, 'state')]) await writeFile(f, '');
  const home = join(dir, 'home');
  await mkdir(home);
  if (asUser) await exec('chown', ['-R', `${asUser.uid}:${asUser.gid}`, dir]);
  const inputs: Record<string, string> = {
    'github-token': world.token,
    'gemini-api-key': GEMINI_API_KEY,
    model: 'gemini-2.5-flash',
    mode: 'headless',
    isolation: 'none',
    network: 'open',
    ...c.inputs,
  };
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'issues',
    GITHUB_EVENT_PATH: files.event,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_API_URL: apiUrl,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: world.workspace,
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: files.output,
    GITHUB_STATE: join(dir, 'state'),
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_TOKEN: world.token,
    RUNNER_TEMP: dir,
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...c.env?.(dirs),
  };
  await slot();
  const clean = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const started = Date.now();
  const r = await runNode(join(ROOT, 'dist', 'index.js'), clean, dir, asUser).finally(release);
  const ms = Date.now() - started;
  const step = {
    exitCode: r.exitCode,
    stdout: `${r.stdout}\n${r.stderr}`,
    ms,
    outputs: parseFileCommand(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
  };
  await rm(dir, { recursive: true, force: true });
  return step;
}

/**
 * What every case shows, wherever GitHub is: the exact one line, the status, the summary, no stack, and no waiting.
 * The bound is not a speed check (the cases run at once, on a shared machine: a step takes 0.3–5 s); it catches a
 * step that waits for something (a retry, a network timeout, the run's own timeout), which takes longer.
 */
function expectMisconfigured(step: Step, error: RegExp): string {
  const errors = step.stdout.split('\n').filter((l) => l.startsWith('::error::'));
  expect(errors, step.stdout).toHaveLength(1);
  const line = errors[0]!.slice('::error::'.length);
  expect(line).toMatch(error);
  expect(step.exitCode).toBe(1);
  expect(step.outputs.status).toBe('misconfigured');
  expect(step.summary).toMatch(/^## gemini-run: 🔧 misconfigured\n/);
  expect(step.summary).toMatch(/\*\*What to do next:\*\* \S/);
  const shown = step.stdout
    .split('\n')
    .filter((l) => !l.startsWith('::debug::'))
    .join('\n');
  expect(shown).not.toMatch(STACK);
  expect(step.ms, `${step.ms} ms`).toBeLessThan(15_000);
  return line;
}

describe.each(['unreachable', 'the fake GitHub'] as const)('a misconfigured run, GitHub %s', (where) => {
  it.concurrent.each(CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const n = ++cases;
    const actor = `maintainer${n}`;
    world.github.setPermission(actor, 'write');
    const issue = world.github.addIssue({ title: `Case ${n}`, body: c.name, user: actor });
    const reachable = where === 'the fake GitHub';
    const step = await runCase(
      c,
      reachable ? world.github.url : `http://127.0.0.1:${closedPort}`,
      actor,
      issue,
    );
    const line = expectMisconfigured(step, c.error);
    const asked = world.github.requests
      .filter((q) => q.path.includes(`/collaborators/${actor}/`) || q.path.includes(`/issues/${issue}/`))
      .map((q) => `${q.method} ${q.path}`);
    const told = reachable && c.told !== false;
    // Nothing was asked of GitHub before the mistake; then whether the actor may run it, and one comment.
    expect(asked).toEqual(
      told
        ? [
            `GET /repos/acme/widgets/collaborators/${actor}/permission`,
            `POST /repos/acme/widgets/issues/${issue}/comments`,
          ]
        : [],
    );
    const comments = world.github.comments(issue).map((x) => x.body);
    if (!told) return expect(comments).toEqual([]);
    expect(comments).toHaveLength(1);
    expect(comments[0]).toContain('gemini-run ended `misconfigured`: ');
    expect(comments[0]).toContain(line.split('/')[0]!);
    expect(comments[0]).not.toMatch(/refused the credentials|consumer Google/);
  });
});

describe('the hosted runner installs tmux itself', () => {
  it('apt-get in a log group, then the next check', async () => {
    const n = ++cases;
    const actor = `maintainer${n}`;
    world.github.setPermission(actor, 'write');
    const issue = world.github.addIssue({ title: `Case ${n}`, body: 'tmux', user: actor });
    const step = await runCase(
      {
        inputs: { mode: 'interactive', 'gemini-path': '/nonexistent/gemini' },
        env: (d) => ({ PATH: d.aptWorks }),
      },
      `http://127.0.0.1:${closedPort}`,
      actor,
      issue,
    );
    expectMisconfigured(step, /^The gemini at \/nonexistent\/gemini does not run/);
    expect(step.stdout).toMatch(
      /::group::Installing tmux \(mode: interactive\)\nSetting up tmux \(3\.4-1\) \.\.\.\n::endgroup::\nInstalled tmux 3\.4\./,
    );
  });
});

describe("a hosted runner's user installs tmux through sudo -n", () => {
  it.skipIf(process.getuid?.() !== 0)('the same install, asked of sudo without a password', async () => {
    const n = ++cases;
    const actor = `maintainer${n}`;
    world.github.setPermission(actor, 'write');
    const issue = world.github.addIssue({ title: `Case ${n}`, body: 'tmux', user: actor });
    const { user, release: letGo } = await hostedRunner(world);
    try {
      const step = await runCase(
        {
          inputs: { mode: 'interactive', 'gemini-path': '/nonexistent/gemini' },
          env: (d) => ({ PATH: d.aptWorksSudo }),
        },
        `http://127.0.0.1:${closedPort}`,
        actor,
        issue,
        user,
      );
      expectMisconfigured(step, /^The gemini at \/nonexistent\/gemini does not run/);
      expect(step.stdout).toMatch(/Setting up tmux \(3\.4-1\) \.\.\.\n::endgroup::\nInstalled tmux 3\.4\./);
      const asked = await readFile(join(dirs.aptWorksSudo, 'sudo.log'), 'utf8');
      expect(asked.split('\n')).toEqual([
        '-n true',
        '-n timeout -k 10 150 env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends tmux',
        '',
      ]);
    } finally {
      await letGo();
    }
  });
});

describe('a stranger', () => {
  it('a stranger who triggers a misconfigured run is not answered', async () => {
    const issue = world.github.addIssue({ title: 'stranger', body: 'x', user: 'mallory' });
    const step = await runCase({ inputs: { model: 'nope' } }, world.github.url, 'mallory', issue);
    expectMisconfigured(step, /^Unknown model 'nope'/);
    expect(world.github.comments(issue)).toEqual([]);
  });
});

describe("a valid run whose GitHub's API cannot be reached", () => {
  // The retries of a request GitHub did not answer (1, 4 and 9 s) are the step's: up to ~15 s each.
  it.concurrent.each([
    ['a refused port', () => `http://127.0.0.1:${closedPort}`],
    ['a port fetch refuses to use', () => 'http://127.0.0.1:9'],
  ])(
    "%s: crashed, naming GitHub's API with its own advice, never the model's network or the Gemini CLI",
    async (_, api) => {
      const n = ++cases;
      const actor = `maintainer${n}`;
      const step = await runCase({}, api(), actor, 1);
      const errors = step.stdout.split('\n').filter((l) => l.startsWith('::error::'));
      expect(errors, step.stdout).toHaveLength(1);
      expect(errors[0]).toMatch(
        /^::error::GitHub's API failed: .+ \(GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/collaborators\/maintainer\d+\/permission\)$/,
      );
      expect(step.exitCode).toBe(1);
      expect(step.outputs.status).toBe('crashed');
      expect(step.summary).toMatch(/\*\*What happened:\*\* GitHub's API failed: /);
      expect(step.summary).toMatch(/\*\*What to do next:\*\* GitHub's API could not be reached/);
      expect(step.summary).not.toMatch(/model service|Gemini CLI/);
      expect(
        step.stdout
          .split('\n')
          .filter((l) => !l.startsWith('::debug::'))
          .join('\n'),
      ).not.toMatch(STACK);
    },
  );
});
