/**
 * BENCH telemetry-read-mbps: TelemetryReader over a ≥ 200 MB synthetic outfile (interactive turns with the
 * big span and metric objects between log records, as the real CLI writes them), beside the naive approach
 * measured in the same run: read the whole file, split it into objects and JSON.parse every one.
 * Each side runs BENCH_ROUNDS times (default 3) and reports its best time (the machine is shared; noise only
 * adds time). Also prints the peak RSS growth of each (each side once in a fresh process, see peakRssMb), to show
 * that the reader's memory does not grow with the file.
 * Runs alone: `node --import tsx test/bench/telemetry-read.bench.ts`.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TelemetryReader } from '../../src/gemini/telemetry.js';
import { bench, measure, PEAK_RSS_HOW, peakRssMb, printPeakRss, rssSide, telemetryChunks } from './lib.js';

const TARGET = Number(process.env.BENCH_TELEMETRY_MB ?? 210) * 1e6;

async function writeFileOf(file: string, target: number): Promise<void> {
  // Build ~4 MB of distinct turns once, then repeat it: generation time must not dominate the bench.
  const block = Buffer.from([...telemetryChunks(4e6)].join(''));
  const ws = createWriteStream(file);
  for (let written = 0; written < target; written += block.length) {
    if (!ws.write(block)) await once(ws, 'drain');
  }
  ws.end();
  await once(ws, 'finish');
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** What is measured, each returning the number of events it found. */
const SIDES = {
  async fast(file: string): Promise<number> {
    const reader = new TelemetryReader(file);
    const events = await reader.poll();
    await reader.close();
    return events.length;
  },
  async naive(file: string): Promise<number> {
    const text = await readFile(file, 'utf8');
    let count = 0;
    let start = 0;
    // Pretty-printed top-level objects end with "}" at column 0.
    for (let end = text.indexOf('\n}\n', start); end !== -1; end = text.indexOf('\n}\n', start)) {
      const obj = JSON.parse(text.slice(start, end + 2)) as { attributes?: Record<string, unknown> };
      const name = obj.attributes?.['event.name'];
      if (typeof name === 'string' && name.startsWith('gemini_cli.')) count++;
      start = end + 3;
    }
    return count;
  },
};

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'gr-bench-telemetry-'));
  try {
    const file = join(dir, 'telemetry.json');
    await writeFileOf(file, TARGET);
    const mb = (await stat(file)).size / 1e6;

    const fast = await measure(ROUNDS, () => SIDES.fast(file));
    const naive = await measure(ROUNDS, () => SIDES.naive(file));
    const fastRss = await peakRssMb(import.meta.filename, 'fast', [file]);
    const naiveRss = await peakRssMb(import.meta.filename, 'naive', [file]);

    if (fast.value === 0) throw new Error('the reader found no events');
    const fastMbps = mb / (fast.ms / 1000);
    const naiveMbps = mb / (naive.ms / 1000);
    bench(
      'telemetry-read-mbps',
      fastMbps,
      'MB/s',
      `file size / best wall time of ${ROUNDS} whole-file polls in this process; baseline: readFile + JSON.parse of every object`,
      { baseline: naiveMbps, ratio: fastMbps / naiveMbps },
    );
    bench('telemetry-read-peak-rss-mb', fastRss, 'MB', `${PEAK_RSS_HOW}; baseline: the naive side`, {
      baseline: naiveRss,
    });
    console.log(
      `# file ${mb.toFixed(0)} MB, ${fast.value} events (naive saw ${naive.value} gemini_cli.* records)`,
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
