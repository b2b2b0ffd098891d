/**
 * edge-latency-p50-ms / edge-latency-p95-ms: how late the engine learns that a turn started or went idle.
 * For every `user_prompt` and `conversation_finished` record, the time from the record's own
 * `event.timestamp` (stamped by the CLI when the event happened) to the moment followTelemetry handed it to
 * us. The real gemini 0.42.0 runs as the product starts it (createIsolatedHome + buildEnv +
 * buildInteractiveSpec in a TmuxDriver, the agent as its own user when this host can isolate, the model behind
 * the proxy process dist/proxy.js), so OTEL_BLRP_SCHEDULE_DELAY is the product's 50 ms; the baseline is
 * a shorter session in the same run with that variable unset (OpenTelemetry's default batch delay, 5000 ms).
 * Targets: median ≤ 100 ms, p95 ≤ 250 ms.
 * `node --import tsx test/bench/edge-latency.bench.ts` (TURNS=<n>, BASELINE_TURNS=<n> to change the sizes).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsolatedHome } from '../../src/gemini/home.js';
import { OTEL_BLRP_SCHEDULE_DELAY_MS, buildEnv, buildInteractiveSpec } from '../../src/gemini/spawn.js';
import { followTelemetry, type TelemetryEvent } from '../../src/gemini/telemetry.js';
import { TmuxDriver } from '../../src/tmux/tmux.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { GEMINI_BIN } from '../harness/gemini-launcher.js';
import { createWorkRepo } from '../harness/repo.js';
import { existsSync } from 'node:fs';
import { openSandbox, type AgentSandbox } from '../../src/isolation/sandbox.js';
import { isolationAvailability } from '../../src/isolation/privilege.js';
import { launchModelProxy, type LaunchedProxy } from '../../src/proxy/launch.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { AGENT_FILE_LIMITS, ownerUids } from '../../src/util/agent-file.js';
import { ROOT } from '../harness/action-job.js';
import { bench } from './lib.js';

const PROXY_JS = join(ROOT, 'dist', 'proxy.js');
const ISOLATE = !(await isolationAvailability()).missing;

const TURNS = Math.max(2, Number(process.env.TURNS ?? 15));
/** Override only to explore; the figure that counts is the product's own value. */
const DELAY_MS = Number(process.env.SCHEDULE_DELAY_MS ?? OTEL_BLRP_SCHEDULE_DELAY_MS);
const BASELINE_TURNS = Math.max(1, Number(process.env.BASELINE_TURNS ?? 5));

interface Sample {
  kind: 'turn-started' | 'idle';
  /** The record's event.timestamp. */
  at: number;
  latencyMs: number;
  /** When the file first held the whole record (from a watch + stat log): splits CLI side from reader side. */
  writtenAt?: number;
}

/** End byte offset of every user_prompt / conversation_finished record, keyed by `<kind>@<event.timestamp>`. */
function recordEnds(file: Buffer): Map<string, number> {
  const out = new Map<string, number>();
  const names = { user_prompt: 'turn-started', conversation_finished: 'idle' } as const;
  for (const [name, kind] of Object.entries(names)) {
    const marker = Buffer.from(`"event.name": "gemini_cli.${name}"`);
    for (let m = file.indexOf(marker); m !== -1; m = file.indexOf(marker, m + 1)) {
      const start = file.lastIndexOf('{\n  "', m);
      const end = file.indexOf('\n}\n', m);
      if (start === -1 || end === -1) continue;
      const rec = JSON.parse(file.toString('utf8', start, end + 2)) as {
        attributes?: { 'event.timestamp'?: string };
      };
      const ts = Date.parse(rec.attributes?.['event.timestamp'] ?? '');
      const key = `${kind}@${ts}`;
      if (!out.has(key)) out.set(key, end + 3);
    }
  }
  return out;
}

/**
 * One interactive session of `turns` text-only turns; each next prompt is typed once the previous idle edge
 * arrived (as the engine would). `scheduleDelay` undefined = the variable unset (OTel's default).
 */
async function session(turns: number, scheduleDelay: number | undefined): Promise<Sample[]> {
  const script: Script = {
    description: `${turns} text turns`,
    steps: Array.from({ length: turns }, (_, i) => ({ text: `Answer ${i + 1}.`, chunks: 2 })),
  };
  const fake = await FakeGemini.start(script);
  const repo = await createWorkRepo({ name: 'edge-latency' });
  const runDir = await mkdtemp(join(tmpdir(), 'bench-edge-latency-'));
  const stopFollowing = new AbortController();
  let driver: TmuxDriver | undefined;
  let follower: Promise<void> | undefined;
  let watcher: FSWatcher | undefined;
  let sandbox: AgentSandbox | undefined;
  let proxy: LaunchedProxy | undefined;
  try {
    // As the product runs by default: the agent as its own user, the key behind the model proxy process.
    if (ISOLATE) {
      sandbox = await openSandbox({
        parentDir: runDir,
        worktree: repo.dir,
        reach: [process.execPath, GEMINI_BIN],
        log: createMemoryLogger(),
      });
    }
    const agentRoot = sandbox?.dir ?? runDir;
    const placeholder = `gemini-run-${randomBytes(16).toString('hex')}`;
    proxy = await launchModelProxy({
      upstream: fake.url,
      api: 'gemini-api',
      placeholder,
      credential: { kind: 'api-key', apiKey: 'fake' },
      ...(existsSync(PROXY_JS) ? { script: PROXY_JS } : {}),
    });
    const tmpDir = join(agentRoot, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const auth = { kind: 'api-key', apiKey: 'fake' } as const;
    const home = await createIsolatedHome(join(agentRoot, 'home'), auth);
    await sandbox?.admit();
    const telemetryFile = join(agentRoot, 'telemetry.json');
    const env = buildEnv({
      home,
      auth,
      telemetryFile,
      tmpDir,
      sourceEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
      modelEndpoint: { kind: 'gemini-api', baseUrl: proxy.url, placeholder },
      ...(sandbox ? { agentUser: { name: sandbox.user.name, home: home.root, worktree: repo.dir } } : {}),
    });
    if (scheduleDelay === undefined) delete env.OTEL_BLRP_SCHEDULE_DELAY;
    else env.OTEL_BLRP_SCHEDULE_DELAY = String(scheduleDelay);
    const spec = buildInteractiveSpec({
      geminiPath: GEMINI_BIN,
      worktree: repo.dir,
      approvalMode: 'yolo',
      env,
      ...(sandbox ? { runAs: sandbox.runAs } : {}),
    });

    // Diagnostics only: when did the file grow, and to what size (a sync stat costs microseconds).
    const growth: { at: number; size: number }[] = [];
    watcher = watch(agentRoot, (_type, name) => {
      if (name !== 'telemetry.json') return;
      try {
        growth.push({ at: Date.now(), size: statSync(telemetryFile).size });
      } catch {
        // not there yet
      }
    });
    const samples: Sample[] = [];
    let idles = 0;
    let wake: (() => void) | undefined;
    follower = followTelemetry(
      telemetryFile,
      (batch: TelemetryEvent[]) => {
        const deliveredAt = Date.now();
        for (const ev of batch) {
          if (ev.kind !== 'turn-started' && ev.kind !== 'idle') continue;
          if (ev.kind === 'idle') idles++;
          samples.push({ kind: ev.kind, at: ev.at, latencyMs: deliveredAt - ev.at });
        }
        wake?.();
      },
      // The agent's user writes the file: read as the engine reads it (its directory, its uid or ours).
      {
        signal: stopFollowing.signal,
        policy: {
          root: agentRoot,
          uids: ownerUids(sandbox?.user.uid),
          maxBytes: AGENT_FILE_LIMITS.telemetry,
        },
      },
    );
    const waitForIdle = async (n: number, timeoutMs: number): Promise<void> => {
      const end = Date.now() + timeoutMs;
      while (idles < n) {
        if (Date.now() > end) throw new Error(`idle edge ${n} not seen within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 500);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    };

    driver = await TmuxDriver.create({ id: `edge-${randomBytes(4).toString('hex')}`, runDir, pane: spec });
    await waitForIdle(1, 60_000);
    for (let turn = 2; turn <= turns; turn++) {
      await driver.typeText(`Turn ${turn}: one more short answer please.`);
      await waitForIdle(turn, 30_000);
    }
    await driver.typeText('/quit');
    for (let i = 0; i < 200 && !(await driver.paneState()).dead; i++) await sleep(50);
    if (samples.length !== 2 * turns) {
      throw new Error(`expected ${2 * turns} edges, saw ${samples.length}`);
    }
    const ends = recordEnds(readFileSync(telemetryFile));
    for (const sample of samples) {
      const end = ends.get(`${sample.kind}@${sample.at}`);
      const w = end === undefined ? undefined : growth.find((g) => g.size >= end);
      if (w) sample.writtenAt = w.at;
    }
    return samples;
  } finally {
    watcher?.close();
    if (driver) {
      const report = await driver.stop();
      if (report.survivors.length > 0) console.error(`# survivors: ${report.survivors.join(', ')}`);
    }
    stopFollowing.abort();
    await follower?.catch(() => undefined);
    await sandbox?.close();
    await proxy?.stop();
    await fake.close();
    await repo[Symbol.asyncDispose]();
    await rm(runDir, { recursive: true, force: true });
  }
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function report(label: string, samples: Sample[]): void {
  const by = (k: Sample['kind']): string =>
    samples
      .filter((s) => s.kind === k)
      .map((s) => s.latencyMs)
      .join(' ');
  console.error(`# ${label}: user_prompt ms: ${by('turn-started')}`);
  console.error(`# ${label}: conversation_finished ms: ${by('idle')}`);
  const split = samples.filter((x) => x.writtenAt !== undefined);
  const cli = split.map((x) => (x.writtenAt ?? 0) - x.at);
  const reader = split.map((x) => x.at + x.latencyMs - (x.writtenAt ?? 0));
  console.error(
    `# ${label}: of which event → in the file (CLI batching + its event loop) p50 ${percentile(cli, 50)} / ` +
      `p95 ${percentile(cli, 95)} ms; in the file → delivered (our reader) p50 ${percentile(reader, 50)} / ` +
      `p95 ${percentile(reader, 95)} ms (${split.length}/${samples.length} edges split)`,
  );
}

console.error(
  `# agent: ${ISOLATE ? 'its own user (isolation: user)' : 'this user (this host cannot isolate)'}; model: through ${existsSync(PROXY_JS) ? 'the proxy process dist/proxy.js' : 'the in-process proxy (no dist/)'}`,
);
const product = await session(TURNS, DELAY_MS);
report(`OTEL_BLRP_SCHEDULE_DELAY=${DELAY_MS}, ${TURNS} turns`, product);
const baseline = await session(BASELINE_TURNS, undefined);
report(`OTEL_BLRP_SCHEDULE_DELAY unset, ${BASELINE_TURNS} turns`, baseline);

const lat = product.map((s) => s.latencyMs);
const base = baseline.map((s) => s.latencyMs);
for (const p of [50, 95]) {
  const v = percentile(lat, p);
  const b = percentile(base, p);
  bench(
    `edge-latency-p${p}-ms`,
    v,
    'ms',
    `p${p} of the time from the CLI's event timestamp to our reader delivering it, over ${TURNS} turns with OTEL_BLRP_SCHEDULE_DELAY=${DELAY_MS}; baseline: the CLI's default delay, ${BASELINE_TURNS} turns`,
    { baseline: b, ratio: v / b },
  );
}
