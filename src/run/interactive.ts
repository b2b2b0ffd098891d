/**
 * The interactive mode: the TUI in its own tmux server, watched through the telemetry file (edges within
 * ~100 ms), the pane's state and, as a last resort, the screen. walls.ts decides; this file only acts.
 */
import { buildInteractiveSpec } from '../gemini/spawn.js';
import { followTelemetry, type TelemetryEvent } from '../gemini/telemetry.js';
import { stripBox } from '../gemini/screen.js';
import { TmuxDriver } from '../tmux/tmux.js';
import { AGENT_FILE_LIMITS } from '../util/agent-file.js';
import { getErrorMessage } from '../util/errors.js';
import { neutralize } from '../util/untrusted-text.js';
import { prepareSpawn, runAttempts, type Attempt, type SpawnContext, type SpawnOutcome } from './attempt.js';
import { TranscriptToolTail, telemetryToRunEvents } from './progress.js';
import { TitleEdges, followTitles, titleHookCommand } from './title-edge.js';
import { decideWall, type WallInput } from './walls.js';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const TICK_MS = 200;
/** Screen captures are the last resort: one per second is enough for "within seconds". */
const CAPTURE_EVERY_TICKS = 5;
/** After the pane dies, let the follower (50 ms poll) read the last records before deciding. */
const SETTLE_AFTER_DEATH_MS = 300;
const SCREEN_WALL_SETTLE_MS = 500;

export function runInteractive(ctx: SpawnContext): Promise<SpawnOutcome> {
  return runAttempts(ctx, spawnOnce);
}

async function spawnOnce(ctx: SpawnContext, attempt: number): Promise<Attempt> {
  const { opts, progress } = ctx;
  const log = opts.log;
  const { telemetryFile, sessionId, spec: base } = await prepareSpawn(ctx, attempt);
  const spec = buildInteractiveSpec({ ...base });

  const events: TelemetryEvent[] = [];
  let wake: (() => void) | undefined;
  const waitTick = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  const stopFollowing = new AbortController();
  let follower: Promise<void> | undefined;
  let titleFollower: Promise<void> | undefined;
  const titles = new TitleEdges();
  const titleFile = join(opts.runDir, `titles-${attempt}`);
  let driver: TmuxDriver | undefined;
  const tail = new TranscriptToolTail(
    () => ctx.transcriptOf(sessionId),
    ctx.agentFile(AGENT_FILE_LIMITS.transcript),
  );
  let attemptResult: Attempt | undefined;
  try {
    driver = await TmuxDriver.create({
      id: `${ctx.runId}-${attempt}`,
      runDir: opts.runDir,
      pane: spec,
      ...(opts.tmuxPath ? { tmuxPath: opts.tmuxPath } : {}),
      setup: [titleHookCommand(titleFile)],
    });
    const spawnedAt = Date.now();
    log.info(`gemini spawned in tmux (socket ${driver.socket})`);
    progress.emit({ type: 'started', sessionId, ...(opts.model ? { model: opts.model } : {}) });
    follower = followTelemetry(
      telemetryFile,
      (batch) => {
        events.push(...batch);
        for (const ev of batch) for (const re of telemetryToRunEvents(ev)) progress.emit(re);
        wake?.();
      },
      { signal: stopFollowing.signal, policy: ctx.agentFile(AGENT_FILE_LIMITS.telemetry) },
    ).catch((e: unknown) => log.warning(`telemetry follower stopped: ${getErrorMessage(e)}`));
    titleFollower = followTitles(titleFile, titles, {
      signal: stopFollowing.signal,
      onChange: () => wake?.(),
      // Our tmux server writes it, in our run dir: the agent's title is only its content.
      policy: { ...ctx.agentFile(AGENT_FILE_LIMITS.title), root: opts.runDir },
    }).catch((e: unknown) => log.warning(`window-title follower stopped: ${getErrorMessage(e)}`));

    let screen: string[] = [];
    let escapeSentAtMs: number | undefined;
    let lastEscapeAtMs: number | undefined;
    let escapesSent = 0;
    let deadAt: number | undefined;
    let screenWallSeenAt: number | undefined;
    for (let tick = 0; ; tick++) {
      const pane = await driver.paneState();
      if (pane.dead && deadAt === undefined) {
        deadAt = Date.now();
        await sleep(SETTLE_AFTER_DEATH_MS);
        continue;
      }
      if (tick % CAPTURE_EVERY_TICKS === 0 || pane.dead) {
        screen = await driver.capture(pane.dead ? 200 : undefined);
        for (const e of await tail.poll()) progress.emit(e);
      }
      const elapsedMs = Date.now() - spawnedAt;
      if (escapeSentAtMs === undefined && ctx.overBudget()) {
        // The budget stops the agent the way the timeout does: one Escape, then /quit once the turn ends.
        log.warning(`token budget of ${opts.maxTokens} reached: sending one Escape to cancel the turn`);
        opts.fenceModel?.();
        await driver.sendEscape();
        escapeSentAtMs = lastEscapeAtMs = elapsedMs;
        escapesSent = 1;
      }
      const input: WallInput = {
        events,
        pane,
        screen,
        elapsedMs,
        timeoutMs: opts.timeoutMs,
        ...(escapeSentAtMs !== undefined ? { escapeSentAtMs, lastEscapeAtMs, escapesSent } : {}),
        ...(opts.escapeGraceMs !== undefined ? { escapeGraceMs: opts.escapeGraceMs } : {}),
        sessionRetries: attempt,
        ...(opts.cliProfile ? { cli: opts.cliProfile } : {}),
        titleIdle: titles.idle,
      };
      const d = decideWall(input);
      if (d.action === 'wait') {
        await waitTick(TICK_MS);
        continue;
      }
      if (d.action === 'escape') {
        if (escapeSentAtMs === undefined) {
          log.warning(
            `timeout after ${Math.round(opts.timeoutMs / 1000)} s: sending one Escape to cancel the turn`,
          );
          opts.fenceModel?.();
          escapeSentAtMs = elapsedMs;
        } else {
          log.warning(
            'gemini is still busy after the Escape (it asks the model again by itself): Escape again',
          );
        }
        await driver.sendEscape();
        lastEscapeAtMs = elapsedMs;
        escapesSent++;
        continue;
      }
      if (d.action === 'retry') return { kind: 'retry', message: d.message };
      if (d.action === 'stop' && d.fromScreen && !screenWallSeenAt) {
        // The dialog renders about as fast as its api_error reaches telemetry: give the server's words a moment.
        screenWallSeenAt = Date.now();
        await waitTick(SCREEN_WALL_SETTLE_MS);
        continue;
      }
      // The last tool calls' arguments, before the summary lines.
      for (const e of await tail.poll()) progress.emit(e);

      if (d.action === 'quit') {
        log.info(
          `${d.status === 'finished' ? 'agent is idle' : 'turn cancelled'} (edge: ${titles.idle ? 'window title' : 'telemetry'}): quitting gemini`,
        );
        const exited = await quit(driver, opts.graceMs ?? 10_000);
        const finalPane = await driver.paneState();
        if (!exited) log.warning('gemini did not exit after /quit; stopping it');
        // Quit on the title's edge, ahead of telemetry: the end state waits for the records the CLI flushes at
        // exit (an api_error of the last turn can be 5 s behind on 0.61.0), then is decided as telemetry sees it.
        let end: { status: typeof d.status; message?: string } = d;
        if (titles.idle) {
          stopFollowing.abort();
          await follower;
          const settled = decideWall({ ...input, events, titleIdle: true });
          if (settled.action === 'quit' || settled.action === 'stop') end = settled;
        }
        return (attemptResult = {
          kind: 'done',
          outcome: {
            status: end.status,
            ...(end.message !== undefined ? { message: end.message } : {}),
            sessionId,
            exitCode: finalPane.exitCode,
            geminiLifetimeMs: (exited ?? Date.now()) - spawnedAt,
            events,
          },
        });
      }

      // stop: a wall or a dead pane
      const lastScreen = (await driver.capture(200)).filter((l) => l.trim() !== '').slice(-40);
      if (d.status === 'crashed') {
        log.error(`gemini crashed: ${neutralize(d.message)}`);
        // The screen shows what the agent and the model wrote: a block the runner reads no command in.
        log.untrusted(
          "The last lines on gemini's screen:",
          lastScreen
            .slice(-15)
            .map((line) => stripBox(line))
            .join('\n'),
        );
      } else {
        log.warning(`${d.status}: ${neutralize(d.message)}`);
      }
      return (attemptResult = {
        kind: 'done',
        outcome: {
          status: d.status,
          message: d.message,
          sessionId,
          exitCode: pane.exitCode,
          lastScreen,
          geminiLifetimeMs: (deadAt ?? Date.now()) - spawnedAt,
          events,
        },
      });
    }
  } finally {
    if (driver) {
      const report = await driver.stop();
      if (report.survivors.length > 0) {
        log.warning(`processes of the run survived the stop: ${report.survivors.join(', ')}`);
      }
    }
    stopFollowing.abort();
    wake?.();
    await follower;
    await titleFollower;
    if (attemptResult?.kind === 'done') {
      // 0.61.0 deletes its session file at exit when a cancel left nothing resumable (a first turn that timed
      // out): the tail still holds it open, so the run keeps its record, and the summary its tool calls.
      const kept = join(opts.runDir, `transcript-kept-${attempt}.jsonl`);
      if (await tail.keepIfDeleted(kept).catch(() => false)) {
        log.info('gemini deleted its session file at exit (nothing in it was resumable): kept a copy');
        attemptResult.outcome.keptTranscript = kept;
      }
    }
    await tail.close();
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
