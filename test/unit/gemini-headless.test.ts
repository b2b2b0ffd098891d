import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StreamJsonTranslator } from '../../src/gemini/headless.js';
import type { RunEvent } from '../../src/domain/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const probe = (name: string): string => path.join(root, 'fixtures/synthetic/headless-probe', name);

function feed(text: string, cuts: number[] = []): { t: StreamJsonTranslator; events: RunEvent[] } {
  const t = new StreamJsonTranslator();
  const events: RunEvent[] = [];
  let prev = 0;
  for (const c of [...cuts, text.length]) {
    events.push(...t.push(text.slice(prev, c)));
    prev = c;
  }
  events.push(...t.end());
  return { t, events };
}

describe('StreamJsonTranslator', () => {
  it('translates the real tool run', async () => {
    const { t, events } = feed(await readFile(probe('stream.jsonl'), 'utf8'));
    expect(events.map((e) => e.type)).toEqual([
      'started',
      'turn-started',
      'text',
      'tool-started',
      'tool-completed',
      'text',
      'text',
      'completed',
    ]);
    expect(events[0]).toEqual({
      type: 'started',
      sessionId: '11111111-2222-3333-4444-555555555555',
      model: 'gemini-2.5-flash',
    });
    expect(events[3]).toEqual({
      type: 'tool-started',
      id: 'list_directory_1796213150074_0',
      name: 'list_directory',
      kind: 'ls',
      detail: '.',
    });
    expect(events[4]).toEqual({
      type: 'tool-completed',
      id: 'list_directory_1796213150074_0',
      name: 'list_directory',
      kind: 'ls',
      ok: true,
    });
    expect(t.answer).toBe('Done: the dir has a file. ünï 😀');
    expect(t.transcriptText).toBe('Let me look {"a":"}\\" here. Done: the dir has a file. ünï 😀');
    expect(t.resultStatus).toBe('success');
    expect(t.usage).toEqual({
      models: [
        {
          model: 'gemini-2.5-flash',
          requests: 0,
          inputTokens: 200,
          outputTokens: 14,
          cachedTokens: 0,
          totalTokens: 214,
          fallback: false,
        },
      ],
      totalTokens: 214,
      toolCalls: 1,
      turns: 1,
      durationMs: 167,
    });
  });

  it('gives the same events for every split of the stream, including inside multi-byte text', async () => {
    const text = await readFile(probe('stream.jsonl'), 'utf8');
    const whole = JSON.stringify(feed(text).events);
    const bad: number[] = [];
    for (let cut = 1; cut < text.length; cut++)
      if (JSON.stringify(feed(text, [cut]).events) !== whole) bad.push(cut);
    expect(bad).toEqual([]);
  });

  it('reports the real daily-quota failure as a terminal api-error then a failed completion', async () => {
    const { t, events } = feed(await readFile(probe('stream-quota.jsonl'), 'utf8'));
    expect(events.slice(-2)).toEqual([
      {
        type: 'api-error',
        message: '[API Error: You have exhausted your daily quota on this model.]',
        terminalQuota: true,
      },
      {
        type: 'completed',
        ok: false,
        error: '[API Error: You have exhausted your daily quota on this model.]',
      },
    ]);
    expect(t.resultStatus).toBe('error');
    expect(t.error).toContain('daily quota');
  });

  it('keeps unknown types (reported once), skips warnings and junk, never throws', () => {
    const seen: string[] = [];
    const t = new StreamJsonTranslator({ onUnknownType: (type) => seen.push(type) });
    const lines = [
      'Warning: 256-color support not detected.',
      '{"type":"init","session_id":"s","model":"m"}',
      '{"type":"thought","content":"hmm"}',
      '{"type":"thought","content":"again"}',
      '{not json',
      '{"type":"message","role":"assistant"}',
      '{"type":"error","severity":"warning","message":"Loop detected, stopping execution"}',
      '{"type":"error","severity":"error","message":"Maximum session turns exceeded"}',
      '{"type":"message","role":"assistant","content":"only text","delta":true}',
      '{"type":"result","status":"success","stats":{"total_tokens":3,"models":"weird"}}',
    ];
    const events: RunEvent[] = [];
    for (const l of lines) events.push(...t.push(l + '\r\n'));
    expect(events.map((e) => e.type)).toEqual([
      'started',
      'unknown',
      'unknown',
      'unknown',
      'api-error',
      'text',
      'completed',
    ]);
    expect(seen).toEqual(['thought']);
    expect(t.unknownTypes).toEqual(['thought']);
    expect(t.warnings).toEqual(['Loop detected, stopping execution']);
    expect(t.skippedLines).toHaveLength(3);
    expect(t.answer).toBe('only text'); // no tool call: all text
    expect(t.usage?.totalTokens).toBe(3);
  });

  it('names a tool_result from its id when the tool_use was not seen; an error result carries its message', () => {
    const { events } = feed(
      '{"type":"tool_result","tool_id":"run_shell_command_1796206734484_3","status":"error","error":{"type":"x","message":"exit 1"}}\n',
    );
    expect(events).toEqual([
      {
        type: 'tool-completed',
        id: 'run_shell_command_1796206734484_3',
        name: 'run_shell_command',
        kind: 'shell',
        ok: false,
        output: 'exit 1',
      },
    ]);
  });

  it('flushes a last line without newline at end()', () => {
    const t = new StreamJsonTranslator();
    expect(t.push('{"type":"result","status":"success"}')).toEqual([]);
    expect(t.end()).toEqual([{ type: 'completed', ok: true }]);
  });
});

describe('live captures (fixtures/gemini-0.42.0)', () => {
  const live = (name: string): Promise<string> =>
    readFile(path.join(root, 'fixtures/gemini-0.42.0', name, 'stream.jsonl'), 'utf8');

  it('tool-heavy: every tool_result is named from its tool_use; the answer is the text after the last tool', async () => {
    const text = await live('tool-heavy-headless');
    const { t, events } = feed(text);
    const done = events.filter((e) => e.type === 'tool-completed');
    expect(done.map((e) => `${e.name}:${e.kind}:${e.ok}`)).toEqual([
      'list_directory:ls:true',
      'read_file:read:true',
      'glob:glob:true',
      'grep_search:grep:true',
      'replace:edit:true',
      'run_shell_command:shell:true',
    ]);
    expect(t.answer).toBe('Changed the greeting to Hi and committed it.');
    expect(t.usage?.toolCalls).toBe(6);
    expect(t.unknownTypes).toEqual([]);
    expect(t.skippedLines).toEqual([]);
    const whole = JSON.stringify(events);
    const bad: number[] = [];
    for (let cut = 1; cut < text.length; cut += 7)
      if (JSON.stringify(feed(text, [cut]).events) !== whole) bad.push(cut);
    expect(bad).toEqual([]);
  });

  it('quota: terminal api-error then failed completion; transient 503: success', async () => {
    const quota = feed(await live('quota-daily-headless'));
    expect(quota.events.map((e) => e.type)).toEqual(['started', 'turn-started', 'api-error', 'completed']);
    expect(quota.events[2]).toMatchObject({ terminalQuota: true });
    expect(quota.t.resultStatus).toBe('error');
    const ok = feed(await live('transient-then-ok-headless'));
    expect(ok.t.resultStatus).toBe('success');
    expect(ok.t.answer).toBe('Recovered after a transient error.');
    const plain = feed(await live('plain-answer-headless'));
    expect(plain.t.answer).toMatch(/^The repository contains a README/);
    expect(plain.t.hadToolCalls).toBe(false);
  });
});
