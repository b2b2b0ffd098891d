/**
 * The captured `resumed-headless` fixture (fixtures/gemini-0.42.0/resumed-headless/): a headless run, then a
 * second headless run `--resume <session id>` in the same home. Both stdout streams go through the product's
 * StreamJsonTranslator; the shared transcript through the fold.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StreamJsonTranslator } from '../../src/gemini/headless.js';
import { foldTranscript } from '../../src/gemini/transcript-fold.js';
import type { RunEvent } from '../../src/domain/types.js';

const dir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/gemini-0.42.0/resumed-headless',
);
const read = (name: string): Promise<string> => readFile(path.join(dir, name), 'utf8');

function translate(text: string): { t: StreamJsonTranslator; events: RunEvent[] } {
  const t = new StreamJsonTranslator();
  const events = [...t.push(text), ...t.end()];
  return { t, events };
}

/** The session id the README says the capture used (the streams must agree with it). */
async function capturedSessionId(): Promise<string> {
  const m = /- session id: `([0-9a-f-]{36})`/.exec(await read('README.md'));
  if (!m?.[1]) throw new Error('README.md names no session id');
  return m[1];
}

describe('resumed-headless capture through StreamJsonTranslator', () => {
  it('translates the first run: its own session, one turn, the first answer', async () => {
    const sessionId = await capturedSessionId();
    const { t, events } = translate(await read('stream.jsonl'));
    expect(events.map((e) => e.type)).toEqual(['started', 'turn-started', 'text', 'text', 'completed']);
    expect(events[0]).toEqual({ type: 'started', sessionId, model: 'auto-gemini-3' });
    expect(t.answer).toBe('First answer: the project greets people by name.');
    expect(t.resultStatus).toBe('success');
    expect(t.skippedLines).toEqual([]);
    expect(t.unknownTypes).toEqual([]);
  });

  it('translates the --resume run as the SAME session, with only the new turn in its stream', async () => {
    const sessionId = await capturedSessionId();
    const { t, events } = translate(await read('stream-resumed.jsonl'));
    // The resumed stream does not replay the earlier turn: one user message, the new answer only.
    expect(events.map((e) => e.type)).toEqual(['started', 'turn-started', 'text', 'text', 'completed']);
    expect(events[0]).toEqual({ type: 'started', sessionId, model: 'auto-gemini-3' });
    expect(t.sessionId).toBe(sessionId);
    expect(t.turns).toBe(1);
    expect(t.answer).toBe('Second answer: greet() lives in src/greet.js.');
    expect(t.transcriptText).not.toContain('First answer');
    expect(t.resultStatus).toBe('success');
    expect(t.error).toBeUndefined();
    // Auto routing: the classifier (flash-lite) and the main model both served the resumed turn.
    expect(t.usage?.models.map((m) => m.model).sort()).toEqual([
      'gemini-2.5-flash-lite',
      'gemini-3-flash-preview',
    ]);
    expect(t.usage?.totalTokens).toBeGreaterThan(0);
    expect((await read('exit-code-resumed')).trim()).toBe('0');
  });

  it('gives the same events for every split of the resumed stream', async () => {
    const text = await read('stream-resumed.jsonl');
    const whole = JSON.stringify(translate(text).events);
    for (let cut = 1; cut < text.length; cut += 7) {
      const t = new StreamJsonTranslator();
      const events = [...t.push(text.slice(0, cut)), ...t.push(text.slice(cut)), ...t.end()];
      expect(JSON.stringify(events)).toBe(whole);
    }
  });

  it('folds the shared transcript into both turns under one session id', async () => {
    const sessionId = await capturedSessionId();
    // The resumed run appends a second header line and a `$set` of the session id to the same file.
    const folded = foldTranscript(await read('transcript.jsonl'));
    expect(folded.sessionId).toBe(sessionId);
    expect(folded.messages.map((m) => [m.type, m.text])).toEqual([
      ['user', 'Read GEMINI.local.md and do the task.'],
      ['gemini', 'First answer: the project greets people by name.'],
      ['user', 'Now say where greet lives.'],
      ['gemini', 'Second answer: greet() lives in src/greet.js.'],
    ]);
    expect(folded.finalAnswer).toBe('Second answer: greet() lives in src/greet.js.');
  });
});
