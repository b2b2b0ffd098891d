/**
 * BENCH review-diff-lines-per-s: the review's diff mapper (`linesByPath` then `placeComments`: which lines of a pull
 * request's diff take a comment, and where each of 500 comments goes) over a 5,000-line patch in 40 hunks, against the
 * least any reader of the patch does — split it into lines and look at each one's first character — on the same
 * text, in the same process. Also prints the heap the mapped lines hold (a map entry per commentable line).
 * Runs alone: `node --expose-gc --import tsx test/bench/review-diff.bench.ts`.
 */
import {
  linesByPath,
  placeComments,
  type DiffFile,
  type WantedComment,
} from '../../src/github/review-diff.js';
import { bench } from './lib.js';

const LINES = 5000;
const HUNKS = 40;

function buildPatch(): string {
  const per = LINES / HUNKS;
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let h = 0; h < HUNKS; h++) {
    const body: string[] = [];
    let olds = 0;
    let news = 0;
    for (let i = 0; i < per; i++) {
      const kind = i % 5;
      if (kind === 0) {
        body.push(`-  const old${h}_${i} = compute(${i});`);
        olds++;
      } else if (kind === 1) {
        body.push(`+  const new${h}_${i} = compute(${i}) + 1;`);
        news++;
      } else {
        body.push(`   const same${h}_${i} = ${i};`);
        olds++;
        news++;
      }
    }
    out.push(`@@ -${oldLine},${olds} +${newLine},${news} @@ function f${h}() {`, ...body);
    oldLine += olds + 30;
    newLine += news + 30;
  }
  return out.join('\n');
}

const patch = buildPatch();
const files: DiffFile[] = [{ path: 'src/big.ts', status: 'modified', additions: 0, deletions: 0, patch }];
const comments: WantedComment[] = Array.from({ length: 500 }, (_, i) => ({
  path: 'src/big.ts',
  line: 1 + ((i * 37) % (LINES + 1200)),
  side: i % 4 === 0 ? 'LEFT' : 'RIGHT',
  ...(i % 3 === 0 ? { startLine: Math.max(1, 1 + ((i * 37) % (LINES + 1200)) - 2) } : {}),
  body: `comment ${i}`,
}));

function mapOnce(): number {
  const placed = placeComments(comments, linesByPath(files), 30);
  return placed.inline.length + placed.outside.length;
}

function scanOnce(): number {
  let n = 0;
  for (const line of patch.split('\n')) if (line[0] === '+' || line[0] === ' ') n++;
  return n;
}

function medianMs(fn: () => number, rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    if (fn() < 1) throw new Error('nothing mapped: the benchmark is not doing the job');
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
}

for (let i = 0; i < 20; i++) {
  mapOnce();
  scanOnce();
}
const oursMs = medianMs(mapOnce, 51);
const baseMs = medianMs(scanOnce, 51);
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().heapUsed;
// Ten copies kept, so the figure is above the collector's noise; one copy is a tenth.
const held = Array.from({ length: 10 }, () => linesByPath(files));
gc?.();
const heldMb = (process.memoryUsage().heapUsed - before) / 10 / 1e6;
if (held.length !== 10) throw new Error('unexpected');
bench(
  'review-diff-lines-per-s',
  LINES / (oursMs / 1000),
  'lines/s',
  `median of 51 passes mapping a ${LINES}-line patch (${HUNKS} hunks) and placing 500 comments; baseline: split the patch into lines and test each one's first character, same text (heap held by one patch's mapped lines: ${heldMb.toFixed(2)} MB${gc ? '' : ', without --expose-gc: approximate'})`,
  { baseline: LINES / (baseMs / 1000), ratio: baseMs / oursMs },
);
