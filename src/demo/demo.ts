/**
 * `gemini-run demo`: the whole action job on an embedded default. A throw-away repository with a bare origin,
 * the real gemini (the project's pinned devDependency), the built-in fake model playing the bundled `demo`
 * conversation, and a local fake GitHub — then the very pipeline the action runs (runAction), with a console
 * host instead of @actions/core. No credentials, no network.
 */
import { rmSync } from 'node:fs';
import { agentHostState, removeCreatedSince } from '../isolation/host-traces.js';
import type { Privilege } from '../isolation/privilege.js';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import type { ActionContext } from '../action/context.js';
import { INPUT_DEFAULTS, parseInputs } from '../action/inputs.js';
import { canInstallFilter } from '../isolation/egress-filter.js';
import { isolationAvailability } from '../isolation/privilege.js';
import type { ActionOutputs } from '../action/outputs.js';
import { runAction, type ActionIo } from '../action/run-action.js';
import { localTranscriptStore } from '../action/transcript-store.js';
import { FakeGemini } from '../fake/gemini-api.js';
import { FakeGitHub, branchesFromGit, type FakePull } from '../fake/github-api.js';
import { cleanupRun } from '../run/cleanup.js';
import { guardProcessExit, guardSignalTeardown } from '../util/process.js';
import { UserError } from '../util/errors.js';
import type { RunMode } from '../domain/types.js';
import { exec } from '../util/exec.js';
import type { Logger } from '../util/log.js';
import { findPinnedGemini } from '../gemini/install.js';
import { TRACKING_MARKER } from '../action/tracking-comment.js';

const DEMO_OWNER = 'octo-org';
const DEMO_REPO = 'hello-world';
/** Shaped like real secrets so every redaction path treats them as secrets. */
const DEMO_TOKEN = 'ghs_' + 'DemoTokenDemoTokenDemoTokenDemoToken00';
const DEMO_API_KEY = 'AIzaSy' + 'DemoKeyDemoKeyDemoKeyDemoKeyDemo000';

const SEED_FILES: Record<string, string> = {
  'README.md': '# hello-world\n\nA tiny module that greets people.\n',
  'src/greet.js': 'export function greet(name) {\n  return `Hello, ${name}!`;\n}\n',
  'package.json':
    '{\n  "name": "hello-world",\n  "type": "module",\n  "scripts": { "test": "node test/greet.test.js" }\n}\n',
};

export interface DemoResult {
  outputs: ActionOutputs;
  failure?: string;
  pull?: FakePull;
  commits: string;
  summaryComment?: string;
  issueComment?: string;
  /** The live tracking comment as it ended, and how many versions of it the demo saw. */
  trackingComment?: string;
  trackingVersions: number;
  elapsedMs: number;
}

/** Logs each new version of the issue's tracking comment as the run edits it: its headline and its counts. */
function watchTrackingComment(
  comments: () => { body: string }[],
  log: Logger,
): { stop(): void; last(): string | undefined; versions(): number } {
  let last: string | undefined;
  let versions = 0;
  const look = () => {
    const body = comments().find((c) => c.body.startsWith(TRACKING_MARKER))?.body;
    if (body === undefined || body === last) return;
    last = body;
    versions++;
    const lines = body.split('\n').filter((l) => l.trim() && !l.startsWith('<!--'));
    log.info(`tracking comment v${versions}: ${lines[0] ?? ''} | ${lines[1] ?? ''}`);
  };
  const timer = setInterval(look, 250);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      look();
    },
    last: () => last,
    versions: () => versions,
  };
}

/** What `--isolate` creates on this host, said before it does (the demo changes nothing else). */
export const ISOLATE_CREATES =
  "an agent user gemini-agent-N (and the group gemini-agents) where none is free, an iptables and an ip6tables chain GEMINI-RUN-<uid>-<tag> jumped to from OUTPUT for that uid only, and ACL entries for that uid on the demo's directories (and on a closed directory above them); all removed when the demo ends or is interrupted, users it created included";

/**
 * How the agent runs: as this user unless `isolate` was asked (the demo holds no real secret, and changes nothing
 * on the host unasked); with `isolate`, as the action runs it — its own user behind a packet filter.
 */
async function isolationOf(
  isolate: boolean,
  log: Logger,
): Promise<{ isolation: 'user' | 'none'; network: 'restricted' | 'open'; privilege?: Privilege }> {
  if (!isolate) {
    log.info(
      "The agent runs as you (isolation: none, network: open), so it could read this demo's GitHub token, a fake one: the action refuses that unless a workflow opts in, and warns as below. 'gemini-run demo --isolate' runs it as its own user behind a packet filter, as the action does.",
    );
    return { isolation: 'none', network: 'open' };
  }
  const iso = await isolationAvailability();
  if (iso.missing)
    throw new UserError(`--isolate needs what this host lacks (${iso.missing}): run it as root.`);
  const filtered = iso.privilege !== 'none' && (await canInstallFilter(iso.privilege));
  if (!filtered)
    throw new UserError(
      '--isolate needs iptables and the right to use it (root, or NET_ADMIN in a container).',
    );
  log.info(`--isolate: the demo creates ${ISOLATE_CREATES}.`);
  return { isolation: 'user', network: 'restricted', privilege: iso.privilege };
}

/**
 * With `--isolate`, what the demo created on the host (agent users, their group, the claims directory) goes again
 * when it ends — or, registered first, last on a signal, after the run's chain, ACLs and claim.
 */
async function traceRemover(privilege: Privilege | undefined, log: Logger): Promise<() => Promise<void>> {
  if (!privilege || privilege === 'none') return () => Promise.resolve();
  const before = await agentHostState();
  let removing: Promise<void> | undefined;
  const remove = () =>
    (removing ??= removeCreatedSince(before, privilege).then((gone) => {
      if (gone.length > 0) log.info(`Removed what the demo created: ${gone.join(', ')}.`);
    }));
  const unguard = guardSignalTeardown(remove);
  return () => {
    unguard();
    return remove();
  };
}

/** How long a signal's last teardown waits for the interrupted run to unwind before it removes the demo's files. */
const UNWIND_BOUND_MS = 3_000;

/**
 * Ctrl-C during the demo must not leave its throw-away repositories behind, nor an artifact it never finished. The
 * first removal runs the moment the signal arrives, while the run's own code still unwinds (a git it started dies of
 * the same signal, the step records how it ended, making directories again), and the process ends as soon as the
 * teardowns are done, maybe before the demo's `finally` removes them: so the last teardown (registered first, run
 * last) waits for the run to unwind, a bounded moment, and removes them again. `unwound` says the run is over;
 * `release` is called once the demo removed (or kept) its files itself.
 */
function guardDemoFiles(
  root: string,
  artifacts: string,
  o: { keep: boolean; finished: () => boolean },
): { unwound: () => void; release: () => void } {
  const releaseFirst = guardProcessExit(() => {
    if (!o.keep) rmSync(root, { recursive: true, force: true });
    if (!o.finished()) rmSync(artifacts, { recursive: true, force: true });
  });
  let unwound: () => void = () => undefined;
  const unwinding = new Promise<void>((resolve) => (unwound = resolve));
  const releaseLate = guardSignalTeardown(async () => {
    await Promise.race([unwinding, delay(UNWIND_BOUND_MS)]);
    const again = { recursive: true, force: true, maxRetries: 3 } as const;
    if (!o.keep) await rm(root, again);
    // Even one the unwinding run saved: the demo was interrupted, and never named it.
    await rm(artifacts, again);
  });
  return {
    unwound,
    release: () => {
      releaseFirst();
      releaseLate();
    },
  };
}

export async function runDemo(o: {
  mode: RunMode;
  log: Logger;
  keep?: boolean;
  isolate?: boolean;
  geminiPath?: string;
}): Promise<DemoResult> {
  const started = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'gemini-run-demo-'));
  // The artifact the run saves (transcript, summary, run record) outlives the throw-away repositories: the log
  // names its path, and a path that is gone when the demo ends would be a lie.
  const artifacts = await mkdtemp(join(tmpdir(), 'gemini-run-demo-artifact-'));
  let finished = false;
  const files = guardDemoFiles(root, artifacts, { keep: o.keep === true, finished: () => finished });
  const gitEnv: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Demo Maintainer',
    GIT_AUTHOR_EMAIL: 'maintainer@example.invalid',
    GIT_COMMITTER_NAME: 'Demo Maintainer',
    GIT_COMMITTER_EMAIL: 'maintainer@example.invalid',
  };
  const git = (cwd: string, args: string[]) => exec('git', args, { cwd, env: gitEnv });
  let github: FakeGitHub | undefined;
  let gemini: FakeGemini | undefined;
  let runDir: string | undefined;
  let untrace: (() => Promise<void>) | undefined;
  const workspace = join(root, 'workspace', DEMO_REPO);
  try {
    const how = await isolationOf(o.isolate === true, o.log);
    untrace = await traceRemover(how.privilege, o.log);
    const geminiPath = o.geminiPath ?? (await findPinnedGemini());
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

    github = new FakeGitHub({
      token: DEMO_TOKEN,
      resolveBranch: branchesFromGit({ [`${DEMO_OWNER}/${DEMO_REPO}`]: origin }),
      gitDirs: { [`${DEMO_OWNER}/${DEMO_REPO}`]: origin },
    });
    await github.start();
    github.addRepo({ owner: DEMO_OWNER, name: DEMO_REPO });
    github.setPermission('octocat', 'write');
    github.addIssue({
      title: 'Add a farewell function',
      body: 'We can greet people but not say goodbye. Please add `farewell(name)` next to `greet(name)`, with a test.',
      user: 'octocat',
    });
    gemini = await FakeGemini.start('demo');
    o.log.info(
      `The GitHub here is a local fake (${github.url}), and so is the model (${gemini.url}): nothing leaves this machine, and the github.com links below lead nowhere.`,
    );

    const payload = {
      action: 'labeled',
      label: { name: 'gemini-run' },
      issue: {
        number: 1,
        title: 'Add a farewell function',
        body: '',
        user: { login: 'octocat', type: 'User' },
      },
      repository: { full_name: `${DEMO_OWNER}/${DEMO_REPO}`, name: DEMO_REPO, owner: { login: DEMO_OWNER } },
      sender: { login: 'octocat', type: 'User' },
    };
    const runnerTemp = join(root, 'runner-temp');
    await mkdir(runnerTemp);
    const ctx: ActionContext = {
      eventName: 'issues',
      payload,
      repo: { owner: DEMO_OWNER, repo: DEMO_REPO },
      apiUrl: github.url,
      serverUrl: 'https://github.com',
      workspace,
      runId: 'demo',
      runAttempt: '1',
      actor: 'octocat',
      origin: {
        workflowRef: `${DEMO_OWNER}/${DEMO_REPO}/.github/workflows/gemini-run.yml@refs/heads/main`,
        actionRepository: undefined,
      },
      runnerTemp,
      toolCache: join(root, 'tool-cache'),
    };
    const inputs = parseInputs({
      ...INPUT_DEFAULTS,
      isolation: how.isolation,
      network: how.network,
      'github-token': DEMO_TOKEN,
      'gemini-api-key': DEMO_API_KEY,
      'gemini-path': geminiPath,
      mode: o.mode,
      'timeout-minutes': '5',
    });
    const state = new Map<string, string>();
    const io: ActionIo = {
      log: o.log,
      mask: () => undefined,
      saveState: (k, v) => void state.set(k, v),
      writeJobSummary: () => Promise.resolve(),
      transcriptStore: ({ repo }) => localTranscriptStore(artifacts, repo),
      env: {
        PATH: process.env.PATH,
        HOME: root,
        LANG: process.env.LANG ?? 'C.UTF-8',
        TERM: process.env.TERM,
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        // The fake model is on loopback: never send its traffic through a proxy the user may have set.
        NO_PROXY: '127.0.0.1,localhost',
        // A local fake GitHub has no rate limits: edit the tracking comment every second, so a short demo shows it.
        GEMINI_RUN_TRACKING_INTERVAL_MS: '1000',
      },
    };
    const fakeGitHub = github;
    const watch = watchTrackingComment(() => fakeGitHub.comments(1), o.log);
    const { outputs, failure } = await runAction({ inputs, ctx, io }).finally(() => watch.stop());
    runDir = state.get('runDir');
    const pull = github.pulls()[0];
    const commits = (
      await exec(
        'git',
        [
          '--git-dir',
          origin,
          'log',
          '--format=commit %h  %an <%ae>%n%n%w(0,4,4)%B',
          'main..gemini-run/issue-1',
        ],
        {
          env: gitEnv,
          allowAllExitCodes: true,
        },
      )
    ).stdout.trim();
    const summaryComment = pull ? github.comments(pull.number)[0]?.body : undefined;
    const issueComment = github.comments(1).find((c) => c.body.includes('gemini-run:issue'))?.body;
    finished = true;
    return {
      outputs,
      failure,
      pull,
      commits,
      summaryComment,
      issueComment,
      ...(watch.last() !== undefined ? { trackingComment: watch.last() } : {}),
      trackingVersions: watch.versions(),
      elapsedMs: Date.now() - started,
    };
  } finally {
    files.unwound();
    await cleanupRun({ runDir, worktree: workspace, log: o.log }).catch(() => undefined);
    await gemini?.close();
    await github?.stop();
    await untrace?.();
    if (!finished) await rm(artifacts, { recursive: true, force: true });
    if (!o.keep) await rm(root, { recursive: true, force: true });
    else o.log.info(`Kept the demo's files in ${root}`);
    files.release();
  }
}
