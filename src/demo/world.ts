/**
 * The demo's world, one piece each: the throw-away repositories (a bare origin, the runner's checkout), the local
 * fake GitHub with its issue, the event and context the runner would give, the inputs, the console host, and what
 * the run left there for the demo to show.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionContext } from '../action/context.js';
import { INPUT_DEFAULTS, parseInputs, type ActionInputs } from '../action/inputs.js';
import type { ActionIo } from '../action/run-action.js';
import { localTranscriptStore } from '../action/transcript-store.js';
import { FakeGitHub, branchesFromGit } from '../fake/github-api.js';
import type { RunMode } from '../domain/types.js';
import { exec } from '../util/exec.js';
import type { Logger } from '../util/log.js';

const DEMO_OWNER = 'octo-org';
export const DEMO_REPO = 'hello-world';
/** Shaped like real secrets so every redaction path treats them as secrets. */
const DEMO_TOKEN = 'ghs_' + 'DemoTokenDemoTokenDemoTokenDemoToken00';
const DEMO_API_KEY = 'AIzaSy' + 'DemoKeyDemoKeyDemoKeyDemoKeyDemo000';
const SLUG = `${DEMO_OWNER}/${DEMO_REPO}`;
const ISSUE_TITLE = 'Add a farewell function';

const SEED_FILES: Record<string, string> = {
  'README.md': '# hello-world\n\nA tiny module that greets people.\n',
  'src/greet.js': 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
  'package.json':
    '{\n  "name": "hello-world",\n  "type": "module",\n  "scripts": { "test": "node test/greet.test.js" }\n}\n',
};

/** The maintainer's git, in the demo's own HOME: nothing of the user's git configuration applies. */
export function demoGitEnv(root: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Demo Maintainer',
    GIT_AUTHOR_EMAIL: 'maintainer@example.invalid',
    GIT_COMMITTER_NAME: 'Demo Maintainer',
    GIT_COMMITTER_EMAIL: 'maintainer@example.invalid',
  };
}

/** A bare origin with one commit, and the runner's checkout of it (with the token actions/checkout persists). */
export async function seedRepositories(
  root: string,
  gitEnv: NodeJS.ProcessEnv,
  workspace: string,
): Promise<{ origin: string }> {
  const git = (cwd: string, args: string[]) => exec('git', args, { cwd, env: gitEnv });
  const origin = join(root, 'origin.git');
  const seed = join(root, 'seed');
  await git(root, ['init', '--quiet', '--bare', '--initial-branch=main', origin]);
  await mkdir(join(seed, 'src'), { recursive: true });
  for (const [path, content] of Object.entries(SEED_FILES)) await writeFile(join(seed, path), content);
  await git(seed, ['init', '--quiet', '--initial-branch=main']);
  await git(seed, ['add', '-A']);
  await git(seed, ['commit', '--quiet', '-m', 'Initial commit']);
  await git(seed, ['push', '--quiet', origin, 'main']);
  await git(root, ['clone', '--quiet', origin, workspace]);
  // What actions/checkout leaves behind: a persisted token the run must hide from the agent.
  const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${DEMO_TOKEN}`).toString('base64')}`;
  await git(workspace, ['config', '--local', 'http.https://github.com/.extraheader', header]);
  return { origin };
}

/** The local fake GitHub over the origin, with the issue a writer asks on. */
export async function startDemoGitHub(origin: string): Promise<FakeGitHub> {
  const github = new FakeGitHub({
    token: DEMO_TOKEN,
    resolveBranch: branchesFromGit({ [SLUG]: origin }),
    gitDirs: { [SLUG]: origin },
  });
  await github.start();
  github.addRepo({ owner: DEMO_OWNER, name: DEMO_REPO });
  github.setPermission('octocat', 'write');
  github.addIssue({
    title: ISSUE_TITLE,
    body: 'We can greet people but not say goodbye. Please add `farewell(name)` next to `greet(name)`, with a test.',
    user: 'octocat',
  });
  return github;
}

/** The runner's context for the issue's `gemini-run` label. */
export async function demoContext(root: string, workspace: string, apiUrl: string): Promise<ActionContext> {
  const runnerTemp = join(root, 'runner-temp');
  await mkdir(runnerTemp);
  return {
    eventName: 'issues',
    payload: {
      action: 'labeled',
      label: { name: 'gemini-run' },
      issue: { number: 1, title: ISSUE_TITLE, body: '', user: { login: 'octocat', type: 'User' } },
      repository: { full_name: SLUG, name: DEMO_REPO, owner: { login: DEMO_OWNER } },
      sender: { login: 'octocat', type: 'User' },
    },
    repo: { owner: DEMO_OWNER, repo: DEMO_REPO },
    apiUrl,
    serverUrl: 'https://github.com',
    workspace,
    runId: 'demo',
    runAttempt: '1',
    actor: 'octocat',
    origin: {
      workflowRef: `${SLUG}/.github/workflows/gemini-run.yml@refs/heads/main`,
      actionRepository: undefined,
    },
    runnerTemp,
    toolCache: join(root, 'tool-cache'),
  };
}

/** The workflow's inputs: the defaults, the demo's fake secrets, and how the agent is isolated. */
export function demoInputs(o: {
  isolation: 'user' | 'none';
  network: 'restricted' | 'open';
  geminiPath: string;
  mode: RunMode;
}): ActionInputs {
  return parseInputs({
    ...INPUT_DEFAULTS,
    isolation: o.isolation,
    network: o.network,
    'github-token': DEMO_TOKEN,
    'gemini-api-key': DEMO_API_KEY,
    'gemini-path': o.geminiPath,
    mode: o.mode,
    'timeout-minutes': '5',
  });
}

/** The console host: the log, the step's state in `state`, the artifact in `artifacts`. */
export function demoIo(o: {
  log: Logger;
  root: string;
  artifacts: string;
  modelUrl: string;
  state: Map<string, string>;
}): ActionIo {
  return {
    log: o.log,
    mask: () => undefined,
    saveState: (k, v) => void o.state.set(k, v),
    writeJobSummary: () => Promise.resolve(),
    transcriptStore: ({ repo }) => localTranscriptStore(o.artifacts, repo),
    env: {
      PATH: process.env.PATH,
      HOME: o.root,
      LANG: process.env.LANG ?? 'C.UTF-8',
      TERM: process.env.TERM,
      GOOGLE_GEMINI_BASE_URL: o.modelUrl,
      // The fake model is on loopback: never send its traffic through a proxy the user may have set.
      NO_PROXY: '127.0.0.1,localhost',
      // A local fake GitHub has no rate limits: edit the tracking comment every second, so a short demo shows it.
      GEMINI_RUN_TRACKING_INTERVAL_MS: '1000',
    },
  };
}

/** The run branch's commits on the origin, as the demo prints them. */
export async function runCommits(origin: string, gitEnv: NodeJS.ProcessEnv): Promise<string> {
  const log = await exec(
    'git',
    ['--git-dir', origin, 'log', '--format=commit %h  %an <%ae>%n%n%w(0,4,4)%B', 'main..gemini-run/issue-1'],
    { env: gitEnv, allowAllExitCodes: true },
  );
  return log.stdout.trim();
}
