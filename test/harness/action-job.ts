/**
 * Runs the action the way a GitHub runner does: `node dist/index.js`, then `node dist/post.js`, with INPUT_* and
 * GITHUB_* variables, file commands (GITHUB_OUTPUT, GITHUB_STATE, GITHUB_STEP_SUMMARY) and an event payload, against
 * a FakeGitHub, a FakeGemini and a workspace cloned from a bare origin.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FakeGemini, type Script } from '../../src/fake/gemini-api.js';
import { FakeGitHub, branchesFromGit, type FakeUser } from '../../src/fake/github-api.js';
import type { JobConclusion } from '../../src/fake/github/workflow-runs.js';
import { exec } from '../../src/util/exec.js';
import { node24Path } from './node24.js';
import { createWorkRepo, scrubbedGitEnv, type WorkRepo } from './repo.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');
/** The Node that runs dist/*.js in these tests: the major action.yml's `runs.using` names, as on a runner. */
export const ACTION_NODE = node24Path(ROOT);
const COMPILE_CACHE = join(ROOT, 'node_modules', '.cache', 'node-compile-cache');
export const GEMINI_JS = join(ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
export const OWNER = 'acme';
export const REPO = 'widgets';
/** The workflow file every run of the harness is: the runs are recorded in the fake GitHub, as GitHub records them. */
export const WORKFLOW_PATH = '.github/workflows/gemini-run.yml';
export const WORKFLOW_REF = `${OWNER}/${REPO}/${WORKFLOW_PATH}@refs/heads/main`;
/** Run ids of the harness's runs, never the same twice in one process. */
let nextRunId = 1000 + Math.floor(Math.random() * 1000) * 100;
/** Shaped like real secrets so the CLI's and our redaction treat them as such. */
export const GITHUB_TOKEN = 'ghs_' + 'T0kenT0kenT0kenT0kenT0kenT0kenT0ken12';
export const GEMINI_API_KEY = 'AIzaSy' + 'FakeKeyFakeKeyFakeKeyFakeKeyFake123';

export interface StepResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  state: Record<string, string>;
  summary: string;
}

/** Parses a runner file command (`name<<delim\nvalue\ndelim` blocks, or `name=value` lines). */
export function parseFileCommand(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const [, name, delim] = heredoc as unknown as [string, string, string];
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delim; i++) value.push(lines[i] ?? '');
      out[name] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

/** Starts a step's script somewhere else (in a container): the command, its argv and its own environment. */
export type StepLauncher = (
  script: string,
  env: Record<string, string>,
  cwd: string,
) => { command: string; args: string[]; env: Record<string, string> };

/** Runs `script` on ACTION_NODE, as the runner runs an action entry (or through `launch`). */
export function runNode(
  script: string,
  env: Record<string, string>,
  cwd: string,
  asUser?: { uid: number; gid: number },
  launch?: StepLauncher,
  /** Polled every 100 ms; once true, the step is killed (SIGKILL), as a runner that loses the job would. */
  killWhen?: () => boolean,
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  // Node's compile cache for the bundle (one directory for all the suite's steps): each step starts about 0.03 s
  // sooner, and a suite starts hundreds. Only where this user owns the directory; the step's behaviour is the same.
  const stepEnv =
    asUser || launch || env.NODE_COMPILE_CACHE ? env : { ...env, NODE_COMPILE_CACHE: COMPILE_CACHE };
  const argv = launch ? launch(script, env, cwd) : { command: ACTION_NODE, args: [script], env: stepEnv };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(argv.command, argv.args, {
      env: argv.env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A launcher decides itself who runs the step.
      ...(asUser && !launch ? { uid: asUser.uid, gid: asUser.gid } : {}),
    });
    if (killWhen) {
      const poll = setInterval(() => {
        if (killWhen()) child.kill('SIGKILL');
      }, 100);
      child.on('close', () => clearInterval(poll));
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolvePromise({
        exitCode: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

export interface JobOptions {
  script: Script | string;
  /** The workflow run's id (GITHUB_RUN_ID); default a fresh one. */
  runId?: number;
  /** Event name and payload; default: issue #1 labeled `gemini-run` by `alice`. */
  eventName?: string;
  payload?: unknown;
  inputs?: Record<string, string>;
  /** The action's `mode` input (default interactive). */
  mode?: 'interactive' | 'headless';
  /** Extra env for the step (e.g. to show that secrets in the env do not reach the agent). */
  env?: Record<string, string>;
  /** Run both steps as this user (a hosted runner's `runner`); the world's files must be theirs. */
  asUser?: { uid: number; gid: number; home: string };
  /** Start both steps through this (a container) instead of this process's node. */
  launch?: StepLauncher;
  /** Kill the main step (SIGKILL) once this returns true; the post step runs after it as usual. */
  killMainWhen?: () => boolean;
  /** Another checkout to work in (`checkout('main', dir)`): two jobs at once need one each. */
  workspace?: string;
}

/** The files a step left for its artifact (summary, run summary, transcript). */
async function readArtifacts(summaryPath: string | undefined): Promise<string[]> {
  if (!summaryPath) return [];
  const dir = join(summaryPath, '..');
  const names = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(names.map((n) => readFile(join(dir, n), 'utf8')));
}

/** One simulated repository + services, reused across several steps (re-runs, follow-up comments). */
export class ActionWorld implements AsyncDisposable {
  readonly tmp: string;
  /** Everything any step showed or left for people: logs, outputs, job summaries, telemetry, artifacts. */
  readonly published: string[] = [];
  private constructor(
    readonly repo: WorkRepo,
    readonly github: FakeGitHub,
    readonly workspace: string,
    tmp: string,
    /** The job token the fake GitHub accepts and the step gets (random where a test greps for it). */
    readonly token: string,
  ) {
    this.tmp = tmp;
  }

  static async create(o: { token?: string; tokenUser?: FakeUser } = {}): Promise<ActionWorld> {
    const token = o.token ?? GITHUB_TOKEN;
    // main is on origin already (createWorkRepo pushes it).
    const repo = await createWorkRepo({ name: REPO });
    const github = new FakeGitHub({
      token,
      ...(o.tokenUser ? { tokenUser: o.tokenUser } : {}),
      resolveBranch: branchesFromGit({ [`${OWNER}/${REPO}`]: repo.originDir }),
      gitDirs: { [`${OWNER}/${REPO}`]: repo.originDir },
    });
    await github.start();
    github.addRepo({ owner: OWNER, name: REPO });
    github.setPermission('alice', 'write');
    github.setPermission('mallory', 'read');
    github.addIssue({
      title: 'Add a notes file',
      body: 'Please add NOTES.md with a short note.',
      user: 'alice',
    });
    const tmp = await mkdtemp(join(tmpdir(), 'gemini-run-job-'));
    const workspace = join(tmp, 'workspace', REPO);
    return new ActionWorld(repo, github, workspace, tmp, token);
  }

  /**
   * A fresh checkout of origin, configured like actions/checkout leaves it (persisted token included); in `dir`
   * for a second job's workspace (two runs at once).
   */
  async checkout(ref = 'main', dir = this.workspace): Promise<void> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(join(dir, '..'), { recursive: true });
    const env = scrubbedGitEnv();
    await exec('git', ['clone', '--quiet', '--branch', ref, this.repo.originDir, dir], { env });
    const header = `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${this.token}`).toString('base64')}`;
    await exec('git', ['config', '--local', 'http.https://github.com/.extraheader', header], {
      cwd: dir,
      env,
    });
  }

  /** The `issues: labeled` payload of someone adding `label` now (the issue's updated_at moves, as on GitHub). */
  labeledPayload(label = 'gemini-run', actor = 'alice', issue = 1): unknown {
    this.github.labelIssue(issue, label);
    const i = this.github.issue(issue);
    return {
      action: 'labeled',
      label: { name: label },
      issue: {
        number: issue,
        title: i?.title ?? 'x',
        body: i?.body ?? '',
        user: { login: 'alice', type: 'User' },
        ...(i ? { updated_at: i.updatedAt } : {}),
      },
      repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
      sender: { login: actor, type: 'User' },
    };
  }

  /** The `issues: opened` payload of issue `issue` as it stands, opened by `author`. */
  openedPayload(issue: number, author = 'alice'): unknown {
    const i = this.github.issue(issue);
    return {
      action: 'opened',
      issue: {
        number: issue,
        title: i?.title ?? 'x',
        body: i?.body ?? '',
        user: { login: author, type: 'User' },
        ...(i ? { created_at: i.updatedAt, updated_at: i.updatedAt } : {}),
      },
      repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
      sender: { login: author, type: 'User' },
    };
  }

  /** A `pull_request` payload (`opened`, `synchronize`, …) of pull request `number`, opened by `author`. */
  pullRequestPayload(action: string, number: number, author = 'alice'): unknown {
    const pull = this.github.issue(number);
    return {
      action,
      pull_request: {
        number,
        title: pull?.title,
        body: pull?.body,
        user: { login: author, type: 'User' },
        draft: false,
        html_url: `https://github.com/${OWNER}/${REPO}/pull/${number}`,
        updated_at: pull?.updatedAt,
      },
      repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
      sender: { login: author, type: 'User' },
    };
  }

  commentPayload(body: string, opts: { issue: number; isPull?: boolean; actor?: string }): unknown {
    const actor = opts.actor ?? 'alice';
    const commentId = this.github.addComment({ issue: opts.issue, body, user: actor });
    const i = this.github.issue(opts.issue);
    const created = this.github.comments(opts.issue).find((c) => c.id === commentId)?.createdAt;
    return {
      action: 'created',
      comment: { id: commentId, body, user: { login: actor, type: 'User' }, created_at: created },
      issue: {
        number: opts.issue,
        title: i?.title ?? 'x',
        body: i?.body ?? '',
        user: { login: 'alice', type: 'User' },
        ...(opts.isPull ? { pull_request: { url: 'x' } } : {}),
      },
      repository: { full_name: `${OWNER}/${REPO}`, name: REPO, owner: { login: OWNER } },
      sender: { login: actor, type: 'User' },
    };
  }

  /**
   * A `workflow_run: completed` payload in GitHub's shape (@octokit/webhooks-examples): the CI run `id` of
   * `workflow` on `branch` at `headSha`, pushed by the token's own identity unless `sender` says otherwise.
   */
  workflowRunPayload(o: {
    id: number;
    workflow?: string;
    branch: string;
    headSha: string;
    conclusion?: string;
    pull?: number;
    headRepo?: string;
    sender?: string;
  }): unknown {
    const full = `${OWNER}/${REPO}`;
    return {
      action: 'completed',
      workflow_run: {
        id: o.id,
        name: o.workflow ?? 'CI',
        head_branch: o.branch,
        head_sha: o.headSha,
        event: 'push',
        status: 'completed',
        conclusion: o.conclusion ?? 'failure',
        run_attempt: 1,
        head_repository: { full_name: o.headRepo ?? full },
        repository: { full_name: full },
        pull_requests: o.pull ? [{ id: 1, number: o.pull, head: { ref: o.branch, sha: o.headSha } }] : [],
      },
      repository: { full_name: full, name: REPO, owner: { login: OWNER } },
      sender: { login: o.sender ?? 'github-actions[bot]', type: o.sender ? 'User' : 'Bot' },
    };
  }

  /**
   * A `check_suite: completed` payload in GitHub's shape (@octokit/webhooks-examples): suite `id` of another CI's
   * app on `branch` at `headSha`. A suite names its pull requests' head repository by id only; `forkPull` lists
   * the pull request with another repository's id, as GitHub would for a fork's head.
   */
  checkSuitePayload(o: {
    id: number;
    app?: { slug: string; name: string };
    branch: string;
    headSha: string;
    conclusion?: string;
    pull?: number;
    forkPull?: boolean;
  }): unknown {
    const full = `${OWNER}/${REPO}`;
    const repoId = 4242;
    const app = o.app ?? { slug: 'circleci-checks', name: 'CircleCI Checks' };
    const headRepo = { id: o.forkPull ? 9999 : repoId, url: 'https://api.github.com/repos/x', name: REPO };
    return {
      action: 'completed',
      check_suite: {
        id: o.id,
        head_branch: o.branch,
        head_sha: o.headSha,
        status: 'completed',
        conclusion: o.conclusion ?? 'failure',
        app: { id: 1, slug: app.slug, name: app.name, owner: { login: 'circleci', type: 'Organization' } },
        pull_requests: o.pull
          ? [{ id: 1, number: o.pull, head: { ref: o.branch, sha: o.headSha, repo: headRepo } }]
          : [],
      },
      repository: { id: repoId, full_name: full, name: REPO, owner: { login: OWNER } },
      sender: { login: 'circleci-checks[bot]', type: 'Bot' },
    };
  }

  /** Runs main then post; returns both. */
  async run(
    o: JobOptions,
  ): Promise<{ main: StepResult; post: StepResult; gemini: FakeGemini; telemetry: string }> {
    const gemini = await FakeGemini.start(o.script);
    try {
      const stepDir = await mkdtemp(join(this.tmp, 'step-'));
      // GitHub knows the run while it is in progress (a record it writes names it).
      const given = o.runId ?? Number(o.env?.GITHUB_RUN_ID ?? NaN);
      const runId = Number.isInteger(given) ? given : ++nextRunId;
      this.recordRunning(runId, o.eventName ?? 'issues');
      const files = {
        event: join(stepDir, 'event.json'),
        output: join(stepDir, 'output'),
        state: join(stepDir, 'state'),
        summary: join(stepDir, 'summary.md'),
      };
      for (const f of [files.output, files.state, files.summary]) await writeFile(f, '');
      await writeFile(files.event, JSON.stringify(o.payload ?? this.labeledPayload()));
      const runnerTemp = join(stepDir, 'runner-temp');
      await mkdir(runnerTemp);
      const inputs: Record<string, string> = {
        'github-token': this.token,
        'gemini-api-key': GEMINI_API_KEY,
        'gemini-path': GEMINI_JS,
        model: 'gemini-2.5-flash',
        'timeout-minutes': '2',
        mode: o.mode ?? 'interactive',
        ...o.inputs,
      };
      const base: Record<string, string> = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        LANG: 'C.UTF-8',
        CI: 'true',
        GITHUB_ACTIONS: 'true',
        GITHUB_EVENT_NAME: o.eventName ?? 'issues',
        GITHUB_EVENT_PATH: files.event,
        GITHUB_REPOSITORY: `${OWNER}/${REPO}`,
        GITHUB_API_URL: this.github.url,
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_WORKSPACE: o.workspace ?? this.workspace,
        GITHUB_RUN_ID: String(runId),
        GITHUB_WORKFLOW_REF: WORKFLOW_REF,
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_ACTOR: 'alice',
        GITHUB_OUTPUT: files.output,
        GITHUB_STATE: files.state,
        GITHUB_STEP_SUMMARY: files.summary,
        GITHUB_TOKEN: this.token,
        RUNNER_TEMP: runnerTemp,
        RUNNER_TOOL_CACHE: join(stepDir, 'tool-cache'),
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        GEMINI_RUN_TRANSCRIPT_STORE: join(this.tmp, 'transcripts'),
        ...o.env,
      };
      for (const [k, v] of Object.entries(inputs)) base[`INPUT_${k.toUpperCase()}`] = v;
      if (o.asUser) {
        base.HOME = o.asUser.home;
        await exec('chown', ['-R', `${o.asUser.uid}:${o.asUser.gid}`, stepDir]);
      }
      const main = await runNode(
        join(ROOT, 'dist', 'index.js'),
        base,
        o.workspace ?? this.workspace,
        o.asUser,
        o.launch,
        o.killMainWhen,
      );
      const mainResult: StepResult = {
        ...main,
        outputs: parseFileCommand(await readFile(files.output, 'utf8')),
        state: parseFileCommand(await readFile(files.state, 'utf8')),
        summary: await readFile(files.summary, 'utf8'),
      };
      // Read what the run left before the post step removes it (the telemetry file is in the run dir).
      const runDir = mainResult.state.runDir;
      const telemetry = runDir ? await readFile(join(runDir, 'telemetry.json'), 'utf8').catch(() => '') : '';
      const postEnv: Record<string, string> = { ...base };
      for (const [k, v] of Object.entries(mainResult.state)) postEnv[`STATE_${k}`] = v;
      await writeFile(files.output, '');
      const post = await runNode(
        join(ROOT, 'dist', 'post.js'),
        postEnv,
        o.workspace ?? this.workspace,
        o.asUser,
        o.launch,
      );
      this.github.updateRun(runId, {
        status: 'completed',
        conclusion: mainResult.outputs.conclusion === 'success' ? 'success' : 'failure',
      });
      this.published.push(
        mainResult.stdout,
        mainResult.stderr,
        mainResult.summary,
        JSON.stringify(mainResult.outputs),
        post.stdout,
        post.stderr,
        telemetry,
        ...(await readArtifacts(mainResult.outputs['summary-path'])),
      );
      return {
        main: mainResult,
        post: { ...post, outputs: {}, state: {}, summary: '' },
        gemini,
        telemetry,
      };
    } finally {
      await gemini.close();
    }
  }

  /** Everything any step showed or left for people, without the runner's `::add-mask::` commands. */
  visibleText(): string {
    return this.published
      .join('\n')
      .split('\n')
      .filter((l) => !l.startsWith('::add-mask::'))
      .join('\n');
  }

  /** A run of the action's workflow, in progress now, as GitHub knows it while it runs (a record it writes names it). */
  recordRunning(id: number, event: string): void {
    this.github.recordRun({
      id,
      workflowName: 'gemini-run',
      headBranch: 'main',
      headSha: '0'.repeat(40),
      workflowPath: WORKFLOW_PATH,
      event,
      status: 'in_progress',
    });
  }

  /**
   * Someone else's commit of `files` (path → text) on top of main, pushed to origin's `ref`: a branch name, or a full
   * ref such as a fork's `refs/pull/7/head`. The work repository is left on main (moved to the commit when `ref` is
   * main); the commit's sha.
   */
  async pushAsPerson(ref: string, files: Record<string, string>, message: string): Promise<string> {
    const git = (args: string[]) => this.repo.git(args);
    await git(['checkout', '--quiet', '--detach', 'main']);
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(this.repo.dir, path)), { recursive: true });
      await writeFile(join(this.repo.dir, path), text);
    }
    await git(['add', '-A']);
    await git(['commit', '--quiet', '-m', message]);
    await git(['push', '--quiet', 'origin', `HEAD:${ref.startsWith('refs/') ? ref : `refs/heads/${ref}`}`]);
    const sha = (await git(['rev-parse', 'HEAD'])).trim();
    await git(['checkout', '--quiet', 'main']);
    if (ref === 'main') await git(['merge', '--quiet', '--ff-only', sha]);
    return sha;
  }

  /** The tip of `branch` on the origin (the action's run branch by default). */
  async originTip(branch = 'gemini-run/issue-1'): Promise<string> {
    const r = await exec('git', ['--git-dir', this.repo.originDir, 'rev-parse', `refs/heads/${branch}`], {
      env: scrubbedGitEnv(),
    });
    return r.stdout.trim();
  }

  /**
   * A failed CI run `id` at `headSha` in the fake GitHub (workflow CI, one failed job `test` whose step `Run npm
   * test` failed, with `log`), on the action's pull request unless `branch`/`pull` say otherwise; its payload.
   */
  failedCiRun(o: {
    id: number;
    headSha: string;
    log: string;
    branch?: string;
    pull?: number;
    steps?: { name: string; conclusion: JobConclusion }[];
  }): unknown {
    const branch = o.branch ?? 'gemini-run/issue-1';
    this.github.addWorkflowRun({
      id: o.id,
      workflowName: 'CI',
      headBranch: branch,
      headSha: o.headSha,
      jobs: [
        {
          name: 'test',
          conclusion: 'failure',
          steps: o.steps ?? [{ name: 'Run npm test', conclusion: 'failure' }],
          log: o.log,
        },
      ],
    });
    return this.workflowRunPayload({ id: o.id, branch, headSha: o.headSha, pull: o.pull ?? 2 });
  }

  async originLog(branch: string): Promise<string> {
    const r = await exec(
      'git',
      ['--git-dir', this.repo.originDir, 'log', '--format=%H%n%an <%ae>%n%B%n--end--', `main..${branch}`],
      {
        env: scrubbedGitEnv(),
        allowAllExitCodes: true,
      },
    );
    return r.exitCode === 0 ? r.stdout : '';
  }

  async originFile(branch: string, path: string): Promise<string> {
    const r = await exec('git', ['--git-dir', this.repo.originDir, 'show', `${branch}:${path}`], {
      env: scrubbedGitEnv(),
      allowAllExitCodes: true,
    });
    return r.exitCode === 0 ? r.stdout : '';
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.github.stop();
    await this.repo[Symbol.asyncDispose]();
    await rm(this.tmp, { recursive: true, force: true });
  }
}
