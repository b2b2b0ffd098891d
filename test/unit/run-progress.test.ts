import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Progress, describeEvent, telemetryToRunEvents, toolArgsDetail } from '../../src/run/progress.js';
import type { RunEvent } from '../../src/domain/types.js';
import { decideHeadlessEnd, type HeadlessEndInput } from '../../src/run/walls.js';
import { createMemoryLogger, createStreamLogger } from '../../src/util/log.js';

function sink(): Writable & { text: string } {
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      w.text += chunk.toString();
      cb();
    },
  }) as Writable & { text: string };
  w.text = '';
  return w;
}

describe('telemetry → run events', () => {
  it('maps the events progress shows and drops the rest', () => {
    expect(
      telemetryToRunEvents({ kind: 'tool-call', at: 1, name: 'replace', success: false, durationMs: 5 }),
    ).toEqual([{ type: 'tool-completed', name: 'replace', kind: 'edit', ok: false, durationMs: 5 }]);
    expect(
      telemetryToRunEvents({
        kind: 'api-response',
        at: 1,
        model: 'm',
        inputTokens: 10,
        outputTokens: 2,
        cachedTokens: 0,
        totalTokens: 12,
        durationMs: 1500,
      }),
    ).toEqual([
      {
        type: 'model-response',
        model: 'm',
        inputTokens: 10,
        outputTokens: 2,
        totalTokens: 12,
        durationMs: 1500,
      },
    ]);
    expect(telemetryToRunEvents({ kind: 'flash-fallback', at: 1 })).toEqual([{ type: 'fallback' }]);
    expect(telemetryToRunEvents({ kind: 'config', at: 1 })).toEqual([]);
    expect(telemetryToRunEvents({ kind: 'startup', at: 1 })).toEqual([]);
  });
});

describe('describeEvent', () => {
  it('gives one line per tool call and model response', () => {
    expect(
      describeEvent({ type: 'tool-completed', name: 'read_file', kind: 'read', ok: true, durationMs: 1234 }),
    ).toBe('tool read_file [read] ok (1.2 s)');
    expect(
      describeEvent({ type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'ls' }),
    ).toBe('tool run_shell_command [shell]: ls');
    expect(
      describeEvent({
        type: 'model-response',
        model: 'gemini-2.5-pro',
        inputTokens: 5,
        outputTokens: 6,
        totalTokens: 11,
      }),
    ).toBe('model gemini-2.5-pro: 5 in / 6 out tokens');
    expect(describeEvent({ type: 'api-error', statusCode: 429, message: 'a\nb', terminalQuota: true })).toBe(
      'API error 429 (terminal quota): a b',
    );
    expect(describeEvent({ type: 'text', text: 'hello' })).toBeUndefined();
  });
});

describe('Progress', () => {
  afterEach(() => vi.useRealTimers());

  it('counts turns, tokens and tools, forwards events, survives a throwing listener', () => {
    const log = createMemoryLogger();
    const seen: RunEvent[] = [];
    const p = new Progress(
      log,
      (e) => {
        seen.push(e);
        throw new Error('listener bug');
      },
      0,
    );
    p.emit({ type: 'turn-started', at: 1 });
    p.emit({ type: 'model-response', model: 'm', inputTokens: 1, outputTokens: 1, totalTokens: 100 });
    p.emit({ type: 'tool-completed', name: 'glob', kind: 'glob', ok: true });
    expect(seen).toHaveLength(3);
    expect(p.heartbeatLine(95_000)).toBe(
      '… working: 1 min 35 s elapsed, 1 turn(s), 100 tokens, 1 tool call(s)',
    );
    // A completion without its start waits for it, and is logged at the end at the latest.
    expect(log.lines).not.toContain('tool glob [glob] ok');
    p.stopHeartbeat();
    expect(log.lines).toContain('tool glob [glob] ok');
  });

  it("logs a tool's start before its end, whichever source reported first (telemetry beats the session file)", () => {
    vi.useFakeTimers();
    const log = createMemoryLogger();
    const p = new Progress(log, undefined, 0);
    const tools = () => log.lines.filter((l) => l.startsWith('tool '));
    // Telemetry's completion first, the session file's start a moment later.
    p.emit({ type: 'tool-completed', name: 'write_file', kind: 'write', ok: true, durationMs: 100 });
    p.emit({ type: 'tool-started', name: 'write_file', kind: 'write', detail: 'NOTES.md' });
    // In order: a start, then its completion.
    p.emit({ type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'ls' });
    p.emit({ type: 'tool-completed', name: 'run_shell_command', kind: 'shell', ok: false });
    expect(tools()).toEqual([
      'tool write_file [write]: NOTES.md',
      'tool write_file [write] ok (0.1 s)',
      'tool run_shell_command [shell]: ls',
      'tool run_shell_command [shell] FAILED',
    ]);
    // A completion whose start never comes (an unreadable session file) is logged after a moment anyway.
    p.emit({ type: 'tool-completed', name: 'glob', kind: 'glob', ok: true });
    expect(tools()).toHaveLength(4);
    vi.advanceTimersByTime(1500);
    expect(tools().at(-1)).toBe('tool glob [glob] ok');
    // The counters do not wait: the heartbeat counts every completion at once.
    expect(p.toolCalls).toBe(3);
  });

  it("tells the end of a turn after the turn's tool completions, even while one waits for its start", () => {
    vi.useFakeTimers();
    const log = createMemoryLogger();
    const p = new Progress(log, undefined, 0);
    p.emit({ type: 'tool-completed', name: 'run_shell_command', kind: 'shell', ok: true });
    p.emit({ type: 'idle', at: 1 });
    expect(log.lines).toEqual([]);
    p.emit({ type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'git commit' });
    expect(log.lines).toEqual([
      'tool run_shell_command [shell]: git commit',
      'tool run_shell_command [shell] ok',
      'turn finished (idle)',
    ]);
    // The engine's own "agent is idle" line comes after releaseAll: nothing is left to come after it.
    p.emit({ type: 'tool-completed', name: 'glob', kind: 'glob', ok: true });
    p.emit({ type: 'completed', ok: true });
    p.releaseAll();
    expect(log.lines.slice(-2)).toEqual(['tool glob [glob] ok', 'completed']);
  });

  it('cuts a long tool detail at whole characters and says it was cut', () => {
    const long = `git commit -m '${'🤖 Generated with Gemini '.repeat(20)}'`;
    const detail = toolArgsDetail({ command: long })!;
    expect([...detail]).toHaveLength(200);
    expect(detail.endsWith('…')).toBe(true);
    expect(detail).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(toolArgsDetail({ command: 'ls' })).toBe('ls');
  });

  it('in a terminal: one live status line (turn, tool, tokens, elapsed), redrawn under each log line, then cleared', () => {
    vi.useFakeTimers({ now: 0 });
    const term = sink();
    const p = new Progress(createStreamLogger({ out: term, err: term, statusLine: true }), undefined, 0);
    p.startHeartbeat(30_000);
    p.emit({ type: 'turn-started', at: 0 });
    p.emit({ type: 'tool-started', name: 'run_shell_command', kind: 'shell', detail: 'npm test' });
    vi.advanceTimersByTime(2_000);
    const shown = term.text.split('\r\x1b[2K').at(-1);
    expect(shown).toBe('▸ turn 1 · tool run_shell_command · 0 tokens · 0 tool call(s) · 2 s');
    p.emit({ type: 'model-response', model: 'm', inputTokens: 1, outputTokens: 1, totalTokens: 1234 });
    p.emit({ type: 'tool-completed', name: 'run_shell_command', kind: 'shell', ok: true });
    // Each log line is printed on a cleared line, with the status drawn again below it.
    expect(term.text).toContain('\r\x1b[2Ktool run_shell_command [shell] ok\n▸ turn 1');
    expect(term.text.split('\r\x1b[2K').at(-1)).toBe(
      '▸ turn 1 · thinking · 1,234 tokens · 1 tool call(s) · 2 s',
    );
    p.stopHeartbeat();
    expect(term.text.endsWith('\r\x1b[2K')).toBe(true);
    // No heartbeat lines where the status line shows the same.
    expect(term.text).not.toContain('… working');

    // Not a terminal: plain lines, not one escape.
    const pipe = sink();
    const q = new Progress(createStreamLogger({ out: pipe, err: pipe }), undefined, Date.now());
    q.startHeartbeat(30_000);
    q.emit({ type: 'tool-started', name: 'glob', kind: 'glob', detail: '*.ts' });
    vi.advanceTimersByTime(31_000);
    q.stopHeartbeat();
    expect(pipe.text).toBe(
      'tool glob [glob]: *.ts\n… working: 30 s elapsed, 0 turn(s), 0 tokens, 0 tool call(s)\n',
    );
  });

  it('beats every heartbeatMs until stopped', () => {
    vi.useFakeTimers();
    const log = createMemoryLogger();
    const p = new Progress(log, undefined, Date.now());
    p.startHeartbeat(30_000);
    vi.advanceTimersByTime(61_000);
    p.stopHeartbeat();
    vi.advanceTimersByTime(60_000);
    expect(log.lines.filter((l) => l.startsWith('… working:'))).toEqual([
      '… working: 30 s elapsed, 0 turn(s), 0 tokens, 0 tool call(s)',
      '… working: 1 min 0 s elapsed, 0 turn(s), 0 tokens, 0 tool call(s)',
    ]);
  });
});

describe('decideHeadlessEnd', () => {
  const base: HeadlessEndInput = {
    events: [],
    exitCode: 0,
    timedOut: false,
    resultStatus: 'success',
    streamTerminalQuota: false,
    stderr: '',
    sessionRetries: 0,
  };
  it('finished on exit 0 with a successful result', () => {
    expect(decideHeadlessEnd(base)).toEqual({ action: 'end', status: 'finished' });
  });
  it('timed-out wins over the exit code the kill produced', () => {
    expect(decideHeadlessEnd({ ...base, exitCode: null, signal: 'SIGTERM', timedOut: true })).toMatchObject({
      status: 'timed-out',
    });
  });
  it('quota from the stream, with the message', () => {
    expect(
      decideHeadlessEnd({
        ...base,
        exitCode: 1,
        resultStatus: 'error',
        streamTerminalQuota: true,
        streamError: '[API Error: You have exhausted your daily quota on this model.]',
      }),
    ).toEqual({
      action: 'end',
      status: 'quota-exhausted',
      message: 'You have exhausted your daily quota on this model.',
    });
  });
  it('auth from exit 41 with the stderr JSON message', () => {
    expect(
      decideHeadlessEnd({
        ...base,
        exitCode: 41,
        resultStatus: 'error',
        stderr:
          '{"session_id":"s","error":{"type":"FatalAuthenticationError","message":"Manual authorization is required","code":41}}\n',
      }),
    ).toEqual({ action: 'end', status: 'auth-failed', message: 'Manual authorization is required' });
  });
  it('auth from a 403 in telemetry', () => {
    expect(
      decideHeadlessEnd({
        ...base,
        exitCode: 1,
        events: [
          {
            kind: 'api-error',
            at: 1,
            statusCode: 403,
            message: 'denied',
            terminalQuota: false,
            auth: true,
            cancelled: false,
          },
        ],
      }),
    ).toEqual({ action: 'end', status: 'auth-failed', message: 'denied' });
  });
  it('auth from the account refusal Code Assist sends at start-up (stderr, exit 1)', () => {
    const stderr =
      'Ripgrep is not available.\nAn unexpected critical error occurred:IneligibleTierError: Not for this account.\n' +
      '    at throwIneligibleOrProjectIdError (file:///x/chunk.js:1:1)\n';
    expect(decideHeadlessEnd({ ...base, exitCode: 1, resultStatus: undefined, stderr })).toEqual({
      action: 'end',
      status: 'auth-failed',
      message: 'Not for this account.',
    });
  });
  it('retry once on a session id collision', () => {
    const stderr = 'Error starting session: Session ID "x" already exists. Use --resume to resume it.';
    expect(decideHeadlessEnd({ ...base, exitCode: 42, stderr })).toMatchObject({ action: 'retry' });
    expect(decideHeadlessEnd({ ...base, exitCode: 42, stderr, sessionRetries: 1 })).toMatchObject({
      status: 'crashed',
    });
  });
  it('crashed otherwise, saying how', () => {
    expect(
      decideHeadlessEnd({ ...base, exitCode: null, signal: 'SIGKILL', resultStatus: undefined }),
    ).toEqual({
      action: 'end',
      status: 'crashed',
      message: 'gemini was killed by SIGKILL',
    });
    expect(decideHeadlessEnd({ ...base, exitCode: 0, resultStatus: 'error', streamError: 'bad' })).toEqual({
      action: 'end',
      status: 'crashed',
      message: 'gemini exited with code 0: bad',
    });
  });
});

describe('TranscriptToolTail', () => {
  it('reports each tool call once, with its arguments, across appends and torn lines', async () => {
    const { mkdtemp, writeFile, appendFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { TranscriptToolTail } = await import('../../src/run/progress.js');
    const dir = await mkdtemp(join(tmpdir(), 'tail-'));
    try {
      const file = join(dir, 'session.jsonl');
      let located = false;
      const tail = new TranscriptToolTail(() => Promise.resolve(located ? file : undefined));
      expect(await tail.poll()).toEqual([]);
      located = true;
      const call1 = { id: 't1', name: 'run_shell_command', args: { command: 'git status\nsecond line' } };
      await writeFile(
        file,
        `{"sessionId":"s"}\n{"id":"m1","type":"gemini","content":"","toolCalls":[${JSON.stringify(call1)}]}\n{"id":"m2"`,
      );
      expect(await tail.poll()).toEqual([
        // The command's second line is left out, and the detail says so.
        { type: 'tool-started', id: 't1', name: 'run_shell_command', kind: 'shell', detail: 'git status …' },
      ]);
      const call2 = { id: 't2', name: 'read_file', args: { file_path: 'a.ts' } };
      await appendFile(
        file,
        `,"type":"gemini","content":"","toolCalls":[${JSON.stringify(call1)},${JSON.stringify(call2)}]}\n`,
      );
      expect(await tail.poll()).toEqual([
        { type: 'tool-started', id: 't2', name: 'read_file', kind: 'read', detail: 'a.ts' },
      ]);
      expect(await tail.poll()).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps a multi-byte character whole when a read ends inside it', async () => {
    const { mkdtemp, writeFile, appendFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { TranscriptToolTail } = await import('../../src/run/progress.js');
    const dir = await mkdtemp(join(tmpdir(), 'tail-utf8-'));
    try {
      const file = join(dir, 'session.jsonl');
      const call = { id: 't1', name: 'write_file', args: { file_path: 'résumé-日本.md' } };
      const bytes = Buffer.from(
        `{"id":"m1","type":"gemini","content":"","toolCalls":[${JSON.stringify(call)}]}\n`,
        'utf8',
      );
      // Cut inside the two-byte é: the first read sees only its lead byte.
      const cut = bytes.indexOf(Buffer.from('é', 'utf8')) + 1;
      await writeFile(file, bytes.subarray(0, cut));
      const tail = new TranscriptToolTail(() => Promise.resolve(file));
      expect(await tail.poll()).toEqual([]);
      await appendFile(file, bytes.subarray(cut));
      expect(await tail.poll()).toEqual([
        { type: 'tool-started', id: 't1', name: 'write_file', kind: 'write', detail: 'résumé-日本.md' },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
