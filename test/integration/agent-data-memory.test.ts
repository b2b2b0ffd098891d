/**
 * The memory the parsers of agent-made data may take, held (issue 39): a transcript with a 500 MB line of tiny
 * array elements and a line of 10⁷ elements, and the same two lines on gemini's stream-json stdout and (500 MB) in
 * its telemetry file. Before, the fold died at 5.5 GB (V8 out of heap) and the stream-json reader was still
 * copying its line after five minutes. Each parser runs once in a fresh process (test/harness/agent-data.ts); its
 * peak RSS less that of a process that only loads the same modules is the figure. The data is made here, in a
 * temp dir, and removed.
 *
 * The bound, 160 MB for each: the fold reads a line into a buffer of at most 64 MB (MAX_TRANSCRIPT_LINE_BYTES),
 * which doubles on its way there (64 + 32 MB at the copy); the stream-json reader holds at most 64 M characters of
 * a line (and the garbage of what it let go until the collector runs); the telemetry scanner 8 MB of a record.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRssSide } from '../bench/lib.js';
import { AGENT_DATA_SCRIPT, writeHugeTranscript } from '../harness/agent-data.js';

const BOUND_MB = 160;

describe('parsers of agent-made data stay within a stated memory bound', () => {
  let dir: string;
  let file: string;
  let idleMb: number;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gr-agent-data-'));
    file = join(dir, 'session.jsonl');
    await writeHugeTranscript(file, { lineMb: 500, elements: 1e7 });
    idleMb = (await runRssSide(AGENT_DATA_SCRIPT, 'idle', [])).mb;
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function side(name: string, args: string[]): Promise<{ growthMb: number; result: unknown }> {
    const r = await runRssSide(AGENT_DATA_SCRIPT, name, args);
    const result: unknown = JSON.parse(/^result (.*)$/m.exec(r.stdout)?.[1] ?? 'null');
    return { growthMb: r.mb - idleMb, result };
  }

  it(`the transcript fold and the resumability check: under ${BOUND_MB} MB, both lines skipped and counted`, async () => {
    const fold = await side('fold', [file]);
    expect(fold.result).toEqual({ messages: ['before', 'between', 'after'], skippedRecords: 2 });
    expect(fold.growthMb).toBeLessThan(BOUND_MB);
    const resumable = await side('resumable', [file]);
    expect(resumable.result).toEqual({ resumable: true });
    expect(resumable.growthMb).toBeLessThan(BOUND_MB);
  }, 120_000);

  it(`stream-json and telemetry: under ${BOUND_MB} MB, the lines around them read`, async () => {
    const stream = await side('stream', ['500', String(1e7)]);
    expect(stream.result).toEqual({
      types: ['started', 'text', 'completed'],
      oversized: 2,
      answer: 'between',
    });
    expect(stream.growthMb).toBeLessThan(BOUND_MB);
    const telemetry = await side('telemetry', ['500']);
    expect(telemetry.result).toEqual({ kinds: ['api-response'], skipped: 1 });
    expect(telemetry.growthMb).toBeLessThan(BOUND_MB);
  }, 120_000);
});
