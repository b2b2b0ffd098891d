/**
 * BENCH ci-evidence-extract-mbps: the CI-fix evidence's log reducer (`LogReducer`: timestamps and colours off,
 * the failing step's tail, error lines) over a 50 MB job log in 64 KB chunks, against the least any reader of the
 * whole log does — split it into lines and test each against the same error pattern — on the same text, in the
 * same process. Also prints the reducer's heap growth (it must not hold the log).
 * Runs alone: `node --expose-gc --import tsx test/bench/ci-evidence.bench.ts`.
 */
import { LogReducer } from '../../src/github/ci-log.js';
import { bench } from './lib.js';

const T = '2026-12-04T10:00:00.1234567Z ';
const CHUNK = 64 * 1024;

function buildLog(bytes: number): string {
  const lines = [
    `${T}##[group]Run npm test\n`,
    `${T}\x1b[32m ✓ \x1b[39mtest/a.test.ts > passes ${'x'.repeat(80)}\n`,
    `${T}compiling src/module.ts ${'y'.repeat(120)}\n`,
    `${T}npm WARN deprecated something@1.0.0\n`,
  ];
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const l = lines[i % lines.length] as string;
    parts.push(l);
    size += l.length;
  }
  parts.push(`${T} FAIL test/sum.test.ts > adds\n${T}##[error]Process completed with exit code 1.\n`);
  return parts.join('');
}

function reduce(log: string): number {
  const r = new LogReducer();
  for (let i = 0; i < log.length; i += CHUNK) r.push(log.slice(i, i + CHUNK));
  return r.end().lines.length;
}

/** The floor: every line looked at once, nothing kept. */
function scanLines(log: string): number {
  let hits = 0;
  for (const line of log.split('\n')) if (/\berror\b|FAIL/.test(line)) hits++;
  return hits;
}

function timeMs(fn: () => number, rounds: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t = performance.now();
    if (fn() < 1) throw new Error('nothing found: the benchmark is not doing the job');
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
}

const log = buildLog(50 * 1024 * 1024);
const mb = Buffer.byteLength(log) / 1e6;
timeMs(() => reduce(log), 1);
timeMs(() => scanLines(log), 1);
const oursMs = timeMs(() => reduce(log), 5);
const baseMs = timeMs(() => scanLines(log), 5);
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const before = process.memoryUsage().heapUsed;
let peak = before;
const r = new LogReducer();
for (let i = 0; i < log.length; i += CHUNK) {
  r.push(log.slice(i, i + CHUNK));
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
// The peak counts chunks not yet collected; what the reducer holds is what is left after a collection.
gc?.();
const held = process.memoryUsage().heapUsed - before;
r.end();
bench(
  'ci-evidence-extract-mbps',
  mb / (oursMs / 1000),
  'MB/s',
  `median of 5 LogReducer passes over a ${mb.toFixed(0)} MB job log in 64 KB chunks; baseline: split into lines + one regex test each, same text (heap: ${(held / 1e6).toFixed(1)} MB held by the reducer after the pass, ${((peak - before) / 1e6).toFixed(1)} MB peak with uncollected chunks)`,
  { baseline: mb / (baseMs / 1000), ratio: baseMs / oursMs },
);
