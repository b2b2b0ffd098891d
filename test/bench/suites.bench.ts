/**
 * unit-suite-s and integration-suite-s: the wall time of `npm run test:unit` and `npm run test:integration` (real
 * git, tmux, openssl, the proxy process and dist/, no gemini), each started as a child process from the repository
 * root, best of ROUNDS (noise only adds time). The targets on a 2-core machine (issue 41): under 10 s and under
 * 2 min. A failing suite is not a figure: the benchmark fails with its output. Needs a built dist/ (the runner's
 * setup checks it). `node --import tsx test/bench/suites.bench.ts [unit|integration]` (ROUNDS=<n>, default 2 for
 * unit, 1 for integration); `npm run bench -- suites`.
 */
import { join } from 'node:path';
import { exec } from '../../src/util/exec.js';
import { bench, measure } from './lib.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SUITES = [
  { project: 'unit', rounds: 2, target: 'under 10 s' },
  { project: 'integration', rounds: 1, target: 'under 2 min' },
] as const;
const only = process.argv[2];

for (const s of SUITES.filter((x) => !only || x.project === only)) {
  const rounds = Math.max(1, Number(process.env.ROUNDS ?? s.rounds));
  const { ms } = await measure(rounds, async () => {
    const r = await exec('npm', ['run', `test:${s.project}`], {
      cwd: ROOT,
      env: process.env,
      allowAllExitCodes: true,
      timeoutMs: 1_200_000,
    });
    if (r.exitCode !== 0) {
      throw new Error(
        `npm run test:${s.project} failed (exit ${r.exitCode}):\n${(r.stdout + r.stderr).slice(-3000)}`,
      );
    }
  });
  bench(
    `${s.project}-suite-s`,
    ms / 1000,
    's',
    `wall time of \`npm run test:${s.project}\` in a child process, best of ${rounds} (target: ${s.target} on 2 cores)`,
  );
}
