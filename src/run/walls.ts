/**
 * The run's walls as pure logic: from what has been observed so far (telemetry events, the pane's state and
 * exit code, the latest screen, the clock) to the engine's next move. Telemetry and exit codes come first;
 * the screen is read only for the dialogs that never reach telemetry, and every text matched on screen is in
 * DIALOG_TEXTS with its proof (a captured screen, or the literal in the 0.42.0 bundle).
 */
import type { TelemetryEvent } from '../gemini/telemetry.js';
import { describeExit, httpStatusOfExit, type CliBehaviour } from '../gemini/cli-profile.js';
import type { EngineStatus } from './types.js';
import { SCREEN_TEXTS, findOnScreen, stripBox } from '../gemini/screen.js';
import { quotaFacts } from '../domain/quota.js';

/** Where a matched text is proven: a captured screen of the real 0.42.0, or the literal in its bundle. */
export type DialogProof =
  | { fixture: string }
  /**
   * The literal, searched in node_modules/@google/gemini-cli/bundle. The auth dialog and the account refusal
   * are also reached live by test/e2e/engine-run.test.ts (refused OAuth account, via the harness's OAuth proxy).
   */
  | { bundle: string };

export interface DialogText {
  id: 'quota' | 'auth' | 'login-required' | 'auth-error' | 'account-refused' | 'session-exists';
  /** Matched against the screen (or the stderr tail of a dead pane), wrap-aware (gemini/screen.ts). */
  pattern: RegExp;
  /** Group 1 goes on to the end of its paragraph (a server message wrapped in the dialog box). */
  toParagraphEnd?: boolean;
  status: EngineStatus | 'retry';
  proof: DialogProof;
}

/**
 * Every text the engine matches on screen. Screen text is the last resort: telemetry (`api_error`) and exit
 * codes are checked first, so a wording change here degrades to the timeout, never to a wrong end state.
 * test/unit/run-walls.test.ts checks each pattern against its proof.
 */
export const DIALOG_TEXTS: readonly DialogText[] = [
  {
    // ProQuotaDialog / OverageMenuDialog: "Usage limit reached for <model>." (blocks forever).
    id: 'quota',
    pattern: SCREEN_TEXTS.quota,
    status: 'quota-exhausted',
    proof: { fixture: 'fixtures/gemini-0.42.0/quota-daily-interactive/screen.txt' },
  },
  {
    // AuthDialog title, shown when the cached credentials were refused at start or a refresh failed.
    id: 'auth',
    pattern: SCREEN_TEXTS.authDialog,
    status: 'auth-failed',
    proof: { bundle: 'How would you like to authenticate for this project?' },
  },
  {
    // The paste-the-code login that replaces the TUI when a refresh of seeded creds was refused (NO_BROWSER is
    // set for every run): the CLI waits on stdin forever. Google's reason is never shown (live, OAuth proxy).
    id: 'login-required',
    pattern: SCREEN_TEXTS.codePrompt,
    status: 'auth-failed',
    proof: { bundle: 'Enter the authorization code: ' },
  },
  {
    // The AuthDialog's error line: carries the server's reason.
    id: 'auth-error',
    pattern: SCREEN_TEXTS.signInFailed,
    toParagraphEnd: true,
    status: 'auth-failed',
    proof: { bundle: 'Failed to sign in. Message: ' },
  },
  {
    // Code Assist refusing the account at start-up (e.g. consumer accounts since 2026-06): headless prints
    // "An unexpected critical error occurred:IneligibleTierError: <server reason>" on stderr and exits 1 (live,
    // against test/harness/oauth-proxy.ts); ProjectIdRequiredError is its sibling for Workspace accounts.
    id: 'account-refused',
    pattern: SCREEN_TEXTS.accountRefused,
    status: 'auth-failed',
    proof: { bundle: 'throw new IneligibleTierError(res.ineligibleTiers)' },
  },
  {
    // Printed on stderr (the pane) before exit 42 when --session-id is already taken (live: facts file).
    id: 'session-exists',
    pattern: SCREEN_TEXTS.sessionExists,
    status: 'retry',
    proof: { bundle: 'already exists. Use --resume to resume it' },
  },
];

export interface DialogMatch {
  dialog: DialogText;
  line: string;
  /** The captured group (model name, server message) when the pattern has one. */
  detail?: string;
}

/** The newest dialog text on screen (scanning from the bottom); on one line, the first in DIALOG_TEXTS. */
export function matchDialog(
  screen: readonly string[],
  ids?: readonly DialogText['id'][],
): DialogMatch | undefined {
  let best: (DialogMatch & { index: number }) | undefined;
  for (const dialog of DIALOG_TEXTS) {
    if (ids && !ids.includes(dialog.id)) continue;
    const m = findOnScreen(screen, dialog.pattern, { toParagraphEnd: dialog.toParagraphEnd === true });
    if (!m || (best && m.index <= best.index)) continue;
    best = { dialog, line: m.text, index: m.index, ...(m.detail !== undefined ? { detail: m.detail } : {}) };
  }
  if (!best) return undefined;
  const { index: _index, ...match } = best;
  return match;
}

/**
 * The server's own message from an api_error's text, which is usually the error JSON
 * (`{"error":{"code":403,"message":"...","status":"PERMISSION_DENIED"}}`) or a bracketed "[API Error: ...]".
 */
export function serverMessage(raw: string): string {
  const json = /"message"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(raw);
  let msg = raw;
  if (json?.[1] !== undefined) {
    try {
      msg = JSON.parse(`"${json[1]}"`) as string;
    } catch {
      msg = json[1];
    }
    // A message that is itself JSON text (nested error): look one level deeper.
    if (/"message"\s*:/.test(msg) && msg !== raw) return serverMessage(msg);
  } else {
    const bracket = /\[API Error: (.+?)\]\s*$/.exec(raw.trim());
    if (bracket?.[1]) msg = bracket[1];
  }
  const line = msg.replace(/\s+/g, ' ').trim();
  return line.length > 400 ? `${line.slice(0, 397)}...` : line;
}

export interface WallInput {
  /** Every telemetry event of this spawn so far, in order. */
  events: readonly TelemetryEvent[];
  pane: { dead: boolean; exitCode: number | null; signal?: number };
  /** The latest capture (may be stale by one poll; only dialogs are read from it). */
  screen: readonly string[];
  elapsedMs: number;
  timeoutMs: number;
  /** Set once the timeout's (or the budget's) Escape was sent: ms since the run started. */
  escapeSentAtMs?: number;
  /** The latest Escape (the first one, or one sent for an auto-nudge) and how many were sent. */
  lastEscapeAtMs?: number;
  escapesSent?: number;
  /** How long to wait for the idle edge after the timeout's Escape before giving up on a clean quit. */
  escapeGraceMs?: number;
  /** How many times the spawn was already retried for a session id collision. */
  sessionRetries: number;
  /** What the running CLI's exit codes mean and how often it asks the model again after a cancel. */
  cli?: CliBehaviour;
  /** The window title went Ready after work (src/run/title-edge.ts): an idle edge ahead of telemetry. */
  titleIdle?: boolean;
  /** The model proxy gave the model API up for unavailable (src/proxy/upstream-health.ts): its message. */
  modelDown?: string;
  /**
   * How long neither the screen nor telemetry changed, and the bound past which that is a stall (the run's
   * silence bound, silenceFor). The TUI animates a spinner while it waits for the model or a tool, so a screen
   * that stays still while not idle is a CLI stuck (a dialog nobody answers, a hung render), not a slow one.
   */
  stillForMs?: number;
  stallMs?: number;
}

export type WallDecision =
  /** Keep watching. */
  | { action: 'wait' }
  /** The TUI is idle and usable: type /quit, wait for the exit; end state as given. */
  | { action: 'quit'; status: EngineStatus; message?: string }
  /** The timeout: send one Escape and keep watching for the idle edge. */
  | { action: 'escape' }
  /** The TUI is blocked or gone: stop it by pid (a dialog ignores /quit). */
  /** `fromScreen`: only the screen showed it (telemetry may still bring the server's own words). */
  | { action: 'stop'; status: EngineStatus; message: string; fromScreen?: boolean }
  /** Exit 42 for a taken session id: spawn again with a fresh id. */
  | { action: 'retry'; message: string };

const DEFAULT_ESCAPE_GRACE_MS = 15_000;
/**
 * A CLI that nudges the model after a cancel (0.61.0) is still busy this long after an Escape: cancel again.
 * More than the TUI's 500 ms double-Escape window, which on an idle prompt would open /rewind.
 */
export const RE_ESCAPE_AFTER_MS = 700;

/** Exit codes of 0.42.0 (bundle `ExitCodes`). */
const EXIT_AUTH = 41;
const EXIT_INPUT = 42;

type ApiError = Extract<TelemetryEvent, { kind: 'api-error' }>;

function lastIndex<T>(items: readonly T[], pred: (t: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (pred(items[i] as T)) return i;
  return -1;
}

/** The idle edge of the latest turn: the first `idle` after the latest `turn-started` (live: a late extra one follows). */
export function idleAfterLastTurn(events: readonly TelemetryEvent[], fromIndex = 0): boolean {
  const turn = lastIndex(events, (e) => e.kind === 'turn-started');
  if (turn < 0) return false;
  return events.slice(Math.max(turn + 1, fromIndex)).some((e) => e.kind === 'idle');
}

function wallError(events: readonly TelemetryEvent[]): { status: EngineStatus; message: string } | undefined {
  // Our own Escape aborts the request with an api_error too: that is never a wall.
  const errors = events.filter((e): e is ApiError => e.kind === 'api-error' && !e.cancelled);
  const quota = errors.find((e) => e.terminalQuota);
  if (quota) return { status: 'quota-exhausted', message: serverMessage(quota.message) };
  const auth = errors.find((e) => e.auth);
  if (auth) return { status: 'auth-failed', message: serverMessage(auth.message) };
  return undefined;
}

/** Every message about an unavailable model starts with this (the action words its advice on it). */
export const MODEL_UNAVAILABLE = 'the model was unavailable';

/**
 * The model was unavailable: the latest turn's agent calls all failed (503 overloaded, 500, a 429 that is not a
 * daily quota) and none succeeded. Returns the status to end with and the message naming the last error, or
 * undefined when the model answered. A capacity error is never a clean end: a 429 is `quota-exhausted`, anything
 * else keeps `fallback` (`timed-out` when the run waited out its timeout, `crashed` when the CLI gave up).
 */
export function modelUnavailable(
  events: readonly TelemetryEvent[],
  fallback: EngineStatus,
): { status: EngineStatus; message: string } | undefined {
  const turn = lastIndex(events, (e) => e.kind === 'turn-started');
  const since = events.slice(turn + 1);
  const answered = since.some(
    (e) => e.kind === 'api-response' && (e.role === undefined || e.role === 'main'),
  );
  if (answered) return undefined;
  const errors = since.filter((e): e is ApiError => e.kind === 'api-error' && !e.cancelled && !e.auth);
  const last = errors.at(-1);
  if (!last) return undefined;
  const code = last.statusCode !== undefined ? `${last.statusCode} ` : '';
  return {
    status: last.statusCode === 429 ? 'quota-exhausted' : fallback,
    message: `${MODEL_UNAVAILABLE}: ${errors.length} call(s) failed and none succeeded; the last answer was ${code}"${serverMessage(last.message)}"`,
  };
}

function screenWall(screen: readonly string[]): { status: EngineStatus; message: string } | undefined {
  const quota = matchDialog(screen, ['quota']);
  if (quota) return { status: 'quota-exhausted', message: quota.line };
  const authError = matchDialog(screen, ['auth-error', 'account-refused']);
  if (authError) return { status: 'auth-failed', message: authError.detail ?? authError.line };
  const auth = matchDialog(screen, ['auth', 'login-required']);
  if (auth)
    return {
      status: 'auth-failed',
      message:
        auth.dialog.id === 'login-required'
          ? 'gemini asked for a new Google login: the credentials were refused (their refresh failed)'
          : 'gemini asked for authentication: the credentials were refused',
    };
  return undefined;
}

/** The last meaningful screen lines, for a crash message. */
function screenTail(screen: readonly string[], n = 3): string {
  return screen
    .map(stripBox)
    .filter((l) => l !== '' && !/^Pane is dead/.test(l))
    .slice(-n)
    .join(' | ');
}

function stopModelDown(message: string): WallDecision {
  return { action: 'stop', status: 'model-unavailable', message };
}

/** The next move of the engine. Pure: everything it needs is in the input. */
export function decideWall(input: WallInput): WallDecision {
  const { events, screen } = input;
  const timedOut = input.escapeSentAtMs !== undefined;
  const errorWall = wallError(events);
  if (input.pane.dead) return afterExit(input, errorWall, timedOut);
  if (errorWall) return { action: 'stop', ...errorWall };
  const wall = screenWall(screen);
  if (wall) return { action: 'stop', ...wall, fromScreen: true };
  // The CLI would retry for minutes more; the proxy saw enough to say the model API is not there.
  if (input.modelDown !== undefined && !timedOut) return stopModelDown(input.modelDown);
  if (timedOut) return afterEscape(input, input.escapeSentAtMs as number);
  if (idleAfterLastTurn(events) || input.titleIdle === true) {
    // The CLI gave up retrying and went idle: the turn ended, but nothing was done.
    const unavailable = modelUnavailable(events, 'crashed');
    if (unavailable) return { action: 'quit', ...unavailable };
    return { action: 'quit', status: 'finished' };
  }
  if (input.elapsedMs >= input.timeoutMs) return { action: 'escape' };
  if (input.stallMs !== undefined && (input.stillForMs ?? 0) >= input.stallMs) {
    const tail = screenTail(screen);
    return {
      action: 'stop',
      status: 'crashed',
      message: `gemini stalled: its screen and telemetry did not change for ${Math.round((input.stillForMs ?? 0) / 1000)} s while it was working${tail ? `; the screen ends: ${tail}` : ''}`,
    };
  }
  return { action: 'wait' };
}

/** gemini's pane is dead: why it ended (a session-id collision earns one retry). */
function afterExit(
  input: WallInput,
  errorWall: ReturnType<typeof wallError>,
  timedOut: boolean,
): WallDecision {
  const { events, pane, screen } = input;
  if (
    pane.exitCode === EXIT_INPUT &&
    matchDialog(screen, ['session-exists']) !== undefined &&
    input.sessionRetries < 1
  ) {
    return { action: 'retry', message: 'session id already exists' };
  }
  if (errorWall) return { action: 'stop', ...errorWall };
  if (input.modelDown !== undefined) return stopModelDown(input.modelDown);
  if (pane.exitCode === EXIT_AUTH) {
    const wall = screenWall(screen);
    const tail = screenTail(screen);
    return {
      action: 'stop',
      status: 'auth-failed',
      message:
        wall?.status === 'auth-failed' ? wall.message : tail || 'gemini exited 41 (authentication error)',
    };
  }
  const wall = screenWall(screen);
  if (wall) return { action: 'stop', ...wall };
  const unavailable = modelUnavailable(events, timedOut ? 'timed-out' : 'crashed');
  if (unavailable) return { action: 'stop', ...unavailable };
  if (timedOut)
    return {
      action: 'stop',
      status: 'timed-out',
      message: `timed out; then ${describeExit(pane, input.cli)}`,
    };
  if (pane.exitCode === 0 && idleAfterLastTurn(events)) {
    return { action: 'stop', status: 'finished', message: 'gemini exited after the turn finished' };
  }
  const tail = screenTail(screen);
  return {
    action: 'stop',
    status: 'crashed',
    message: `${describeExit(pane, input.cli)} before the turn finished${tail ? `: ${tail}` : ''}`,
  };
}

/** The timeout's Escape was sent and gemini is still there: quit once it settled, or escape again, or stop. */
function afterEscape(input: WallInput, escapedAt: number): WallDecision {
  const { events } = input;
  const unavailable = modelUnavailable(events, 'timed-out');
  const message = unavailable?.message ?? `timed out after ${Math.round(input.timeoutMs / 1000)} s`;
  // Any idle edge at all after the Escape: the turn was cancelled (or had just finished) and the TUI is usable.
  const status = unavailable?.status ?? 'timed-out';
  if (idleAfterLastTurn(events) || input.titleIdle === true) return { action: 'quit', status, message };
  // 0.61.0 answers a cancelled continuation by asking the model again (probe escape-after-tool-call); a tool
  // call in that answer would run after the timeout. Still busy after an Escape: cancel the nudge too.
  const sent = input.escapesSent ?? 1;
  if (
    sent <= (input.cli?.nudgesAfterCancel ?? 0) &&
    input.elapsedMs - (input.lastEscapeAtMs ?? escapedAt) >= RE_ESCAPE_AFTER_MS
  ) {
    return { action: 'escape' };
  }
  if (input.elapsedMs - escapedAt >= (input.escapeGraceMs ?? DEFAULT_ESCAPE_GRACE_MS)) {
    return { action: 'stop', status, message: `${message}; gemini did not settle after Escape` };
  }
  return { action: 'wait' };
}

export interface HeadlessEndInput {
  events: readonly TelemetryEvent[];
  exitCode: number | null;
  signal?: string | null;
  timedOut: boolean;
  /** The stream's `result` status, when one arrived. */
  resultStatus?: 'success' | 'error';
  /** The stream's error text (result.error.message or an `error` event). */
  streamError?: string;
  /** A terminal-quota error seen in the stream. */
  streamTerminalQuota: boolean;
  /** The tail of stderr (fatal errors are JSON there: `{"error":{"message":...,"code":N}}`). */
  stderr: string;
  sessionRetries: number;
  /** What the running CLI's exit codes mean; default 0.42.0's. */
  cli?: Pick<CliBehaviour, 'httpStatusExitCodes'>;
  /** The model proxy gave the model API up and gemini was stopped for it: its message. */
  modelDown?: string;
  /** gemini said nothing (stream, stderr, telemetry) past the stall bound with no tool running, and was stopped. */
  stalled?: string;
}

/** The end state of a headless run from its exit code and stream. Pure. */
export function decideHeadlessEnd(
  input: HeadlessEndInput,
): { action: 'retry'; message: string } | { action: 'end'; status: EngineStatus; message?: string } {
  const stderrMessage = input.stderr.trim()
    ? serverMessage(input.stderr.trim().split('\n').slice(-5).join(' '))
    : '';
  if (
    input.exitCode === EXIT_INPUT &&
    /already exists/.test(input.stderr) &&
    input.sessionRetries < 1 &&
    !input.timedOut
  ) {
    return { action: 'retry', message: 'session id already exists' };
  }
  if (input.modelDown !== undefined && !wallError(input.events)) {
    return { action: 'end', status: 'model-unavailable', message: input.modelDown };
  }
  if (input.stalled !== undefined && !wallError(input.events)) {
    return { action: 'end', status: 'crashed', message: input.stalled };
  }
  if (input.timedOut) {
    const unavailable = modelUnavailable(input.events, 'timed-out');
    return {
      action: 'end',
      status: 'timed-out',
      message: unavailable?.message ?? 'timed out; gemini was stopped',
    };
  }
  const wall = wallError(input.events);
  if (wall) return { action: 'end', ...wall };
  const unavailable = modelUnavailable(input.events, 'crashed');
  if (unavailable) return { action: 'end', ...unavailable };
  if (input.streamTerminalQuota) {
    return {
      action: 'end',
      status: 'quota-exhausted',
      message: serverMessage(input.streamError ?? stderrMessage),
    };
  }
  // 0.61.0 loses its telemetry on a fatal exit (the file is empty after a daily quota), so the exit code alone
  // must carry the quota: there it is the HTTP status & 0xFF (173 = 429).
  if (httpStatusOfExit(input.exitCode, input.cli)?.startsWith('HTTP 429')) {
    return {
      action: 'end',
      status: 'quota-exhausted',
      message: serverMessage(input.streamError ?? (stderrMessage || 'daily quota exhausted (HTTP 429)')),
    };
  }
  if (input.exitCode === EXIT_AUTH) {
    return {
      action: 'end',
      status: 'auth-failed',
      message: stderrMessage || serverMessage(input.streamError ?? 'gemini exited 41 (authentication error)'),
    };
  }
  if (input.exitCode === 0 && input.resultStatus !== 'error') return { action: 'end', status: 'finished' };
  const refused = matchDialog(input.stderr.split('\n'), ['account-refused', 'auth-error']);
  if (refused) return { action: 'end', status: 'auth-failed', message: refused.detail ?? refused.line };
  const how =
    input.exitCode === null
      ? `gemini was killed by ${input.signal ?? 'a signal'}`
      : `gemini exited with code ${input.exitCode}${exitMeaning(input.exitCode, input.cli)}`;
  const why = input.streamError ? serverMessage(input.streamError) : stderrMessage;
  return { action: 'end', status: 'crashed', message: why ? `${how}: ${why}` : how };
}

function exitMeaning(code: number, cli: HeadlessEndInput['cli']): string {
  const http = httpStatusOfExit(code, cli);
  return http ? ` (${http})` : '';
}

/**
 * A quota wall whose own words do not say when it lifts (0.42.0's dialog: "Usage limit reached for <model>.") is
 * told with what the model proxy saw of the 429 (its window and RetryInfo delay), so the reset is the API's and not
 * only the documented window's. Pure.
 */
export function withQuotaDetail<T extends { status: EngineStatus; message?: string }>(
  outcome: T,
  quotaWait: { message: string } | undefined,
): T {
  if (outcome.status !== 'quota-exhausted' || !quotaWait) return outcome;
  if (quotaFacts(outcome.message ?? '').delayS !== undefined) return outcome;
  const message = outcome.message ? `${outcome.message} (${quotaWait.message})` : quotaWait.message;
  return { ...outcome, message };
}
