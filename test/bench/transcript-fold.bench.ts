/**
 * BENCH transcript-fold-mbps: foldTranscriptFile over a ≥ 200 MB synthetic session file (turns in the CLI's
 * write order: user, `$set`, empty gemini record, the same id re-appended with a big tool result, the answer),
 * beside the naive approach in the same run: read the whole file, JSON.parse every line, fold in memory.
 * Each side runs BENCH_ROUNDS times (default 3) and reports its best time (the machine is shared; noise only
 * adds time). Also prints the peak RSS growth of each (each side once in a fresh process, see peakRssMb).
 * BENCH transcript-fold-latest-mbps: the same over a file in 0.61.0's shape (tool results again as `user`
 * records, a history snapshot every 50 turns; `transcriptTurn(…, '0.61.0')`), half the size, against the same
 * naive fold made to skip what 0.61.0 adds.
 * BENCH transcript-resumable-latest-mbps: transcriptResumable (a follow-up's check, 0.61.0's loader rule: it must
 * read the history snapshots the fold skips) over that file, against the same naive fold.
 * Runs alone: `node --import tsx test/bench/transcript-fold.bench.ts`.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foldTranscriptFile } from '../../src/gemini/transcript-fold.js';
import { transcriptResumable } from '../../src/gemini/transcript-locate.js';
import {
  bench,
  measure,
  PEAK_RSS_HOW,
  peakRssMb,
  printPeakRss,
  rssSide,
  transcriptHeader,
  transcriptTurn,
} from './lib.js';

const TARGET = Number(process.env.BENCH_TRANSCRIPT_MB ?? 210) * 1e6;

async function writeFileOf(
  file: string,
  target: number,
  shape: '0.42.0' | '0.61.0' = '0.42.0',
): Promise<number> {
  const ws = createWriteStream(file);
  ws.write(transcriptHeader() + '\n');
  let written = 0;
  let turn = 0;
  // Every turn has fresh ids (a real session never repeats one), so the fold result grows with the file;
  // tool results (the bulk of the bytes) are superseded copies or live in the folded messages.
  while (written < target) {
    const text = transcriptTurn(turn, Date.UTC(2026, 0, 1) + turn * 1000, 8000, shape).join('\n') + '\n';
    written += Buffer.byteLength(text);
    turn++;
    if (!ws.write(text)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
  return turn;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** What is measured, each returning the number of messages it folded. */
const SIDES = {
  fast: async (file: string): Promise<number> => (await foldTranscriptFile(file)).messages.length,
  async naive(file: string): Promise<number> {
    const text = await readFile(file, 'utf8');
    const byId = new Map<string, unknown>();
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const rec = JSON.parse(line) as { id?: string; content?: unknown };
      // 0.61.0's tool-result records are not messages (src/gemini/transcript-parse.ts)
      const toolResult =
        Array.isArray(rec.content) && JSON.stringify(rec.content[0]).startsWith('{"functionResponse"');
      if (typeof rec.id === 'string' && !toolResult) byId.set(rec.id, rec);
    }
    return byId.size;
  },
};

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gr-bench-transcript-'));
  try {
    const file = join(dir, 'session.jsonl');
    const turns = await writeFileOf(file, TARGET);
    const mb = (await stat(file)).size / 1e6;

    const fast = await measure(ROUNDS, () => SIDES.fast(file));
    const naive = await measure(ROUNDS, () => SIDES.naive(file));
    const fastRss = await peakRssMb(import.meta.filename, 'fast', [file]);
    const naiveRss = await peakRssMb(import.meta.filename, 'naive', [file]);

    if (fast.value !== turns * 3 || naive.value !== fast.value) {
      throw new Error(`fold mismatch: ${fast.value} vs naive ${naive.value}, expected ${turns * 3}`);
    }
    const fastMbps = mb / (fast.ms / 1000);
    const naiveMbps = mb / (naive.ms / 1000);
    bench(
      'transcript-fold-mbps',
      fastMbps,
      'MB/s',
      `file size / best wall time of ${ROUNDS} folds in this process; baseline: readFile + JSON.parse of every line`,
      { baseline: naiveMbps, ratio: fastMbps / naiveMbps },
    );
    bench('transcript-fold-peak-rss-mb', fastRss, 'MB', `${PEAK_RSS_HOW}; baseline: the naive side`, {
      baseline: naiveRss,
    });
    console.log(`# file ${mb.toFixed(0)} MB, ${turns} turns, ${fast.value} messages`);

    const latestFile = join(dir, 'session-0.61.0.jsonl');
    const latestTurns = await writeFileOf(latestFile, TARGET / 2, '0.61.0');
    await rm(file);
    const latestMb = (await stat(latestFile)).size / 1e6;
    const latestFast = await measure(ROUNDS, () => SIDES.fast(latestFile));
    const latestNaive = await measure(ROUNDS, () => SIDES.naive(latestFile));
    if (latestFast.value !== latestTurns * 3 || latestNaive.value !== latestFast.value) {
      throw new Error(`0.61.0 fold mismatch: ${latestFast.value} vs naive ${latestNaive.value}`);
    }
    const latestMbps = latestMb / (latestFast.ms / 1000);
    const latestNaiveMbps = latestMb / (latestNaive.ms / 1000);
    bench(
      'transcript-fold-latest-mbps',
      latestMbps,
      'MB/s',
      `0.61.0-shaped file (tool results as user records, a snapshot every 50 turns); best of ${ROUNDS}; baseline: the naive fold`,
      { baseline: latestNaiveMbps, ratio: latestMbps / latestNaiveMbps },
    );
    console.log(`# 0.61.0-shaped file ${latestMb.toFixed(0)} MB, ${latestTurns} turns`);
    const resumable = await measure(ROUNDS, () => transcriptResumable(latestFile));
    if (!resumable.value) throw new Error('the 0.61.0-shaped file should be resumable');
    const resumableMbps = latestMb / (resumable.ms / 1000);
    bench(
      'transcript-resumable-latest-mbps',
      resumableMbps,
      'MB/s',
      `transcriptResumable over the 0.61.0-shaped file (snapshots parsed, tool output cut first); best of ${ROUNDS}; baseline: the naive fold`,
      { baseline: latestNaiveMbps, ratio: resumableMbps / latestNaiveMbps },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const side = rssSide();
if (side === undefined) {
  await main();
} else {
  if (side === 'fast' || side === 'naive') await SIDES[side](process.argv.at(-1) ?? '');
  printPeakRss();
}
