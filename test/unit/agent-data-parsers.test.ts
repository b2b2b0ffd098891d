/**
 * Every parser of agent-made data is bounded and writes no prototype (issue 39): the bounded JSON parse itself, the
 * line splitter every follower uses, the transcript fold (bytes and text), the resumability check, the transcript
 * tail, telemetry and stream-json. The sizes here are small versions of the attacks (a line past its bound, an
 * array of more values than allowed, deep nesting); the memory they would cost at full size is measured in
 * test/integration/agent-data-memory.test.ts and test/bench/agent-data.bench.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamJsonTranslator } from '../../src/gemini/headless.js';
import { summarizeUsage, TelemetryScanner } from '../../src/gemini/telemetry.js';
import { foldTranscript, foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { transcriptResumable } from '../../src/gemini/transcript-locate.js';
import { forEachLine, parseTranscriptLine } from '../../src/gemini/transcript-parse.js';
import { AGENT_JSON_BOUNDS, parseBoundedJson, recordOf } from '../../src/util/bounded-json.js';
import { BoundedLines } from '../../src/util/bounded-lines.js';
import { ownFile } from '../../src/util/agent-file.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function fileWith(text: string | Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'gr-agent-data-'));
  dirs.push(dir);
  const file = join(dir, 'session.jsonl');
  await writeFile(file, text);
  return file;
}

/** Own properties Object.prototype has beyond the language's: any is a write through a parsed `__proto__`. */
function prototypeWrites(): string[] {
  return Object.getOwnPropertyNames(Object.prototype).filter((k) => !BUILTIN_PROTO_KEYS.has(k));
}
const BUILTIN_PROTO_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

const gemini = (id: string, model: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    type: 'gemini',
    content: `answer from ${model}`,
    model,
    tokens: { input: 1, output: 2, cached: 0, total: 3 },
    ...extra,
  });

describe('parseBoundedJson', () => {
  const bounds = { maxBytes: 1000, maxDepth: 4, maxValues: 10 };

  it('parses what is within the bounds, from text or bytes', () => {
    const text = '{"a":[1,2,3],"b":{"c":"x"}}';
    expect(parseBoundedJson(text, bounds)).toEqual({ ok: true, value: { a: [1, 2, 3], b: { c: 'x' } } });
    expect(parseBoundedJson(Buffer.from(text), bounds)).toEqual(parseBoundedJson(text, bounds));
    expect(parseBoundedJson('{"a":', bounds)).toEqual({ ok: false, why: 'invalid' });
  });

  it('refuses too many values, too deep a nesting, too many bytes: before anything is built', () => {
    expect(parseBoundedJson(`[${'0,'.repeat(10)}0]`, bounds)).toEqual({ ok: false, why: 'too-large' });
    expect(parseBoundedJson('[[[[[0]]]]]', bounds)).toEqual({ ok: false, why: 'too-large' });
    expect(parseBoundedJson(`"${'x'.repeat(1000)}"`, bounds)).toEqual({ ok: false, why: 'too-large' });
    expect(parseBoundedJson('[[[[0]]]]', bounds).ok).toBe(true);
  });

  it('does not count what a string holds, escaped quotes included', () => {
    const s = JSON.stringify({ t: `[[[[[[,,,,,,,,,,,,,\\"]]]]{{{{"` });
    expect(parseBoundedJson(s, bounds).ok).toBe(true);
    expect(parseBoundedJson(Buffer.from(s), bounds).ok).toBe(true);
  });

  it('recordOf keeps agent keys as plain entries', () => {
    const r = recordOf([
      ['__proto__', 1],
      ['constructor', 2],
    ]);
    expect(Object.keys(r)).toEqual(['__proto__', 'constructor']);
    expect(r['toString']).toBeUndefined();
    expect(prototypeWrites()).toEqual([]);
  });
});

describe('BoundedLines', () => {
  it('drops a line past the bound whole, its tail never a line of its own', () => {
    const lines = new BoundedLines(8);
    expect(lines.push('short\nthis one is far too lo')).toEqual(['short']);
    // The tail of the long line looks like a line; it is dropped with it.
    expect(lines.push('ng {"ok":1}\nnext\n')).toEqual(['next']);
    expect(lines.push(`${'x'.repeat(20)}\nlast`)).toEqual([]);
    expect(lines.end()).toBe('last');
    expect(lines.dropped).toBe(2);
    lines.push('y'.repeat(9));
    expect(lines.end()).toBeUndefined();
    expect(lines.dropped).toBe(3);
  });
});

describe('the transcript', () => {
  it('a message whose model is `__proto__` (or `constructor`) counts as a model and writes no prototype', async () => {
    const text = [
      gemini('a', '__proto__'),
      gemini('b', 'constructor'),
      gemini('c', 'gemini-2.5-pro'),
      gemini('d', '__proto__'),
    ].join('\n');
    for (const t of [foldTranscript(text), await foldTranscriptFile(await fileWith(text))]) {
      expect(t.models).toEqual(['__proto__', 'constructor', 'gemini-2.5-pro']);
      expect(Object.keys(t.tokensByModel)).toEqual(['__proto__', 'constructor', 'gemini-2.5-pro']);
      expect(t.tokensByModel['__proto__']).toEqual({ input: 2, output: 4, cached: 0, total: 6, messages: 2 });
      expect(t.tokensByModel['toString']).toBeUndefined();
    }
    expect(prototypeWrites()).toEqual([]);
    expect(({} as Record<string, unknown>).messages).toBeUndefined();
  });

  it('skips and counts a line past the bound and a record of too many values; the rest folds', async () => {
    const many = `{"id":"big","type":"gemini","content":"x","extra":[${'0,'.repeat(AGENT_JSON_BOUNDS.maxValues)}0]}`;
    const deep = `{"$set":{"x":${'['.repeat(100)}${']'.repeat(100)}}}`;
    const file = await fileWith(
      [gemini('a', 'm'), 'x'.repeat(3000), many, deep, gemini('b', 'm'), `{"id":"torn","type":"gem`].join(
        '\n',
      ),
    );
    const lines: string[] = [];
    let oversized = 0;
    await forEachLine(
      file,
      ownFile(file, 1 << 30),
      (buf, start, end) => lines.push(buf.toString('utf8', start, end).slice(0, 12)),
      { maxLineBytes: 2048, onOversized: () => oversized++ },
    );
    // The 3000-byte line and the one of too many values (400 kB) are past this bound.
    expect(oversized).toBe(2);
    expect(lines).toHaveLength(4);
    const t = await foldTranscriptFile(file);
    expect(t.messages.map((m) => m.id)).toEqual(['a', 'b']);
    expect(t.skippedRecords).toBe(2);
    expect(parseTranscriptLine(many)).toBeUndefined();
    expect(await transcriptResumable(file)).toBe(true);
  });

  it('a message line past the raw-holding size is parsed at once, with the same fold', () => {
    const big = gemini('a', 'm', { thoughts: [{ subject: 's', description: 'd'.repeat(300_000) }] });
    const text = [big, gemini('a', 'm', { content: 'again' })].join('\n');
    const t = foldTranscript(text);
    expect(t.messages.map((m) => m.text)).toEqual(['again']);
    expect(foldTranscript(big).messages).toHaveLength(1);
  });
});

describe('telemetry and stream-json', () => {
  it('a telemetry record of too many values is skipped; a model named `__proto__` is counted in a Map', () => {
    const record = (model: string, extra = '') =>
      `${JSON.stringify(
        {
          attributes: {
            'event.name': 'gemini_cli.api_response',
            'event.timestamp': '2026-01-01T00:00:00Z',
            model,
            total_token_count: 5,
          },
        },
        null,
        2,
      ).replace('"attributes": {', `"attributes": {${extra}`)}\n`;
    const scanner = new TelemetryScanner();
    const events = scanner.push(
      Buffer.from(
        record('__proto__') +
          record('m', `"x": [${'0,'.repeat(AGENT_JSON_BOUNDS.maxValues)}0],`) +
          record('m'),
      ),
    );
    expect(scanner.skipped).toBe(1);
    const usage = summarizeUsage(events);
    expect(usage.models.map((m) => [m.model, m.totalTokens])).toEqual([
      ['__proto__', 5],
      ['m', 5],
    ]);
    expect(prototypeWrites()).toEqual([]);
  });

  it('a stream-json line of too many values and the tail of an endless line are skipped and counted', () => {
    const t = new StreamJsonTranslator();
    const init = '{"type":"init","session_id":"s","model":"m"}\n';
    const many = `{"type":"message","role":"assistant","content":"x","n":[${'0,'.repeat(AGENT_JSON_BOUNDS.maxValues)}0]}\n`;
    const stats =
      '{"type":"result","status":"success","stats":{"models":{"__proto__":{"total_tokens":7}}}}\n';
    const events = [...t.push(init), ...t.push(many), ...t.push(stats), ...t.end()];
    expect(events.map((e) => e.type)).toEqual(['started', 'completed']);
    expect(t.oversizedLines).toBe(1);
    expect(prototypeWrites()).toEqual([]);
  });
});
