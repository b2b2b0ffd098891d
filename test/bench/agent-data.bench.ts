/**
 * Peak memory of the parsers of agent-made data at the sizes that used to exhaust the action's heap (issue 39):
 * BENCH transcript-500mb-line-peak-rss-mb and transcript-1e7-array-peak-rss-mb: foldTranscriptFile over a session
 * file with one message line of 500 MB of tiny array elements, or one of 10⁷ elements, between ordinary messages;
 * BENCH stream-json-500mb-line-peak-rss-mb and stream-json-1e7-array-peak-rss-mb: the stream-json translator fed
 * the same lines in 64 KB pieces; BENCH telemetry-500mb-object-peak-rss-mb: the telemetry scanner fed a 500 MB
 * record. Each side runs once in a fresh process (test/harness/agent-data.ts); the figure is its peak RSS less that
 * of a process that only loads the same modules. Before the bounds the fold died at 5.5 GB and the stream-json
 * reader was still copying its line after 5 min (no baseline: the unbounded parse does not finish).
 * The bound is held by test/integration/agent-data-memory.test.ts. Runs alone:
 * `node --import tsx test/bench/agent-data.bench.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AGENT_DATA_SCRIPT, writeHugeTranscript } from '../harness/agent-data.js';
import { bench, peakRssMb, PEAK_RSS_HOW } from './lib.js';

const dir = await mkdtemp(join(tmpdir(), 'gr-bench-agent-data-'));
try {
  const long = join(dir, 'long.jsonl');
  const many = join(dir, 'many.jsonl');
  await writeHugeTranscript(long, { lineMb: 500, elements: 0 });
  await writeHugeTranscript(many, { lineMb: 0, elements: 1e7 });
  const figures: [string, string, string[], string][] = [
    ['transcript-500mb-line-peak-rss-mb', 'fold', [long], 'foldTranscriptFile, a 500 MB line'],
    ['transcript-1e7-array-peak-rss-mb', 'fold', [many], 'foldTranscriptFile, a line of 10^7 elements'],
    ['stream-json-500mb-line-peak-rss-mb', 'stream', ['500', '0'], 'stream-json, a 500 MB line'],
    ['stream-json-1e7-array-peak-rss-mb', 'stream', ['0', String(1e7)], 'stream-json, 10^7 elements'],
    ['telemetry-500mb-object-peak-rss-mb', 'telemetry', ['500'], 'telemetry, a 500 MB record'],
  ];
  for (const [name, side, args, what] of figures) {
    bench(name, await peakRssMb(AGENT_DATA_SCRIPT, side, args), 'MB', `${what}; ${PEAK_RSS_HOW}`);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
