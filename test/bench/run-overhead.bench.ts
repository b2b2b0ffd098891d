/**
 * run-overhead-s: the engine's wall time for a scripted 3-turn run (two tool calls, then the answer) minus the
 * gemini process's own lifetime — i.e. what preparing, watching, quitting and collecting cost. Target ≤ 1.5 s.
 * Runs the real gemini 0.42.0 in tmux against the fake API. `node --import tsx test/bench/run-overhead.bench.ts`
 * (RUNS=<n> for more samples; the median is printed).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../../src/run/engine.js';
import { FakeGemini, type Script } from '../harness/fake-gemini.js';
import { createWorkRepo } from '../harness/repo.js';
import { runOptions } from '../harness/run-options.js';
import { bench } from './lib.js';

const SCRIPT: Script = {
  description: 'three model turns: list, shell commit, answer',
  steps: [
    { functionCalls: [{ name: 'list_directory', args: { dir_path: '.' } }] },
    {
      functionCalls: [
        {
          name: 'run_shell_command',
          args: {
            command: "printf 'x\\n' > x.txt && git add x.txt && git commit -q -m 'Add x'",
            description: 'commit',
          },
        },
      ],
    },
    { text: 'Added x.txt.' },
  ],
};

async function once(): Promise<{
  overheadS: number;
  wallS: number;
  lifetimeS: number;
  idleToReturnS: number;
}> {
  const fake = await FakeGemini.start(SCRIPT);
  const repo = await createWorkRepo();
  const runDir = await mkdtemp(join(tmpdir(), 'bench-run-overhead-'));
  try {
    const t0 = performance.now();
    let idleAt = 0;
    const r = await runAgent(
      runOptions({
        repo,
        runDir,
        task: { title: 'bench', instruction: 'Add x.txt.', comments: [], source: { kind: 'local' } },
        modelUrl: fake.url,
        onEvent: (e) => {
          if (e.type === 'idle' && idleAt === 0) idleAt = e.at;
        },
      }),
    );
    const returnedAt = Date.now();
    const wall = performance.now() - t0;
    if (r.status !== 'finished' || r.commits.length !== 1) {
      throw new Error(`bench run did not finish cleanly: ${r.status} ${r.message ?? ''}`);
    }
    return {
      overheadS: (wall - r.geminiLifetimeMs) / 1000,
      wallS: wall / 1000,
      lifetimeS: r.geminiLifetimeMs / 1000,
      idleToReturnS: (returnedAt - idleAt) / 1000,
    };
  } finally {
    await fake.close();
    await repo[Symbol.asyncDispose]();
    await rm(runDir, { recursive: true, force: true });
  }
}

const runs = Math.max(1, Number(process.env.RUNS ?? 3));
const samples: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < runs; i++) samples.push(await once());
samples.sort((a, b) => a.overheadS - b.overheadS);
const median = samples[Math.floor(samples.length / 2)] as (typeof samples)[number];
console.error(
  `run-overhead: ${runs} run(s); median wall ${median.wallS.toFixed(2)} s, gemini lifetime ${median.lifetimeS.toFixed(2)} s; ` +
    `idle edge → runAgent returned ${median.idleToReturnS.toFixed(2)} s (edge latency + /quit + CLI exit + collect)`,
);
bench(
  'run-overhead-s',
  median.overheadS,
  's',
  `median over ${runs} run(s) of runAgent's wall time minus the gemini process's lifetime (its own clock)`,
);
