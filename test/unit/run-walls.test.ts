import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileFor } from '../../src/gemini/cli-profile.js';
import type { TelemetryEvent } from '../../src/gemini/telemetry.js';
import {
  DIALOG_TEXTS,
  RE_ESCAPE_AFTER_MS,
  decideWall,
  idleAfterLastTurn,
  decideHeadlessEnd,
  matchDialog,
  modelUnavailable,
  serverMessage,
  withQuotaDetail,
  type WallInput,
} from '../../src/run/walls.js';
import { quotaReset } from '../../src/domain/quota.js';

const root = join(import.meta.dirname, '..', '..');
const turn = (at = 1): TelemetryEvent => ({ kind: 'turn-started', at });
const idle = (at = 2): TelemetryEvent => ({ kind: 'idle', at });
const apiError = (o: Partial<Extract<TelemetryEvent, { kind: 'api-error' }>>): TelemetryEvent => ({
  kind: 'api-error',
  at: 3,
  message: 'boom',
  terminalQuota: false,
  auth: false,
  cancelled: false,
  ...o,
});

function input(o: Partial<WallInput> = {}): WallInput {
  return {
    events: [],
    pane: { dead: false, exitCode: null },
    screen: [],
    elapsedMs: 1000,
    timeoutMs: 60_000,
    sessionRetries: 0,
    ...o,
  };
}

const QUOTA_SCREEN = [
  '╭──────────────────────────────────────────────╮',
  '│ Usage limit reached for gemini-3-flash-preview. │',
  '│ ● 1. Keep trying                              │',
  '│   2. Stop                                     │',
  '╰──────────────────────────────────────────────╯',
];

describe('idle edge', () => {
  it('needs a turn, and an idle after the latest turn', () => {
    expect(idleAfterLastTurn([])).toBe(false);
    expect(idleAfterLastTurn([idle()])).toBe(false);
    expect(idleAfterLastTurn([turn(), idle()])).toBe(true);
    expect(idleAfterLastTurn([turn(), idle(), turn(5)])).toBe(false);
  });
});

describe('decideWall', () => {
  it('waits while working', () => {
    expect(decideWall(input({ events: [turn()] }))).toEqual({ action: 'wait' });
  });
  it('idle → quit, finished', () => {
    expect(decideWall(input({ events: [turn(), idle()] }))).toEqual({ action: 'quit', status: 'finished' });
  });
  it('timeout → one Escape, then quit timed-out on the idle edge', () => {
    expect(decideWall(input({ events: [turn()], elapsedMs: 60_000 }))).toEqual({ action: 'escape' });
    expect(decideWall(input({ events: [turn()], elapsedMs: 61_000, escapeSentAtMs: 60_000 }))).toEqual({
      action: 'wait',
    });
    const cancelled = [turn(), apiError({ message: 'Request cancelled.', cancelled: true }), idle()];
    expect(decideWall(input({ events: cancelled, elapsedMs: 61_000, escapeSentAtMs: 60_000 }))).toMatchObject(
      {
        action: 'quit',
        status: 'timed-out',
      },
    );
  });
  it('timeout whose Escape does not settle → stop, timed-out', () => {
    expect(
      decideWall(
        input({ events: [turn()], elapsedMs: 80_000, escapeSentAtMs: 60_000, escapeGraceMs: 15_000 }),
      ),
    ).toMatchObject({ action: 'stop', status: 'timed-out' });
  });
  it('a pane that dies during the timeout is still timed-out', () => {
    expect(
      decideWall(input({ pane: { dead: true, exitCode: 137 }, escapeSentAtMs: 60_000, elapsedMs: 61_000 })),
    ).toMatchObject({ action: 'stop', status: 'timed-out' });
  });
  it('crash: the pane died before idle (killed, non-zero, or even 0)', () => {
    const killed = decideWall(
      input({ events: [turn()], pane: { dead: true, exitCode: 137 }, screen: ['x ', 'last'] }),
    );
    expect(killed).toMatchObject({ action: 'stop', status: 'crashed' });
    expect(killed.action === 'stop' && killed.message).toMatch(/signal 9 .*last/);
    expect(decideWall(input({ pane: { dead: true, exitCode: 1 } }))).toMatchObject({
      status: 'crashed',
      message: expect.stringMatching(/code 1/),
    });
    expect(decideWall(input({ events: [turn()], pane: { dead: true, exitCode: 0 } }))).toMatchObject({
      status: 'crashed',
    });
    expect(decideWall(input({ pane: { dead: true, exitCode: null, signal: 15 } }))).toMatchObject({
      status: 'crashed',
      message: expect.stringMatching(/signal 15/),
    });
  });
  it('a clean exit after the idle edge is finished', () => {
    expect(decideWall(input({ events: [turn(), idle()], pane: { dead: true, exitCode: 0 } }))).toMatchObject({
      action: 'stop',
      status: 'finished',
    });
  });
  it('quota wall from telemetry, with the server message, before any idle', () => {
    const err = apiError({
      statusCode: 429,
      terminalQuota: true,
      message:
        '{"error":{"code":429,"message":"Quota exceeded for quota metric \\"Requests per day\\"","status":"RESOURCE_EXHAUSTED"}}',
    });
    expect(decideWall(input({ events: [turn(), err] }))).toEqual({
      action: 'stop',
      status: 'quota-exhausted',
      message: 'Quota exceeded for quota metric "Requests per day"',
    });
  });
  it('our own Escape (a cancelled request) is never a wall', () => {
    const err = apiError({ cancelled: true, auth: true, terminalQuota: true, message: 'aborted' });
    expect(decideWall(input({ events: [turn(), err] }))).toEqual({ action: 'wait' });
  });
  it('a retryable 429 is not a wall', () => {
    const err = apiError({ statusCode: 429, message: 'rate limited' });
    expect(decideWall(input({ events: [turn(), err] }))).toEqual({ action: 'wait' });
  });
  it('quota wall from the screen dialog', () => {
    expect(decideWall(input({ events: [turn()], screen: QUOTA_SCREEN }))).toEqual({
      action: 'stop',
      status: 'quota-exhausted',
      message: 'Usage limit reached for gemini-3-flash-preview.',
      fromScreen: true,
    });
  });
  it('auth wall from telemetry keeps the server message', () => {
    const err = apiError({
      statusCode: 403,
      auth: true,
      message:
        '[{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}]',
    });
    expect(decideWall(input({ events: [turn(), err, idle()] }))).toEqual({
      action: 'stop',
      status: 'auth-failed',
      message: 'The caller does not have permission',
    });
  });
  it('auth wall from exit 41, with the screen text', () => {
    expect(
      decideWall(
        input({ pane: { dead: true, exitCode: 41 }, screen: ['Error authenticating: invalid_grant', ''] }),
      ),
    ).toEqual({ action: 'stop', status: 'auth-failed', message: 'Error authenticating: invalid_grant' });
  });
  it('auth wall from the auth dialog and its error line', () => {
    expect(
      decideWall(input({ screen: ['│ How would you like to authenticate for this project? │'] })),
    ).toMatchObject({
      action: 'stop',
      status: 'auth-failed',
    });
    expect(
      decideWall(
        input({
          screen: [
            'How would you like to authenticate for this project?',
            '│ Failed to sign in. Message: Account disabled │',
          ],
        }),
      ),
    ).toEqual({ action: 'stop', status: 'auth-failed', message: 'Account disabled', fromScreen: true });
  });
  it('auth wall from the paste-the-code login a refused refresh falls back to (it would wait forever)', () => {
    const screen = [
      'Please visit the following URL to authorize the application:',
      '',
      'https://accounts.google.com/o/oauth2/v2/auth?response_type=code&client_id=x',
      '',
      'Enter the authorization code:',
    ];
    expect(decideWall(input({ screen }))).toEqual({
      action: 'stop',
      status: 'auth-failed',
      message: 'gemini asked for a new Google login: the credentials were refused (their refresh failed)',
      fromScreen: true,
    });
  });
  it('exit 42 "already exists" → retry once, then crashed', () => {
    const screen = ['Error starting session: Session ID "abc-1" already exists. Use --resume to resume it.'];
    expect(decideWall(input({ pane: { dead: true, exitCode: 42 }, screen }))).toMatchObject({
      action: 'retry',
    });
    expect(
      decideWall(input({ pane: { dead: true, exitCode: 42 }, screen, sessionRetries: 1 })),
    ).toMatchObject({
      action: 'stop',
      status: 'crashed',
    });
    expect(decideWall(input({ pane: { dead: true, exitCode: 42 }, screen: ['other'] }))).toMatchObject({
      status: 'crashed',
    });
  });
  it('walls win over idle and over the timeout', () => {
    const quota = apiError({ terminalQuota: true, message: 'daily' });
    expect(decideWall(input({ events: [turn(), quota, idle()], elapsedMs: 99_999 }))).toMatchObject({
      status: 'quota-exhausted',
    });
  });
});

describe('an unavailable model', () => {
  const overloaded = apiError({
    statusCode: 503,
    message:
      '{"error":{"code":503,"message":"The model is overloaded. Please try again later.","status":"UNAVAILABLE"}}',
  });
  const router: TelemetryEvent = {
    kind: 'api-response',
    at: 2,
    model: 'gemini-2.5-flash-lite',
    inputTokens: 1,
    outputTokens: 1,
    cachedTokens: 0,
    totalTokens: 2,
    durationMs: 1,
    role: 'utility_router',
  };
  const answered: TelemetryEvent = { ...router, role: 'main' };
  it('is named with the last status and text when every agent call failed, never finished', () => {
    const events = [turn(), router, overloaded, overloaded, idle()];
    expect(decideWall(input({ events }))).toEqual({
      action: 'quit',
      status: 'crashed',
      message:
        'the model was unavailable: 2 call(s) failed and none succeeded; the last answer was 503 "The model is overloaded. Please try again later."',
    });
    expect(decideHeadlessEnd({ ...headless, events })).toMatchObject({ status: 'crashed' });
  });
  it('keeps timed-out at the timeout, but says why', () => {
    const d = decideWall(
      input({ events: [turn(), overloaded, idle()], elapsedMs: 61_000, escapeSentAtMs: 60_000 }),
    );
    expect(d).toMatchObject({
      action: 'quit',
      status: 'timed-out',
      message: expect.stringMatching(/^the model was unavailable: .*503/),
    });
    expect(decideHeadlessEnd({ ...headless, events: [turn(), overloaded], timedOut: true })).toMatchObject({
      status: 'timed-out',
      message: expect.stringMatching(/^the model was unavailable/),
    });
  });
  it('a 429 that is not a daily quota ends quota-exhausted', () => {
    const limited = apiError({ statusCode: 429, message: 'Resource exhausted' });
    expect(modelUnavailable([turn(), limited], 'crashed')?.status).toBe('quota-exhausted');
  });
  it('is not claimed when the model answered after an error, or in an earlier turn only', () => {
    expect(modelUnavailable([turn(), overloaded, answered], 'crashed')).toBeUndefined();
    expect(modelUnavailable([turn(), overloaded, idle(), turn(4), answered], 'crashed')).toBeUndefined();
    expect(decideWall(input({ events: [turn(), overloaded, answered, idle()] }))).toEqual({
      action: 'quit',
      status: 'finished',
    });
  });
});

const headless = {
  events: [],
  exitCode: 0,
  timedOut: false,
  streamTerminalQuota: false,
  stderr: '',
  sessionRetries: 0,
};

describe('the model proxy gave the model API up (model-unavailable)', () => {
  const down = 'the model API at 127.0.0.1:9 is unavailable: 3 call(s) in 16 s failed and none was answered';
  const headless = {
    events: [],
    exitCode: null,
    timedOut: true,
    streamTerminalQuota: false,
    stderr: '',
    sessionRetries: 0,
  };
  it('stops a working agent at once, and names the upstream', () => {
    expect(decideWall(input({ events: [turn()], modelDown: down }))).toEqual({
      action: 'stop',
      status: 'model-unavailable',
      message: down,
    });
  });
  it('is the truth for a pane that died meanwhile, not a crash', () => {
    const pane = { dead: true, exitCode: 1 };
    expect(decideWall(input({ events: [turn()], pane, modelDown: down }))).toMatchObject({
      status: 'model-unavailable',
    });
    expect(decideWall(input({ events: [turn()], pane }))).toMatchObject({ status: 'crashed' });
  });
  it('leaves a quota or auth wall its own status, and the timeout its own course', () => {
    const quota = apiError({ statusCode: 429, terminalQuota: true });
    expect(decideWall(input({ events: [turn(), quota], modelDown: down }))).toMatchObject({
      status: 'quota-exhausted',
    });
    const escaped = input({ events: [turn()], modelDown: down, escapeSentAtMs: 500, elapsedMs: 600 });
    expect(decideWall(escaped)).toEqual({ action: 'wait' });
  });
  it('ends a headless run stopped for it model-unavailable, not timed-out', () => {
    expect(decideHeadlessEnd({ ...headless, modelDown: down })).toEqual({
      action: 'end',
      status: 'model-unavailable',
      message: down,
    });
    expect(decideHeadlessEnd(headless)).toMatchObject({ status: 'timed-out' });
  });
});

describe('screen texts', () => {
  it('serverMessage reads JSON, bracketed and plain errors', () => {
    expect(serverMessage('[API Error: You have exhausted your daily quota on this model.]')).toBe(
      'You have exhausted your daily quota on this model.',
    );
    expect(serverMessage('plain\n text')).toBe('plain text');
    expect(serverMessage('{"error":{"message":"{\\"error\\":{\\"message\\":\\"inner\\"}}"}}')).toBe('inner');
  });
  it('matchDialog strips the box and reads the newest line first', () => {
    expect(matchDialog(QUOTA_SCREEN)?.line).toBe('Usage limit reached for gemini-3-flash-preview.');
    expect(matchDialog(QUOTA_SCREEN)?.detail).toBe('gemini-3-flash-preview');
    expect(matchDialog(['nothing here'])).toBeUndefined();
  });
  it('every dialog text is proven by a captured screen or by the 0.42.0 bundle', () => {
    const bundleDir = join(root, 'node_modules', '@google', 'gemini-cli', 'bundle');
    const bundle = readdirSync(bundleDir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(bundleDir, f)));
    for (const d of DIALOG_TEXTS) {
      if ('fixture' in d.proof) {
        const lines = readFileSync(join(root, d.proof.fixture), 'utf8').split('\n');
        expect(
          lines.some((l) => d.pattern.test(l)),
          `${d.id} in ${d.proof.fixture}`,
        ).toBe(true);
      } else {
        const literal = d.proof.bundle;
        expect(
          bundle.some((text) => text.includes(literal)),
          `${d.id}: "${literal}" in the bundle`,
        ).toBe(true);
      }
    }
  });
  it('the quota fixture yields quota-exhausted on its own (no telemetry)', () => {
    const screen = readFileSync(
      join(root, 'fixtures/gemini-0.42.0/quota-daily-interactive/screen.txt'),
      'utf8',
    );
    expect(decideWall(input({ events: [turn()], screen: screen.split('\n') }))).toEqual({
      action: 'stop',
      status: 'quota-exhausted',
      message: 'Usage limit reached for gemini-3-flash-preview.',
      fromScreen: true,
    });
  });
});

describe('headless end on 0.61.0 without telemetry (R4)', () => {
  const latest = profileFor('0.61.0', { allowUnchecked: false });
  it('exit 173 with an empty telemetry file and no stream marker ends quota-exhausted', () => {
    expect(
      decideHeadlessEnd({ ...headless, events: [], exitCode: 173, stderr: '', cli: latest }),
    ).toMatchObject({ action: 'end', status: 'quota-exhausted' });
  });
  it('exit 173 on 0.42.0 (no HTTP exit codes) stays a crash, and 0.61.0 exit 1 is not a quota', () => {
    expect(decideHeadlessEnd({ ...headless, exitCode: 173 })).toMatchObject({ status: 'crashed' });
    expect(decideHeadlessEnd({ ...headless, exitCode: 1, cli: latest })).toMatchObject({ status: 'crashed' });
  });
});

describe('the timeout against an auto-nudging CLI (0.61.0, probe escape-after-tool-call)', () => {
  const latest = profileFor('0.61.0', { allowUnchecked: false });
  const old = profileFor('0.42.0', { allowUnchecked: false });
  const afterEscape = (o: Partial<WallInput>): WallInput =>
    input({
      events: [turn()],
      timeoutMs: 10_000,
      escapeSentAtMs: 10_000,
      lastEscapeAtMs: 10_000,
      escapesSent: 1,
      ...o,
    });

  it('Escapes again while the CLI stays busy, spaced past its double-Escape window, once per possible nudge', () => {
    expect(decideWall(afterEscape({ cli: latest, elapsedMs: 10_000 + RE_ESCAPE_AFTER_MS - 1 }))).toEqual({
      action: 'wait',
    });
    expect(decideWall(afterEscape({ cli: latest, elapsedMs: 10_000 + RE_ESCAPE_AFTER_MS }))).toEqual({
      action: 'escape',
    });
    const second = { lastEscapeAtMs: 10_700, escapesSent: 2 };
    expect(decideWall(afterEscape({ cli: latest, ...second, elapsedMs: 11_000 }))).toEqual({
      action: 'wait',
    });
    expect(decideWall(afterEscape({ cli: latest, ...second, elapsedMs: 11_400 }))).toEqual({
      action: 'escape',
    });
    // 1 + nudgesAfterCancel Escapes in all; then wait for the idle edge (or the grace) as before
    const third = { lastEscapeAtMs: 11_400, escapesSent: 3 };
    expect(decideWall(afterEscape({ cli: latest, ...third, elapsedMs: 13_000 }))).toEqual({ action: 'wait' });
  });

  it('quits at the idle edge instead of Escaping again, and never Escapes twice on 0.42.0', () => {
    expect(decideWall(afterEscape({ cli: latest, elapsedMs: 12_000, titleIdle: true }))).toMatchObject({
      action: 'quit',
      status: 'timed-out',
    });
    expect(decideWall(afterEscape({ cli: old, elapsedMs: 12_000 }))).toEqual({ action: 'wait' });
    expect(decideWall(afterEscape({ elapsedMs: 12_000 }))).toEqual({ action: 'wait' });
  });
});

describe('a stall', () => {
  it('stops a CLI whose screen and telemetry stayed still past the bound, with the screen, as crashed', () => {
    const d = decideWall(
      input({
        events: [turn()],
        screen: ['│ Allow execution? (y/n) │'],
        stillForMs: 21_000,
        stallMs: 20_000,
      }),
    );
    expect(d).toEqual({
      action: 'stop',
      status: 'crashed',
      message:
        'gemini stalled: its screen and telemetry did not change for 21 s while it was working; the screen ends: Allow execution? (y/n)',
    });
  });

  it('waits below the bound, and leaves a run past its timeout to the timeout', () => {
    expect(decideWall(input({ events: [turn()], stillForMs: 19_999, stallMs: 20_000 }))).toEqual({
      action: 'wait',
    });
    const late = decideWall(
      input({ events: [turn()], stillForMs: 60_000, stallMs: 20_000, elapsedMs: 61_000, timeoutMs: 60_000 }),
    );
    expect(late).toEqual({ action: 'escape' });
  });

  it('lets an idle TUI quit rather than call it stalled', () => {
    const d = decideWall(input({ events: [turn(1), idle(2)], stillForMs: 60_000, stallMs: 20_000 }));
    expect(d.action).toBe('quit');
  });
});

describe('a headless stall', () => {
  it('ends crashed with the stall named, unless a wall explains it', () => {
    const base = {
      events: [],
      exitCode: null,
      signal: 'SIGTERM',
      timedOut: true,
      streamTerminalQuota: false,
      stderr: '',
      sessionRetries: 0,
    } as const;
    expect(decideHeadlessEnd({ ...base, stalled: 'gemini stalled: x' })).toEqual({
      action: 'end',
      status: 'crashed',
      message: 'gemini stalled: x',
    });
    expect(
      decideHeadlessEnd({
        ...base,
        stalled: 'gemini stalled: x',
        modelDown: 'the model API at h is unavailable',
      }),
    ).toMatchObject({
      status: 'model-unavailable',
    });
  });
});

describe('withQuotaDetail', () => {
  const wait = { message: 'the model API asked to wait: HTTP 429 (daily quota, retry in 2s)' };
  it("adds the proxy's 429 detail to a quota wall that does not say when it lifts, and nothing else", () => {
    const dialog = {
      status: 'quota-exhausted' as const,
      message: 'Usage limit reached for gemini-2.5-flash.',
    };
    const told = withQuotaDetail(dialog, wait);
    expect(told.message).toBe(`${dialog.message} (${wait.message})`);
    const now = new Date('2026-12-05T01:00:00Z');
    expect(quotaReset(told.message, now)).toEqual({
      scope: 'daily',
      resetAt: '2026-12-05T01:00:02.000Z',
      source: 'retry-delay',
    });
    const said = { status: 'quota-exhausted' as const, message: 'Please retry in 40s.' };
    expect(withQuotaDetail(said, wait)).toBe(said);
    const other = { status: 'finished' as const };
    expect(withQuotaDetail(other, wait)).toBe(other);
    expect(withQuotaDetail(dialog, undefined)).toBe(dialog);
  });
});
