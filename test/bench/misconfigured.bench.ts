/**
 * BENCH misconfigured-step-ms: how long `node dist/index.js` takes to end `misconfigured` on a local mistake, with
 * GitHub unreachable (nothing may wait for it): an unknown model, no model auth, and a `gemini-version` that the
 * `gemini-path` binary is not. The median over the cases and rounds, against the same entry ending `skipped` (another
 * label: the action's own start, no checks) as the baseline. The issue's target is 2 s; the test
 * (test/integration/action-misconfigured.test.ts) only catches a step that waits.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ACTION_NODE, GEMINI_JS, runNode } from '../harness/action-job.js';
import { createWorkRepo } from '../harness/repo.js';
import { bench, median } from './lib.js';

const ROOT = resolve(import.meta.dirname, '../..');
const ROUNDS = Math.max(1, Number(process.env.RUNS ?? 5));

const CASES: Record<string, Record<string, string>> = {
  'unknown model': { model: 'gemini-9-ultra' },
  'no auth': { 'gemini-api-key': '' },
  'version mismatch': { 'gemini-path': GEMINI_JS, 'gemini-version': '0.61.0' },
};

const closedPort = await new Promise<number>((done) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const a = s.address();
    s.close(() => done(typeof a === 'object' && a ? a.port : 1));
  });
});
const repo = await createWorkRepo();
const dir = await mkdtemp(join(tmpdir(), 'bench-misconfigured-'));

async function step(label: string, inputs: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  const event = join(dir, 'event.json');
  await writeFile(
    event,
    JSON.stringify({
      action: 'labeled',
      label: { name: label },
      issue: { number: 1, title: 'x', body: '', user: { login: 'alice', type: 'User' } },
      repository: { full_name: 'acme/widgets', name: 'widgets', owner: { login: 'acme' } },
      sender: { login: 'alice', type: 'User' },
    }),
  );
  for (const f of ['output', 'state', 'summary.md']) await writeFile(join(dir, f), '');
  const all = {
    'github-token': 'ghs_BenchBenchBenchBenchBenchBenchBench1',
    'gemini-api-key': 'AIzaSyBenchKeyBenchKeyBenchKeyBenchKey12',
    model: 'gemini-2.5-flash',
    mode: 'headless',
    isolation: 'none',
    network: 'open',
    ...inputs,
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'issues',
    GITHUB_EVENT_PATH: event,
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_API_URL: `http://127.0.0.1:${closedPort}`,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_RUN_ID: '4242',
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STATE: join(dir, 'state'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    RUNNER_TEMP: dir,
    ...Object.fromEntries(Object.entries(all).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
  };
  const t0 = performance.now();
  const r = await runNode(join(ROOT, 'dist', 'index.js'), env, dir);
  return { ms: performance.now() - t0, stdout: r.stdout };
}

try {
  const baseline: number[] = [];
  const measured: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const skipped = await step('bug', {});
    if (!skipped.stdout.includes('skipped'))
      throw new Error(`the baseline step did not skip:\n${skipped.stdout}`);
    baseline.push(skipped.ms);
    for (const [name, inputs] of Object.entries(CASES)) {
      const s = await step('gemini-run', inputs);
      if (!/status: misconfigured/.test(s.stdout))
        throw new Error(`${name}: not misconfigured:\n${s.stdout}`);
      measured.push(s.ms);
    }
  }
  const value = median(measured);
  const base = median(baseline);
  bench(
    'misconfigured-step-ms',
    Math.round(value),
    'ms',
    `median wall of dist/index.js on Node 24 over ${ROUNDS} rounds of ${Object.keys(CASES).join(', ')} (GitHub unreachable), against the same entry skipping another label; ${ACTION_NODE}`,
    { baseline: Math.round(base), ratio: value / base },
  );
} finally {
  await repo[Symbol.asyncDispose]();
  await rm(dir, { recursive: true, force: true });
}
