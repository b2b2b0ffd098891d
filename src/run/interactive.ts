/**
 * The interactive mode: the TUI in its own tmux server, watched through the telemetry file (edges within
 * ~100 ms), the pane's state and, as a last resort, the screen. walls.ts decides; this file only acts.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildInteractiveSpec, type SpawnSpec } from '../gemini/spawn.js';
import { stripBox } from '../gemini/screen.js';
import { TmuxDriver, type PaneState } from '../tmux/tmux.js';
import { AGENT_FILE_LIMITS } from '../util/agent-file.js';
import { getErrorMessage } from '../util/errors.js';
import { neutralize } from '../util/untrusted-text.js';
import { prepareSpawn, runAttempts, type Attempt, type SpawnContext, type SpawnOutcome } from './attempt.js';
import { SpawnLifecycle } from './lifecycle.js';
import { TranscriptToolTail, telemetryToRunEvents } from './progress.js';
import { silenceFor } from '../proxy/upstream-health.js';
import { TitleEdges, followTitles, titleHookCommand } from './title-edge.js';
import { decideWall, type WallDecision, type WallInput } from './walls.js';
import { WatchState } from './watch-state.js';

const TICK_MS = 200;
/** Screen captures are the last resort: one per second is enough for "within seconds". */
const CAPTURE_EVERY_TICKS = 5;
/** After the pane dies, let the follower (50 ms poll) read the last records before deciding. */
const SETTLE_AFTER_DEATH_MS = 300;
const SCREEN_WALL_SETTLE_MS = 500;

type Quit = Extract<WallDecision, { action: 'quit' }>;
type Stop = Extract<WallDecision, { action: 'stop' }>;

export function runInteractive(ctx: SpawnContext): Promise<SpawnOutcome> {
  return runAttempts(ctx, spawnOnce);
}

async function spawnOnce(ctx: SpawnContext, attempt: number): Promise<Attempt> {
  const { telemetryFile, sessionId, spec } = await prepareSpawn(ctx, attempt);
  const spawn = new InteractiveSpawn(ctx, attempt, sessionId);
  let result: Attempt | undefined;
  try {
    return (result = await spawn.run(telemetryFile, buildInteractiveSpec({ ...spec })));
  } finally {
    await spawn.close(result);
  }
}

/** A wait between ticks that a new telemetry record or window title ends early. */
class Waker {
  private wakeUp: (() => void) | undefined;

  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}

/** One spawn of the TUI in its own tmux server: started, watched tick by tick until a decision ends it, closed. */
class InteractiveSpawn {
  private readonly life: SpawnLifecycle;
  private readonly titles = new TitleEdges();
  private readonly tail: TranscriptToolTail;
  private readonly waker = new Waker();
  private driver: TmuxDriver | undefined;
  private titleFollower: Promise<void> | undefined;
  private spawnedAt = 0;

  constructor(
    private readonly ctx: SpawnContext,
    private readonly attempt: number,
    private readonly sessionId: string,
  ) {
    this.life = new SpawnLifecycle(ctx);
    this.tail = new TranscriptToolTail(
      () => ctx.transcriptOf(sessionId),
      ctx.agentFile(AGENT_FILE_LIMITS.transcript),
    );
  }

  private get opts(): SpawnContext['opts'] {
    return this.ctx.opts;
  }

  /** Starts the TUI and its followers, then watches it until a decision ends the spawn. */
  async run(telemetryFile: string, spec: SpawnSpec): Promise<Attempt> {
    const { opts, ctx } = this;
    const titleFile = join(opts.runDir, `titles-${this.attempt}`);
    const driver = (this.driver = await TmuxDriver.create({
      id: `${ctx.runId}-${this.attempt}`,
      runDir: opts.runDir,
      pane: spec,
      ...(opts.tmuxPath ? { tmuxPath: opts.tmuxPath } : {}),
      setup: [titleHookCommand(titleFile)],
    }));
    this.spawnedAt = Date.now();
    opts.log.info(`gemini spawned in tmux (socket ${driver.socket})`);
    ctx.progress.emit({
      type: 'started',
      sessionId: this.sessionId,
      ...(opts.model ? { model: opts.model } : {}),
    });
    this.life.followTelemetry(telemetryFile, (batch) => {
      for (const ev of batch) for (const re of telemetryToRunEvents(ev)) ctx.progress.emit(re);
      this.waker.wake();
    });
    this.titleFollower = followTitles(titleFile, this.titles, {
      signal: this.life.signal,
      onChange: () => this.waker.wake(),
      // Our tmux server writes it, in our run dir: the agent's title is only its content.
      policy: { ...ctx.agentFile(AGENT_FILE_LIMITS.title), root: opts.runDir },
    }).catch((e: unknown) => opts.log.warning(`window-title follower stopped: ${getErrorMessage(e)}`));
    return this.watch(driver);
  }

  /** The loop: read the pane (and the screen now and then), let walls.ts decide, act on it. */
  private async watch(driver: TmuxDriver): Promise<Attempt> {
    const state = new WatchState();
    for (let tick = 0; ; tick++) {
      const pane = await driver.paneState();
      if (pane.dead && state.paneDied(Date.now())) {
        await sleep(SETTLE_AFTER_DEATH_MS);
        continue;
      }
      if (tick % CAPTURE_EVERY_TICKS === 0 || pane.dead) {
        state.captured(await driver.capture(pane.dead ? 200 : undefined), Date.now());
        await this.emitToolTail();
      }
      const elapsedMs = Date.now() - this.spawnedAt;
      if (!this.life.stopping && this.ctx.overBudget()) await this.escapeForBudget(driver, state, elapsedMs);
      const input = this.wallInput(state, pane, elapsedMs);
      const d = decideWall(input);
      if (d.action === 'wait') await this.waker.wait(TICK_MS);
      else if (d.action === 'escape') await this.escapeForTimeout(driver, state, elapsedMs);
      else if (d.action === 'retry') return { kind: 'retry', message: d.message };
      else if (d.action === 'stop' && d.fromScreen && state.screenWallFirstSeen()) {
        // The dialog renders about as fast as its api_error reaches telemetry: give the server's words a moment.
        await this.waker.wait(SCREEN_WALL_SETTLE_MS);
      } else {
        // The last tool calls' arguments, before the summary lines.
        await this.emitToolTail();
        if (d.action === 'quit') return this.quitAgent(driver, d, input);
        return this.stopAgent(driver, d, pane, state);
      }
    }
  }

  private wallInput(state: WatchState, pane: PaneState, elapsedMs: number): WallInput {
    const { opts } = this;
    const modelDown = this.ctx.modelDown();
    return {
      events: this.life.events,
      pane,
      screen: state.screen,
      elapsedMs,
      timeoutMs: opts.timeoutMs,
      ...state.escapeInput(),
      ...(opts.escapeGraceMs !== undefined ? { escapeGraceMs: opts.escapeGraceMs } : {}),
      sessionRetries: this.attempt,
      ...(opts.cliProfile ? { cli: opts.cliProfile } : {}),
      titleIdle: this.titles.idle,
      ...(modelDown !== undefined ? { modelDown } : {}),
      stillForMs: state.stillFor(Date.now(), this.life.events.length),
      stallMs: silenceFor(opts.timeoutMs),
    };
  }

  private async emitToolTail(): Promise<void> {
    for (const e of await this.tail.poll()) this.ctx.progress.emit(e);
  }

  /** The budget stops the agent the way the timeout does: one Escape, then /quit once the turn ends. */
  private async escapeForBudget(driver: TmuxDriver, state: WatchState, elapsedMs: number): Promise<void> {
    await this.life.fenceThenStop(
      `token budget of ${this.opts.maxTokens} reached: sending one Escape to cancel the turn`,
      () => driver.sendEscape(),
    );
    state.escaped(elapsedMs);
  }

  /** The timeout's Escape, or another one when the CLI asked the model again by itself after the first. */
  private async escapeForTimeout(driver: TmuxDriver, state: WatchState, elapsedMs: number): Promise<void> {
    const first = this.life.fenceThenStop(
      `timeout after ${Math.round(this.opts.timeoutMs / 1000)} s: sending one Escape to cancel the turn`,
      () => driver.sendEscape(),
    );
    if (first) {
      await first;
    } else {
      this.opts.log.warning(
        'gemini is still busy after the Escape (it asks the model again by itself): Escape again',
      );
      await driver.sendEscape();
    }
    state.escaped(elapsedMs);
  }

  /** The TUI is idle: /quit, then the end state as telemetry sees it once the CLI flushed its last records. */
  private async quitAgent(driver: TmuxDriver, d: Quit, input: WallInput): Promise<Attempt> {
    const { log } = this.opts;
    // The turn's last tool calls first: their starts from the session file, then any completion still held.
    await this.emitToolTail();
    this.ctx.progress.releaseAll();
    log.info(
      `${d.status === 'finished' ? 'agent is idle' : 'turn cancelled'} (edge: ${this.titles.idle ? 'window title' : 'telemetry'}): quitting gemini`,
    );
    const exited = await quit(driver, this.opts.graceMs ?? 10_000);
    const finalPane = await driver.paneState();
    if (!exited) log.warning('gemini did not exit after /quit; stopping it');
    // Quit on the title's edge, ahead of telemetry: the end state waits for the records the CLI flushes at
    // exit (an api_error of the last turn can be 5 s behind on 0.61.0), then is decided as telemetry sees it.
    let end: { status: Quit['status']; message?: string } = d;
    if (this.titles.idle) {
      await this.life.stopFollowing();
      const settled = decideWall({ ...input, events: this.life.events, titleIdle: true });
      if (settled.action === 'quit' || settled.action === 'stop') end = settled;
    }
    return {
      kind: 'done',
      outcome: {
        status: end.status,
        ...(end.message !== undefined ? { message: end.message } : {}),
        sessionId: this.sessionId,
        exitCode: finalPane.exitCode,
        geminiLifetimeMs: (exited ?? Date.now()) - this.spawnedAt,
        events: this.life.events,
      },
    };
  }

  /** A wall or a dead pane: the end state as decided, with the last of the screen. */
  private async stopAgent(driver: TmuxDriver, d: Stop, pane: PaneState, state: WatchState): Promise<Attempt> {
    const lastScreen = (await driver.capture(200)).filter((l) => l.trim() !== '').slice(-40);
    if (d.status === 'crashed') {
      const last = lastScreen.slice(-15).map((line) => stripBox(line));
      this.life.logCrash(d.message, "The last lines on gemini's screen:", last);
    } else {
      this.opts.log.warning(`${d.status}: ${neutralize(d.message)}`);
    }
    return {
      kind: 'done',
      outcome: {
        status: d.status,
        message: d.message,
        sessionId: this.sessionId,
        exitCode: pane.exitCode,
        lastScreen,
        geminiLifetimeMs: (state.deadAt ?? Date.now()) - this.spawnedAt,
        events: this.life.events,
      },
    };
  }

  /** Stops the server and the followers, and keeps the session file when the CLI deleted it at exit. */
  async close(result: Attempt | undefined): Promise<void> {
    const { log, runDir } = this.opts;
    if (this.driver) {
      const report = await this.driver.stop();
      if (report.survivors.length > 0) {
        log.warning(`processes of the run survived the stop: ${report.survivors.join(', ')}`);
      }
    }
    const following = this.life.stopFollowing();
    this.waker.wake();
    await following;
    await this.titleFollower;
    if (result?.kind === 'done') {
      // 0.61.0 deletes its session file at exit when a cancel left nothing resumable (a first turn that timed
      // out): the tail still holds it open, so the run keeps its record, and the summary its tool calls.
      const kept = join(runDir, `transcript-kept-${this.attempt}.jsonl`);
      if (await this.tail.keepIfDeleted(kept).catch(() => false)) {
        log.info('gemini deleted its session file at exit (nothing in it was resumable): kept a copy');
        result.outcome.keptTranscript = kept;
      }
    }
    await this.tail.close();
  }
}

/** Types /quit and waits (bounded) for the exit; returns when it was seen, or undefined. */
async function quit(driver: TmuxDriver, graceMs: number): Promise<number | undefined> {
  await driver.typeText('/quit');
  const end = Date.now() + graceMs;
  while (Date.now() < end) {
    if ((await driver.paneState()).dead) return Date.now();
    await sleep(50);
  }
  return undefined;
}
