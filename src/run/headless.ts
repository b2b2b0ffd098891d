/**
 * The headless mode: `gemini --output-format stream-json` with the task on stdin. The process's own exit code
 * and its stream decide the end state; a timeout ends it by its process group (SIGTERM, then SIGKILL).
 *
 * This is the one subprocess not started through util/exec: it must be streamed line by line (live progress)
 * and killed as a group, which the buffering exec wrapper does not offer.
 */
import { spawn } from 'node:child_process';
import type { RunEvent, TranscriptToolCall } from '../domain/types.js';
import { StreamJsonTranslator } from '../gemini/headless.js';
import { buildHeadlessSpec, launchArgv, type SpawnSpec } from '../gemini/spawn.js';
import { guardProcessExit, killProcessGroup } from '../util/process.js';
import { prepareSpawn, runAttempts, type Attempt, type SpawnContext, type SpawnOutcome } from './attempt.js';
import { SpawnLifecycle } from './lifecycle.js';
import { telemetryToRunEvents } from './progress.js';
import { decideHeadlessEnd } from './walls.js';
import { silenceFor } from '../proxy/upstream-health.js';

const KILL_AFTER_TERM_MS = 5_000;
/**
 * Past the silence bound, headless gemini is stalled only this much later: a model call that hears nothing is the
 * proxy's to name (model-unavailable, at the bound itself), and its verdict must come first.
 */
const STALL_AFTER_SILENCE_MS = 15_000;
const MODEL_WATCH_MS = 250;
const STDERR_TAIL_BYTES = 64 * 1024;

export function runHeadless(ctx: SpawnContext): Promise<SpawnOutcome> {
  return runAttempts(ctx, spawnOnce);
}

async function spawnOnce(ctx: SpawnContext, attempt: number): Promise<Attempt> {
  const { opts, progress } = ctx;
  const { telemetryFile, sessionId, spec: base } = await prepareSpawn(ctx, attempt);
  const spec = buildHeadlessSpec({ ...base, stdin: ctx.taskText });

  const life = new SpawnLifecycle(ctx);
  const group = new GroupStop(life);
  const checkBudget = (): void => {
    if (group.pid !== undefined && !life.stopping && ctx.overBudget())
      group.stop(`token budget of ${opts.maxTokens} reached`);
  };
  // Stream-json already reports tools and text; telemetry adds what it lacks (tokens per call, fallbacks).
  life.followTelemetry(telemetryFile, (batch) => {
    for (const ev of batch) {
      if (ev.kind === 'api-response' || ev.kind === 'flash-fallback') {
        for (const re of telemetryToRunEvents(ev)) progress.emit(re);
      }
    }
    checkBudget();
  });
  const stream = new StreamTally(ctx, checkBudget);
  const watch = watchHeadless(ctx, life, group, stream);
  let ran: Awaited<ReturnType<typeof runGemini>>;
  try {
    ran = await runGemini(spec, { ctx, life, group, stream, heard: watch.heard });
  } finally {
    watch.stop();
  }
  stream.end();
  return endOf({ ctx, attempt, sessionId, life, stream, ran, seen: watch.seen });
}

/** What the watch saw that stopped gemini: the model given up for unavailable, or gemini stalled. */
interface Seen {
  modelDown?: string;
  stalled?: string;
}

/**
 * The proxy's verdict on the model API arrives between events: looked at on a timer, as interactive's tick does,
 * with gemini's silence (stalled once it said nothing past the silence bound with no tool running).
 */
function watchHeadless(
  ctx: SpawnContext,
  life: SpawnLifecycle,
  group: GroupStop,
  stream: StreamTally,
): { seen: Seen; heard: () => void; stop: () => void } {
  const { opts } = ctx;
  const seen: Seen = {};
  const stallMs = silenceFor(opts.timeoutMs) + STALL_AFTER_SILENCE_MS;
  let heardAt = Date.now();
  let events = 0;
  const timer = setInterval(() => {
    if (group.pid === undefined || life.stopping) return;
    const down = ctx.modelDown();
    if (down !== undefined) {
      seen.modelDown = down;
      opts.log.warning(`model-unavailable: ${down}`);
      group.stop('the model API is unavailable');
      return;
    }
    // A tool may run as long as the timeout allows, silently (a build, a test suite): only a CLI that says
    // nothing with no tool running is stuck.
    if (life.events.length !== events) [events, heardAt] = [life.events.length, Date.now()];
    const quietMs = Date.now() - heardAt;
    if (quietMs < stallMs || stream.toolRunning()) return;
    seen.stalled = `gemini stalled: it printed nothing and recorded no telemetry for ${Math.round(quietMs / 1000)} s with no tool running`;
    group.stop('gemini stalled');
  }, MODEL_WATCH_MS);
  return { seen, heard: () => (heardAt = Date.now()), stop: () => clearInterval(timer) };
}

/** How the spawn ended (walls.ts decides), as the outcome the engine reads, or a retry. */
function endOf(o: {
  ctx: SpawnContext;
  attempt: number;
  sessionId: string;
  life: SpawnLifecycle;
  stream: StreamTally;
  ran: Awaited<ReturnType<typeof runGemini>>;
  seen: Seen;
}): Attempt {
  const { opts } = o.ctx;
  const { life, stream, seen } = o;
  const { exit, stderr, geminiLifetimeMs } = o.ran;
  const d = decideHeadlessEnd({
    events: life.events,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut: life.stopping,
    ...(stream.translator.resultStatus ? { resultStatus: stream.translator.resultStatus } : {}),
    ...(stream.error !== undefined ? { streamError: stream.error } : {}),
    streamTerminalQuota: stream.terminalQuota,
    stderr,
    sessionRetries: o.attempt,
    ...(opts.cliProfile ? { cli: opts.cliProfile } : {}),
    ...(seen.modelDown !== undefined ? { modelDown: seen.modelDown } : {}),
    ...(seen.stalled !== undefined ? { stalled: seen.stalled } : {}),
  });
  if (d.action === 'retry') return { kind: 'retry', message: d.message };
  const lastScreen = stderr.trim() ? stderr.trim().split('\n').slice(-20) : undefined;
  if (d.status === 'crashed')
    life.logCrash(d.message ?? '', "The last lines of gemini's stderr:", lastScreen);
  const { translator } = stream;
  return {
    kind: 'done',
    outcome: {
      status: d.status,
      ...(d.message !== undefined ? { message: d.message } : {}),
      sessionId: translator.sessionId ?? o.sessionId,
      exitCode: exit.code,
      ...(lastScreen ? { lastScreen } : {}),
      geminiLifetimeMs,
      events: life.events,
      ...(translator.usage ? { usage: translator.usage } : {}),
      answer: translator.answer,
      toolCalls: stream.toolCalls(),
    },
  };
}

/** Ends gemini's process group as at a timeout (the budget stops the agent the same way): SIGTERM, then SIGKILL. */
class GroupStop {
  /** gemini's process group, once spawned. */
  pid: number | undefined;
  private killTimer: NodeJS.Timeout | undefined;

  constructor(private readonly life: SpawnLifecycle) {}

  stop(why: string): void {
    this.life.fenceThenStop(`${why}: stopping gemini (SIGTERM, then SIGKILL)`, () => {
      killProcessGroup(this.pid, 'SIGTERM');
      this.killTimer = setTimeout(() => killProcessGroup(this.pid, 'SIGKILL'), KILL_AFTER_TERM_MS);
    });
  }

  /** gemini exited: no SIGKILL is due any more. */
  exited(): void {
    if (this.killTimer) clearTimeout(this.killTimer);
  }
}

/** What gemini's stream-json said: its events go to progress as they come, its tool calls and errors are kept. */
class StreamTally {
  readonly translator = new StreamJsonTranslator();
  error: string | undefined;
  terminalQuota = false;
  private readonly calls = new Map<string, TranscriptToolCall>();

  constructor(
    private readonly ctx: SpawnContext,
    private readonly afterEvents: () => void,
  ) {}

  push(chunk: string): void {
    this.take(this.translator.push(chunk));
  }

  /** The stream closed: what the translator still held, and its own error when the stream named none. */
  end(): void {
    this.take(this.translator.end());
    if (this.translator.error && !this.error) this.error = this.translator.error;
    const skipped = this.translator.oversizedLines;
    if (skipped > 0)
      this.ctx.opts.log.warning(`skipped ${skipped} stream-json line(s) of gemini too large to read`);
  }

  toolCalls(): TranscriptToolCall[] {
    return [...this.calls.values()];
  }

  /** A tool started and has not reported its result. */
  toolRunning(): boolean {
    for (const c of this.calls.values()) if (c.status === 'running') return true;
    return false;
  }

  private take(evs: RunEvent[]): void {
    for (const e of evs) {
      if (e.type === 'tool-started') {
        const id = e.id ?? `tool-${this.calls.size}`;
        this.calls.set(id, {
          id,
          name: e.name,
          kind: e.kind,
          status: 'running',
          ...(e.detail ? { description: e.detail } : {}),
        });
      } else if (e.type === 'tool-completed') {
        const id = e.id ?? `tool-${this.calls.size}`;
        const call = this.calls.get(id) ?? { id, name: e.name, kind: e.kind, status: 'running' };
        this.calls.set(id, { ...call, status: e.ok ? 'success' : 'error' });
      } else if (e.type === 'api-error') {
        this.error = e.message;
        if (e.terminalQuota) this.terminalQuota = true;
      }
      if (e.type !== 'text') this.ctx.progress.emit(e);
      else this.ctx.opts.onEvent?.(e);
    }
    this.afterEvents();
  }
}

/** Runs gemini to its exit (or the timeout's stop), then ends its group and the followers. */
async function runGemini(
  spec: SpawnSpec,
  o: {
    ctx: SpawnContext;
    life: SpawnLifecycle;
    group: GroupStop;
    stream: StreamTally;
    /** Called on every chunk gemini writes (stdout or stderr). */
    heard: () => void;
  },
): Promise<{
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stderr: string;
  geminiLifetimeMs: number;
}> {
  const { opts } = o.ctx;
  const spawnedAt = Date.now();
  const launch = launchArgv(spec);
  const child = spawn(launch.file, launch.args, {
    cwd: spec.cwd,
    env: launch.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so a timeout ends gemini and everything it started.
    detached: true,
  });
  o.group.pid = child.pid;
  // A cancelled job (SIGTERM to us) must not leave gemini running.
  const releaseGuard = guardProcessExit(() => killProcessGroup(child.pid, 'SIGKILL'));
  // The stream's `init` announces the session (as 'started'); nothing to emit here.
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    o.heard();
    o.stream.push(chunk);
  });
  child.stderr.on('data', (chunk: string) => {
    o.heard();
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(spec.stdin ?? '');

  const timeout = setTimeout(
    () => o.group.stop(`timeout after ${Math.round(opts.timeoutMs / 1000)} s`),
    opts.timeoutMs,
  );
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  try {
    exit = await new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
  } finally {
    clearTimeout(timeout);
    o.group.exited();
    // Anything it left in its group (a tool's background process) goes with it.
    killProcessGroup(child.pid, 'SIGKILL');
    releaseGuard();
    await o.life.stopFollowing();
  }
  return { exit, stderr, geminiLifetimeMs: Date.now() - spawnedAt };
}
