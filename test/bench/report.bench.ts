/**
 * BENCH report-1000-runs-cold-s / -cached-s / -peak-mb: `node dist/cli.js report` over a month of 1,000 workflow
 * runs on the fake GitHub and fake Actions services (test/harness/report-world.ts: every kind of run, about 5 % of
 * them whose job never started and so not counted, 5 % of the artifacts larger than a whole read), first with an empty summary cache (every artifact's run-summary.json is
 * downloaded, by ranges where the archive is large), then again with the cache it left (baseline of the cold run:
 * nothing is downloaded). Peak memory is the CLI process's own maximum resident set. Also prints the requests each
 * made: on github.com each costs a round trip, which the local fakes do not.
 * Runs alone: `npm run bench -- report` (needs `npm run build`).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exec } from '../../src/util/exec.js';
import { reportWorld } from '../harness/report-world.js';
import { bench } from './lib.js';

const RUNS = 1000;
const ROOT = join(import.meta.dirname, '../..');
/** Prints the process's peak resident set (KiB) on exit, so a child's memory can be read without a wrapper. */
const PEAK = `data:text/javascript,process.on('exit',()=>process.stderr.write('PEAK_RSS_KB '+process.resourceUsage().maxRSS+'\\n'))`;

async function main(): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), 'bench-report-'));
  await using world = await reportWorld({ runs: RUNS, seed: 1000 });
  try {
    const once = async (out: string) => {
      const before = world.github.requests.length;
      const t0 = performance.now();
      const r = await exec(
        process.execPath,
        ['--import', PEAK, join(ROOT, 'dist/cli.js'), 'report', 'acme/widgets', '--out', out],
        {
          env: { ...world.env(join(tmp, 'cache')), HOME: tmp, PATH: process.env.PATH ?? '' },
          cwd: tmp,
          timeoutMs: 600_000,
        },
      );
      const seconds = (performance.now() - t0) / 1000;
      const peak = Number(/PEAK_RSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
      return {
        seconds,
        peak,
        requests: world.github.requests.length - before,
        said: r.stderr.split('\n')[0] ?? '',
      };
    };
    const cold = await once('cold');
    const cached = await once('cached');
    console.log(`# cold: ${cold.said}`);
    console.log(`# cached: ${cached.said}`);
    bench(
      'report-1000-runs-cold-s',
      cold.seconds,
      's',
      `report over ${RUNS} runs, empty cache; baseline: the same with the cache it left`,
      {
        baseline: cached.seconds,
        ratio: cold.seconds / cached.seconds,
      },
    );
    bench(
      'report-1000-runs-cached-s',
      cached.seconds,
      's',
      `report over ${RUNS} runs again: every summary from the cache`,
    );
    bench(
      'report-1000-runs-peak-mb',
      cold.peak,
      'MB',
      'peak resident set of the cold report; baseline: the cached one',
      {
        baseline: cached.peak,
        ratio: cold.peak / cached.peak,
      },
    );
    bench(
      'report-1000-runs-requests',
      cold.requests,
      'requests',
      'REST requests of the cold report; baseline: the cached one',
      {
        baseline: cached.requests,
        ratio: cold.requests / cached.requests,
      },
    );
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

await main();
