/**
 * edge-latency-latest-p50-ms / -p95-ms: how late we learn that a turn ended on the newest CLI (0.61.0), which
 * ignores OTEL_BLRP_SCHEDULE_DELAY (its telemetry reaches the file up to 5 s late). The headline is the dynamic
 * window title turning "◇  Ready", measured as edge-latency.bench.ts measures 0.42.0: from the CLI's own idle
 * stamp (the `event.timestamp` of that turn's conversation_finished, exact even when flushed late) to the moment
 * this process saw it; the baseline is 0.42.0's telemetry edge (OTEL_BLRP_SCHEDULE_DELAY=50) in the same run.
 *
 * Every candidate is also measured from the moment the fake model's LAST reply of a turn was fully sent (the end
 * of the last `:streamGenerateContent` response before the signal, stamped by a forwarding proxy):
 * - `otel`: `conversation_finished` in the telemetry outfile, read by the product's followTelemetry;
 * - `title`: the window title turning "◇  Ready" (a tmux `pane-title-changed` hook appends `#{pane_title}` to
 *   a file);
 * - `transcript`: the final gemini record of the turn in the session's `.jsonl` (written when the reply
 *   arrives, before the CLI is idle: not a turn end, listed as the lower bound);
 * - `hook` (HOOK=1): an `AfterAgent` command hook (settings `hooks.AfterAgent`) appending a line to a file, in
 *   sessions of its own because the CLI awaits it before going idle.
 * Each session alternates tool turns (one run_shell_command, then text) and text-only turns. The agent runs as
 * this user and talks to the fake directly (no sandbox, no model proxy process): neither changes how the CLI
 * signals the end of a turn.
 *
 * `node --import tsx test/bench/edge-latency-latest.bench.ts`; TURNS=<n> (default 12);
 * GEMINI_LATEST_BIN=<path to gemini> (default: install 0.61.0 into ~/.cache/gemini-run/bench with installGemini);
 * HOOK=1 adds two sessions with the AfterAgent hook (about 2 more minutes; the hook is not the chosen signal).
 */
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest, createServer, type Server } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIsolatedHome } from '../../src/gemini/home.js';
import { geminiVersion, installGemini } from '../../src/gemini/install.js';
import { OWNED_SETTINGS, RUN_HOME_SETTINGS, mergeSettings } from '../../src/gemini/settings.js';
import { OTEL_BLRP_SCHEDULE_DELAY_MS, buildEnv, buildInteractiveSpec } from '../../src/gemini/spawn.js';
import { followTelemetry, type TelemetryEvent } from '../../src/gemini/telemetry.js';
import { TmuxDriver } from '../../src/tmux/tmux.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { GEMINI_BIN, GEMINI_LATEST_BIN as GEMINI_LATEST_DEV } from '../harness/gemini-launcher.js';
import { TitleEdges, titleHookCommand } from '../../src/run/title-edge.js';
import { createWorkRepo } from '../harness/repo.js';
import { bench } from './lib.js';

const TURNS = Math.max(2, Number(process.env.TURNS ?? 12));
const LATEST_VERSION = '0.61.0';
const SIGNALS = ['otel', 'hook', 'title', 'transcript'] as const;
type Signal = (typeof SIGNALS)[number];

/** Times (ms) at which each `:streamGenerateContent` response finished, through a forwarding proxy. */
class StampingProxy {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly streamEnds: number[],
  ) {}

  static async start(upstream: string): Promise<StampingProxy> {
    const target = new URL(upstream);
    const streamEnds: number[] = [];
    const server = createServer((req, res) => {
      const up = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: target.host },
        },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
          upRes.on('end', () => {
            if ((req.url ?? '').includes(':streamGenerateContent')) streamEnds.push(Date.now());
          });
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    if (addr === null || typeof addr === 'string') throw new Error('proxy: no address');
    return new StampingProxy(server, `http://127.0.0.1:${addr.port}`, streamEnds);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Calls onLine for every complete new line appended to `file` (watching its directory). */
function tailLines(file: string, onLine: (line: string, seenAt: number) => void): () => void {
  let offset = 0;
  let partial = '';
  let busy = false;
  let again = false;
  const read = async (): Promise<void> => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const buf = await readFile(file).catch(() => undefined);
        if (!buf || buf.length <= offset) continue;
        const seenAt = Date.now();
        const text = partial + buf.toString('utf8', offset);
        offset = buf.length;
        const lines = text.split('\n');
        partial = lines.pop() ?? '';
        for (const l of lines) onLine(l, seenAt);
      } while (again);
    } finally {
      busy = false;
    }
  };
  const dir = join(file, '..');
  const w: FSWatcher = watch(dir, () => void read());
  const poll = setInterval(() => void read(), 250);
  return () => {
    w.close();
    clearInterval(poll);
  };
}

/** Follows the session's transcript (found under the home's chats dirs) and reports final gemini records. */
function followTranscript(
  geminiDir: string,
  finals: ReadonlySet<string>,
  onFinal: (seenAt: number) => void,
): () => void {
  let stopTail: (() => void) | undefined;
  let stopped = false;
  const find = async (): Promise<string | undefined> => {
    const tmp = join(geminiDir, 'tmp');
    for (const slug of await readdir(tmp).catch(() => [] as string[])) {
      const chats = join(tmp, slug, 'chats');
      for (const f of await readdir(chats).catch(() => [] as string[])) {
        if (f.startsWith('session-') && f.endsWith('.jsonl')) return join(chats, f);
      }
    }
    return undefined;
  };
  const seen = new Set<string>();
  const timer = setInterval(() => {
    void find().then((file) => {
      if (!file || stopTail || stopped) return;
      clearInterval(timer);
      stopTail = tailLines(file, (line, seenAt) => {
        let rec: { type?: string; content?: unknown; id?: string };
        try {
          rec = JSON.parse(line) as typeof rec;
        } catch {
          return;
        }
        if (rec.type !== 'gemini' || typeof rec.content !== 'string' || !finals.has(rec.content)) return;
        if (seen.has(rec.content)) return;
        seen.add(rec.content);
        onFinal(seenAt);
      });
    });
  }, 20);
  return () => {
    stopped = true;
    clearInterval(timer);
    stopTail?.();
  };
}

interface SessionResult {
  version: string;
  hook: boolean;
  /** Per signal, ms from the turn's last model reply being sent to the signal being seen, in turn order. */
  fromReply: Record<Signal, number[]>;
  /**
   * Per signal, ms from the CLI's own idle moment (the `event.timestamp` it stamps on that turn's
   * conversation_finished, exact even when the record is flushed late) to the signal being seen: what
   * edge-latency.bench.ts calls edge latency. Negative = seen before the CLI was idle.
   */
  fromIdle: Record<Signal, number[]>;
  screen: string[];
}

async function session(gemini: string, opts: { hook: boolean }): Promise<SessionResult> {
  const version = (await geminiVersion(gemini)) ?? 'unknown';
  const finals: string[] = [];
  const steps: Script['steps'] = [];
  for (let t = 1; t <= TURNS; t++) {
    if (t % 2 === 1) {
      steps.push({ functionCalls: [{ name: 'run_shell_command', args: { command: `echo turn${t}` } }] });
    }
    const text = `Reply ${t} ${randomBytes(3).toString('hex')} is done.`;
    finals.push(text);
    steps.push({ text, chunks: 2 });
  }
  const fake = await FakeGemini.start({ description: `${TURNS} turns, alternating tool and text`, steps });
  const proxy = await StampingProxy.start(fake.url);
  const repo = await createWorkRepo({ name: 'edge-latest' });
  const runDir = await mkdtemp(join(tmpdir(), 'bench-edge-latest-'));
  const stop = new AbortController();
  const cleanups: (() => void)[] = [];
  let driver: Awaited<ReturnType<typeof TmuxDriver.create>> | undefined;
  let follower: Promise<void> | undefined;
  const seen: Record<Signal, number[]> = { otel: [], hook: [], title: [], transcript: [] };
  const idleStamps: number[] = [];
  try {
    const tmpDir = join(runDir, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    const auth = { kind: 'api-key', apiKey: 'fake' } as const;
    const home = await createIsolatedHome(join(runDir, 'home'), auth);
    const hookFile = join(runDir, 'edges', 'after-agent');
    const titleFile = join(runDir, 'edges', 'title');
    await mkdir(join(runDir, 'edges'), { recursive: true });
    if (opts.hook) {
      // Silent and always exit 0: a hook's stdout/stderr becomes a systemMessage, exit 2 a "deny" that makes the
      // agent continue. It does not read stdin (the prompt and response JSON); the CLI ignores EPIPE.
      // One merge with everything: a merge of a different key set gives back the keys it no longer names.
      await mergeSettings(home.settingsPath, {
        ...OWNED_SETTINGS(auth.kind),
        ...RUN_HOME_SETTINGS,
        'hooks.AfterAgent': [
          {
            hooks: [
              {
                type: 'command',
                name: 'gemini-run-turn-end',
                command: `{ echo "$GEMINI_SESSION_ID" >> '${hookFile}'; } >/dev/null 2>&1; exit 0`,
                timeout: 5000,
              },
            ],
          },
        ],
        'hooksConfig.notifications': false,
      });
    }
    const telemetryFile = join(runDir, 'telemetry.json');
    const env = buildEnv({
      home,
      auth,
      telemetryFile,
      tmpDir,
      sourceEnv: { PATH: process.env.PATH, HOME: process.env.HOME },
      modelEndpoint: { kind: 'gemini-api', baseUrl: proxy.url, placeholder: 'fake' },
    });
    env.OTEL_BLRP_SCHEDULE_DELAY = String(OTEL_BLRP_SCHEDULE_DELAY_MS);
    const spec = buildInteractiveSpec({ geminiPath: gemini, worktree: repo.dir, approvalMode: 'yolo', env });

    let wake: (() => void) | undefined;
    const note = (s: Signal, at: number): void => {
      seen[s].push(at);
      wake?.();
    };
    follower = followTelemetry(
      telemetryFile,
      (batch: TelemetryEvent[]) => {
        const at = Date.now();
        for (const ev of batch) {
          if (ev.kind !== 'idle') continue;
          idleStamps.push(ev.at);
          note('otel', at);
        }
      },
      { signal: stop.signal, pollMs: 50 },
    );
    cleanups.push(tailLines(hookFile, (_l, at) => note('hook', at)));
    // The product's own reading of the titles (src/run/title-edge.ts): an edge is the change into idle.
    const titles = new TitleEdges();
    cleanups.push(
      tailLines(titleFile, (line, at) => {
        const before = titles.idle;
        titles.line(line);
        if (titles.idle && !before) note('title', at);
      }),
    );
    cleanups.push(followTranscript(home.geminiDir, new Set(finals), (at) => note('transcript', at)));

    driver = await TmuxDriver.create({
      id: `edge-latest-${randomBytes(4).toString('hex')}`,
      runDir,
      pane: spec,
      // The product's hook (src/run/interactive.ts), in place before the CLI starts.
      setup: [titleHookCommand(titleFile)],
    });
    const waitFor = async (s: Signal, n: number, timeoutMs: number): Promise<void> => {
      const end = Date.now() + timeoutMs;
      // Only signals after a model response count (the title is "Ready" once at start-up).
      const count = (): number => seen[s].filter((at) => proxy.streamEnds.some((e) => e <= at)).length;
      while (count() < n) {
        if (Date.now() > end) {
          const screen = (await driver?.capture().catch(() => [])) ?? [];
          throw new Error(
            `${version}: ${s} edge ${n} not seen within ${timeoutMs} ms (seen ${SIGNALS.map((x) => `${x} ${seen[x].length}`).join(', ')}); screen:\n${screen.join('\n')}`,
          );
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 200);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    };
    // The slowest signal paces the session, so every turn's signals are all in before the next prompt.
    const slowest = async (n: number, timeoutMs: number): Promise<void> => {
      for (const s of SIGNALS) {
        if (s === 'hook' && !opts.hook) continue;
        await waitFor(s, n, timeoutMs);
      }
    };
    await slowest(1, 60_000);
    for (let turn = 2; turn <= TURNS; turn++) {
      await sleep(200);
      await driver.typeText(`Turn ${turn}: carry on please.`);
      await slowest(turn, 30_000);
    }
    const screen = await driver.capture();
    await driver.typeText('/quit');
    for (let i = 0; i < 200 && !(await driver.paneState()).dead; i++) await sleep(50);

    // A signal's turn ended with the last stream response that finished before it; a signal with no response
    // before it (the title is "Ready" once at start-up) is not a turn end.
    const turnSignals = (sig: Signal): number[] =>
      seen[sig].filter((at) => proxy.streamEnds.some((e) => e <= at));
    const fromReply = Object.fromEntries(
      SIGNALS.map((sig) => [
        sig,
        turnSignals(sig).map((at) => at - (proxy.streamEnds.filter((e) => e <= at).at(-1) as number)),
      ]),
    ) as Record<Signal, number[]>;
    const fromIdle = Object.fromEntries(
      SIGNALS.map((sig) => [sig, turnSignals(sig).map((at, i) => at - (idleStamps[i] ?? NaN))]),
    ) as Record<Signal, number[]>;
    if (process.env.DEBUG_REQUESTS) {
      const t0 = fake.requests[0]?.at ?? 0;
      const events = [
        ...fake.requests.map((r) => ({ at: r.at, what: `request ${r.kind} ${r.answeredWith ?? ''}` })),
        ...proxy.streamEnds.map((at) => ({ at, what: 'stream end' })),
        ...SIGNALS.flatMap((sig) => seen[sig].map((at) => ({ at, what: `signal ${sig}` }))),
        ...idleStamps.map((at) => ({ at, what: 'conversation_finished event.timestamp' })),
      ].sort((x, y) => x.at - y.at);
      for (const ev of events) console.error(`#   ${version} +${ev.at - t0} ms ${ev.what}`);
    }
    return { version, hook: opts.hook, fromReply, fromIdle, screen };
  } finally {
    if (driver) {
      const report = await driver.stop();
      if (report.survivors.length > 0) console.error(`# survivors: ${report.survivors.join(', ')}`);
    }
    stop.abort();
    await follower?.catch(() => undefined);
    for (const c of cleanups) c();
    await proxy.close();
    await fake.close();
    await repo[Symbol.asyncDispose]();
    await rm(runDir, { recursive: true, force: true });
  }
}

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? NaN;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function latestGemini(): Promise<string> {
  const given = process.env.GEMINI_LATEST_BIN;
  if (given) return given;
  if ((await geminiVersion(GEMINI_LATEST_DEV)) === LATEST_VERSION) return GEMINI_LATEST_DEV;
  const cacheRoot = join(homedir(), '.cache', 'gemini-run', 'bench');
  await mkdir(cacheRoot, { recursive: true });
  return installGemini({ version: LATEST_VERSION, cacheRoot, log: createMemoryLogger(), cache: null });
}

function report(r: SessionResult): void {
  const label = `${r.version}${r.hook ? '' : ' (no hook)'}`;
  const stats = (v: number[]): string => `p50 ${percentile(v, 50)} / p95 ${percentile(v, 95)} ms`;
  for (const sig of SIGNALS) {
    if (sig === 'hook' && !r.hook) continue;
    console.error(
      `# ${label} ${sig} (${r.fromReply[sig].length} turns): from reply ${stats(r.fromReply[sig])} [${r.fromReply[sig].join(' ')}]; ` +
        `from idle ${stats(r.fromIdle[sig])} [${r.fromIdle[sig].join(' ')}]`,
    );
  }
  const hookText = r.screen.filter((l) => /hook/i.test(l)).map((l) => l.trim());
  if (hookText.length > 0) console.error(`# ${label}: screen mentions hooks: ${hookText.join(' / ')}`);
}

const latest = await latestGemini();
const stat0 = await stat(GEMINI_BIN).catch(() => undefined);
if (!stat0) throw new Error(`the pinned gemini is missing at ${GEMINI_BIN}: run npm ci`);
const results: SessionResult[] = [];
// The hook sessions come apart: the CLI awaits the hook before it goes idle, so it delays every other signal.
for (const [bin, hook] of [
  [GEMINI_BIN, false],
  [latest, false],
  ...(process.env.HOOK === '1'
    ? ([
        [GEMINI_BIN, true],
        [latest, true],
      ] as const)
    : []),
] as const) {
  const r = await session(bin, { hook });
  report(r);
  results.push(r);
}
const find = (latestVersion: boolean, hook: boolean): SessionResult | undefined =>
  results.find((r) => (r.version === LATEST_VERSION) === latestVersion && r.hook === hook);
const base = find(false, false);
const newest = find(true, false);
if (!base || !newest) throw new Error('a session is missing');
// The headline: the signal the adapter should use on 0.61.0 (the window title; compat.md, "Fast edges"),
// measured as edge-latency.bench.ts measures 0.42.0 (from the CLI's own idle stamp), against 0.42.0's
// telemetry edge in the same run.
for (const p of [50, 95]) {
  const b = percentile(base.fromIdle.otel, p);
  const v = percentile(newest.fromIdle.title, p);
  bench(
    `edge-latency-latest-p${p}-ms`,
    v,
    'ms',
    `p${p} of the time from ${LATEST_VERSION}'s own idle stamp to the window-title edge reaching this process; baseline: 0.42.0's telemetry edge from its idle stamp, same run`,
    { baseline: b, ratio: v / b },
  );
}
// Every candidate from the moment the model's last reply was sent (this includes the CLI's own work before it
// goes idle), against 0.42.0's telemetry edge measured the same way.
const hooked = find(true, true);
for (const p of [50, 95]) {
  const b = percentile(base.fromReply.otel, p);
  for (const sig of SIGNALS) {
    const r = sig === 'hook' ? hooked : newest;
    if (!r) continue;
    const v = percentile(r.fromReply[sig], p);
    bench(
      `edge-latency-latest-${sig}-from-reply-p${p}-ms`,
      v,
      'ms',
      `p${p} of the time from the fake model sending its last reply to the ${sig} edge reaching this process; baseline: 0.42.0's telemetry edge measured the same way`,
      { baseline: b, ratio: v / b },
    );
  }
}
