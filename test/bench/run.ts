/**
 * `npm run bench`: runs every `*.bench.ts` in this directory, one process each (so one benchmark's heap does
 * not skew another's memory figures), and prints their `BENCH <name> <value> <unit> …` lines.
 * `npm run bench -- telemetry transcript` runs only the files whose names contain one of the words.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { exec } from '../../src/util/exec.js';
import setup from '../global-setup.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
// A bound for a hung benchmark, not a bar: loaded-runs.bench.ts (23 action runs) takes about 6 min.
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 900_000);

// What the test suite needs first, the benchmarks need too: a dist/ built from these sources (several run it as
// a runner does) and the Node 24 that runs it (test/harness/node24.ts, fetched once from the npm registry).
await setup();

const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((w) => f.includes(w)))
  .sort();

let failed = 0;
for (const file of files) {
  const t0 = performance.now();
  const r = await exec(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(here, file)], {
    allowAllExitCodes: true,
    timeoutMs: TIMEOUT_MS,
    env: process.env,
  });
  process.stdout.write(r.stdout);
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  if (r.exitCode !== 0) {
    failed++;
    process.stderr.write(
      `# ${file} failed (exit ${r.exitCode}) after ${secs} s\n${r.stderr.trim().split('\n').slice(-10).join('\n')}\n`,
    );
  } else {
    process.stdout.write(`# ${file}: ${secs} s\n`);
  }
}
if (files.length === 0) process.stderr.write(`# no benchmark matched ${filters.join(' ')}\n`);
process.exitCode = failed > 0 || files.length === 0 ? 1 : 0;
