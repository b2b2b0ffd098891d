/**
 * install-cold-s / install-warm-s: what the Actions cache saves a GitHub-hosted job, whose tool cache and npm cache
 * start empty. Cold: `installGemini` without a cache, npm installing @google/gemini-cli@0.42.0 from the registry
 * into an empty tool cache with an empty npm cache (what every hosted job paid before). Warm: `installGemini` on a
 * fresh "job" (new run id and runtime token, empty tool cache at the same path) restoring the install that a cold
 * job saved, from the fake results service on loopback through the real @actions/cache (HEAD + ranged reads of an
 * Azure-style blob URL, tar + zstd), checked with `--version`. Both in this run, best of ROUNDS each (noise only
 * adds time); ratio = cold / warm. The one-off cost of saving after a cold install is printed as a comment.
 * Needs the npm registry. `node --import tsx test/bench/install-cache.bench.ts` (ROUNDS=<n>, default 2).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_GEMINI_VERSION } from '../../src/gemini/cli-profile.js';
import { installGemini } from '../../src/gemini/install.js';
import { createMemoryLogger } from '../../src/util/log.js';
import { FakeActionsServices } from '../harness/fake-actions.js';
import { bench } from './lib.js';

const ROUNDS = Math.max(1, Number(process.env.ROUNDS ?? 2));
const tmp = await mkdtemp(join(tmpdir(), 'gemini-run-bench-install-'));
const toolCache = join(tmp, 'hostedtoolcache');
const services = await FakeActionsServices.start({ blobHost: 'azure' });
const saved = { ...process.env };
let run = 1;

/** A fresh hosted VM: empty tool cache and npm cache, this job's runner env in process.env (the clients read it). */
async function freshJob(): Promise<void> {
  await rm(toolCache, { recursive: true, force: true });
  const npmCache = join(tmp, `npm-cache-${run}`);
  await mkdir(npmCache, { recursive: true });
  for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
  Object.assign(process.env, saved, services.jobEnv({ runId: run++, repo: 'acme/widgets' }), {
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_WORKSPACE: join(tmp, 'workspace'),
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: join(tmp, 'runner-temp'),
    npm_config_cache: npmCache,
    // @actions/core prints workflow commands on stdout; keep the benchmark's output to its BENCH lines.
    ACTIONS_STEP_DEBUG: 'false',
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

const quiet = async <T>(fn: () => Promise<T>): Promise<T> => {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    return await fn();
  } finally {
    process.stdout.write = write;
  }
};

try {
  await mkdir(join(tmp, 'workspace'), { recursive: true });
  const install = (cache?: null) =>
    installGemini({
      version: DEFAULT_GEMINI_VERSION,
      cacheRoot: toolCache,
      log: createMemoryLogger(),
      ...(cache === null ? { cache: null } : {}),
    });

  let cold = Infinity;
  let warm = Infinity;
  let coldWithSave = Infinity;
  for (let i = 0; i < ROUNDS; i++) {
    await freshJob();
    cold = Math.min(cold, await timed(() => quiet(() => install(null))));
    await freshJob();
    coldWithSave = Math.min(coldWithSave, await timed(() => quiet(() => install())));
    await freshJob();
    const log = createMemoryLogger();
    warm = Math.min(
      warm,
      await timed(() =>
        quiet(async () => {
          await installGemini({ version: DEFAULT_GEMINI_VERSION, cacheRoot: toolCache, log });
          if (!log.lines.some((l) => l.startsWith('Restored gemini'))) {
            throw new Error(`the warm job did not restore from the cache: ${log.lines.join(' | ')}`);
          }
        }),
      ),
    );
  }
  const size = services.cacheEntries().at(-1)?.size ?? 0;
  console.log(
    `# cold install + save to the cache: ${coldWithSave.toFixed(2)} s; archive ${(size / 1e6).toFixed(1)} MB`,
  );
  bench(
    'install-cold-s',
    cold,
    's',
    `wall time of installGemini with no cache (npm install from the registry), best of ${ROUNDS}`,
  );
  bench(
    'install-warm-s',
    warm,
    's',
    `wall time of installGemini restoring from the fake Actions cache into an empty tool cache, best of ${ROUNDS}; baseline: the cold install`,
    { baseline: cold, ratio: cold / warm },
  );
} finally {
  await services.stop();
  await rm(tmp, { recursive: true, force: true });
}
