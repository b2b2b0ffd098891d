/**
 * `gemini-run demo`: the whole action job on an embedded default. A throw-away repository with a bare origin,
 * the real gemini (the project's pinned devDependency), the built-in fake model playing the bundled `demo`
 * conversation, and a local fake GitHub — then the very pipeline the action runs (runAction), with a console
 * host instead of @actions/core. No credentials, no network.
 */
import { rmSync } from 'node:fs';
import { agentHostState, removeCreatedSince } from '../isolation/host-traces.js';
import type { Privilege } from '../isolation/privilege.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { canInstallFilter } from '../isolation/egress-filter.js';
import { isolationAvailability } from '../isolation/privilege.js';
import type { ActionOutputs } from '../action/outputs.js';
import { runAction, type ActionRun } from '../action/run-action.js';
import { FakeGemini } from '../fake/gemini-api.js';
import type { FakeGitHub, FakePull } from '../fake/github-api.js';
import { cleanupRun } from '../run/cleanup.js';
import { guardProcessExit, guardSignalTeardown } from '../util/process.js';
import { UserError } from '../util/errors.js';
import type { RunMode } from '../domain/types.js';
import type { Logger } from '../util/log.js';
import { findPinnedGemini } from '../gemini/install.js';
import { TRACKING_MARKER } from '../action/tracking-comment.js';
import {
  DEMO_REPO,
  demoContext,
  demoGitEnv,
  demoInputs,
  demoIo,
  runCommits,
  seedRepositories,
  startDemoGitHub,
} from './world.js';

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
  const gitEnv = demoGitEnv(root);
  let github: FakeGitHub | undefined;
  let gemini: FakeGemini | undefined;
  const state = new Map<string, string>();
  let runDir: string | undefined;
  let untrace: (() => Promise<void>) | undefined;
  const workspace = join(root, 'workspace', DEMO_REPO);
  try {
    const how = await isolationOf(o.isolate === true, o.log);
    untrace = await traceRemover(how.privilege, o.log);
    const geminiPath = o.geminiPath ?? (await findPinnedGemini());
    const { origin } = await seedRepositories(root, gitEnv, workspace);
    github = await startDemoGitHub(origin);
    gemini = await FakeGemini.start('demo');
    o.log.info(
      `The GitHub here is a local fake (${github.url}), and so is the model (${gemini.url}): nothing leaves this machine, and the github.com links below lead nowhere.`,
    );
    const result = await runOnce(github, {
      ctx: await demoContext(root, workspace, github.url),
      inputs: demoInputs({ ...how, geminiPath, mode: o.mode }),
      io: demoIo({ log: o.log, root, artifacts, modelUrl: gemini.url, state }),
    });
    runDir = state.get('runDir');
    const commits = await runCommits(origin, gitEnv);
    finished = true;
    return { ...result, commits, elapsedMs: Date.now() - started };
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

/** The action's pipeline once, the tracking comment watched as it goes, and what it left on the fake GitHub. */
async function runOnce(
  github: FakeGitHub,
  run: Pick<ActionRun, 'ctx' | 'inputs' | 'io'>,
): Promise<Omit<DemoResult, 'commits' | 'elapsedMs'>> {
  const watch = watchTrackingComment(() => github.comments(1), run.io.log);
  const { outputs, failure } = await runAction(run).finally(() => watch.stop());
  const pull = github.pulls()[0];
  return {
    outputs,
    failure,
    pull,
    summaryComment: pull ? github.comments(pull.number)[0]?.body : undefined,
    issueComment: github.comments(1).find((c) => c.body.includes('gemini-run:issue'))?.body,
    ...(watch.last() !== undefined ? { trackingComment: watch.last() } : {}),
    trackingVersions: watch.versions(),
  };
}
