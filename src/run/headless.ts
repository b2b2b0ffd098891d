/**
 * The headless mode: `gemini --output-format stream-json` with the task on stdin. The process's own exit code
 * and its stream decide the end state; a timeout ends it by its process group (SIGTERM, then SIGKILL).
 *
 * This is the one subprocess not started through util/exec: it must be streamed line by line (live progress)
 * and killed as a group, which the buffering exec wrapper does not offer.
 */
import { AGENT_FILE_LIMITS } from '../util/agent-file.js';
import { spawn } from 'node:child_process';
import { StreamJsonTranslator } from '../gemini/headless.js';
import { buildHeadlessSpec, launchArgv } from '../gemini/spawn.js';
import { followTelemetry, type TelemetryEvent } from '../gemini/telemetry.js';
import { getErrorMessage } from '../util/errors.js';
import { neutralize } from '../util/untrusted-text.js';
import { guardProcessExit, killProcessGroup } from '../util/process.js';
import { prepareSpawn, runAttempts, type Attempt, type SpawnContext, type SpawnOutcome } from './attempt.js';
import { telemetryToRunEvents } from './progress.js';
import type { TranscriptToolCall } from '../domain/types.js';
import { decideHeadlessEnd } from './walls.js';

const KILL_AFTER_TERM_MS = 5_000;
const STDERR_TAIL_BYTES = 64 * 1024;

export function runHeadless(ctx: SpawnContext): Promise<SpawnOutcome> {
  return runAttempts(ctx, spawnOnce);
}

async function spawnOnce(ctx: SpawnContext, attempt: number): Promise<Attempt> {
  const { opts, progress } = ctx;
  const log = opts.log;
  const { telemetryFile, sessionId, spec: base } = await prepareSpawn(ctx, attempt);
  const spec = buildHeadlessSpec({ ...base, stdin: ctx.taskText });

  const events: TelemetryEvent[] = [];
  /** gemini's process group, once spawned. */
  const group: { pid?: number } = {};
  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  /** Ends gemini's group as at a timeout (the budget stops the agent the same way). */
  const stop = (why: string): void => {
    if (timedOut) return;
    timedOut = true;
    log.warning(`${why}: stopping gemini (SIGTERM, then SIGKILL)`);
    opts.fenceModel?.();
    killProcessGroup(group.pid, 'SIGTERM');
    killTimer = setTimeout(() => killProcessGroup(group.pid, 'SIGKILL'), KILL_AFTER_TERM_MS);
  };
  const checkBudget = (): void => {
    if (group.pid !== undefined && !timedOut && ctx.overBudget())
      stop(`token budget of ${opts.maxTokens} reached`);
  };
  const stopFollowing = new AbortController();
  // Stream-json already reports tools and text; telemetry adds what it lacks (tokens per call, fallbacks).
  const follower = followTelemetry(
    telemetryFile,
    (batch) => {
      events.push(...batch);
      for (const ev of batch) {
        if (ev.kind === 'api-response' || ev.kind === 'flash-fallback') {
          for (const re of telemetryToRunEvents(ev)) progress.emit(re);
        }
      }
      checkBudget();
    },
    { signal: stopFollowing.signal, policy: ctx.agentFile(AGENT_FILE_LIMITS.telemetry) },
  ).catch((e: unknown) => log.warning(`telemetry follower stopped: ${getErrorMessage(e)}`));

  const translator = new StreamJsonTranslator();
  const toolCalls = new Map<string, TranscriptToolCall>();
  let streamError: string | undefined;
  let streamTerminalQuota = false;
  const onEvents = (evs: ReturnType<StreamJsonTranslator['push']>): void => {
    for (const e of evs) {
      if (e.type === 'tool-started') {
        const id = e.id ?? `tool-${toolCalls.size}`;
        toolCalls.set(id, {
          id,
          name: e.name,
          kind: e.kind,
          status: 'running',
          ...(e.detail ? { description: e.detail } : {}),
        });
      } else if (e.type === 'tool-completed') {
        const id = e.id ?? `tool-${toolCalls.size}`;
        const call = toolCalls.get(id) ?? { id, name: e.name, kind: e.kind, status: 'running' };
        toolCalls.set(id, { ...call, status: e.ok ? 'success' : 'error' });
      } else if (e.type === 'api-error') {
        streamError = e.message;
        if (e.terminalQuota) streamTerminalQuota = true;
      }
      if (e.type !== 'text') progress.emit(e);
      else opts.onEvent?.(e);
    }
    checkBudget();
  };

  const spawnedAt = Date.now();
  const launch = launchArgv(spec);
  const child = spawn(launch.file, launch.args, {
    cwd: spec.cwd,
    env: launch.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group, so a timeout ends gemini and everything it started.
    detached: true,
  });
  group.pid = child.pid;
  // A cancelled job (SIGTERM to us) must not leave gemini running.
  const releaseGuard = guardProcessExit(() => killProcessGroup(child.pid, 'SIGKILL'));
  // The stream's `init` announces the session (as 'started'); nothing to emit here.
  let stderr = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => onEvents(translator.push(chunk)));
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(spec.stdin ?? '');

  const timeout = setTimeout(
    () => stop(`timeout after ${Math.round(opts.timeoutMs / 1000)} s`),
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
    if (killTimer) clearTimeout(killTimer);
    // Anything it left in its group (a tool's background process) goes with it.
    killProcessGroup(child.pid, 'SIGKILL');
    releaseGuard();
    stopFollowing.abort();
    await follower;
  }
  const geminiLifetimeMs = Date.now() - spawnedAt;
  onEvents(translator.end());
  if (translator.error && !streamError) streamError = translator.error;

  const d = decideHeadlessEnd({
    events,
    exitCode: exit.code,
    signal: exit.signal,
    timedOut,
    ...(translator.resultStatus ? { resultStatus: translator.resultStatus } : {}),
    ...(streamError !== undefined ? { streamError } : {}),
    streamTerminalQuota,
    stderr,
    sessionRetries: attempt,
    ...(opts.cliProfile ? { cli: opts.cliProfile } : {}),
  });
  if (d.action === 'retry') return { kind: 'retry', message: d.message };
  const lastScreen = stderr.trim() ? stderr.trim().split('\n').slice(-20) : undefined;
  if (d.status === 'crashed') {
    log.error(`gemini crashed: ${neutralize(d.message ?? '')}`);
    // gemini's stderr quotes what the agent and the model wrote: a block the runner reads no command in.
    if (lastScreen) log.untrusted("The last lines of gemini's stderr:", lastScreen.join('\n'));
  }
  return {
    kind: 'done',
    outcome: {
      status: d.status,
      ...(d.message !== undefined ? { message: d.message } : {}),
      sessionId: translator.sessionId ?? sessionId,
      exitCode: exit.code,
      ...(lastScreen ? { lastScreen } : {}),
      geminiLifetimeMs,
      events,
      ...(translator.usage ? { usage: translator.usage } : {}),
      answer: translator.answer,
      toolCalls: [...toolCalls.values()],
    },
  };
}
