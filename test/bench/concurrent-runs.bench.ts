/**
 * concurrent-8-runs-s: wall time of 8 scripted interactive runs started at once (each its own work repo, fake
 * Gemini API, run dir, home and tmux socket), beside the wall time of ONE such run measured first in the same
 * process (baseline, best of BASELINE_ROUNDS=3). ratio = 8-run wall / one-run wall: 8 means no gain over
 * running them one after the other, 1 means perfect overlap. Each gemini boot costs ~3.4 s of CPU, so on a
 * 2-core host the floor is about 8 × 3.4 / 2 / baseline (≈ 4). Each run: a shell step that commits a file,
 * then the answer (2 model turns).
 * `node --import tsx test/bench/concurrent-runs.bench.ts` (RUNS=<n> changes the number of concurrent runs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../../src/run/engine.js';
import type { RunResult } from '../../src/run/types.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { createWorkRepo, type WorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';
import { bench } from './lib.js';

const CONCURRENT = Math.max(1, Number(process.env.RUNS ?? 8));
const BASELINE_ROUNDS = Math.max(1, Number(process.env.BASELINE_ROUNDS ?? 3));

function scriptFor(i: number): Script {
  const file = `run-${i}.txt`;
  return {
    description: `bench run ${i}`,
    steps: [
      {
        functionCalls: [
          {
            name: 'run_shell_command',
            args: {
              command: `printf '${i}\\n' > ${file} && git add ${file} && git commit -q -m 'Run ${i}'`,
              description: 'commit',
            },
          },
        ],
      },
      { text: `Run ${i} done.` },
    ],
  };
}

interface Prepared {
  i: number;
  fake: FakeGemini;
  repo: WorkRepo;
  runDir: string;
}

async function prepare(i: number): Promise<Prepared> {
  const fake = await FakeGemini.start(scriptFor(i));
  const repo = await createWorkRepo();
  const runDir = await mkdtemp(join(tmpdir(), `bench-concurrent-${i}-`));
  return { i, fake, repo, runDir };
}

async function dispose(p: Prepared): Promise<void> {
  await p.fake.close();
  await p.repo[Symbol.asyncDispose]();
  await rm(p.runDir, { recursive: true, force: true });
}

async function run(p: Prepared): Promise<RunResult> {
  const log = createMemoryLogger();
  const r = await runAgent(
    runOptions({
      repo: p.repo,
      runDir: p.runDir,
      task: {
        title: `bench ${p.i}`,
        instruction: `Add run-${p.i}.txt.`,
        comments: [],
        source: { kind: 'local' },
      },
      timeoutMs: 120_000,
      modelUrl: p.fake.url,
      log,
    }),
  );
  const ok =
    r.status === 'finished' &&
    r.commits.length === 1 &&
    r.commits[0]?.subject === `Run ${p.i}` &&
    r.transcript.finalAnswer === `Run ${p.i} done.`;
  if (!ok) {
    throw new Error(
      `bench run ${p.i} did not finish cleanly: ${r.status} ${r.message ?? ''}\n${log.lines.join('\n')}`,
    );
  }
  return r;
}

/** Prepares every run first (not timed), then times them from the common start to the last return. */
async function timed(
  indexes: number[],
): Promise<{ wallS: number; engineCpuS: number; results: RunResult[] }> {
  const prepared = await Promise.all(indexes.map(prepare));
  try {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const results = await Promise.all(prepared.map(run));
    const cpu = process.cpuUsage(cpu0);
    return { wallS: (performance.now() - t0) / 1000, engineCpuS: (cpu.user + cpu.system) / 1e6, results };
  } finally {
    await Promise.all(prepared.map(dispose));
  }
}

// The baseline is cheap, so it takes the best of a few (noise from the shared machine only ever adds time).
let one = await timed([0]);
for (let r = 1; r < BASELINE_ROUNDS; r++) {
  const again = await timed([0]);
  if (again.wallS < one.wallS) one = again;
}
const many = await timed(Array.from({ length: CONCURRENT }, (_, i) => i + 1));
const per = many.results.map((r) => r.durationMs / 1000);
console.error(
  `concurrent-runs: one run (best of ${BASELINE_ROUNDS}) ${one.wallS.toFixed(2)} s (gemini lived ${((one.results[0]?.geminiLifetimeMs ?? 0) / 1000).toFixed(2)} s); ` +
    `${CONCURRENT} at once ${many.wallS.toFixed(2)} s, per run ${Math.min(...per).toFixed(1)}–${Math.max(...per).toFixed(1)} s; ` +
    `${(many.wallS / CONCURRENT).toFixed(2)} s of wall per run; this process's CPU ${many.engineCpuS.toFixed(2)} s ` +
    `(${one.engineCpuS.toFixed(2)} s for the one run)`,
);
bench(
  `concurrent-${CONCURRENT}-runs-s`,
  many.wallS,
  's',
  `wall time from the common start to the last of ${CONCURRENT} runs returning (prepared beforehand, untimed); baseline: one run alone, best of ${BASELINE_ROUNDS}`,
  {
    baseline: one.wallS,
    ratio: many.wallS / one.wallS,
  },
);
