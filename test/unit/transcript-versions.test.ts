/**
 * The same fake-model scripts, captured from the real 0.42.0 and 0.61.0 (fixtures/gemini-<version>/, made by
 * `npm run fixtures:capture [-- --version 0.61.0]`), fold to the same run: 0.61.0's history snapshots and
 * tool-result `user` records must change nothing the summary shows.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FoldedTranscript } from '../../src/domain/types.js';
import type { RunResult } from '../../src/run/types.js';
import { foldTranscript, foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { transcriptResumable } from '../../src/gemini/transcript-locate.js';
import { stripToolOutput } from '../../src/gemini/transcript-parse.js';
import { renderSummary } from '../../src/run/report.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const transcriptOf = (version: string, capture: string) =>
  join(FIXTURES, `gemini-${version}`, capture, 'transcript.jsonl');

const CAPTURES = [
  'plain-answer-interactive',
  'tool-heavy-interactive',
  'plain-answer-headless',
  'tool-heavy-headless',
  'two-turn-interactive',
  'quota-daily-interactive',
  'transient-then-ok-headless',
  'resumed-headless',
  'quota-daily-headless',
];

/** What the summary and the PR text read, model names and token counts aside (the CLIs' prompts differ). */
function shape(t: FoldedTranscript) {
  return {
    messages: t.messages.map((m) => ({ type: m.type, text: m.text, tools: m.toolCalls.length })),
    toolCalls: t.toolCalls.map((c) => ({ name: c.name, kind: c.kind, status: c.status, args: c.args })),
    finalAnswer: t.finalAnswer,
    perModel: Object.values(t.tokensByModel).map((x) => x.messages),
  };
}

function summaryOf(transcript: FoldedTranscript): string {
  const result: RunResult = {
    status: 'finished',
    mode: 'interactive',
    sessionId: 'sess-1',
    transcript: { ...transcript, models: ['m'], tokensByModel: {} },
    usage: { models: [], totalTokens: 0, toolCalls: 0, turns: 1, durationMs: 1000 },
    exitCode: 0,
    startedAt: '2026-01-01T00:00:00Z',
    durationMs: 1000,
    geminiLifetimeMs: 1000,
    baseSha: 'a'.repeat(40),
    headSha: 'a'.repeat(40),
    commits: [],
    filesChanged: [],
    leftoverCommitted: false,
  };
  return renderSummary(result);
}

describe('folding 0.61.0 transcripts like 0.42.0 ones', () => {
  it.each(CAPTURES)('%s: same messages, tool calls, answer and summary', async (capture) => {
    const latestText = readFileSync(transcriptOf('0.61.0', capture), 'utf8');
    // the grammar the fold must absorb is really there
    expect(latestText).toContain('{"$set":{"messages":[');
    const old = await foldTranscriptFile(transcriptOf('0.42.0', capture));
    const latest = await foldTranscriptFile(transcriptOf('0.61.0', capture));
    expect(shape(latest)).toEqual(shape(old));
    expect(foldTranscript(latestText)).toEqual(latest);
    expect(summaryOf(latest)).toBe(summaryOf(old));
  });

  it('keeps tool calls a later snapshot rolled back, and drops tool-result records', () => {
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'make' }, status: 'success' };
    const lines = [
      { sessionId: 's', startTime: 't0' },
      { $set: { messages: [{ id: 'pre', type: 'user', content: [{ text: '<session_context>' }] }] } },
      { id: 'u1', type: 'user', content: [{ text: 'do it' }] },
      { id: 'g1', type: 'gemini', content: '', toolCalls: [call], model: 'm' },
      { id: 'r1', type: 'user', content: [{ functionResponse: { id: 'c1', response: { output: 'BIG' } } }] },
      { id: 'i1', type: 'info', content: 'Request cancelled.' },
      // a cancel rolls the model's history back to before the turn
      {
        $set: {
          messages: [{ id: 'pre', type: 'user', content: [{ text: '<session_context>' }] }],
          lastUpdated: 't9',
        },
      },
    ].map((r) => JSON.stringify(r));
    const t = foldTranscript(lines.join('\n'));
    expect(t.toolCalls.map((c) => c.args)).toEqual([{ command: 'make' }]);
    expect(t.messages.map((m) => m.id)).toEqual(['u1', 'g1', 'i1']);
    expect(t.lastUpdated).toBe('t9');
  });

  it("cuts a tool-result record's output before parsing, and leaves other lines alone", () => {
    const line = Buffer.from(
      JSON.stringify({
        id: 'r1',
        type: 'user',
        content: [{ functionResponse: { id: 'c1', response: { output: 'x"}]'.repeat(1000) } } }],
      }),
    );
    const cut = stripToolOutput(line).toString('utf8');
    expect(JSON.parse(cut)).toEqual({ id: 'r1', type: 'user', content: [{ functionResponse: {} }] });
    const said = Buffer.from(
      JSON.stringify({ id: 'u1', type: 'user', content: [{ text: 'functionResponse' }] }),
    );
    expect(stripToolOutput(said)).toBe(said);
  });

  it('cuts every tool output in a $set.messages snapshot, which holds the whole session', () => {
    const big = 'y"}],['.repeat(500);
    const result = (id: string) => [{ functionResponse: { id, response: { output: big } } }];
    const snapshot = {
      $set: {
        messages: [
          { id: 'u1', type: 'user', content: [{ text: 'go' }] },
          {
            id: 'g1',
            type: 'gemini',
            content: '',
            toolCalls: [
              {
                id: 'c1',
                name: 'read_file',
                args: {},
                result: result('c1'),
                status: 'success',
                resultDisplay: big,
              },
              { id: 'c2', name: 'run_shell_command', args: {}, result: result('c2'), status: 'success' },
            ],
          },
          { id: 'r1', type: 'user', content: result('c1') },
          { id: 'r2', type: 'user', content: result('c2') },
          { id: 'g2', type: 'gemini', content: 'done' },
        ],
      },
    };
    const line = Buffer.from(JSON.stringify(snapshot));
    const cut = stripToolOutput(line).toString('utf8');
    expect(cut).not.toContain('y\\"');
    expect(cut.length).toBeLessThan(line.length / 10);
    const expected = structuredClone(snapshot) as unknown as {
      $set: { messages: Record<string, unknown>[] };
    };
    for (const m of expected.$set.messages) {
      if (m.id === 'r1' || m.id === 'r2') m.content = [{ functionResponse: {} }];
      for (const c of (m.toolCalls ?? []) as Record<string, unknown>[]) {
        delete c.result;
        delete c.resultDisplay;
      }
    }
    expect(JSON.parse(cut)).toEqual(expected);
  });
});

describe('whether a saved session can be resumed (as 0.61.0 reads it)', () => {
  it('every 0.42.0 capture is; on 0.61.0 all but the headless quota run, whose failed request rolled back', async () => {
    for (const capture of CAPTURES) {
      expect(await transcriptResumable(transcriptOf('0.42.0', capture)), capture).toBe(true);
      const rolledBack = capture === 'quota-daily-headless';
      expect(await transcriptResumable(transcriptOf('0.61.0', capture)), capture).toBe(!rolledBack);
    }
  });

  it('a first turn rolled back by a cancel is not; a rewind to the first message is not; a later turn is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'resumable-'));
    try {
      const pre = { id: 'pre', type: 'user', content: [{ text: '<session_context>\n' }] };
      const write = async (records: unknown[]) => {
        const f = join(dir, `t${Math.random()}.jsonl`);
        await writeFile(f, records.map((r) => JSON.stringify(r)).join('\n'));
        return transcriptResumable(f);
      };
      const turn = [
        { id: 'u1', type: 'user', content: [{ text: 'do it' }] },
        { id: 'g1', type: 'gemini', content: '', toolCalls: [{ id: 'c', name: 'x' }] },
      ];
      const header = { sessionId: 's' };
      expect(await write([header, { $set: { messages: [pre] } }, ...turn])).toBe(true);
      // the cancel's snapshot: back to the preamble alone
      expect(
        await write([header, { $set: { messages: [pre] } }, ...turn, { $set: { messages: [pre] } }]),
      ).toBe(false);
      expect(await write([header, ...turn, { $rewindTo: 'u1' }])).toBe(false);
      expect(await write([header, { id: 'u0', type: 'user', content: [{ text: '/quit' }] }])).toBe(false);
      // a snapshot that keeps an earlier, finished turn
      const done = { id: 'g0', type: 'gemini', content: 'Done.' };
      expect(await write([header, ...turn, { $set: { messages: [pre, done] } }])).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
