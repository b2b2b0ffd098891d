/**
 * The action's whole pipeline in this process, in seconds: the real phases against the fake GitHub and a real
 * bare origin with a checkout, with a stub engine (stub-engine.ts) in place of the engine, or the real engine with
 * a stand-in (stub-agent.ts) in place of gemini. For every path that does not need the real CLI; the e2e tests run
 * `dist/index.js` with the real gemini for the rest.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { OUTPUT_NAMES } from '../../src/action/outputs.js';
import { runSummarySchema, type RunSummary } from '../../src/domain/run-summary.js';
import { failsStep } from '../../src/domain/status.js';
import { checkGemini, installGemini } from '../../src/action/gemini-binary.js';
import { INPUT_DEFAULTS, parseInputs, type InputName } from '../../src/action/inputs.js';
import { runAction } from '../../src/action/run-action.js';
import type { ActionResult, PipelineDeps } from '../../src/action/run-record.js';
import { localTranscriptStore } from '../../src/action/transcript-store.js';
import { profileFor } from '../../src/gemini/cli-profile.js';
import type { FakeUser } from '../../src/fake/github-api.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { ActionWorld, GEMINI_API_KEY, GEMINI_JS, OWNER, REPO, WORKFLOW_REF } from './action-job.js';
import { assertNoSecrets } from './action-world.js';
import { assertConformsToGitHub } from './openapi-check.js';
import { runAgent } from '../../src/run/engine.js';
import type { EgressSummary } from '../../src/run/types.js';
import { stubAgent, type AgentActs, type AgentSeen } from './stub-agent.js';
import { stubEngine, type AgentPlay, type SeenRuns } from './stub-engine.js';

export interface PipelineRun {
  /** What runAction returned; undefined when it threw (then `error`). */
  result?: ActionResult;
  error?: Error;
  log: string[];
  state: Record<string, string>;
  summary: string;
  /** The options the engine was called with (empty: the agent never ran). */
  seen: SeenRuns;
  /** With `agent`: what the stand-in for gemini did inside the real engine. */
  agent?: AgentSeen;
  /** How many requests the fake GitHub had answered before this run: `requests.slice(before)` is this run's. */
  before: number;
  /** The run's GITHUB_RUN_ID. */
  runId: string;
}

/** The gemini the stub "installs": the pinned bundle's path, its profile from the version, no npm. */
const offlineGemini: Pick<PipelineDeps, 'checkGemini' | 'installGemini'> = {
  checkGemini: (inputs, env, log) =>
    inputs.geminiPath || env.GEMINI_RUN_GEMINI_PATH
      ? checkGemini(inputs, env, log)
      : Promise.resolve({
          kind: 'install',
          profile: profileFor(inputs.geminiVersion, { allowUnchecked: false }),
        }),
  installGemini: (check, cache, log) =>
    check.kind === 'path'
      ? installGemini(check, cache, log)
      : Promise.resolve({ path: GEMINI_JS, profile: check.profile }),
};

export class PipelineWorld implements AsyncDisposable {
  private runs = 0;
  /** How far the pipeline's clock is ahead of the real one (`advance`). */
  private clockOffsetMs = 0;
  /** Everything the runs showed or left for people: log lines, job summaries, outputs and failures. */
  readonly published: string[] = [];
  private constructor(
    readonly world: ActionWorld,
    /** The model API the proxy forwards to: there (the launch's probe reaches it), though no stand-in calls it. */
    private readonly modelApi: Server,
  ) {}

  static async create(o: { tokenUser?: FakeUser } = {}): Promise<PipelineWorld> {
    const world = await ActionWorld.create(o);
    await world.checkout();
    const modelApi = createServer((_, res) => res.writeHead(503).end());
    await new Promise<void>((r) => modelApi.listen(0, '127.0.0.1', r));
    return new PipelineWorld(world, modelApi);
  }

  get github() {
    return this.world.github;
  }

  /**
   * Moves the pipeline's clock (PipelineDeps.now) forward: a quota reset, a deferral's due time pass without
   * waiting for them. The fake GitHub keeps its own clock (one second per event).
   */
  advance(ms: number): void {
    this.clockOffsetMs += ms;
  }

  async run(o: {
    play?: AgentPlay;
    /** The real engine with this stand-in for gemini (stub-agent.ts), in place of the stub engine's `play`. */
    agent?: AgentActs;
    eventName?: string;
    payload?: unknown;
    inputs?: Partial<Record<InputName, string>>;
    env?: NodeJS.ProcessEnv;
    deps?: Partial<PipelineDeps>;
    /** GitHub's API as the step is told it (default: the fake's). */
    apiUrl?: string;
    /** Another checkout to work in (`world.checkout('main', dir)`): two runs at once need one each. */
    workspace?: string;
    /** The workflow run this is an attempt of (GITHUB_RUN_ID; a re-run keeps its run's): default a new one. */
    runId?: string;
  }): Promise<PipelineRun> {
    const n = ++this.runs;
    const stepDir = await mkdtemp(join(this.world.tmp, `pipeline-${n}-`));
    const runnerTemp = join(stepDir, 'runner-temp');
    await mkdir(runnerTemp);
    const logger = createMemoryLogger();
    const state: Record<string, string> = {};
    let summary = '';
    const seen: SeenRuns = [];
    const inputs = parseInputs({
      ...INPUT_DEFAULTS,
      'github-token': this.world.token,
      'gemini-api-key': GEMINI_API_KEY,
      model: 'gemini-2.5-flash',
      mode: 'headless',
      isolation: 'none',
      network: 'open',
      ...o.inputs,
    });
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // Never called: the stand-ins make no model call; the proxy's launch only connects.
      GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${(this.modelApi.address() as AddressInfo).port}`,
      ...o.env,
    };
    const before = this.github.requests.length;
    const runId = o.runId === undefined ? 2000 + n : Number(o.runId);
    this.world.recordRunning(runId, o.eventName ?? 'issues');
    const ctx = {
      eventName: o.eventName ?? 'issues',
      payload: o.payload ?? this.world.labeledPayload(),
      repo: { owner: OWNER, repo: REPO },
      apiUrl: o.apiUrl ?? this.github.url,
      serverUrl: 'https://github.com',
      workspace: o.workspace ?? this.world.workspace,
      runId: String(runId),
      runAttempt: '1',
      actor: 'alice',
      origin: { workflowRef: WORKFLOW_REF, actionRepository: undefined },
      runnerTemp,
      toolCache: join(stepDir, 'tool-cache'),
    };
    const io = {
      log: logger,
      mask: () => undefined,
      saveState: (key: string, value: string) => void (state[key] = value),
      writeJobSummary: (markdown: string) => Promise.resolve(void (summary += markdown)),
      transcriptStore: () => localTranscriptStore(join(this.world.tmp, 'transcripts'), ctx.repo),
      env,
    };
    const agent: AgentSeen | undefined = o.agent ? { runs: seen, user: [], fetched: [] } : undefined;
    const acts = o.agent;
    const now = () => Date.now() + this.clockOffsetMs;
    const deps: PipelineDeps = {
      runAgent:
        acts && agent
          ? (opts) => runAgent(opts, { spawn: stubAgent(acts, agent) })
          : stubEngine(o.play ?? {}, seen, now),
      ...offlineGemini,
      now,
      // GitHub's back-off (1 s, 4 s, 9 s after a 5xx) in hundredths: the retries happen, without 14 s of waiting.
      githubBackoffMs: 10,
      ...o.deps,
    };
    const out: PipelineRun = {
      log: logger.lines,
      state,
      summary: '',
      seen,
      ...(agent ? { agent } : {}),
      before,
      runId: ctx.runId,
    };
    try {
      out.result = await runAction({ inputs, ctx, io, deps });
    } catch (error) {
      out.error = error as Error;
    }
    out.summary = summary;
    this.github.updateRun(runId, {
      status: 'completed',
      conclusion: out.result?.failure ? 'failure' : 'success',
    });
    this.published.push(
      logger.lines.join('\n'),
      summary,
      JSON.stringify(out.result ?? {}),
      out.error?.message ?? '',
    );
    return out;
  }

  /** The requests the fake GitHub answered for run `r`. */
  requestsOf(r: PipelineRun) {
    return this.github.requests.slice(r.before);
  }

  /** Run `r`'s run-summary.json, read as `gemini-run report` reads it. */
  async savedSummary(r: PipelineRun): Promise<RunSummary> {
    const dir = join(this.world.tmp, 'transcripts', OWNER, REPO, `gemini-run-${r.runId}-1`);
    return runSummarySchema.parse(JSON.parse(await readFile(join(dir, 'run-summary.json'), 'utf8')));
  }

  /** What the run's summary file says of the network (run-summary.json keeps the engine's result beside its facts). */
  async savedEgress(r: PipelineRun): Promise<EgressSummary | undefined> {
    const dir = join(this.world.tmp, 'transcripts', OWNER, REPO, `gemini-run-${r.runId}-1`);
    return (JSON.parse(await readFile(join(dir, 'run-summary.json'), 'utf8')) as { egress?: EgressSummary })
      .egress;
  }

  async workspaceFile(path: string): Promise<string | undefined> {
    return readFile(join(this.world.workspace, path), 'utf8').catch(() => undefined);
  }

  /** Disposes of the world; fails when any request of its runs, or the fake's answer, is not one GitHub allows. */
  async [Symbol.asyncDispose](): Promise<void> {
    try {
      assertConformsToGitHub(this.github.requests);
    } finally {
      await new Promise((r) => this.modelApi.close(r));
      await this.world[Symbol.asyncDispose]();
    }
  }
}

/**
 * A fresh PipelineWorld for each test of the file, handed to `set`; after each test, no call the fake does not
 * know, nothing any run published holds a secret, and (on dispose) every request is one GitHub's REST
 * description allows.
 */
export function usePipelineWorld(set: (w: PipelineWorld) => void): void {
  let w: PipelineWorld | undefined;
  beforeEach(async () => {
    w = await PipelineWorld.create();
    set(w);
  });
  afterEach(async () => {
    if (!w) return;
    w.github.assertNoUnexpected();
    assertNoSecrets(w.world, w.published);
    await w[Symbol.asyncDispose]();
  });
}

/** The run's result, with the invariant every end state keeps: the step fails exactly for a failing status. */
export function ended(r: PipelineRun): ActionResult {
  expect(r.error, r.log.join('\n')).toBeUndefined();
  const result = r.result!;
  expect(result.failure !== undefined, `failure for ${result.outputs.status}`).toBe(
    failsStep(result.outputs.status),
  );
  if (!result.outputs['pr-url']) expect(result.outputs['pr-number']).toBe('');
  // Every output in every end state, and `conclusion` exactly the step's result.
  for (const name of OUTPUT_NAMES) expect(typeof result.outputs[name], name).toBe('string');
  expect(result.outputs.conclusion).toBe(result.failure ? 'failure' : 'success');
  if (!result.outputs['pr-url']) expect(result.outputs['pull-request-operation']).toBe('none');
  return result;
}
