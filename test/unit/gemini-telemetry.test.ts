import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  classifyApiError,
  followTelemetry,
  summarizeUsage,
  TelemetryReader,
  TelemetryScanner,
  type TelemetryEvent,
} from '../../src/gemini/telemetry.js';
import { interactiveTurn, logRecord, span } from '../bench/lib.js';
import { sampledCuts, scanAll, smallFile } from '../harness/telemetry-splits.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const probe = (name: string): string => path.join(root, 'fixtures/synthetic/headless-probe', name);

describe('TelemetryScanner', () => {
  it('reads the real headless capture: config, startup, prompt, responses, tool call', async () => {
    const events = scanAll(await readFile(probe('telemetry.json')));
    expect(events.map((e) => e.kind)).toEqual([
      'config',
      'startup',
      'turn-started',
      'api-response',
      'tool-call',
      'api-response',
    ]);
    const resp = events.find((e) => e.kind === 'api-response');
    expect(resp).toMatchObject({
      model: 'gemini-2.5-flash',
      inputTokens: 100,
      outputTokens: 7,
      totalTokens: 107,
      durationMs: 47,
      role: 'main',
    });
    expect(events.find((e) => e.kind === 'tool-call')).toMatchObject({
      name: 'list_directory',
      success: true,
      durationMs: 13,
    });
    expect(events[2]).toMatchObject({
      at: Date.parse('2026-12-02T12:05:50.022Z'),
      promptId: '11111111-2222-3333-4444-555555555555',
    });
  });

  it('classifies the real daily-quota 429 as terminal', async () => {
    const events = scanAll(await readFile(probe('telemetry-quota.json')));
    const err = events.find((e) => e.kind === 'api-error');
    expect(err).toMatchObject({
      statusCode: 429,
      model: 'gemini-2.5-flash',
      terminalQuota: true,
      auth: false,
    });
  });

  // Every boundary, and every third one with the size cap: test/integration/telemetry-splits.test.ts.
  it('gives the same events for a split at a sample of byte boundaries (every one that changes its state)', () => {
    const buf = smallFile();
    const whole = scanAll(buf);
    expect(whole.map((e) => e.kind)).toEqual([
      'config',
      'turn-started',
      'api-response',
      'tool-call',
      'idle',
      'api-error',
      'flash-fallback',
    ]);
    const expected = JSON.stringify(whole);
    const bad: number[] = [];
    for (const cut of sampledCuts(buf)) {
      if (JSON.stringify(scanAll(buf, [cut])) !== expected) bad.push(cut);
    }
    expect(bad).toEqual([]);
  });

  it('skips objects over the size cap the same way however the bytes are split (a sample of boundaries)', () => {
    const buf = smallFile();
    const capped = (cuts: number[]): string => JSON.stringify(scanAll(buf, cuts, 2600));
    const whole = capped([]);
    // The metric batch and the 429 record (with its error JSON) are over 2600 bytes.
    expect((JSON.parse(whole) as TelemetryEvent[]).map((e) => e.kind)).toEqual([
      'config',
      'turn-started',
      'api-response',
      'tool-call',
      'idle',
      'flash-fallback',
    ]);
    const bad: number[] = [];
    for (const cut of sampledCuts(buf)) if (capped([cut]) !== whole) bad.push(cut);
    expect(bad).toEqual([]);
  });

  it('gives the same events when fed one byte at a time and in random pieces', () => {
    const buf = smallFile();
    const whole = scanAll(buf);
    expect(
      scanAll(
        buf,
        Array.from({ length: buf.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(whole);
    let seed = 7;
    for (let round = 0; round < 20; round++) {
      const cuts: number[] = [];
      for (let c = 0; c < buf.length; c += 1 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 700))
        if (c > 0) cuts.push(c);
      expect(scanAll(buf, cuts)).toEqual(whole);
    }
  });

  it('emits idle only for the first conversation_finished after a user_prompt', () => {
    let at = 1_000_000;
    let text = '';
    for (let turn = 1; turn <= 3; turn++) {
      const t = interactiveTurn({ at, turn, noise: true, tools: ['glob'], bigRecords: false });
      text += t.text;
      at = t.at;
    }
    const events = scanAll(Buffer.from(text));
    const edges = events.filter((e) => e.kind === 'turn-started' || e.kind === 'idle').map((e) => e.kind);
    expect(edges).toEqual(['turn-started', 'idle', 'turn-started', 'idle', 'turn-started', 'idle']);
    const idle = events.filter((e) => e.kind === 'idle');
    expect(idle.map((e) => (e as { promptId?: string }).promptId?.split('########')[1])).toEqual([
      '1',
      '2',
      '3',
    ]);
  });

  it('resyncs after a torn object and skips unwanted and oversize objects', () => {
    const good = logRecord('gemini_cli.user_prompt', 5000, { prompt_id: 'after' });
    const torn = logRecord('gemini_cli.tool_call', 4000, { function_name: 'x', text: 'cut "here' }).slice(
      0,
      700,
    );
    const big = logRecord('gemini_cli.api_response', 4500, { model: 'm', pad: 'x'.repeat(5000) });
    const s = new TelemetryScanner({ maxObjectBytes: 4000 });
    const events = [
      ...s.push(Buffer.from(torn.slice(0, 300))),
      ...s.push(Buffer.from(torn.slice(300) + big.slice(0, 2000))),
      ...s.push(Buffer.from(big.slice(2000) + good)),
    ];
    expect(events).toEqual([{ kind: 'turn-started', at: 5000, promptId: 'after' }]);
    expect(s.bufferedBytes).toBe(0);
    // A torn record directly followed by a good one: the good one still counts.
    const s2 = new TelemetryScanner();
    expect(s2.push(Buffer.from(torn + good))).toEqual([
      { kind: 'turn-started', at: 5000, promptId: 'after' },
    ]);
  });
});

describe('classifyApiError', () => {
  it.each([
    [429, '[API Error: You have exhausted your daily quota on this model.]', true, false],
    [429, '{"error":{"details":[{"reason":"QUOTA_EXHAUSTED"}]}}', true, false],
    [429, 'Resource exhausted. Please retry in 3600s.', true, false],
    [429, '{"details":[{"retryDelay":"42s"}]}', false, false],
    [429, 'Quota exceeded for metric requests per minute', false, false],
    [503, 'The model is overloaded', false, false],
    [401, 'Request had invalid authentication credentials', false, true],
    [undefined, '{"error":{"status":"PERMISSION_DENIED"}}', false, true],
    [undefined, '{"error":{"status":"UNAUTHENTICATED"}}', false, true],
  ])('%s %s', (status, message, terminalQuota, auth) => {
    expect(classifyApiError(status, message)).toEqual({ terminalQuota, auth });
  });
});

describe('summarizeUsage', () => {
  it('marks a model that only answered the router (a non-main role) as a utility model', () => {
    const r = (model: string, role: string | undefined): TelemetryEvent => ({
      kind: 'api-response',
      at: 1,
      model,
      inputTokens: 1,
      outputTokens: 1,
      cachedTokens: 0,
      totalTokens: 2,
      durationMs: 1,
      ...(role ? { role } : {}),
    });
    const usage = summarizeUsage([
      r('gemini-2.5-flash-lite', 'utility_router'),
      r('gemini-3-flash-preview', 'main'),
      r('gemini-2.5-flash', undefined),
    ]);
    expect(usage.models.map((m) => [m.model, m.utility ?? false])).toEqual([
      ['gemini-2.5-flash-lite', true],
      ['gemini-3-flash-preview', false],
      ['gemini-2.5-flash', false],
    ]);
  });

  it('totals per model and marks models that first served after a fallback', () => {
    const r = (at: number, model: string, total: number): TelemetryEvent => ({
      kind: 'api-response',
      at,
      model,
      inputTokens: total - 1,
      outputTokens: 1,
      cachedTokens: 0,
      totalTokens: total,
      durationMs: 5,
    });
    const usage = summarizeUsage([
      { kind: 'config', at: 0 },
      { kind: 'turn-started', at: 1000 },
      r(1100, 'gemini-3-pro-preview', 10),
      { kind: 'tool-call', at: 1200, name: 'glob', success: true, durationMs: 1 },
      { kind: 'flash-fallback', at: 1300 },
      r(1400, 'gemini-3-flash-preview', 20),
      r(1500, 'gemini-3-pro-preview', 30),
      { kind: 'idle', at: 1600 },
      { kind: 'turn-started', at: 2000 },
      { kind: 'idle', at: 2500 },
    ]);
    expect(usage).toEqual({
      models: [
        {
          model: 'gemini-3-pro-preview',
          requests: 2,
          inputTokens: 38,
          outputTokens: 2,
          cachedTokens: 0,
          totalTokens: 40,
          fallback: false,
        },
        {
          model: 'gemini-3-flash-preview',
          requests: 1,
          inputTokens: 19,
          outputTokens: 1,
          cachedTokens: 0,
          totalTokens: 20,
          fallback: true,
        },
      ],
      totalTokens: 60,
      toolCalls: 1,
      turns: 2,
      durationMs: 1500,
    });
  });
});

describe('TelemetryReader and followTelemetry', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gr-telemetry-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads only new bytes, keeps a torn object, and restarts on truncation', async () => {
    const file = path.join(dir, 't.json');
    const reader = new TelemetryReader(file, { chunkBytes: 1000 });
    expect(await reader.poll()).toEqual([]); // not created yet
    const a = logRecord('gemini_cli.user_prompt', 1000, { prompt_id: 'a' });
    const b = logRecord('gemini_cli.conversation_finished', 2000, {});
    await writeFile(file, a + b.slice(0, 500));
    expect((await reader.poll()).map((e) => e.kind)).toEqual(['turn-started']);
    expect(reader.offset).toBe(Buffer.byteLength(a) + 500);
    expect(await reader.poll()).toEqual([]);
    await appendFile(file, b.slice(500));
    expect(await reader.poll()).toEqual([{ kind: 'idle', at: 2000, promptId: 'a' }]);
    await writeFile(file, logRecord('gemini_cli.flash_fallback', 3000, {}));
    expect(await reader.poll()).toEqual([{ kind: 'flash-fallback', at: 3000 }]);
    await reader.close();
  });

  it('follows a growing file as it is written (fs.watch, not the poll) and stops on abort', async () => {
    const file = path.join(dir, 'follow.json');
    const record = (i: number): string =>
      span(Date.now(), 5) + logRecord('gemini_cli.user_prompt', Date.now(), { prompt_id: `p${i}` });
    const seen: TelemetryEvent[] = [];
    const ac = new AbortController();
    // p0 is there before the follower starts: once its first read has delivered it, the watch is set up.
    await appendFile(file, record(0));
    const done = followTelemetry(file, (evs) => seen.push(...evs), {
      signal: ac.signal,
      // Longer than the test may take: every later event must be found through fs.watch. How fast is a
      // benchmark's question (test/bench/edge-latency.bench.ts), not this test's.
      pollMs: 3_600_000,
    });
    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 20_000, interval: 5 });
    for (let i = 1; i < 5; i++) {
      await appendFile(file, record(i));
      await vi.waitFor(() => expect(seen).toHaveLength(i + 1), { timeout: 20_000, interval: 5 });
    }
    ac.abort();
    await done;
    expect(seen.map((ev) => (ev as { promptId?: string }).promptId)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
  });
});

describe('live captures (fixtures/gemini-0.42.0)', () => {
  const live = (name: string): Promise<Buffer> =>
    readFile(path.join(root, 'fixtures/gemini-0.42.0', name, 'telemetry.json'));
  const edges = (events: TelemetryEvent[]): string[] =>
    events.filter((e) => e.kind === 'turn-started' || e.kind === 'idle').map((e) => e.kind);

  it('two-turn interactive: one idle edge per turn', async () => {
    const events = scanAll(await live('two-turn-interactive'));
    expect(edges(events)).toEqual(['turn-started', 'idle', 'turn-started', 'idle']);
    const [t1, i1, t2, i2] = events.filter((e) => e.kind === 'turn-started' || e.kind === 'idle');
    expect(t1!.at).toBeLessThan(i1!.at);
    expect(i1!.at).toBeLessThan(t2!.at);
    expect(t2!.at).toBeLessThan(i2!.at);
    const usage = summarizeUsage(events);
    expect(usage.turns).toBe(2);
    expect(usage.models.map((m) => m.model)).toEqual(['gemini-2.5-flash-lite', 'gemini-3-flash-preview']);
  });

  it('tool-heavy interactive: six tool calls, then the idle edge', async () => {
    const events = scanAll(await live('tool-heavy-interactive'));
    expect(events.filter((e) => e.kind === 'tool-call').map((e) => (e as { name: string }).name)).toEqual([
      'list_directory',
      'read_file',
      'glob',
      'grep_search',
      'replace',
      'run_shell_command',
    ]);
    expect(events.at(-1)?.kind).toBe('idle');
    expect(summarizeUsage(events).toolCalls).toBe(6);
  });

  it('headless runs never emit an idle edge (conversation_finished is interactive-only)', async () => {
    expect(edges(scanAll(await live('tool-heavy-headless')))).toEqual(['turn-started']);
  });

  it('daily quota (both modes) is terminal; a 503 is not; an Escape abort is a cancellation, then idle', async () => {
    for (const name of ['quota-daily-interactive', 'quota-daily-headless']) {
      const err = scanAll(await live(name)).find((e) => e.kind === 'api-error');
      expect(err, name).toMatchObject({
        statusCode: 429,
        terminalQuota: true,
        auth: false,
        cancelled: false,
      });
    }
    const transient = scanAll(await live('transient-then-ok-headless'));
    expect(transient.find((e) => e.kind === 'api-error')).toMatchObject({
      statusCode: 503,
      terminalQuota: false,
      cancelled: false,
    });
    expect(transient.filter((e) => e.kind === 'api-response').length).toBe(2);
    const hang = scanAll(await live('hang-escape-interactive'));
    expect(hang.find((e) => e.kind === 'api-error')).toMatchObject({ terminalQuota: false, cancelled: true });
    expect(edges(hang)).toEqual(['turn-started', 'idle']);
  });

  it('random splits of a 1 MB capture give the same events as one read', async () => {
    const buf = await live('tool-heavy-interactive');
    const expected = JSON.stringify(scanAll(buf));
    let seed = 42;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 30; round++) {
      const cuts = Array.from({ length: 1 + rand(40) }, () => 1 + rand(buf.length - 1)).sort((a, b) => a - b);
      expect(JSON.stringify(scanAll(buf, cuts))).toBe(expected);
    }
  });
});
